#include "group.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace npusim::hcomm {

namespace {
uint64_t channel_key(uint32_t sender, uint32_t receiver) { return uint64_t(sender) << 32 | receiver; }
}  // namespace

Group::Group(uint64_t uid, uint32_t nranks)
    : uid_(uid),
      nranks_(nranks),
      joined_(nranks, false),
      left_(nranks, false),
      remote_(nranks, false),
      ready_(nranks) {}

void Group::run(Deferred& deferred) {
    for (auto& fn : deferred.early) fn();
    for (auto& fn : deferred.late) fn();
    deferred.early.clear();
    deferred.late.clear();
}

HcclResult Group::join(uint32_t rank, uint32_t nranks, ReadyFn ready, bool local) {
    Deferred deferred;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (nranks != nranks_ || rank >= nranks_ || joined_[rank] || complete_) return HCCL_E_PARA;
        joined_[rank] = true;
        remote_[rank] = !local;
        ready_[rank] = std::move(ready);
        if (++joined_count_ == nranks_) {
            complete_ = true;
            for (uint32_t r = 0; r < nranks_; ++r) {
                deferred.push([fn = std::move(ready_[r])] { fn(HCCL_SUCCESS); }, !remote_[r]);
            }
            ready_.clear();
            for (auto& fn : on_complete_) deferred.push(std::move(fn), true);
            on_complete_.clear();
        }
    }
    run(deferred);
    return HCCL_SUCCESS;
}

bool Group::withdraw_join(uint32_t rank) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (complete_) return false;
    if (rank < nranks_ && joined_[rank]) {
        joined_[rank] = false;
        ready_[rank] = nullptr;
        --joined_count_;
    }
    return true;
}

int32_t Group::first_left() const {
    for (uint32_t r = 0; r < nranks_; ++r) {
        if (left_[r]) return int32_t(r);
    }
    return -1;
}

void Group::fail_slot(Slot& slot, Deferred& deferred, int32_t missing) {
    for (uint32_t r = 0; r < slot.entries.size() && missing < 0; ++r) {
        if (!slot.entries[r]) missing = int32_t(r);
    }
    for (auto& entry : slot.entries) {
        if (!entry) continue;
        deferred.push(
            [entry, missing] {
                Outcome o;
                o.status = HCCL_E_TIMEOUT;
                o.missing_rank = missing;
                entry->done(o);
            },
            entry->local);
    }
    slot.entries.clear();
}

void Group::post_collective(uint64_t seq, std::shared_ptr<CollectiveEntry> entry) {
    std::vector<std::shared_ptr<CollectiveEntry>> ready;
    HcclResult refused = HCCL_SUCCESS;
    int32_t missing = -1;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (left_count_ > 0 || poisoned_.count(seq) != 0) {
            refused = HCCL_E_TIMEOUT;
            missing = first_left();
        } else if (entry->rank >= nranks_) {
            refused = HCCL_E_INTERNAL;
        } else {
            Slot& slot = slots_[seq];
            if (slot.entries.empty()) slot.entries.resize(nranks_);
            if (slot.entries[entry->rank]) {
                refused = HCCL_E_INTERNAL;  // the rank posted this operation twice
            } else {
                slot.entries[entry->rank] = entry;
                if (++slot.arrived == nranks_) {
                    ready = std::move(slot.entries);
                    slots_.erase(seq);
                }
            }
        }
    }
    if (refused != HCCL_SUCCESS) {
        Outcome o;
        o.status = refused;
        o.missing_rank = missing;
        entry->done(o);
        return;
    }
    if (!ready.empty()) execute(std::move(ready));
}

void Group::execute(std::vector<std::shared_ptr<CollectiveEntry>> entries) {
    Outcome base;
    for (const auto& e : entries) base.start_ns = std::max(base.start_ns, e->earliest);
    bool move_data = true;
    std::vector<CollectiveInput> inputs(entries.size());
    for (size_t r = 0; r < entries.size(); ++r) {
        const auto& e = *entries[r];
        inputs[r] = CollectiveInput{e.rank, &e.desc, e.in, e.in_len, e.out, e.out_len};
        move_data = move_data && e.data;
    }
    // Check the descriptors first and schedule on agreement; move the data afterwards, so the
    // host time the copy takes does not delay the operation's device start.
    CollectiveResult result;
    CollectiveExecutor ex = collective_executor();
    if (ex != nullptr) {
        result = ex(inputs, false, Share{});
    } else {
        result.status = HCCL_E_NOT_SUPPORT;
    }
    base.status = result.status;
    base.agreed = result.agreed;
    std::vector<Outcome> outcomes(entries.size(), base);
    if (base.status == HCCL_SUCCESS) {
        // Other processes first: their message is on its way while the local ranks schedule.
        for (bool local : {false, true}) {
            for (size_t r = 0; r < entries.size(); ++r) {
                if (entries[r]->local == local && entries[r]->agreed) entries[r]->agreed(outcomes[r]);
            }
        }
        if (move_data) {
            result = ex(inputs, true, Share{});
            for (size_t r = 0; r < entries.size(); ++r) {
                outcomes[r].status = result.status;
                if (r < result.written.size()) outcomes[r].written = std::move(result.written[r]);
            }
        }
    }
    // Replies to other processes first (see Deferred).
    for (size_t r = 0; r < entries.size(); ++r) {
        if (!entries[r]->local) entries[r]->done(outcomes[r]);
    }
    for (size_t r = 0; r < entries.size(); ++r) {
        if (entries[r]->local) entries[r]->done(outcomes[r]);
    }
}

bool Group::cancel_collective(uint64_t seq, uint32_t rank) {
    Deferred deferred;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = slots_.find(seq);
        if (it == slots_.end() || rank >= nranks_ || !it->second.entries[rank]) return false;
        fail_slot(it->second, deferred);
        slots_.erase(it);
        poisoned_.insert(seq);
    }
    run(deferred);
    return true;
}

void Group::resolve_item(const Posted& posted, HcclResult status, uint64_t start, Deferred& deferred) {
    P2PRequest& req = *posted.request;
    if (req.finished) return;
    if (status != HCCL_SUCCESS && req.outcome.status == HCCL_SUCCESS) {
        req.outcome.status = status;
        if (status == HCCL_E_TIMEOUT) req.outcome.missing_rank = int32_t(req.items[posted.index].peer);
    }
    req.outcome.start_ns = std::max(req.outcome.start_ns, start);
    if (status == HCCL_SUCCESS) req.outcome.written.push_back(Segment{posted.index, 0});  // matched
    if (--req.unresolved == 0) {
        req.finished = true;
        auto request = posted.request;
        deferred.push(
            [request] {
                if (request->outcome.status == HCCL_SUCCESS && request->agreed) request->agreed(request->outcome);
                request->done(request->outcome);
            },
            request->local);
    }
}

void Group::match(const Posted& send, const Posted& recv, Deferred& deferred) {
    const P2PItem& s = send.request->items[send.index];
    const P2PItem& r = recv.request->items[recv.index];
    HcclResult status = HCCL_SUCCESS;
    if (s.count != r.count || s.dtype != r.dtype || s.bytes != r.bytes) {
        status = HCCL_E_PARA;
    } else if (send.request->data && recv.request->data && s.bytes > 0) {
        std::memmove(r.dst, s.src, static_cast<size_t>(s.bytes));
    }
    const uint64_t start = std::max(send.request->earliest, recv.request->earliest);
    resolve_item(send, status, start, deferred);
    resolve_item(recv, status, start, deferred);
}

void Group::post_p2p(const std::shared_ptr<P2PRequest>& request) {
    Deferred deferred;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        request->unresolved = request->items.size();
        request->outcome = Outcome{};
        request->outcome.start_ns = request->earliest;
        if (request->items.empty()) {
            request->finished = true;
            deferred.push([request] { request->done(request->outcome); }, request->local);
        }
        for (size_t i = 0; i < request->items.size() && !request->finished; ++i) {
            const P2PItem& item = request->items[i];
            const Posted me{request, i};
            if (item.peer >= nranks_ || item.peer == request->rank) {
                resolve_item(me, HCCL_E_PARA, 0, deferred);
                continue;
            }
            if (left_[item.peer]) {
                resolve_item(me, HCCL_E_TIMEOUT, 0, deferred);
                continue;
            }
            const uint32_t sender = item.send ? request->rank : item.peer;
            const uint32_t receiver = item.send ? item.peer : request->rank;
            Queues& q = channels_[channel_key(sender, receiver)];
            auto& opposite = item.send ? q.recvs : q.sends;
            if (!opposite.empty()) {
                const Posted other = opposite.front();
                opposite.pop_front();
                if (item.send) match(me, other, deferred);
                else match(other, me, deferred);
            } else {
                (item.send ? q.sends : q.recvs).push_back(me);
            }
        }
    }
    run(deferred);
}

bool Group::cancel_p2p(const std::shared_ptr<P2PRequest>& request) {
    Deferred deferred;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (request->finished) return false;
        int32_t missing = -1;
        for (auto& [key, q] : channels_) {
            for (auto* list : {&q.sends, &q.recvs}) {
                list->erase(std::remove_if(list->begin(), list->end(),
                                           [&](const Posted& p) {
                                               const bool mine = p.request == request;
                                               if (mine && missing < 0) missing = int32_t(request->items[p.index].peer);
                                               return mine;
                                           }),
                            list->end());
            }
        }
        request->outcome.status = HCCL_E_TIMEOUT;
        request->outcome.missing_rank = missing;
        request->unresolved = 0;
        request->finished = true;
        deferred.push([request] { request->done(request->outcome); }, request->local);
    }
    run(deferred);
    return true;
}

void Group::leave(uint32_t rank) {
    Deferred deferred;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (rank >= nranks_ || !joined_[rank] || left_[rank]) return;
        left_[rank] = true;
        ++left_count_;
        left_cv_.notify_all();
        // No collective can complete without the rank that left.
        for (auto& [seq, slot] : slots_) fail_slot(slot, deferred, int32_t(rank));
        slots_.clear();
        // Point-to-point items to or from it fail.
        for (auto& [key, q] : channels_) {
            const auto sender = uint32_t(key >> 32), receiver = uint32_t(key & 0xFFFFFFFFu);
            if (sender != rank && receiver != rank) continue;
            for (auto* list : {&q.sends, &q.recvs}) {
                for (const Posted& p : *list) resolve_item(p, HCCL_E_TIMEOUT, 0, deferred);
                list->clear();
            }
        }
    }
    run(deferred);
}

void Group::wait_remote_ranks_left(SteadyTimePoint deadline) {
    std::unique_lock<std::mutex> lock(mutex_);
    left_cv_.wait_until(lock, deadline, [&] {
        for (uint32_t r = 0; r < nranks_; ++r) {
            if (joined_[r] && remote_[r] && !left_[r]) return false;
        }
        return true;
    });
}

bool Group::all_local() {
    std::lock_guard<std::mutex> lock(mutex_);
    return complete_ && std::none_of(remote_.begin(), remote_.end(), [](bool remote) { return remote; });
}

void Group::on_complete(std::function<void()> fn) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!complete_) {
            on_complete_.push_back(std::move(fn));
            return;
        }
    }
    fn();
}

}  // namespace npusim::hcomm
