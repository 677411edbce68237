#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "core/log.h"
#include "host_nic.h"
#include "transport.h"

namespace npusim::hcomm {

namespace {

// How long a rank waits for the hub to answer a withdrawal before it gives the connection up.
constexpr auto kCancelGrace = std::chrono::seconds(10);
// How long a joining rank waits to hear that it reached a rendezvous at all (not some other
// service listening on the port).
constexpr auto kAcceptWait = std::chrono::seconds(5);

// A host that closes the connection while this rank waits has given up on a rank that did
// not arrive (or ended): to this rank the others never arrived. Other failures are transfer errors.
HcclResult io_error(IoStatus st) {
    return st == IoStatus::Timeout || st == IoStatus::Closed ? HCCL_E_TIMEOUT : HCCL_E_TCP_TRANSFER;
}

}  // namespace

std::string connect_source() {
    const HostNic& nic = host_nic();
    return nic.selected && is_local_address(nic.ip) ? nic.ip : std::string();
}

Fd connect_until(const std::string& host, uint16_t port, const std::string& source, Deadline deadline) {
    for (;;) {
        using std::chrono::milliseconds;
        const auto left = std::chrono::duration_cast<milliseconds>(deadline.at - SteadyTime::clock::now());
        Fd fd = connect_tcp(host, port, source, std::clamp(left, milliseconds(1), milliseconds(1000)));
        if (fd.valid() || deadline.passed()) return fd;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

HcclResult join_remote(Fd connection, uint64_t uid, uint64_t key, uint32_t nranks, uint32_t rank, uint32_t device,
                       Deadline deadline, std::unique_ptr<RemoteTransport>& out, uint64_t& joined_uid) {
    auto channel = std::make_shared<Channel>(std::move(connection));
    Writer join;
    join.put<uint64_t>(uid).put<uint32_t>(nranks).put<uint32_t>(rank);
    join.put<uint32_t>(static_cast<uint32_t>(::getpid())).put<uint32_t>(device).put<uint64_t>(key);
    // A rank table's ranks probe several ports (key != 0); a root info names the one.
    const bool probing = key != 0;
    if (channel->send(MsgType::Join, 0, join) != IoStatus::Ok) return probing ? HCCL_E_UNAVAIL : HCCL_E_TCP_TRANSFER;
    Incoming ready;
    const Deadline accept_by =
        probing ? Deadline{std::min(deadline.at, SteadyTime::clock::now() + kAcceptWait)} : deadline;
    IoStatus st = channel->receive(ready, accept_by);
    if (st == IoStatus::Ok && ready.type == MsgType::Accepted) {
        st = channel->receive(ready, deadline);
    } else if (probing && (st != IoStatus::Ok || ready.type != MsgType::Ready)) {
        return HCCL_E_UNAVAIL;  // not a rendezvous of this simulator
    }
    if (st != IoStatus::Ok) return io_error(st);  // closing the connection takes the join back
    Reader rd(ready.meta);
    const auto status = static_cast<HcclResult>(rd.get<int32_t>());
    joined_uid = rd.get<uint64_t>();
    if (ready.type != MsgType::Ready || !rd.ok()) return HCCL_E_TCP_TRANSFER;
    if (status != HCCL_SUCCESS && joined_uid == 0) return HCCL_E_UNAVAIL;
    if (status != HCCL_SUCCESS) return status;
    out = std::make_unique<RemoteTransport>(channel);
    return HCCL_SUCCESS;
}

RemoteTransport::~RemoteTransport() { channel_->shutdown(); }

bool RemoteTransport::await_reply(uint64_t request, Deadline deadline, const AgreedFn& agreed, Incoming& reply,
                                  Outcome& outcome, bool& agreed_called) {
    bool cancelled = false;
    for (;;) {
        IoStatus st = IoStatus::Timeout;
        if (agreed_called || cancelled || wait_readable(channel_->fd(), deadline)) {
            // Once the ranks agreed the operation runs: wait for its end without a deadline.
            st = channel_->receive(reply,
                                   cancelled && !agreed_called ? Deadline::after(kCancelGrace) : Deadline::never());
        } else {
            // Withdraw; the hub answers with the operation's result (a timeout, or the real result
            // when it began meanwhile).
            (void)channel_->send(MsgType::Cancel, request, Writer());
            cancelled = true;
            continue;
        }
        if (st == IoStatus::Ok && reply.request == request && reply.type == MsgType::Agreed) {
            Reader rd(reply.meta);
            Outcome o;
            o.status = static_cast<HcclResult>(rd.get<int32_t>());
            o.start_ns = rd.get<uint64_t>();
            o.agreed = rd.get<uint64_t>();
            if (rd.ok() && o.status == HCCL_SUCCESS && agreed && !agreed_called) agreed(o);
            agreed_called = true;
            continue;
        }
        if (st != IoStatus::Ok || reply.type != MsgType::Reply || reply.request != request) {
            broken_ = true;
            outcome.status = st == IoStatus::Ok ? HCCL_E_TCP_TRANSFER : io_error(st);
            log_message(LogLevel::Error,
                        "hccl: the process hosting the rendezvous (%s, the root rank's) did not answer request "
                        "%llu: %s",
                        peer_address(channel_->fd()).c_str(), static_cast<unsigned long long>(request),
                        st == IoStatus::Closed ? "it closed the connection (gone)" : "no answer in time");
            return false;
        }
        return true;
    }
}

Outcome RemoteTransport::collective(uint32_t /*rank*/, const CollectiveRequest& req, const AgreedFn& agreed,
                                    Deadline deadline) {
    Outcome outcome;
    if (broken_) {
        outcome.status = HCCL_E_TCP_TRANSFER;
        return outcome;
    }
    const uint64_t request = next_request_++;
    Writer meta;
    meta.put<uint64_t>(req.seq).put<uint64_t>(req.earliest).put<uint8_t>(req.data ? 1 : 0);
    meta.put<uint64_t>(req.in_len).put<uint64_t>(req.out_len);
    meta.put<uint32_t>(static_cast<uint32_t>(req.desc->size())).raw(req.desc->data(), req.desc->size());
    std::vector<Piece> payload;
    if (req.data && req.in_len > 0) payload.emplace_back(req.in, req.in_len);
    if (channel_->send(MsgType::Collective, request, meta, payload) != IoStatus::Ok) {
        broken_ = true;
        outcome.status = HCCL_E_TCP_TRANSFER;
        return outcome;
    }
    Incoming reply;
    bool agreed_called = false;
    if (!await_reply(request, deadline, agreed, reply, outcome, agreed_called)) return outcome;
    Reader rd(reply.meta);
    outcome.status = static_cast<HcclResult>(rd.get<int32_t>());
    outcome.start_ns = rd.get<uint64_t>();
    outcome.agreed = rd.get<uint64_t>();
    const auto n = rd.get<uint32_t>();
    for (uint32_t i = 0; i < n && rd.ok(); ++i) {
        Segment s;
        s.offset = rd.get<uint64_t>();
        s.length = rd.get<uint64_t>();
        outcome.written.push_back(s);
    }
    outcome.missing_rank = rd.get<int32_t>();
    for (const Segment& s : outcome.written) {
        IoStatus st;
        if (req.out != nullptr && s.offset <= req.out_len && s.length <= req.out_len - s.offset) {
            st = read_all(channel_->fd(), static_cast<uint8_t*>(req.out) + s.offset, static_cast<size_t>(s.length));
        } else {
            st = skip_bytes(channel_->fd(), s.length);
        }
        if (st != IoStatus::Ok) {
            broken_ = true;
            outcome.status = HCCL_E_TCP_TRANSFER;
            return outcome;
        }
    }
    if (!rd.ok()) outcome.status = HCCL_E_TCP_TRANSFER;
    if (outcome.status == HCCL_SUCCESS && agreed && !agreed_called) agreed(outcome);
    return outcome;
}

Outcome RemoteTransport::p2p(uint32_t /*rank*/, uint64_t earliest, const std::vector<P2PItem>& items, bool data,
                             const AgreedFn& agreed, Deadline deadline) {
    Outcome outcome;
    if (broken_) {
        outcome.status = HCCL_E_TCP_TRANSFER;
        return outcome;
    }
    const uint64_t request = next_request_++;
    Writer meta;
    meta.put<uint64_t>(earliest).put<uint8_t>(data ? 1 : 0).put<uint32_t>(static_cast<uint32_t>(items.size()));
    std::vector<Piece> payload;
    for (const P2PItem& item : items) {
        meta.put<uint32_t>(item.peer).put<uint8_t>(item.send ? 1 : 0).put<uint64_t>(item.count);
        meta.put<uint32_t>(item.dtype).put<uint64_t>(item.bytes);
        if (data && item.send && item.bytes > 0) payload.emplace_back(item.src, item.bytes);
    }
    if (channel_->send(MsgType::P2P, request, meta, payload) != IoStatus::Ok) {
        broken_ = true;
        outcome.status = HCCL_E_TCP_TRANSFER;
        return outcome;
    }
    Incoming reply;
    bool agreed_called = false;
    if (!await_reply(request, deadline, agreed, reply, outcome, agreed_called)) return outcome;
    Reader rd(reply.meta);
    outcome.status = static_cast<HcclResult>(rd.get<int32_t>());
    outcome.start_ns = rd.get<uint64_t>();
    outcome.agreed = rd.get<uint64_t>();
    const auto n = rd.get<uint32_t>();
    std::vector<Segment> segments;
    for (uint32_t i = 0; i < n && rd.ok(); ++i) {
        Segment s;
        s.offset = rd.get<uint64_t>();
        s.length = rd.get<uint64_t>();
        segments.push_back(s);
    }
    outcome.missing_rank = rd.get<int32_t>();
    for (const Segment& s : segments) {
        const bool fits = s.offset < items.size() && !items[s.offset].send && items[s.offset].dst != nullptr &&
                          s.length == items[s.offset].bytes;
        const IoStatus st = fits ? read_all(channel_->fd(), items[s.offset].dst, static_cast<size_t>(s.length))
                                 : skip_bytes(channel_->fd(), s.length);
        if (st != IoStatus::Ok) {
            broken_ = true;
            outcome.status = HCCL_E_TCP_TRANSFER;
            return outcome;
        }
    }
    if (!data) outcome.written = segments;  // the items that matched
    if (!rd.ok()) outcome.status = HCCL_E_TCP_TRANSFER;
    if (outcome.status == HCCL_SUCCESS && agreed && !agreed_called) agreed(outcome);
    return outcome;
}

void RemoteTransport::leave(uint32_t /*rank: the hub knows it from the connection*/) {
    if (!broken_) (void)channel_->send(MsgType::Bye, 0, Writer());
    channel_->shutdown();
}

}  // namespace npusim::hcomm
