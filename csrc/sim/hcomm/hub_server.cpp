#include "hub_server.h"

#include <unistd.h>

#include <atomic>
#include <thread>
#include <utility>
#include <vector>

#include "core/log.h"
#include "hub_registry.h"

namespace npusim::hcomm {

namespace {

// A connected rank of another process, as its serving thread tracks it.
struct RemoteRank {
    std::shared_ptr<Channel> channel;
    std::shared_ptr<Group> group;
    uint32_t rank = 0;
    std::atomic<bool> ready{false};
    // The request in flight (one at a time per rank).
    uint64_t request = 0;
    bool collective = false;
    uint64_t seq = 0;
    std::shared_ptr<Group::P2PRequest> p2p;
};

void send_reply(Channel& ch, uint64_t request, const Outcome& o, const std::vector<Piece>& pieces,
                const std::vector<Segment>& segments) {
    Writer meta;
    meta.put<int32_t>(o.status).put<uint64_t>(o.start_ns).put<uint64_t>(o.agreed);
    meta.put<uint32_t>(static_cast<uint32_t>(segments.size()));
    for (const Segment& s : segments) meta.put<uint64_t>(s.offset).put<uint64_t>(s.length);
    meta.put<int32_t>(o.missing_rank);
    (void)ch.send(MsgType::Reply, request, meta, pieces);
}

void send_agreed(Channel& ch, uint64_t request, const Outcome& o) {
    Writer meta;
    meta.put<int32_t>(o.status).put<uint64_t>(o.start_ns).put<uint64_t>(o.agreed);
    (void)ch.send(MsgType::Agreed, request, meta);
}

// Staging buffers of a remote rank's collective, kept alive until the reply is sent.
struct CollectiveStaging {
    std::vector<uint8_t> in, out;
};

bool handle_collective(RemoteRank& rr, const Incoming& msg) {
    Reader rd(msg.meta);
    const auto seq = rd.get<uint64_t>();
    const auto earliest = rd.get<uint64_t>();
    const bool data = rd.get<uint8_t>() != 0;
    const auto in_len = rd.get<uint64_t>();
    const auto out_len = rd.get<uint64_t>();
    const auto desc_len = rd.get<uint32_t>();
    auto desc = rd.take(desc_len);
    if (!rd.ok() || msg.payload != (data ? in_len : 0)) return false;
    auto staging = std::make_shared<CollectiveStaging>();
    if (data) {
        staging->in.resize(static_cast<size_t>(in_len));
        if (in_len > 0 && read_all(rr.channel->fd(), staging->in.data(), staging->in.size()) != IoStatus::Ok)
            return false;
        staging->out.resize(static_cast<size_t>(out_len));
    }
    auto entry = std::make_shared<Group::CollectiveEntry>();
    entry->rank = rr.rank;
    entry->desc = std::move(desc);
    entry->earliest = earliest;
    entry->data = data;
    entry->in_len = in_len;
    entry->out_len = out_len;
    if (data) {
        entry->in = staging->in.data();
        entry->out = staging->out.data();
    }
    rr.request = msg.request;
    rr.collective = true;
    rr.seq = seq;
    rr.p2p.reset();
    entry->agreed = [channel = rr.channel, request = msg.request](const Outcome& o) {
        send_agreed(*channel, request, o);
    };
    entry->done = [channel = rr.channel, request = msg.request, staging](const Outcome& o) {
        std::vector<Piece> pieces;
        std::vector<Segment> segments;
        for (const Segment& s : o.written) {
            if (s.offset > staging->out.size() || s.length > staging->out.size() - s.offset) continue;
            segments.push_back(s);
            pieces.emplace_back(staging->out.data() + s.offset, s.length);
        }
        send_reply(*channel, request, o, pieces, segments);
    };
    rr.group->post_collective(seq, std::move(entry));
    return true;
}

struct P2PStaging {
    std::vector<std::vector<uint8_t>> buffers;  // one per item
};

bool handle_p2p(RemoteRank& rr, const Incoming& msg) {
    Reader rd(msg.meta);
    auto req = std::make_shared<Group::P2PRequest>();
    req->rank = rr.rank;
    req->earliest = rd.get<uint64_t>();
    req->data = rd.get<uint8_t>() != 0;
    const auto n = rd.get<uint32_t>();
    uint64_t send_bytes = 0;
    for (uint32_t i = 0; i < n && rd.ok(); ++i) {
        P2PItem item;
        item.peer = rd.get<uint32_t>();
        item.send = rd.get<uint8_t>() != 0;
        item.count = rd.get<uint64_t>();
        item.dtype = rd.get<uint32_t>();
        item.bytes = rd.get<uint64_t>();
        if (item.send) send_bytes += item.bytes;
        req->items.push_back(item);
    }
    if (!rd.ok() || msg.payload != (req->data ? send_bytes : 0)) return false;
    auto staging = std::make_shared<P2PStaging>();
    staging->buffers.resize(req->items.size());
    if (req->data) {
        for (size_t i = 0; i < req->items.size(); ++i) {
            P2PItem& item = req->items[i];
            auto& buf = staging->buffers[i];
            buf.resize(static_cast<size_t>(item.bytes));
            if (item.send) {
                if (!buf.empty() && read_all(rr.channel->fd(), buf.data(), buf.size()) != IoStatus::Ok) return false;
                item.src = buf.data();
            } else {
                item.dst = buf.data();
            }
        }
    }
    rr.request = msg.request;
    rr.collective = false;
    rr.p2p = req;
    req->agreed = [channel = rr.channel, request = msg.request](const Outcome& o) {
        send_agreed(*channel, request, o);
    };
    req->done = [channel = rr.channel, request = msg.request, staging,
                 req_weak = std::weak_ptr<Group::P2PRequest>(req)](const Outcome& o) {
        std::vector<Piece> pieces;
        std::vector<Segment> segments;
        if (auto r = req_weak.lock(); r && o.status == HCCL_SUCCESS && r->data) {
            for (size_t i = 0; i < r->items.size(); ++i) {
                if (r->items[i].send) continue;
                segments.push_back(Segment{i, r->items[i].bytes});
                pieces.emplace_back(staging->buffers[i].data(), r->items[i].bytes);
            }
        } else if (r && !r->data) {
            segments = o.written;  // the items that matched, without bytes
        }
        send_reply(*channel, request, o, pieces, segments);
    };
    rr.group->post_p2p(req);
    return true;
}

}  // namespace

HubServer::HubServer(uint64_t uid, uint64_t key, std::string host, uint16_t port, Fd listener)
    : uid_(uid), key_(key), host_(std::move(host)), port_(port), listener_(std::move(listener)) {}

std::shared_ptr<HubServer> HubServer::start(const std::string& host, uint16_t port, uint64_t uid, uint64_t key,
                                            std::string* error, int* error_number) {
    uint16_t bound = 0;
    Fd listener = listen_tcp(host, port, &bound, error, error_number);
    if (!listener.valid()) return nullptr;
    auto hub = std::make_shared<HubServer>(uid, key, host, bound, std::move(listener));
    std::thread([hub] { hub->accept_loop(); }).detach();
    return hub;
}

std::shared_ptr<Group> HubServer::group(uint32_t nranks) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!group_) {
        group_ = std::make_shared<Group>(uid_, nranks);
        std::weak_ptr<HubServer> weak = shared_from_this();
        // Once every rank is in, no one else may join: stop listening and forget the address.
        group_->on_complete([weak] {
            if (auto hub = weak.lock()) {
                hub->stop();
                unregister_hub(hub->uid());
            }
        });
    }
    return group_;
}

void HubServer::stop() {
    std::lock_guard<std::mutex> lock(mutex_);
    listener_.shutdown_both();  // wakes accept(); the accept thread closes the socket
}

void HubServer::accept_loop() {
    for (;;) {
        Fd fd = accept_tcp(listener_);
        if (!fd.valid()) {
            std::lock_guard<std::mutex> lock(mutex_);
            listener_.reset();  // frees the port
            return;
        }
        auto channel = std::make_shared<Channel>(std::move(fd));
        auto self = shared_from_this();
        std::thread([self, channel] { self->serve(channel); }).detach();
    }
}

void HubServer::serve(std::shared_ptr<Channel> channel) {
    Incoming msg;
    if (channel->receive(msg) != IoStatus::Ok || msg.type != MsgType::Join) return;
    Reader rd(msg.meta);
    const auto uid = rd.get<uint64_t>();
    const auto nranks = rd.get<uint32_t>();
    const auto rank = rd.get<uint32_t>();
    const auto pid = rd.get<uint32_t>();
    const auto device = rd.get<uint32_t>();
    const auto key = rd.get<uint64_t>();
    auto rr = std::make_shared<RemoteRank>();
    rr->channel = channel;
    rr->rank = rank;
    HcclResult st = HCCL_E_PARA;
    if (!rd.ok() || key != key_ || (uid != 0 && uid != uid_)) {
        // Another communicator's rank (a root info of an ended job, or another rank table at
        // the same address): uid 0 in the answer tells it to look elsewhere.
        Writer w;
        w.put<int32_t>(HCCL_E_PARA).put<uint64_t>(0);
        (void)channel->send(MsgType::Ready, 0, w);
        return;
    }
    // The rank knows at once that it reached its communicator's rendezvous (it waits for Ready
    // until every rank has joined).
    (void)channel->send(MsgType::Accepted, 0, Writer());
    if (nranks > 0) {
        rr->group = group(nranks);
        std::weak_ptr<RemoteRank> weak = rr;
        st = rr->group->join(
            rank, nranks,
            [weak, channel, uid = uid_](HcclResult status) {
                if (auto r = weak.lock()) r->ready = status == HCCL_SUCCESS;
                Writer w;
                w.put<int32_t>(status).put<uint64_t>(uid);
                (void)channel->send(MsgType::Ready, 0, w);
            },
            /*local=*/false);
    }
    log_message(LogLevel::Debug, "hccl hub %016llx: rank %u of %u (pid %u, device %u) joins from %s: %d",
                static_cast<unsigned long long>(uid_), rank, nranks, pid, device, peer_address(channel->fd()).c_str(),
                static_cast<int>(st));
    if (st != HCCL_SUCCESS) {
        Writer w;
        w.put<int32_t>(st).put<uint64_t>(uid_);
        (void)channel->send(MsgType::Ready, 0, w);
        return;
    }
    bool said_bye = false;
    for (;;) {
        if (channel->receive(msg) != IoStatus::Ok) break;
        bool ok = true;
        switch (msg.type) {
            case MsgType::Collective: ok = handle_collective(*rr, msg); break;
            case MsgType::P2P: ok = handle_p2p(*rr, msg); break;
            case MsgType::Cancel:
                if (msg.request == rr->request) {
                    if (rr->collective) rr->group->cancel_collective(rr->seq, rr->rank);
                    else if (rr->p2p) rr->group->cancel_p2p(rr->p2p);
                }
                break;
            case MsgType::Bye: said_bye = true; break;
            default: ok = false; break;
        }
        if (!ok || said_bye) break;
    }
    if (!said_bye && rr->ready.load()) {
        log_message(LogLevel::Error,
                    "hccl: rank %u (pid %u, device %u) of communicator %016llx lost its connection without leaving; "
                    "the operations of the others fail with HCCL_E_TIMEOUT",
                    rank, pid, device, static_cast<unsigned long long>(uid_));
    }
    // The rank is gone: before the group completed its join is taken back, afterwards it leaves.
    if (rr->ready.load() || !rr->group->withdraw_join(rank)) rr->group->leave(rank);
    channel->shutdown();
}

}  // namespace npusim::hcomm
