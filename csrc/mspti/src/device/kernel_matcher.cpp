#include "device/kernel_matcher.h"

#include <atomic>

#include "activity/buffer_manager.h"
#include "activity/copy_records.h"
#include "activity/drop_counter.h"
#include "activity/kinds.h"
#include "common/host_clock.h"
#include "device/device_registry.h"
#include "device/device_time.h"
#include "cann/host_time.h"
#include "cann/name_cache.h"
#include "reports/stream_syncs.h"
#include "device/stream_task_id.h"

namespace mspti::seam {
namespace {

std::atomic<KernelTaskObserver> g_kernel_task_observer{nullptr};

constexpr uint64_t kOrphanLifetimeNs = 2'000'000'000ULL;
// Device halves kept per task key while their tracks are on their way. A key comes back only after
// the stream's task id wraps (65,536 tasks on most chips), so older ones will get no track; the cap
// keeps a key's list, and the walk of it for every device log, short when no tracks come (kernels
// not collected, other device kinds are): the sweep forgets orphans only every second or two, and a
// fast stream wraps its task id in less.
constexpr int kMaxOrphansPerKey = 4;
// Device and host clocks are aligned only to within the reference measurement.
constexpr uint64_t kCausalitySlackNs = 1'000'000ULL;
constexpr uint32_t kNil = TaskQueues<int>::kNil;
// A kernel whose device half has not arrived this long (device time, records' time base) after its
// launch, at a flush that read everything the driver held, is counted as lost. The bound must exceed
// the time a correct kernel can spend between launch and end: queued behind its stream's earlier
// work, then running. Kernels of the modelled SoCs run for microseconds to seconds (the cost table's
// largest entries are below 1 s); a minute leaves a margin of more than an order of magnitude for
// queueing in ordinary workloads. A stream held longer than that (an event the host records later, a
// collective waiting for a hung peer) has its waiting kernels counted as dropped at the next flush;
// if their device half comes after all, it is forgotten with the other unmatched device halves.
constexpr uint64_t kLostAfterNs = 60'000'000'000ULL;

// Whether task id `a` precedes `b` on one stream, across the wrap of the id (16 bits on chip types
// 5/7, 32 bits on chip type 15): ids less than half the id space ahead count as later.
bool TaskBefore(uint32_t a, uint32_t b, bool wide) {
    const uint32_t mask = wide ? 0xFFFFFFFFU : 0xFFFFU;
    const uint32_t ahead = (b - a) & mask;
    return ahead != 0 && ahead <= (mask >> 1);
}

uint64_t StreamKey(uint32_t device, uint32_t stream) { return TaskKey(device, stream, 0); }

// A joined task whose record is not written (its kind is off, or a time is unknown) is counted as
// dropped. Out of line, so that the write path of every kernel stays small enough to keep the buffer
// write inline.
[[gnu::cold, gnu::noinline]] void CountUnwritten(msptiActivityKind kind) {
    activity::Drops().Add(kind, activity::Enabled(kind) ? MSPTI_DROP_REASON_DEVICE_HALF_LOST
                                                        : MSPTI_DROP_REASON_KIND_DISABLED);
}

}  // namespace

uint64_t KernelMatcher::KeyOf(const TrackEvent& track, uint32_t* stream, uint32_t* task, bool* wide) const {
    *wide = devices::IsV6(devices::Chip(track.device));
    const StreamTask decoded = DecodeStreamTask(track.stream, static_cast<uint16_t>(track.task_info & 0xFFFFU));
    *stream = decoded.stream;
    if (*wide) {
        *task = track.task_info;
        return TaskKey(track.device, 0, track.task_info);
    }
    *task = decoded.task;
    return TaskKey(track.device, decoded.stream, decoded.task);
}

uint32_t KernelMatcher::NewProgressNode(uint64_t stream_key, bool* made) {
    uint32_t n = progress_.Front(stream_key);
    if (n == kNil) {
        progress_.PushBack(stream_key, Progress{});
        n = progress_.Front(stream_key);
        *made = true;
    }
    progress_cached_key_ = stream_key;
    progress_cached_node_ = n;
    return n;
}

inline void KernelMatcher::NoteEnded(const Pending& p) {
    if (p.graph) return;
    const Ended ended{p.task, p.launch_ns, next_seq_};
    bool made = false;
    const uint64_t stream_key = StreamKey(p.device, p.stream);
    // Consecutive kernels mostly share a stream: one compare finds its node.
    const uint32_t node =
        progress_cached_key_ == stream_key ? progress_cached_node_ : NewProgressNode(stream_key, &made);
    Progress& g = progress_.At(node);
    if (made) {
        g = Progress{ended, ended, false, pass_};
        return;
    }
    if (g.pass != pass_) {  // noted before the last pass: it is settled now
        g.settled = g.newest;
        g.has_settled = true;
        g.pass = pass_;
    }
    if (!TaskBefore(p.task, g.newest.task, p.wide)) g.newest = ended;
}

inline void KernelMatcher::RetireGraphTasksAt(size_t slot, uint64_t launch_ns) {
    for (uint32_t n = pending_.Head(slot); n != kNil; n = pending_.Next(n)) {
        Pending& q = pending_.At(n);
        if (q.graph && q.retired_ns == 0) q.retired_ns = launch_ns;
    }
}

// Inline in the loop over a batch of tracks: a track costs no call of its own.
[[gnu::always_inline]] inline void KernelMatcher::Add(const TrackEvent& track, msptiActivityKind kind, uint64_t bytes,
                                                      uint32_t detail, bool sync) {
    uint32_t stream = 0;
    uint32_t task = 0;
    bool wide = false;
    const uint64_t key = KeyOf(track, &stream, &task, &wide);
    const uint64_t launch_ns = host_time::ToRecordTime(track.host_ts);
    const uint64_t seq = next_seq_++;
    const bool graph = track.aging == 0;
    // Every field, written in place into the node (common case) or into a track on the stack.
    auto fill = [&](Pending& p) {
        if (kind == MSPTI_ACTIVITY_KIND_KERNEL) {
            // Resolved here rather than in the launch: the names were registered before the track
            // was reported, and a name never changes once its id is handed out.
            const NameCache& names = NameCache::Instance();
            p.type = names.TypeName(MSPROF_REPORT_RUNTIME_LEVEL, track.type_id);
            const char* name = names.HashText(track.name_hash);
            p.name = name != nullptr ? name : "";
        } else {
            p.type = nullptr;  // a copy's record has no type
            p.bytes = bytes;
        }
        p.correlation_id = track.correlation_id;
        p.launch_ns = launch_ns;
        p.device = track.device;
        p.stream = stream;
        p.task = task;
        p.detail = detail;
        p.seq = seq;
        p.graph = graph;
        p.started = false;
        p.kind = static_cast<uint8_t>(kind);
        p.sync = sync;
        p.wide = wide;
        p.block_dim = track.num_blocks;
        p.start_count = 0;
        p.retired_ns = 0;
    };
    if (__builtin_expect(!orphans_.Empty(), 0)) {
        // Device halves that came first (rare: none wait in the common case).
        Pending p;
        fill(p);
        if (JoinOrphans(key, p)) return;
        AppendTrack(key, p);
        return;
    }
    // One lookup of the key for both: the graph tasks this launch retires, and the new track.
    const size_t slot = pending_.Claim(key);
    if (!graph) RetireGraphTasksAt(slot, launch_ns);
    fill(pending_.Emplace(slot));
}

void KernelMatcher::AddTracks(const TrackEvent* tracks, size_t count) {
    for (size_t i = 0; i < count; ++i) Add(tracks[i], MSPTI_ACTIVITY_KIND_KERNEL, 0, 0, false);
}

void KernelMatcher::AddCopyTrack(const CopyTrackEvent& copy) {
    Add(copy.track, copy.kind, copy.bytes, copy.detail, copy.sync);
}

bool KernelMatcher::JoinOrphans(uint64_t key, Pending& p) {
    for (uint32_t n = orphans_.Front(key); n != kNil; n = orphans_.Front(key)) {
        const Orphan o = orphans_.At(n);
        orphans_.PopFront(key);  // a queue left empty removes its key
        const uint64_t device_start = device_time::ToRecordTime(p.device, o.start_count);
        if (device_start + kCausalitySlackNs < p.launch_ns) continue;  // an older task with the same key
        if (o.ended) {
            Emit(p, o.start_count, o.end_count);
            NoteEnded(p);
            if (!p.graph) {
                RetireGraphTasks(key, p.launch_ns);
                return true;
            }
        } else {
            p.started = true;
            p.start_count = o.start_count;
        }
        break;
    }
    return false;
}

void KernelMatcher::AppendTrack(uint64_t key, const Pending& p) {
    const size_t slot = pending_.Claim(key);
    if (!p.graph) RetireGraphTasksAt(slot, p.launch_ns);
    pending_.Append(slot, p);
}

void KernelMatcher::RetireGraphTasks(uint64_t key, uint64_t launch_ns) {
    for (uint32_t n = pending_.Front(key); n != kNil; n = pending_.Next(n)) {
        Pending& p = pending_.At(n);
        if (p.graph && p.retired_ns == 0) p.retired_ns = launch_ns;
    }
}

void KernelMatcher::OnStart(uint32_t device, uint64_t key, uint64_t count) {
    const size_t slot = pending_.Find(key);
    if (slot != TaskQueues<Pending>::kNoSlot) {
        uint64_t device_start = 0;  // converted only when a retired graph task is in the way
        for (uint32_t prev = kNil, n = pending_.Head(slot); n != kNil;) {
            Pending& p = pending_.At(n);
            const uint32_t next = pending_.Next(n);
            if (p.retired_ns != 0 && !p.started) {
                if (device_start == 0) device_start = device_time::ToRecordTime(device, count);
                // A start after the launch that retired the graph task belongs to that new task.
                if (device_start >= p.retired_ns) {
                    pending_.RemoveAt(slot, prev, n);  // an emptied queue removes its key; `next` is then kNil
                    n = next;
                    continue;
                }
            }
            prev = n;
            n = next;
            if (!p.started) {
                p.started = true;
                p.start_count = count;
                return;
            }
        }
    }
    StartWithoutTrack(key, count);
}

void KernelMatcher::OnSpan(uint32_t device, uint32_t stream, uint32_t task, uint64_t start_count, uint64_t end_count) {
    const uint64_t key = TaskKey(device, stream, task);
    const size_t slot = pending_.Find(key);
    if (slot != TaskQueues<Pending>::kNoSlot) {
        const uint32_t n = pending_.Head(slot);
        Pending& p = pending_.At(n);
        // The start would go to this track (the first not started, no retired graph task before it)
        // and the end to the first started one: this track again.
        if (!p.started && p.retired_ns == 0) {
            Emit(p, start_count, end_count);
            if (!p.graph) {  // a graph task waits for its next execution (and notes no end)
                NoteEnded(p);
                pending_.PopFrontAt(slot);
            }
            return;
        }
    }
    OnStart(device, key, start_count);
    OnEnd(key, end_count);
}

void KernelMatcher::StartWithoutTrack(uint64_t key, uint64_t count) {
    // Orphans are added only here, so a key at the cap holds exactly kMaxOrphansPerKey: the oldest goes.
    int kept = 0;
    for (uint32_t n = orphans_.Front(key); n != kNil; n = orphans_.Next(n)) ++kept;
    if (kept >= kMaxOrphansPerKey) orphans_.PopFront(key);
    orphans_.PushBack(key, Orphan{count, 0, false, host_clock::Now()});
}

void KernelMatcher::OnEnd(uint64_t key, uint64_t count) {
    const size_t slot = pending_.Find(key);
    if (slot != TaskQueues<Pending>::kNoSlot) {
        for (uint32_t prev = kNil, n = pending_.Head(slot); n != kNil; prev = n, n = pending_.Next(n)) {
            Pending& p = pending_.At(n);
            if (!p.started) continue;
            Emit(p, p.start_count, count);
            NoteEnded(p);
            if (p.graph) {
                p.started = false;
            } else {
                pending_.RemoveAt(slot, prev, n);  // Emit and NoteEnded leave pending_ as it was
            }
            return;
        }
    }
    EndWithoutStart(key, count);
}

void KernelMatcher::EndWithoutStart(uint64_t key, uint64_t count) {
    for (uint32_t n = orphans_.Front(key); n != kNil; n = orphans_.Next(n)) {
        Orphan& orphan = orphans_.At(n);
        if (!orphan.ended) {
            orphan.ended = true;
            orphan.end_count = count;
            return;
        }
    }
    const uint32_t front = pending_.Front(key);
    if (front != kNil && !pending_.At(front).graph) {
        // An end for a launched kernel whose start was lost (e.g. the channel started mid-task).
        activity::Drops().Add(pending_.At(front).Kind(), MSPTI_DROP_REASON_DEVICE_HALF_LOST);
        pending_.PopFront(key);
    }
}

void KernelMatcher::Emit(const Pending& p, uint64_t start_count, uint64_t end_count) {
    uint64_t start = 0;
    uint64_t end = 0;
    device_time::ToRecordTimes(p.device, start_count, end_count, &start, &end);
    if (p.kind != MSPTI_ACTIVITY_KIND_KERNEL) {
        EmitCopy(p, start, end);
        return;
    }
    if (!activity::Enabled(MSPTI_ACTIVITY_KIND_KERNEL) || start == 0 || end == 0) {
        CountUnwritten(MSPTI_ACTIVITY_KIND_KERNEL);
        return;
    }
    msptiActivityKernel record{};
    record.kind = MSPTI_ACTIVITY_KIND_KERNEL;
    record.start = start;
    record.end = end < start ? start : end;
    record.ds.deviceId = p.device;
    record.ds.streamId = p.stream;
    record.correlationId = p.correlation_id;
    record.type = p.type;
    record.name = p.name;
    activity::BufferManager::Instance().Write(record);
    if (const KernelTaskObserver observer = g_kernel_task_observer.load(std::memory_order_acquire)) {
        observer(&record, p.task, start_count, end_count, p.block_dim);
    }
}

void SetKernelTaskObserver(KernelTaskObserver observer) {
    g_kernel_task_observer.store(observer, std::memory_order_release);
}

void KernelMatcher::EmitCopy(const Pending& p, uint64_t start, uint64_t end) {
    if (!activity::Enabled(p.Kind()) || start == 0 || end == 0) {
        CountUnwritten(p.Kind());
        return;
    }
    // A synchronous call's task is no stream work.
    const activity::CopyFields fields{
        p.bytes,          start,  end < start ? start : end, p.device, p.sync ? MSPTI_INVALID_STREAM_ID : p.stream,
        p.correlation_id, !p.sync};
    if (p.kind == MSPTI_ACTIVITY_KIND_MEMCPY) {
        activity::WriteMemcpy(static_cast<msptiActivityMemcpyKind>(p.detail), fields);
    } else if (p.kind == MSPTI_ACTIVITY_KIND_MEMSET) {
        activity::WriteMemset(p.detail, fields);
    }
}

bool KernelMatcher::Overtaken(const Pending& p) const {
    const uint32_t n = progress_.Front(StreamKey(p.device, p.stream));
    if (n == kNil) return false;
    const Progress& g = progress_.At(n);
    if (g.pass == pass_ && !g.has_settled) return false;
    const Ended& e = g.pass == pass_ ? g.settled : g.newest;
    // Its track was known when the later task's end was parsed (so the later task was not merely
    // launched first from another thread), the later task launched after it, and its id is ahead.
    return p.seq < e.seen_seq && p.launch_ns <= e.launch_ns && TaskBefore(p.task, e.task, p.wide);
}

void KernelMatcher::DropLost(uint32_t device, bool all_devices, uint64_t lost_before_ns) {
    struct PassEnd {
        uint64_t& pass;
        ~PassEnd() { ++pass; }
    } pass_end{pass_};
    if (pending_.Empty()) return;
    for (const uint64_t key : pending_.Keys()) {
        if (!all_devices && !KeyOnDevice(key, device)) continue;
        for (uint32_t prev = kNil, n = pending_.Front(key); n != kNil;) {
            const Pending& p = pending_.At(n);
            const uint32_t next = pending_.Next(n);
            bool lost = false;
            bool done = false;
            if (!p.graph) {
                lost = p.launch_ns < lost_before_ns || Overtaken(p);
            } else if (p.retired_ns != 0) {
                // A retired graph task can execute no more once a task of the stream that reused its
                // key, launched at or after the retirement, has ended: its executions' logs came first.
                const uint32_t g = progress_.Front(StreamKey(p.device, p.stream));
                done = g != kNil && progress_.At(g).newest.launch_ns >= p.retired_ns;
            }
            if (lost || done) {
                if (lost) activity::Drops().Add(p.Kind(), MSPTI_DROP_REASON_DEVICE_HALF_LOST);
                pending_.Remove(key, prev, n);  // an emptied queue removes its key; `next` is then kNil
            } else {
                prev = n;
            }
            n = next;
        }
    }
}

void KernelMatcher::ExpireLost(uint32_t device, uint64_t flushed_ns) {
    DropLost(device, false, flushed_ns > kLostAfterNs ? flushed_ns - kLostAfterNs : 0);
}

void KernelMatcher::Sweep(uint64_t now_ns) {
    for (const uint64_t key : orphans_.Keys()) {
        for (uint32_t n = orphans_.Front(key); n != kNil && orphans_.At(n).seen_ns + kOrphanLifetimeNs < now_ns;
             n = orphans_.Front(key)) {
            orphans_.PopFront(key);
        }
    }
    DropLost(0, true, 0);
    pending_.ShrinkIfSparse();
    orphans_.ShrinkIfSparse();
    progress_.ShrinkIfSparse();
}

void KernelMatcher::ExpireSynced(uint32_t device, uint64_t flush_ns) {
    if (pending_.Empty()) return;
    uint32_t cached_stream = UINT32_MAX;  // the last stream looked up, and its synchronisation
    uint64_t synced = 0;
    for (const uint64_t key : pending_.Keys()) {
        if (!KeyOnDevice(key, device)) continue;
        for (uint32_t prev = kNil, n = pending_.Front(key); n != kNil;) {
            const uint32_t next = pending_.Next(n);
            const Pending& p = pending_.At(n);
            if (p.stream != cached_stream) {
                cached_stream = p.stream;
                synced = stream_syncs::ById(device, p.stream);
            }
            if (!p.graph && synced != 0 && p.launch_ns < synced && synced < flush_ns) {
                activity::Drops().Add(p.Kind(), MSPTI_DROP_REASON_DEVICE_HALF_LOST);
                pending_.Remove(key, prev, n);
            } else {
                prev = n;
            }
            n = next;
        }
    }
}

void KernelMatcher::DropDevice(uint32_t device) {
    for (const uint64_t key : pending_.Keys()) {
        if (!KeyOnDevice(key, device)) continue;
        for (uint32_t n = pending_.Front(key); n != kNil; n = pending_.Next(n)) {
            if (!pending_.At(n).graph) activity::Drops().Add(pending_.At(n).Kind(), MSPTI_DROP_REASON_DEVICE_HALF_LOST);
        }
        pending_.EraseKey(key);
    }
    for (const uint64_t key : orphans_.Keys()) {
        if (KeyOnDevice(key, device)) orphans_.EraseKey(key);
    }
    for (const uint64_t key : progress_.Keys()) {
        if (KeyOnDevice(key, device)) progress_.EraseKey(key);
    }
    progress_cached_key_ = kNoStreamKey;  // its node may be gone
}

}  // namespace mspti::seam
