// How a rank reaches its communicator's Group: directly when the Group lives in this
// process (threads share memory, buffers are used in place), or over TCP to the process
// that hosts it (buffers travel as message payloads).
//
// An operation waits until the deadline for the other ranks. When it passes while the
// operation is still waiting, the rank withdraws it (every rank of that operation then gets
// HCCL_E_TIMEOUT); an operation that has begun to move data is always waited for.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "exchange.h"
#include "group.h"
#include "socket_io.h"
#include "wire.h"

namespace npusim::hcomm {

struct CollectiveRequest {
    uint64_t seq = 0;
    const std::vector<uint8_t>* desc = nullptr;
    uint64_t earliest = 0;
    const void* in = nullptr;
    uint64_t in_len = 0;
    void* out = nullptr;
    uint64_t out_len = 0;
    bool data = true;
};

class Transport {
public:
    virtual ~Transport() = default;
    virtual Outcome collective(uint32_t rank, const CollectiveRequest& req, const AgreedFn& agreed,
                               Deadline deadline) = 0;
    virtual Outcome p2p(uint32_t rank, uint64_t earliest, const std::vector<P2PItem>& items, bool data,
                        const AgreedFn& agreed, Deadline deadline) = 0;
    // Called once by every rank of the communicator as it is created, before any operation:
    // whatever the transport needs before its first data moves (all ranks take part).
    virtual void start(uint32_t rank, Deadline deadline) {
        (void)rank;
        (void)deadline;
    }
    // The rank leaves the communicator (no operation may follow).
    virtual void leave(uint32_t rank) = 0;
    // True when every rank of the communicator lives in this process (threads share memory).
    virtual bool all_local() const { return false; }
};

class LocalTransport : public Transport {
public:
    explicit LocalTransport(std::shared_ptr<Group> group) : group_(std::move(group)) {}
    Outcome collective(uint32_t rank, const CollectiveRequest& req, const AgreedFn& agreed, Deadline deadline) override;
    Outcome p2p(uint32_t rank, uint64_t earliest, const std::vector<P2PItem>& items, bool data, const AgreedFn& agreed,
                Deadline deadline) override;
    // Leaves; a rank in the hosting process then waits (up to the connect timeout) until the
    // ranks of other processes have left, since they reach each other through this process.
    void leave(uint32_t rank) override;
    bool all_local() const override { return group_->all_local(); }
    const std::shared_ptr<Group>& group() const { return group_; }

private:
    std::shared_ptr<Group> group_;
};

// Joins `group` in this process and waits until every rank has joined.
HcclResult join_local(const std::shared_ptr<Group>& group, uint32_t rank, uint32_t nranks, Deadline deadline);

class RemoteTransport : public Transport {
public:
    explicit RemoteTransport(std::shared_ptr<Channel> channel) : channel_(std::move(channel)) {}
    ~RemoteTransport() override;
    Outcome collective(uint32_t rank, const CollectiveRequest& req, const AgreedFn& agreed, Deadline deadline) override;
    Outcome p2p(uint32_t rank, uint64_t earliest, const std::vector<P2PItem>& items, bool data, const AgreedFn& agreed,
                Deadline deadline) override;
    void leave(uint32_t rank) override;

private:
    // Waits for the reply to `request`, withdrawing the request at the deadline; an AGREED
    // message on the way runs `agreed` (and sets `agreed_called`).
    bool await_reply(uint64_t request, Deadline deadline, const AgreedFn& agreed, Incoming& reply, Outcome& outcome,
                     bool& agreed_called);

    std::shared_ptr<Channel> channel_;
    uint64_t next_request_ = 1;
    bool broken_ = false;
};

// Joins over a connection to the hub and waits until every rank has joined. `uid` 0 joins
// whatever communicator the hub hosts under `key` (see HubServer::start); `joined_uid`
// receives the communicator's id. HCCL_E_UNAVAIL: the hub hosts another communicator.
HcclResult join_remote(Fd connection, uint64_t uid, uint64_t key, uint32_t nranks, uint32_t rank, uint32_t device,
                       Deadline deadline, std::unique_ptr<RemoteTransport>& out, uint64_t& joined_uid);
// Connects to host:port, retrying until the deadline; an invalid Fd when it never answers.
// A non-empty `source` is the local address to connect from.
Fd connect_until(const std::string& host, uint16_t port, const std::string& source, Deadline deadline);
// The local address a rank connects from: the host interface when HCCL_IF_IP or
// HCCL_SOCKET_IFNAME chose it and it is this host's, else the system's choice ("").
std::string connect_source();

}  // namespace npusim::hcomm
