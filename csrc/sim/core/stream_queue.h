// Work a stream cannot place yet. An HCCL collective is enqueued before its peers have joined,
// so its device start (and with it the stream's tail) is unknown until the ranks agree: the
// stream is held from the enqueue until the operation is placed on the device timeline (or
// failed). While a stream is held:
//   - every other task issued to it (kernels, copies, fills, host functions, events, profiler
//     traces) is deferred: it is placed, and has its effect, in stream order once every hold
//     before it has been released (defer; acl/task_submit.h), so that a copy or a kernel that
//     follows a collective runs after the collective's data is there, and its caller returns;
//   - the next held operation takes its turn once everything before it is placed (wait_turn);
//   - a synchronisation waits on the host until the stream is settled (wait_idle).
// A released hold may leave an error code (ACL's) that the stream's next synchronisation returns.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>

#include "core/export.h"

namespace npusim {

class NPUSIM_API StreamQueue {
public:
    // True when nothing is held or deferred: one load, checked on every schedule.
    bool idle() const { return pending_.load(std::memory_order_acquire) == 0; }

    // Holds the stream for one operation; returns its ticket.
    uint64_t hold();
    // Waits until every item queued before `ticket` has been placed.
    void wait_turn(uint64_t ticket);
    // The held operation is placed (error 0) or failed (an ACL error code the next
    // synchronisation returns); deferred work that was waiting only for it runs now, on the
    // calling thread.
    void release(uint64_t ticket, int32_t error);
    // Queues `fn` behind the holds; false (nothing queued) when the stream is not held, and the
    // caller runs it at once.
    bool defer(std::function<void()> fn);
    // Waits until nothing is held or deferred.
    void wait_idle();
    // The same for at most `ms` milliseconds of host time; false when the stream is still held.
    bool wait_idle_for(int64_t ms);
    // The error left by a failed hold since the last call (0: none), cleared.
    int32_t take_error();

private:
    struct Item {
        uint64_t ticket = 0;
        bool done = false;
        std::function<void()> run;  // deferred work; empty for a hold
    };
    void drain(std::unique_lock<std::mutex>& lock);
    void publish() { pending_.store(static_cast<uint32_t>(items_.size()), std::memory_order_release); }

    std::atomic<uint32_t> pending_{0};
    std::mutex mutex_;
    std::condition_variable cv_;
    std::deque<Item> items_;
    uint64_t next_ticket_ = 1;
    bool draining_ = false;  // a thread runs the front item's deferred work
    int32_t error_ = 0;
};

}  // namespace npusim
