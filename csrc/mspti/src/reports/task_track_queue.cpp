#include "reports/task_track_queue.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <type_traits>
#include <vector>

#include "activity/drop_counter.h"
#include "common/hot_tls.h"
#include "common/no_destructor.h"
#include "common/piecewise_copy.h"
#include "device/device_data.h"

namespace mspti::seam {
namespace {

// The events taken by one drain, in storage that only grows (to the largest drain). Growing copies in
// pieces too: a reallocating std::vector copies with one memcpy, a string instruction at these sizes.
template <typename Event>
class Batch {
    static_assert(std::is_trivially_copyable<Event>::value, "events are copied as bytes");

public:
    // Room for `more` events after the first `size`.
    Event* Reserve(size_t size, size_t more) {
        if (capacity_ - size < more) {
            size_t capacity = capacity_ == 0 ? 1024 : capacity_;
            while (capacity - size < more) capacity *= 2;
            std::unique_ptr<Event[]> bigger(new Event[capacity]);  // not zeroed: only taken events are read
            CopyInPieces(bigger.get(), data_.get(), size * sizeof(Event));
            data_ = std::move(bigger);
            capacity_ = capacity;
        }
        return data_.get() + size;
    }
    const Event* data() const { return data_.get(); }

private:
    std::unique_ptr<Event[]> data_;
    size_t capacity_ = 0;
};

// A single-producer ring of `Capacity` events (a power of two). The producer's and the consumer's
// positions sit on cache lines of their own, and the producer re-reads the consumer's position only
// when the ring looks full: the reader drains while the thread launches, and a shared line would
// move between the cores on every push.
template <typename Event, uint32_t Capacity>
struct Ring {
    static constexpr uint32_t kCapacity = Capacity;
    static constexpr size_t kLine = 64;
    alignas(kLine) std::atomic<uint32_t> tail{0};  // next slot to fill (the producer's)
    uint32_t head_seen = 0;                         // a past value of head (the producer's)
    alignas(kLine) std::atomic<uint32_t> head{0};  // next slot to consume (the consumer's)
    std::atomic<bool> thread_gone{false};
    alignas(kLine) Event slots[kCapacity];
};

// The rings of one event type: one per producing thread.
template <typename RingT>
class Rings {
public:
    static Rings& Get() {
        static NoDestructor<Rings> rings;
        return rings.get();
    }

    void Add(std::shared_ptr<RingT> ring) {
        std::lock_guard<std::mutex> lock(mutex_);
        rings_.push_back(std::move(ring));
        count_.store(static_cast<uint32_t>(rings_.size()), std::memory_order_release);
    }

    // Appends every queued event to the first `*size` of `batch`.
    template <typename Event>
    void Drain(Batch<Event>& batch, size_t* size) {
        // No ring, nothing to take: a drain (once per batch of device data) costs one load then.
        if (count_.load(std::memory_order_acquire) == 0) return;
        std::lock_guard<std::mutex> lock(mutex_);
        for (auto it = rings_.begin(); it != rings_.end();) {
            RingT& ring = **it;
            const bool gone = ring.thread_gone.load(std::memory_order_acquire);
            const uint32_t head = ring.head.load(std::memory_order_relaxed);
            const uint32_t tail = ring.tail.load(std::memory_order_acquire);
            const uint32_t count = tail - head;
            if (count != 0) {
                Event* out = batch.Reserve(*size, count);
                // The ring's events in at most two runs (it wraps once), copied in bulk.
                const uint32_t from = head % RingT::kCapacity;
                const uint32_t first = std::min(count, RingT::kCapacity - from);
                CopyInPieces(out, ring.slots + from, first * sizeof(Event));
                CopyInPieces(out + first, ring.slots, (count - first) * sizeof(Event));
                *size += count;
            }
            ring.head.store(tail, std::memory_order_release);
            if (gone && ring.tail.load(std::memory_order_acquire) == tail) {
                it = rings_.erase(it);
            } else {
                ++it;
            }
        }
        count_.store(static_cast<uint32_t>(rings_.size()), std::memory_order_release);
    }

    // `own`: the ring of the thread that forked (kept; the others' threads were not copied).
    void ForgetAfterFork(const RingT* own) {
        new (&mutex_) std::mutex();
        for (const auto& ring : rings_) {
            ring->head.store(ring->tail.load(std::memory_order_relaxed), std::memory_order_relaxed);
            if (ring.get() != own) ring->thread_gone.store(true, std::memory_order_relaxed);
        }
    }

private:
    std::mutex mutex_;
    std::vector<std::shared_ptr<RingT>> rings_;
    std::atomic<uint32_t> count_{0};  // rings_.size(), readable without the mutex
};

// A thread's ring of one type, registered at the thread's first push; `gone` is the thread's flag
// that it is exiting (its ring is then dropped once drained), `cached` the thread's pointer to the
// ring, cleared with it.
template <typename RingT>
struct LocalRing {
    std::shared_ptr<RingT> ring = std::make_shared<RingT>();
    bool* gone;
    RingT** cached;
    LocalRing(bool* gone_flag, RingT** cached_ring) : gone(gone_flag), cached(cached_ring) {
        Rings<RingT>::Get().Add(ring);
    }
    ~LocalRing() {
        *gone = true;
        *cached = nullptr;
        ring->thread_gone.store(true, std::memory_order_release);  // the consumer drops it once drained
    }
    LocalRing(const LocalRing&) = delete;
    LocalRing& operator=(const LocalRing&) = delete;
};

// Kernels: ~10 ms of launches at full rate. Copies and fills are far fewer per thread.
using KernelRing = Ring<TrackEvent, 16384>;
using CopyRing = Ring<CopyTrackEvent, 1024>;

// The calling thread's rings (made on its first push), nullptr once the thread is exiting. Plain
// thread-locals of this file, one set per type: the kernels' is reached on every traced launch.
MSPTI_HOT_TLS thread_local bool t_kernel_gone = false;
MSPTI_HOT_TLS thread_local KernelRing* t_kernel_ring = nullptr;
thread_local bool t_copy_gone = false;
thread_local CopyRing* t_copy_ring = nullptr;

KernelRing* Local(KernelRing*) {
    if (t_kernel_gone) return nullptr;
    thread_local LocalRing<KernelRing> local(&t_kernel_gone, &t_kernel_ring);
    t_kernel_ring = local.ring.get();
    return t_kernel_ring;
}

CopyRing* Local(CopyRing*) {
    if (t_copy_gone) return nullptr;
    thread_local LocalRing<CopyRing> local(&t_copy_gone, &t_copy_ring);
    t_copy_ring = local.ring.get();
    return t_copy_ring;
}

// The thread's ring once made (one initial-exec load), nullptr before its first push and once the
// thread is exiting.
KernelRing* Cached(KernelRing*) { return t_kernel_ring; }
CopyRing* Cached(CopyRing*) { return t_copy_ring; }

// Whether the ring has room for one more event (its consumer's head is looked at again only when
// the last look saw it full).
template <typename RingT>
bool HasRoom(RingT& ring) {
    const uint32_t tail = ring.tail.load(std::memory_order_relaxed);
    if (tail - ring.head_seen < RingT::kCapacity) return true;
    ring.head_seen = ring.head.load(std::memory_order_acquire);  // head only grows: look again
    return tail - ring.head_seen < RingT::kCapacity;
}

// The calling thread's ring with room for one event; a full ring is drained by the caller itself
// (rare, so a lock is fine). nullptr when there is none: the event is counted as a dropped record
// of `kind`.
template <typename RingT>
RingT* RingWithRoom(msptiActivityKind kind) {
    RingT* ring = Cached(static_cast<RingT*>(nullptr));
    if (__builtin_expect(ring == nullptr, 0)) ring = Local(static_cast<RingT*>(nullptr));
    if (__builtin_expect(ring != nullptr && HasRoom(*ring), 1)) return ring;
    if (ring != nullptr) {
        DeviceData::Instance().DrainHostQueues();
        if (HasRoom(*ring)) return ring;
    }
    activity::Drops().Add(kind, MSPTI_DROP_REASON_NO_BUFFER);
    return nullptr;
}

template <typename RingT>
auto& TailSlot(RingT& ring) {
    return ring.slots[ring.tail.load(std::memory_order_relaxed) % RingT::kCapacity];
}

template <typename RingT>
void Publish(RingT& ring) {
    ring.tail.store(ring.tail.load(std::memory_order_relaxed) + 1, std::memory_order_release);
}

// Copied out first: the caller's matching writes records, which may call into the client, which must
// not find the registry locked. The batch is guarded by the device-data mutex (one drainer at a time)
// and is not a thread-local: the exit flush drains on the exiting thread, whose thread-locals exit()
// has already destroyed.
template <typename RingT, typename Event>
EventSpan<Event> Take() {
    static NoDestructor<Batch<Event>> storage;
    Batch<Event>& batch = storage.get();
    size_t size = 0;
    Rings<RingT>::Get().Drain(batch, &size);
    return {batch.data(), size};
}

}  // namespace

TrackEvent* BeginTrack() {
    KernelRing* ring = RingWithRoom<KernelRing>(MSPTI_ACTIVITY_KIND_KERNEL);
    return ring != nullptr ? &TailSlot(*ring) : nullptr;
}

TrackEvent* TryBeginTrack() {
    KernelRing* ring = Cached(static_cast<KernelRing*>(nullptr));
    return ring != nullptr && HasRoom(*ring) ? &TailSlot(*ring) : nullptr;
}

void EndTrack() { Publish(*t_kernel_ring); }

void PushCopyTrack(const CopyTrackEvent& event) {
    if (CopyRing* ring = RingWithRoom<CopyRing>(event.kind)) {
        TailSlot(*ring) = event;
        Publish(*ring);
    }
}

void ForgetTracksAfterFork() {
    Rings<KernelRing>::Get().ForgetAfterFork(t_kernel_ring);
    Rings<CopyRing>::Get().ForgetAfterFork(t_copy_ring);
}

EventSpan<TrackEvent> TakeTracks() { return Take<KernelRing, TrackEvent>(); }

EventSpan<CopyTrackEvent> TakeCopyTracks() { return Take<CopyRing, CopyTrackEvent>(); }

}  // namespace mspti::seam
