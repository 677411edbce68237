// The meeting point of one communicator's ranks, living in the process that hosts its
// rendezvous: who has joined, the collectives waiting for their last rank, and the
// point-to-point items waiting for their peer.
//
// Ranks in this process call in directly (their buffers are used in place); ranks in
// other processes arrive through the hub server with staging buffers. Completion
// callbacks run outside the group's lock, exactly once per entry or request. A collective
// runs on the thread that brings its last rank. Once any rank has left, collectives fail
// with HCCL_E_TIMEOUT at once (that rank can never arrive), and so do point-to-point items
// addressed to it. When an exchange succeeds, the completing thread calls every entry's
// `agreed` hook before any entry's `done`.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

#include "exchange.h"

namespace npusim::hcomm {

class Group {
public:
    using SteadyTimePoint = std::chrono::steady_clock::time_point;
    using ReadyFn = std::function<void(HcclResult)>;
    using DoneFn = std::function<void(const Outcome&)>;

    struct CollectiveEntry {
        uint32_t rank = 0;
        std::vector<uint8_t> desc;
        uint64_t earliest = 0;
        const uint8_t* in = nullptr;
        uint64_t in_len = 0;
        uint8_t* out = nullptr;
        uint64_t out_len = 0;
        bool data = true;
        bool local = false;  // the rank lives in this process
        DoneFn agreed;       // optional, see AgreedFn
        DoneFn done;
    };

    struct P2PRequest {
        uint32_t rank = 0;
        uint64_t earliest = 0;
        bool data = true;
        std::vector<P2PItem> items;
        bool local = false;
        DoneFn agreed;  // optional, see AgreedFn
        DoneFn done;
        // Group state (under the group's lock).
        size_t unresolved = 0;
        bool finished = false;
        Outcome outcome;
    };

    Group(uint64_t uid, uint32_t nranks);
    uint64_t uid() const { return uid_; }
    uint32_t size() const { return nranks_; }

    // Join phase: `ready` runs once every rank has joined. Returns HCCL_E_PARA when the
    // rank cannot join (rank count differs, rank out of range or taken, group complete).
    HcclResult join(uint32_t rank, uint32_t nranks, ReadyFn ready, bool local);
    // Takes back a join that has not completed; false when the group completed already.
    bool withdraw_join(uint32_t rank);

    void post_collective(uint64_t seq, std::shared_ptr<CollectiveEntry> entry);
    // Withdraws a waiting collective: the whole operation fails with HCCL_E_TIMEOUT on every
    // rank that posted it, and on the ranks that post it later. False when it already runs.
    bool cancel_collective(uint64_t seq, uint32_t rank);

    void post_p2p(const std::shared_ptr<P2PRequest>& request);
    // Withdraws the request's unmatched items (HCCL_E_TIMEOUT); false when it has finished.
    bool cancel_p2p(const std::shared_ptr<P2PRequest>& request);

    // A joined rank leaves for good.
    void leave(uint32_t rank);
    // Waits until every rank of another process has left (or the deadline passes): the
    // hosting process must outlive the ranks it serves.
    void wait_remote_ranks_left(SteadyTimePoint deadline);
    // True once every rank has joined and all of them live in this process.
    bool all_local();
    // Runs `fn` once every rank has joined (at once when that already happened).
    void on_complete(std::function<void()> fn);

private:
    // Completions to run outside the lock: replies to other processes first, so that they are
    // on their way before a local rank (possibly the last one of this process) is woken.
    struct Deferred {
        std::vector<std::function<void()>> early, late;
        void push(std::function<void()> fn, bool local) { (local ? late : early).push_back(std::move(fn)); }
    };
    struct Slot {
        std::vector<std::shared_ptr<CollectiveEntry>> entries;
        uint32_t arrived = 0;
    };
    struct Posted {
        std::shared_ptr<P2PRequest> request;
        size_t index = 0;
    };
    struct Queues {
        std::deque<Posted> sends, recvs;
    };

    void execute(std::vector<std::shared_ptr<CollectiveEntry>> entries);
    void resolve_item(const Posted& posted, HcclResult status, uint64_t start, Deferred& deferred);
    void match(const Posted& send, const Posted& recv, Deferred& deferred);
    // Fails every entry with HCCL_E_TIMEOUT naming `missing` (-1: the slot's first absent rank).
    void fail_slot(Slot& slot, Deferred& deferred, int32_t missing = -1);
    int32_t first_left() const;  // under the lock; -1 when no rank left
    static void run(Deferred& deferred);

    const uint64_t uid_;
    const uint32_t nranks_;
    std::mutex mutex_;
    std::condition_variable left_cv_;
    std::vector<bool> joined_, left_, remote_;
    std::vector<ReadyFn> ready_;
    uint32_t joined_count_ = 0, left_count_ = 0;
    bool complete_ = false;
    std::map<uint64_t, Slot> slots_;
    std::set<uint64_t> poisoned_;
    std::map<uint64_t, Queues> channels_;  // key: sender << 32 | receiver
    std::vector<std::function<void()>> on_complete_;
};

}  // namespace npusim::hcomm
