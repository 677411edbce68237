// Client buffers: requesting, filling, completing.
//
// Every recording thread fills its own buffer (requested from the client on
// that thread), so writing a record takes only that thread's own lock, which
// nobody else holds except a flush handing the buffer over. A record that does
// not fit closes the buffer and goes to the next one. Closed buffers are
// completed, in the order they were closed, by one delivery thread; so
// CompleteFunc calls never overlap and a thread's buffers come back in order.
//
// Buffers are closed when full, on FlushAll, on each FlushPeriod tick (partly
// filled ones too), when their thread exits and at process exit. A record made
// on a thread after its own buffer was closed for the thread's exit goes to one
// shared buffer instead (the exiting thread of the process is such a thread:
// exit() destroys its thread-locals before it runs the atexit handlers, among
// them the exit flush, which drains the device on that thread). A record that
// finds no usable buffer (no callbacks, a declined or too small buffer) is
// counted as dropped.
//
// fork(): the child gets a fresh manager (see fork_handlers.h). PrepareFork takes the manager's
// locks so that no other thread is inside its state at the moment of the fork; the parent then
// releases them; the child re-creates every lock and condition variable (their holders and waiters
// did not survive), forgets the delivery and period threads (restarted at the next use), and
// abandons, without completing, the buffers the parent had open or queued: those are the parent's
// records and the parent completes them. The child's records go into buffers its own RequestFunc
// gives, and its own delivery thread completes them.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include <cstring>

#include "common/futex_word.h"
#include "common/hot_tls.h"
#include "common/no_destructor.h"
#include "common/piecewise_copy.h"
#include "common/spin_lock.h"
#include "mspti/mspti_activity.h"

namespace mspti::activity {

class BufferManager {
public:
    static BufferManager& Instance();

    msptiResult RegisterCallbacks(msptiBuffersCallbackRequestFunc request, msptiBuffersCallbackCompleteFunc complete);
    bool HasCallbacks();

    // Copies one record into the calling thread's buffer. False if it was dropped (and counted).
    bool Write(int64_t kind, const void* record, size_t size);
    // The same for a record of a known type: when the thread's buffer has room, in line, with a
    // copy of constant size; otherwise (no buffer yet, full, inside RequestFunc, thread exiting)
    // through Write above.
    template <typename Record>
    bool Write(const Record& record);
    // Only that inline part (no call): false, with nothing written or counted, where Write would go
    // out of line, and also while another thread holds the buffer (a flush taking it).
    template <typename Record>
    static bool TryAppend(const Record& record);

    // Closes every buffer that holds records and hands it to delivery; with `wait`, returns once
    // all of them (and every buffer closed before) have been completed. Called from inside a
    // buffer callback it never waits (the delivery would wait for the caller).
    void Flush(bool wait);

    // The flush of the exit handler: closes every buffer and waits for the deliveries while they
    // progress, giving up once no buffer has come back for `stall_limit`. Every lock is only tried
    // until then, so an exit() from a signal handler that interrupted this thread inside msPTI, or a
    // CompleteFunc that never returns, cannot hold the process. Returns the records not delivered:
    // those of buffers not handed to CompleteFunc yet (or not closed: their lock was held).
    uint64_t FlushAtExit(std::chrono::milliseconds stall_limit);

    void SetFlushPeriod(uint32_t ms);

    // True while the calling thread is inside the client's RequestFunc or CompleteFunc.
    static bool InClientCallback();

    // pthread_atfork handlers (fork_handlers.cpp calls them in lock order).
    void PrepareFork();
    void ParentAfterFork();
    void ChildAfterFork();

    BufferManager();
    BufferManager(const BufferManager&) = delete;
    BufferManager& operator=(const BufferManager&) = delete;

    struct ThreadBuffer;

private:
    struct Callbacks {
        msptiBuffersCallbackRequestFunc request = nullptr;
        msptiBuffersCallbackCompleteFunc complete = nullptr;
    };
    struct Closed {
        uint8_t* data;
        size_t size;
        size_t valid;
        msptiBuffersCallbackCompleteFunc complete;
        size_t records;
    };
    friend struct LocalBuffer;

    bool WriteSlow(ThreadBuffer& tb, int64_t kind, const void* record, size_t size);
    // Writes into the shared buffer of threads whose own buffer is gone.
    bool WriteLate(int64_t kind, const void* record, size_t size);
    // Requires tb's lock; hands its buffer (if any) to delivery.
    void CloseLocked(ThreadBuffer& tb);
    uint64_t Enqueue(const Closed& closed);
    void WaitDelivered(uint64_t ticket);
    void DeliveryLoop();
    // Calls the client's CompleteFunc; an exception it throws is caught and logged (the buffer was
    // the client's from the call on, so its records count as delivered).
    void Complete(const Closed& closed);
    void PeriodLoop();
    // Starts the period thread again in a forked child that had a flush period (not per record).
    void RestartPeriodAfterFork();
    void Register(const std::shared_ptr<ThreadBuffer>& tb);
    void Retire(const std::shared_ptr<ThreadBuffer>& tb);

    std::mutex callbacks_mutex_;
    Callbacks callbacks_;
    std::mutex request_mutex_;  // the client's RequestFunc calls never overlap

    std::mutex registry_mutex_;
    std::vector<std::shared_ptr<ThreadBuffer>> threads_;

    // The shared buffer of exiting threads, registered in threads_ like a thread's buffer (so every
    // flush closes it). late_mutex_ is held across a whole write, RequestFunc included, so that its
    // writers take turns at refilling it (only the owner of a buffer may install a new one).
    std::mutex late_mutex_;
    std::shared_ptr<ThreadBuffer> late_;

    std::mutex queue_mutex_;
    std::condition_variable queue_cv_;  // waited on by the delivery thread only
    std::deque<Closed> queue_;
    std::atomic<uint64_t> enqueued_{0};   // buffers queued (written under queue_mutex_)
    std::atomic<uint64_t> delivered_{0};  // buffers completed, in queue order
    // Bumped after every completion; flushes sleep on it (no condition variable: see futex_word.h).
    FutexWord delivered_word_;
    // Records of the buffers queued, taken off the queue for CompleteFunc, and closed at exit but
    // not queued (the queue's lock was held): what FlushAtExit reports as not delivered.
    std::atomic<uint64_t> queued_records_{0};
    std::atomic<uint64_t> handed_records_{0};
    std::atomic<uint64_t> unqueued_records_{0};
    std::thread delivery_thread_;

    std::mutex period_mutex_;
    std::condition_variable period_cv_;
    uint32_t period_ms_ = 0;
    uint64_t period_generation_ = 0;
    std::thread period_thread_;

    // Set in a forked child whose parent had a flush period running.
    std::atomic<bool> period_restart_{false};
    // PrepareFork took the locks (not when the forking thread is inside a client callback, where
    // it may hold some of them itself).
    bool fork_locked_ = false;
};

struct BufferManager::ThreadBuffer {
    SpinLock lock;
    uint8_t* data = nullptr;  // nullptr: no buffer, and then size and used are 0
    size_t size = 0;
    size_t used = 0;
    size_t record_limit = SIZE_MAX;  // the client's maxNumRecords, SIZE_MAX for its 0 (no limit)
    size_t records = 0;
    msptiBuffersCallbackCompleteFunc complete = nullptr;
};

namespace buffer_detail {

// The calling thread's state, one plain thread-local object so that a record write reaches all of
// it with one TLS access.
struct ThreadState {
    bool in_request;
    bool in_complete;
    // Set when this thread's LocalBuffer has been destroyed (thread exit): later records go to the
    // shared late buffer instead of touching the destroyed thread-local.
    bool buffer_gone;
    BufferManager::ThreadBuffer* buffer;  // the thread's buffer once its LocalBuffer exists
    // `buffer` while a record may go straight into it (not inside RequestFunc, buffer not gone):
    // the one test of a record write's fast path. Kept by Sync after every change of the above.
    BufferManager::ThreadBuffer* writable;
    void Sync() { writable = !in_request && !buffer_gone ? buffer : nullptr; }
};
MSPTI_HOT_TLS inline thread_local ThreadState t_state{false, false, false, nullptr, nullptr};

// Whether the buffer can take a record of `size` bytes (requires tb's lock). Without a buffer, size
// and used are 0, so this alone refuses every record.
inline bool RoomLocked(const BufferManager::ThreadBuffer& tb, size_t size) {
    return size <= tb.size - tb.used && tb.records < tb.record_limit;
}

// Appends the record if the buffer has room for it (requires tb's lock).
[[gnu::always_inline]] inline bool AppendLocked(BufferManager::ThreadBuffer& tb, const void* record, size_t size) {
    if (!RoomLocked(tb, size)) return false;
    std::memcpy(tb.data + tb.used, record, size);
    tb.used += size;
    ++tb.records;
    return true;
}

}  // namespace buffer_detail

template <typename Record>
[[gnu::always_inline]] inline bool BufferManager::TryAppend(const Record& record) {
    ThreadBuffer* tb = buffer_detail::t_state.writable;
    if (tb == nullptr || !tb->lock.try_lock()) return false;
    const bool room = buffer_detail::RoomLocked(*tb, sizeof record);
    if (room) {
        CopyRecord<sizeof record>(tb->data + tb->used, &record);
        tb->used += sizeof record;
        ++tb->records;
    }
    tb->lock.unlock();
    return room;
}

template <typename Record>
[[gnu::always_inline]] inline bool BufferManager::Write(const Record& record) {
    if (TryAppend(record)) return true;
    return Write(record.kind, &record, sizeof record);
}

// Inline: every record write starts here.
inline LazyInstance<BufferManager> g_buffer_manager;
inline BufferManager& BufferManager::Instance() { return g_buffer_manager.get(); }

}  // namespace mspti::activity
