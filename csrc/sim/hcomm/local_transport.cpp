#include <condition_variable>
#include <mutex>

#include "settings.h"
#include "transport.h"

namespace npusim::hcomm {

namespace {

// Where a waiting rank thread receives its result.
struct Completion {
    std::mutex mutex;
    std::condition_variable cv;
    bool done = false;
    Outcome outcome;

    void finish(const Outcome& o) {
        std::lock_guard<std::mutex> lock(mutex);
        outcome = o;
        done = true;
        cv.notify_all();
    }
    // False when the deadline passed first.
    bool wait(Deadline deadline) {
        std::unique_lock<std::mutex> lock(mutex);
        if (deadline.at == SteadyTime::max()) {
            cv.wait(lock, [&] { return done; });
            return true;
        }
        return cv.wait_until(lock, deadline.at, [&] { return done; });
    }
};

}  // namespace

HcclResult join_local(const std::shared_ptr<Group>& group, uint32_t rank, uint32_t nranks, Deadline deadline) {
    auto c = std::make_shared<Completion>();
    const HcclResult st = group->join(
        rank, nranks,
        [c](HcclResult status) {
            Outcome o;
            o.status = status;
            c->finish(o);
        },
        /*local=*/true);
    if (st != HCCL_SUCCESS) return st;
    if (c->wait(deadline)) return c->outcome.status;
    if (group->withdraw_join(rank)) return HCCL_E_TIMEOUT;
    c->wait(Deadline::never());  // completed as the deadline passed
    return c->outcome.status;
}

Outcome LocalTransport::collective(uint32_t rank, const CollectiveRequest& req, const AgreedFn& agreed,
                                   Deadline deadline) {
    auto c = std::make_shared<Completion>();
    auto entry = std::make_shared<Group::CollectiveEntry>();
    entry->rank = rank;
    entry->desc = *req.desc;
    entry->earliest = req.earliest;
    entry->in = static_cast<const uint8_t*>(req.in);
    entry->in_len = req.in_len;
    entry->out = static_cast<uint8_t*>(req.out);
    entry->out_len = req.out_len;
    entry->data = req.data;
    entry->local = true;
    entry->agreed = agreed;
    entry->done = [c](const Outcome& o) { c->finish(o); };
    group_->post_collective(req.seq, std::move(entry));
    if (!c->wait(deadline)) {
        group_->cancel_collective(req.seq, rank);  // either withdraws it or it is already running
        c->wait(Deadline::never());
    }
    return c->outcome;
}

Outcome LocalTransport::p2p(uint32_t rank, uint64_t earliest, const std::vector<P2PItem>& items, bool data,
                            const AgreedFn& agreed, Deadline deadline) {
    auto c = std::make_shared<Completion>();
    auto req = std::make_shared<Group::P2PRequest>();
    req->rank = rank;
    req->earliest = earliest;
    req->data = data;
    req->items = items;
    req->local = true;
    req->agreed = agreed;
    req->done = [c](const Outcome& o) { c->finish(o); };
    group_->post_p2p(req);
    if (!c->wait(deadline)) {
        group_->cancel_p2p(req);
        c->wait(Deadline::never());
    }
    return c->outcome;
}

void LocalTransport::leave(uint32_t rank) {
    group_->leave(rank);
    // This process hosts the rendezvous: stay until the ranks of other processes are done with it.
    group_->wait_remote_ranks_left(std::chrono::steady_clock::now() + settings().connect_timeout);
}

}  // namespace npusim::hcomm
