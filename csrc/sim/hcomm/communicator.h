// One rank's view of a communicator: who it is, where every rank sits (server and
// package, for the cost model), its options, and the transport to the other ranks.
// libhccl runs its operations through collective() and p2p().
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/catalogue.h"
#include "core/export.h"
#include "exchange.h"
#include "hccl/hccl_types.h"
#include "progress.h"

namespace npusim::hcomm {

class Transport;

// Where the ranks sit: rank r runs in server `server[r]`, and on A3 in package
// `package[r]` of that server (the two dies of a package are joined by SIO).
struct CommLayout {
    std::vector<uint32_t> server;
    std::vector<uint32_t> package;
};

struct CommOptions {
    std::chrono::nanoseconds exec_timeout{0};
    std::string algo;  // HCCL_ALGO syntax, from the configuration or the environment
    uint32_t buffer_mb = HCCL_COMM_DEFAULT_BUFFSIZE;
};

class NPUSIM_API Communicator {
public:
    Communicator(uint64_t uid, std::string name, uint32_t rank, uint32_t nranks, uint32_t device, CommLayout layout,
                 CommOptions options, const Topology& topology, std::unique_ptr<Transport> transport);
    ~Communicator();
    Communicator(const Communicator&) = delete;
    Communicator& operator=(const Communicator&) = delete;

    uint64_t uid() const { return uid_; }
    const std::string& name() const { return name_; }
    uint32_t rank() const { return rank_; }
    uint32_t size() const { return nranks_; }
    uint32_t device() const { return device_; }
    const CommLayout& layout() const { return layout_; }
    const CommOptions& options() const { return options_; }
    const Topology& topology() const { return topology_; }

    // Operations return at enqueue: libhccl hands each one to this rank's progress thread, which
    // runs them in call order (collective() and p2p() below block that thread, never the caller).
    // A job must not own the communicator (the destructor drains the queue).
    void enqueue(std::function<void()> job);
    // Waits until every enqueued operation has finished.
    void drain();
    // The error the latest failed enqueued operation ended with (HcclGetCommAsyncError);
    // HCCL_SUCCESS while none has failed. The communicator stays usable after a failure.
    HcclResult async_error() const { return static_cast<HcclResult>(async_error_.load(std::memory_order_acquire)); }
    void note_async_error(HcclResult error) { async_error_.store(static_cast<int>(error), std::memory_order_release); }

    // Runs this rank's part of the next collective (operations are numbered per rank in call order).
    // `agreed` runs once the ranks agree, before this returns (see AgreedFn).
    Outcome collective(const std::vector<uint8_t>& desc, uint64_t earliest, const void* in, uint64_t in_len, void* out,
                       uint64_t out_len, const AgreedFn& agreed);
    Outcome p2p(uint64_t earliest, const std::vector<P2PItem>& items, const AgreedFn& agreed);
    // Leaves the communicator; later operations fail.
    void leave();

private:
    const uint64_t uid_;
    const std::string name_;
    const uint32_t rank_, nranks_, device_;
    const CommLayout layout_;
    const CommOptions options_;
    const Topology& topology_;
    std::mutex mutex_;  // one operation of this rank at a time
    std::unique_ptr<Transport> transport_;
    uint64_t next_seq_ = 0;
    bool left_ = false;
    std::atomic<int> async_error_{HCCL_SUCCESS};
    ProgressQueue progress_;  // last: its thread ends before the transport goes
};

// Handles given to the application: tagged values, looked up (never dereferenced).
NPUSIM_API HcclComm register_comm(std::shared_ptr<Communicator> comm);
NPUSIM_API std::shared_ptr<Communicator> find_comm(HcclComm handle);
NPUSIM_API std::shared_ptr<Communicator> unregister_comm(HcclComm handle);

}  // namespace npusim::hcomm
