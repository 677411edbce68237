#include "communicator.h"

#include <map>
#include <utility>

#include "core/immortal.h"
#include "core/log.h"
#include "settings.h"
#include "shm_transport.h"
#include "transport.h"

namespace npusim::hcomm {

Communicator::Communicator(uint64_t uid, std::string name, uint32_t rank, uint32_t nranks, uint32_t device,
                           CommLayout layout, CommOptions options, const Topology& topology,
                           std::unique_ptr<Transport> transport)
    : uid_(uid),
      name_(std::move(name)),
      rank_(rank),
      nranks_(nranks),
      device_(device),
      layout_(std::move(layout)),
      options_(std::move(options)),
      topology_(topology),
      transport_(with_data_path(std::move(transport), nranks)) {
    // Every rank creates its communicator, so the data path is set up here, not at the first
    // collective: point-to-point operations move their data peer to peer from the first one.
    if (settings().move_data) transport_->start(rank_, Deadline::after(settings().connect_timeout));
}

Communicator::~Communicator() { leave(); }

void Communicator::enqueue(std::function<void()> job) { progress_.submit(std::move(job)); }

void Communicator::drain() { progress_.drain(); }

namespace {

// The line every rank of a failed operation writes: which rank the operation waited for.
Outcome report_missing(Outcome o, const std::string& name, uint32_t rank, const char* what) {
    if (o.status == HCCL_E_TIMEOUT) {
        if (o.missing_rank >= 0) {
            log_message(LogLevel::Error,
                        "hccl: %s on communicator %s failed on rank %u: rank %d did not arrive within "
                        "HCCL_EXEC_TIMEOUT or is gone (HCCL_E_TIMEOUT)",
                        what, name.c_str(), rank, o.missing_rank);
        } else {
            log_message(LogLevel::Error, "hccl: %s on communicator %s failed on rank %u: HCCL_E_TIMEOUT", what,
                        name.c_str(), rank);
        }
    }
    return o;
}

}  // namespace

Outcome Communicator::collective(const std::vector<uint8_t>& desc, uint64_t earliest, const void* in, uint64_t in_len,
                                 void* out, uint64_t out_len, const AgreedFn& agreed) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (left_) {
        Outcome o;
        o.status = HCCL_E_PARA;
        return o;
    }
    CollectiveRequest req;
    req.seq = next_seq_++;
    req.desc = &desc;
    req.earliest = earliest;
    req.in = in;
    req.in_len = in_len;
    req.out = out;
    req.out_len = out_len;
    req.data = settings().move_data;
    return report_missing(transport_->collective(rank_, req, agreed, Deadline::after(options_.exec_timeout)), name_,
                          rank_, "a collective");
}

Outcome Communicator::p2p(uint64_t earliest, const std::vector<P2PItem>& items, const AgreedFn& agreed) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (left_) {
        Outcome o;
        o.status = HCCL_E_PARA;
        return o;
    }
    return report_missing(
        transport_->p2p(rank_, earliest, items, settings().move_data, agreed, Deadline::after(options_.exec_timeout)),
        name_, rank_, "a send/receive");
}

void Communicator::leave() {
    progress_.drain();  // enqueued operations finish (or time out) first
    std::lock_guard<std::mutex> lock(mutex_);
    if (left_) return;
    left_ = true;
    transport_->leave(rank_);
}

namespace {

constexpr uintptr_t kCommTag = uintptr_t(0x4843) << 48;  // "HC"

struct CommTable {
    std::mutex mutex;
    std::map<uintptr_t, std::shared_ptr<Communicator>> comms;
    uintptr_t next = 1;
};

CommTable& table() {
    static Immortal<CommTable> t;  // communicators may be used from atexit handlers
    return t.get();
}

}  // namespace

HcclComm register_comm(std::shared_ptr<Communicator> comm) {
    auto& t = table();
    std::lock_guard<std::mutex> lock(t.mutex);
    const uintptr_t handle = kCommTag | t.next++;
    t.comms[handle] = std::move(comm);
    return reinterpret_cast<HcclComm>(handle);
}

std::shared_ptr<Communicator> find_comm(HcclComm handle) {
    auto& t = table();
    std::lock_guard<std::mutex> lock(t.mutex);
    auto it = t.comms.find(reinterpret_cast<uintptr_t>(handle));
    return it == t.comms.end() ? nullptr : it->second;
}

std::shared_ptr<Communicator> unregister_comm(HcclComm handle) {
    auto& t = table();
    std::lock_guard<std::mutex> lock(t.mutex);
    auto it = t.comms.find(reinterpret_cast<uintptr_t>(handle));
    if (it == t.comms.end()) return nullptr;
    auto comm = std::move(it->second);
    t.comms.erase(it);
    return comm;
}

}  // namespace npusim::hcomm
