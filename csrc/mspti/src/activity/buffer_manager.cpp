#include "activity/buffer_manager.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <exception>
#include <new>

#include "activity/drop_counter.h"
#include "activity/kinds.h"
#include "activity/overhead.h"
#include "common/host_clock.h"
#include "common/log.h"
#include "common/no_destructor.h"
#include "common/thread_signals.h"

namespace mspti::activity {

namespace {

using buffer_detail::AppendLocked;
using buffer_detail::t_state;
using SteadyClock = std::chrono::steady_clock;

// Set while the calling thread runs FlushAtExit: until then it only tries the manager's locks.
thread_local SteadyClock::time_point t_exit_deadline{};
thread_local bool t_exiting = false;

// Takes `lock` (a std::unique_lock or a SpinLock); on a thread in FlushAtExit only tries until its
// deadline (the lock may be held by the code a signal handler interrupted on this very thread).
template <typename Lockable>
bool LockOrGiveUp(Lockable& lock) {
    if (!t_exiting) {
        lock.lock();
        return true;
    }
    while (!lock.try_lock()) {
        if (SteadyClock::now() >= t_exit_deadline) return false;
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    return true;
}

// The client's RequestFunc. An exception from it declines the request: no buffer (NO_BUFFER).
bool CallRequest(msptiBuffersCallbackRequestFunc request, uint8_t** data, size_t* size, size_t* max_records) {
    try {
        request(data, size, max_records);
        return true;
    } catch (...) {
        static std::atomic<bool> logged{false};
        if (!logged.exchange(true, std::memory_order_relaxed)) {
            MSPTI_LOGE(
                "the buffer RequestFunc threw an exception: taken as a declined request, the record is "
                "counted as dropped (NO_BUFFER)");
        }
        *data = nullptr;
        return false;
    }
}

}  // namespace

// Owns the calling thread's buffer; registered with the manager for flushes and
// closed when the thread exits.
struct LocalBuffer {
    std::shared_ptr<BufferManager::ThreadBuffer> tb;
    LocalBuffer() : tb(std::make_shared<BufferManager::ThreadBuffer>()) { BufferManager::Instance().Register(tb); }
    ~LocalBuffer() {
        t_state.buffer_gone = true;
        t_state.buffer = nullptr;
        t_state.Sync();
        BufferManager::Instance().Retire(tb);
    }
    LocalBuffer(const LocalBuffer&) = delete;
    LocalBuffer& operator=(const LocalBuffer&) = delete;
};

namespace {

BufferManager::ThreadBuffer& Local() {
    thread_local LocalBuffer local;
    t_state.buffer = local.tb.get();
    t_state.Sync();
    return *local.tb;
}

}  // namespace

BufferManager::BufferManager() : late_(std::make_shared<ThreadBuffer>()) { threads_.push_back(late_); }

bool BufferManager::InClientCallback() { return t_state.in_request || t_state.in_complete; }

msptiResult BufferManager::RegisterCallbacks(msptiBuffersCallbackRequestFunc request,
                                             msptiBuffersCallbackCompleteFunc complete) {
    if (request == nullptr || complete == nullptr) return MSPTI_ERROR_INVALID_PARAMETER;
    std::lock_guard<std::mutex> lock(callbacks_mutex_);
    callbacks_.request = request;
    callbacks_.complete = complete;
    return MSPTI_SUCCESS;
}

bool BufferManager::HasCallbacks() {
    std::lock_guard<std::mutex> lock(callbacks_mutex_);
    return callbacks_.request != nullptr;
}

bool BufferManager::Write(int64_t kind, const void* record, size_t size) {
    // Inside RequestFunc this thread's buffer is being replaced; a record made there has no home.
    buffer_detail::ThreadState& t = t_state;
    if (t.in_request) {
        Drops().Add(kind, MSPTI_DROP_REASON_NO_BUFFER);
        return false;
    }
    if (t.buffer_gone) return WriteLate(kind, record, size);
    ThreadBuffer& tb = t.buffer != nullptr ? *t.buffer : Local();
    tb.lock.lock();
    const bool written = AppendLocked(tb, record, size);
    tb.lock.unlock();
    return written || WriteSlow(tb, kind, record, size);
}

bool BufferManager::WriteSlow(ThreadBuffer& tb, int64_t kind, const void* record, size_t size) {
    RestartPeriodAfterFork();
    tb.lock.lock();
    CloseLocked(tb);
    tb.lock.unlock();

    Callbacks cb;
    {
        std::lock_guard<std::mutex> lock(callbacks_mutex_);
        cb = callbacks_;
    }
    if (cb.request == nullptr) {
        Drops().Add(kind, MSPTI_DROP_REASON_NO_BUFFER);
        return false;
    }
    uint8_t* data = nullptr;
    size_t size_given = 0;
    size_t max_records = 0;
    const bool measure = overhead::On();
    uint64_t request_start = 0;
    uint64_t request_end = 0;
    {
        std::lock_guard<std::mutex> lock(request_mutex_);
        if (measure) request_start = host_clock::Now();
        t_state.in_request = true;
        t_state.Sync();
        (void)CallRequest(cb.request, &data, &size_given, &max_records);
        t_state.in_request = false;
        t_state.Sync();
        if (measure) request_end = host_clock::Now();
    }
    if (data == nullptr) {
        Drops().Add(kind, MSPTI_DROP_REASON_NO_BUFFER);
        return false;
    }
    if (size_given < size) {
        // Too small for this record: give it straight back (empty) and count the record.
        MSPTI_LOGW("buffer of %zu bytes cannot hold a record of %zu bytes", size_given, size);
        Enqueue(Closed{data, size_given, 0, cb.complete, 0});
        Drops().Add(kind, MSPTI_DROP_REASON_BUFFER_TOO_SMALL);
        return false;
    }
    tb.lock.lock();
    tb.data = data;
    tb.size = size_given;
    tb.record_limit = max_records != 0 ? max_records : SIZE_MAX;
    tb.complete = cb.complete;
    tb.used = 0;
    tb.records = 0;
    if (measure) {
        // The request's OVERHEAD record opens the buffer it obtained, when there is room for both.
        const msptiActivityOverhead request =
            overhead::ThreadRecord(MSPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_REQUEST, request_start, request_end);
        if (size_given - size >= sizeof request && (max_records == 0 || max_records >= 2)) {
            std::memcpy(tb.data, &request, sizeof request);
            tb.used = sizeof request;
            tb.records = 1;
        } else {
            Drops().Add(MSPTI_ACTIVITY_KIND_OVERHEAD, MSPTI_DROP_REASON_BUFFER_TOO_SMALL);
        }
    }
    std::memcpy(tb.data + tb.used, record, size);
    tb.used += size;
    ++tb.records;
    tb.lock.unlock();
    return true;
}

bool BufferManager::WriteLate(int64_t kind, const void* record, size_t size) {
    std::lock_guard<std::mutex> late(late_mutex_);
    ThreadBuffer& tb = *late_;
    tb.lock.lock();
    const bool written = AppendLocked(tb, record, size);
    tb.lock.unlock();
    return written || WriteSlow(tb, kind, record, size);
}

void BufferManager::CloseLocked(ThreadBuffer& tb) {
    if (tb.data == nullptr) return;
    // Enqueued while the thread's lock is held, so a concurrent flush that finds the thread's
    // buffer gone is sure to wait for this one too.
    Enqueue(Closed{tb.data, tb.size, tb.used, tb.complete, tb.records});
    tb.data = nullptr;
    tb.size = 0;
    tb.used = 0;
    tb.records = 0;
    tb.record_limit = SIZE_MAX;
    tb.complete = nullptr;
}

uint64_t BufferManager::Enqueue(const Closed& closed) {
    std::unique_lock<std::mutex> lock(queue_mutex_, std::defer_lock);
    if (!LockOrGiveUp(lock)) {
        // At exit, with the queue's lock held by the interrupted code of this thread: not delivered.
        unqueued_records_.fetch_add(closed.records, std::memory_order_relaxed);
        return enqueued_.load(std::memory_order_relaxed);
    }
    queue_.push_back(closed);
    queued_records_.fetch_add(closed.records, std::memory_order_relaxed);
    const uint64_t ticket = enqueued_.load(std::memory_order_relaxed) + 1;
    enqueued_.store(ticket, std::memory_order_relaxed);
    if (!delivery_thread_.joinable()) delivery_thread_ = std::thread([this] { DeliveryLoop(); });
    queue_cv_.notify_one();
    return ticket;
}

void BufferManager::WaitDelivered(uint64_t ticket) {
    for (;;) {
        const uint32_t seen = delivered_word_.Load();
        if (delivered_.load(std::memory_order_acquire) >= ticket) return;
        delivered_word_.Wait(seen);
    }
}

void BufferManager::Complete(const Closed& closed) {
    const bool measure = overhead::On() && overhead::HoldsOtherRecords(closed.data, closed.valid);
    const uint64_t start = measure ? host_clock::Now() : 0;
    t_state.in_complete = true;
    try {
        closed.complete(closed.data, closed.size, closed.valid);
    } catch (...) {
        static std::atomic<bool> logged{false};
        if (!logged.exchange(true, std::memory_order_relaxed)) {
            MSPTI_LOGE(
                "the buffer CompleteFunc threw an exception; msPTI goes on (the buffer and its %zu records "
                "were handed to the client)",
                closed.records);
        }
    }
    t_state.in_complete = false;
    if (measure) {
        Write(overhead::ThreadRecord(MSPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_FLUSH, start, host_clock::Now()));
    }
}

void BufferManager::DeliveryLoop() {
    // Signals meant for the application go to its threads, never to this one (whose handler could
    // call exit() from inside a delivery).
    thread_signals::BlockAsynchronous();
    for (;;) {
        Closed closed{};
        {
            std::unique_lock<std::mutex> lock(queue_mutex_);
            queue_cv_.wait(lock, [&] { return !queue_.empty(); });
            closed = queue_.front();
            queue_.pop_front();
        }
        handed_records_.fetch_add(closed.records, std::memory_order_relaxed);
        if (closed.complete != nullptr) Complete(closed);
        delivered_.fetch_add(1, std::memory_order_release);
        delivered_word_.BumpAndWakeAll();
    }
}

void BufferManager::Flush(bool wait) {
    RestartPeriodAfterFork();
    {
        std::lock_guard<std::mutex> lock(registry_mutex_);
        for (const auto& tb : threads_) {
            tb->lock.lock();
            CloseLocked(*tb);
            tb->lock.unlock();
        }
    }
    uint64_t ticket = 0;
    {
        std::lock_guard<std::mutex> lock(queue_mutex_);
        ticket = enqueued_.load(std::memory_order_relaxed);
    }
    if (wait && !InClientCallback()) WaitDelivered(ticket);
}

uint64_t BufferManager::FlushAtExit(std::chrono::milliseconds stall_limit) {
    t_exiting = true;
    t_exit_deadline = SteadyClock::now() + stall_limit;
    {
        std::unique_lock<std::mutex> registry(registry_mutex_, std::defer_lock);
        if (LockOrGiveUp(registry)) {
            for (const auto& tb : threads_) {
                if (!LockOrGiveUp(tb->lock)) continue;  // held by the code a signal handler interrupted
                CloseLocked(*tb);
                tb->lock.unlock();
            }
        }
    }
    const uint64_t ticket = enqueued_.load(std::memory_order_acquire);
    // Inside CompleteFunc this thread is the delivery thread: nobody else would deliver.
    if (!InClientCallback()) {
        uint64_t last = delivered_.load(std::memory_order_acquire);
        SteadyClock::time_point give_up = SteadyClock::now() + stall_limit;
        for (;;) {
            const uint32_t seen = delivered_word_.Load();
            const uint64_t delivered = delivered_.load(std::memory_order_acquire);
            if (delivered >= ticket) break;
            const SteadyClock::time_point now = SteadyClock::now();
            if (delivered != last) {
                last = delivered;
                give_up = now + stall_limit;
            } else if (now >= give_up) {
                break;
            }
            const auto left = std::chrono::duration_cast<std::chrono::nanoseconds>(give_up - now).count();
            delivered_word_.Wait(seen, static_cast<uint64_t>(std::min<int64_t>(left, 50000000)) + 1);
        }
    }
    t_exiting = false;
    return unqueued_records_.load(std::memory_order_relaxed) + queued_records_.load(std::memory_order_relaxed) -
           handed_records_.load(std::memory_order_relaxed);
}

void BufferManager::SetFlushPeriod(uint32_t ms) {
    std::lock_guard<std::mutex> lock(period_mutex_);
    period_ms_ = ms;
    ++period_generation_;
    if (ms != 0 && !period_thread_.joinable()) period_thread_ = std::thread([this] { PeriodLoop(); });
    period_cv_.notify_all();
}

void BufferManager::PeriodLoop() {
    thread_signals::BlockAsynchronous();
    std::unique_lock<std::mutex> lock(period_mutex_);
    for (;;) {
        if (period_ms_ == 0) {
            period_cv_.wait(lock, [&] { return period_ms_ != 0; });
            continue;
        }
        const uint64_t generation = period_generation_;
        const bool changed = period_cv_.wait_for(lock, std::chrono::milliseconds(period_ms_),
                                                 [&] { return period_generation_ != generation; });
        if (changed) continue;  // a new period starts counting now
        lock.unlock();
        Flush(false);
        lock.lock();
    }
}

void BufferManager::RestartPeriodAfterFork() {
    if (!period_restart_.load(std::memory_order_relaxed) || !period_restart_.exchange(false)) return;
    uint32_t ms = 0;
    {
        std::lock_guard<std::mutex> lock(period_mutex_);
        ms = period_ms_;
    }
    SetFlushPeriod(ms);
}

// Lock order of the manager: period_mutex_ (released before a periodic flush), registry_mutex_
// (then a buffer's lock, then queue_mutex_), callbacks_mutex_, queue_mutex_. late_mutex_ and
// request_mutex_ are held across the client's RequestFunc, so they are not taken here (a
// RequestFunc that blocks would block fork); the child re-creates them.
void BufferManager::PrepareFork() {
    fork_locked_ = !InClientCallback();
    if (!fork_locked_) return;
    period_mutex_.lock();
    registry_mutex_.lock();
    callbacks_mutex_.lock();
    queue_mutex_.lock();
}

void BufferManager::ParentAfterFork() {
    if (!fork_locked_) return;
    queue_mutex_.unlock();
    callbacks_mutex_.unlock();
    registry_mutex_.unlock();
    period_mutex_.unlock();
}

// Runs in the child, which has one thread. Reusing an object's storage without running its
// destructor is allowed; the old locks may be held by threads that do not exist here.
void BufferManager::ChildAfterFork() {
    for (std::mutex* m :
         {&callbacks_mutex_, &request_mutex_, &registry_mutex_, &late_mutex_, &queue_mutex_, &period_mutex_}) {
        new (m) std::mutex();
    }
    for (std::condition_variable* cv : {&queue_cv_, &period_cv_}) new (cv) std::condition_variable();
    delivered_word_.Reset();
    // The threads were not copied; their std::thread objects describe the parent's.
    new (&delivery_thread_) std::thread();
    new (&period_thread_) std::thread();

    // Buffers closed but not completed are the parent's to complete.
    queue_.clear();
    enqueued_.store(0, std::memory_order_relaxed);
    delivered_.store(0, std::memory_order_relaxed);
    queued_records_.store(0, std::memory_order_relaxed);
    handed_records_.store(0, std::memory_order_relaxed);
    unqueued_records_.store(0, std::memory_order_relaxed);
    // Only this thread's buffer and the shared late buffer exist in the child; open buffers hold the
    // parent's records and are abandoned.
    ThreadBuffer* own = t_state.buffer;
    std::vector<std::shared_ptr<ThreadBuffer>> kept;
    for (auto& tb : threads_) {
        if (tb.get() != own && tb != late_) continue;
        new (&tb->lock) SpinLock();
        tb->data = nullptr;
        tb->size = 0;
        tb->used = 0;
        tb->records = 0;
        tb->record_limit = SIZE_MAX;
        tb->complete = nullptr;
        kept.push_back(std::move(tb));
    }
    threads_ = std::move(kept);
    period_restart_.store(period_ms_ != 0, std::memory_order_relaxed);
    fork_locked_ = false;
}

void BufferManager::Register(const std::shared_ptr<ThreadBuffer>& tb) {
    std::lock_guard<std::mutex> lock(registry_mutex_);
    threads_.push_back(tb);
}

void BufferManager::Retire(const std::shared_ptr<ThreadBuffer>& tb) {
    // At exit on the thread that ran the exit flush, the locks are only tried (LockOrGiveUp): an
    // exit() from a signal handler may have interrupted a record write that holds this very
    // thread's buffer lock. The buffer is then left as it is; the process is ending.
    std::unique_lock<std::mutex> registry(registry_mutex_, std::defer_lock);
    if (!LockOrGiveUp(registry)) return;
    if (LockOrGiveUp(tb->lock)) {
        CloseLocked(*tb);
        tb->lock.unlock();
    }
    for (auto it = threads_.begin(); it != threads_.end(); ++it) {
        if (*it == tb) {
            threads_.erase(it);
            break;
        }
    }
}

}  // namespace mspti::activity
