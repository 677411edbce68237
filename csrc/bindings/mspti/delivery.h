// Delivery of activity records to Python.
//
//   producer threads (inside libmspti)        consumer thread (ours)              Python
//   RequestFunc  -> a buffer from the pool
//   CompleteFunc -> queue the filled buffer -> walk it (GetNextRecord), convert
//                                              wanted kinds to CompactRecords,
//                                              pair mstx range halves, recycle
//                                              the buffer; per batch: take the
//                                              GIL once, build data-class      -> callables
//                                              objects, call the callables
//
// RequestFunc and CompleteFunc never touch Python and never wait for the consumer. The pool has
// a fixed number of buffers (256 MB worth); when all are in use a request is declined and msPTI
// counts the records it drops.
//
// fork(): fork copies only the forking thread, so a child has no consumer thread, and a lock held
// by another thread at the fork stays held. pthread_atfork handlers (registered once, by
// Instance()) take the pool and queue locks around the fork (their holders never wait for the GIL
// or for anything else while holding them); the child re-creates every lock and condition
// variable, drops the buffers queued in the parent (the parent's records: the parent delivers
// them) and starts its own consumer thread at its next start, flush, stop or exit. The child keeps
// the parent's monitors and session (msPTI keeps the subscription in the child), so records made
// in the child reach the child's callables. Not covered: a fork while another thread is inside
// start() or stop() (holding the control lock) leaves that call's state half changed in the child.
//
// A Session is the shared state of every monitor: the first monitor that starts subscribes and
// registers the buffer callbacks, the last one that stops unsubscribes. Kinds are reference
// counted, so two monitors (or two consumers of the same kind) can run at once.
#pragma once

#include <Python.h>

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "library.h"
#include "objects.h"
#include "records.h"

namespace mspti_py {

// Where a consumer's records come from.
enum Route : int {
    // 1..12: every record of that msptiActivityKind.
    kRouteInstantMarks = 100,  // MARKER records with an INSTANTANEOUS(_WITH_DEVICE) flag
    kRouteRanges = 101,        // assembled ranges (RangeMarkerData)
};

// Results beyond msptiResult (negative, so they never clash with it).
constexpr int kFromCallback = -1;
constexpr int kNotReady = -2;

struct Stats {
    uint64_t buffers_completed = 0;
    uint64_t buffers_declined = 0;
    uint64_t records_seen = 0;
    uint64_t records_skipped = 0;  // of kinds nobody consumes
    uint64_t records_delivered = 0;  // objects handed to callables
    uint64_t batches = 0;
    uint64_t callback_errors = 0;
    uint64_t ranges_pending = 0;
    uint64_t buffers_allocated = 0;
    size_t buffer_size = 0;
    size_t buffer_count = 0;
};

class Delivery {
public:
    static Delivery& Instance();

    // ---- called from Python (GIL held on entry; the functions release it where they wait) ----

    // Binds the data classes and enums (see ObjectFactory::Bind).
    std::string BindTypes(PyObject* types);

    // Starts a monitor: joins (or opens) the session, enables `kinds`, adds the routes. Returns
    // the msptiResult and, on success, the monitor's token; kFromCallback when called from a
    // monitor callback, kNotReady before a library is loaded and the data classes are bound.
    std::pair<int, uint64_t> StartMonitor(const std::vector<int>& kinds,
                                          const std::vector<std::pair<int, PyObject*>>& routes);
    // Stops a monitor: delivers what is pending, disables its kinds when no one else uses them,
    // leaves the session (the last one out unsubscribes). Unknown tokens only flush. `grace_ms`:
    // a pause before the first flush, for libraries whose FlushAll may miss in-flight device data.
    int StopMonitor(uint64_t token, uint32_t grace_ms);  // kFromCallback from a monitor callback

    // FlushAll, then waits until the callables have seen every record flushed.
    int FlushAll();
    int FlushPeriod(uint32_t ms);

    // Buffer size in bytes for the next session; false when out of range.
    bool SetBufferSize(size_t bytes);
    size_t BufferSize() const { return next_buffer_size_.load(); }

    bool Active() const;
    Stats GetStats();
    uint64_t CallbackErrors() const { return callback_errors_.load(); }
    bool OnConsumerThread() const { return std::this_thread::get_id() == consumer_id_.load(); }

    // Delivers what is pending and stops the consumer thread (interpreter exit). Later buffers
    // are recycled unread.
    void Shutdown();

    // pthread_atfork handlers.
    static void PrepareFork();
    static void ParentAfterFork();
    static void ChildAfterFork();

    // ---- called by msPTI ----
    static void OnRequest(uint8_t** buffer, size_t* size, size_t* max_records);
    static void OnComplete(uint8_t* buffer, size_t size, size_t valid);

private:
    struct Consumer {
        std::vector<int> kinds;
        std::vector<std::pair<int, PyObject*>> routes;  // owned references
    };
    struct PendingRange {
        bool has_start = false;
        bool has_end = false;
        CompactRecord start;
        uint64_t end = 0;
        std::string name;    // copies of the START's strings when they live in a batch arena
        std::string domain;
    };
    struct Filled {
        uint8_t* data;
        size_t size;
        size_t valid;
        uint64_t ticket;
    };

    Delivery() = default;

    // Pool (any thread).
    uint8_t* TakeBuffer(size_t* size);
    void ReturnBuffer(uint8_t* data, size_t size);
    void ReleaseIdleBuffers();

    // Consumer thread.
    void EnsureConsumer();
    // In a forked child whose parent had a consumer: starts the child's own (GIL released).
    void RestartConsumerAfterFork();
    void ConsumerLoop();
    void Convert(const Filled& filled, Batch& batch);
    void ConvertRecord(const msptiActivity* record, Batch& batch);
    void Dispatch(Batch& batch);  // takes the GIL
    void ReportCallbackError(PyObject* callable);
    void RecomputeWants();        // GIL held (routes change only under the GIL)

    // Session (control mutex held, GIL released).
    int JoinSession();
    void LeaveSession();
    int FlushAndWait();

    // ---- state ----
    std::mutex control_;  // start/stop/flush sequencing; never taken with the GIL held
    std::atomic<int> session_refs_{0};  // written with control_ held
    msptiSubscriberHandle subscriber_ = nullptr;
    int kind_refs_[kMaxKind + 1] = {};
    std::map<uint64_t, Consumer> consumers_;  // modified with control_ and the GIL held
    uint64_t next_token_ = 1;

    // Pool.
    std::mutex pool_mutex_;
    std::vector<uint8_t*> free_buffers_;
    size_t pool_buffer_size_ = 0;
    size_t pool_capacity_ = 0;
    size_t pool_allocated_ = 0;
    std::atomic<size_t> next_buffer_size_{8U << 20};

    // Queue of filled buffers.
    std::mutex queue_mutex_;
    std::condition_variable queue_cv_;
    std::condition_variable done_cv_;
    std::deque<Filled> queue_;
    uint64_t enqueued_ = 0;   // tickets handed out
    uint64_t processed_ = 0;  // every buffer up to this ticket has been delivered
    bool stopping_ = false;
    bool shut_down_ = false;
    bool consumer_running_ = false;
    std::atomic<bool> restart_after_fork_{false};
    std::thread consumer_;
    std::atomic<std::thread::id> consumer_id_{};

    // What the consumer converts (set under the GIL, read by the consumer without it).
    std::atomic<uint32_t> wanted_kinds_{0};  // bit k: some route takes kind k
    std::atomic<bool> wants_ranges_{false};

    // Consumer-owned.
    StringTable strings_;
    std::map<std::pair<uint64_t, uint32_t>, PendingRange> pending_ranges_;

    // Under the GIL.
    ObjectFactory factory_;
    std::vector<std::vector<PyObject*>> routes_by_kind_;  // index: kind or route id (borrowed refs)

    // Counters.
    std::atomic<uint64_t> callback_errors_{0};
    std::atomic<uint64_t> buffers_completed_{0};
    std::atomic<uint64_t> buffers_declined_{0};
    std::atomic<uint64_t> records_seen_{0};
    std::atomic<uint64_t> records_skipped_{0};
    std::atomic<uint64_t> records_delivered_{0};
    std::atomic<uint64_t> batches_{0};
    std::atomic<uint64_t> ranges_pending_{0};
};

}  // namespace mspti_py
