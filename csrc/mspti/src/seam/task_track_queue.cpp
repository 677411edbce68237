#include "seam/task_track_queue.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <new>
#include <vector>

#include "activity/drop_counter.h"
#include "common/no_destructor.h"
#include "seam/device_data.h"

namespace mspti::seam {
namespace {

// A single-producer ring. The producer's and the consumer's positions sit on cache lines of their
// own, and the producer re-reads the consumer's position only when the ring looks full: the reader
// drains while the thread launches, and a shared line would move between the cores on every push.
struct Ring {
    static constexpr uint32_t kCapacity = 16384;  // a power of two; ~10 ms of launches at full rate
    static constexpr size_t kLine = 64;
    alignas(kLine) std::atomic<uint32_t> tail{0};  // next slot to fill (the producer's)
    uint32_t head_seen = 0;                         // a past value of head (the producer's)
    alignas(kLine) std::atomic<uint32_t> head{0};  // next slot to consume (the consumer's)
    std::atomic<bool> thread_gone{false};
    alignas(kLine) TrackEvent slots[kCapacity];
};

struct Registry {
    std::mutex mutex;
    std::vector<std::shared_ptr<Ring>> rings;
};

Registry& GetRegistry() {
    static NoDestructor<Registry> registry;
    return registry.get();
}

thread_local bool t_ring_gone = false;
thread_local Ring* t_ring = nullptr;  // the calling thread's ring, once it has one

struct LocalRing {
    std::shared_ptr<Ring> ring = std::make_shared<Ring>();
    LocalRing() {
        Registry& r = GetRegistry();
        std::lock_guard<std::mutex> lock(r.mutex);
        r.rings.push_back(ring);
    }
    ~LocalRing() {
        t_ring_gone = true;
        ring->thread_gone.store(true, std::memory_order_release);  // the consumer drops it once drained
    }
    LocalRing(const LocalRing&) = delete;
    LocalRing& operator=(const LocalRing&) = delete;
};

Ring* Local() {
    if (t_ring_gone) return nullptr;
    thread_local LocalRing local;
    t_ring = local.ring.get();
    return t_ring;
}

bool TryPush(Ring& ring, const TrackEvent& event) {
    const uint32_t tail = ring.tail.load(std::memory_order_relaxed);
    if (tail - ring.head_seen >= Ring::kCapacity) {
        ring.head_seen = ring.head.load(std::memory_order_acquire);  // head only grows: look again
        if (tail - ring.head_seen >= Ring::kCapacity) return false;
    }
    ring.slots[tail % Ring::kCapacity] = event;
    ring.tail.store(tail + 1, std::memory_order_release);
    return true;
}

}  // namespace

void PushTrack(const TrackEvent& event) {
    const auto kind = static_cast<msptiActivityKind>(event.kind);  // read on the drop paths only
    Ring* ring = Local();
    if (ring == nullptr) {
        activity::Drops().Add(kind, MSPTI_DROP_REASON_NO_BUFFER);
        return;
    }
    if (TryPush(*ring, event)) return;
    // The parser has fallen behind by a whole ring: consume the rings here (rare, so a lock is fine).
    DeviceData::Instance().DrainHostQueues();
    if (!TryPush(*ring, event)) activity::Drops().Add(kind, MSPTI_DROP_REASON_NO_BUFFER);
}

void ForgetTracksAfterFork() {
    Registry& r = GetRegistry();
    new (&r.mutex) std::mutex();
    for (const auto& ring : r.rings) {
        ring->head.store(ring->tail.load(std::memory_order_relaxed), std::memory_order_relaxed);
        if (ring.get() != t_ring) ring->thread_gone.store(true, std::memory_order_relaxed);
    }
}

void DrainTracks(const std::function<void(const TrackEvent&)>& sink) {
    // Copied out first: the sink writes records, which may call into the client, which must not
    // find the registry locked. The batch is guarded by the device-data mutex (one drainer at a
    // time) and is not a thread-local: the exit flush drains on the exiting thread, whose
    // thread-locals exit() has already destroyed.
    static NoDestructor<std::vector<TrackEvent>> storage;
    std::vector<TrackEvent>& batch = storage.get();
    batch.clear();
    {
        Registry& r = GetRegistry();
        std::lock_guard<std::mutex> lock(r.mutex);
        for (auto it = r.rings.begin(); it != r.rings.end();) {
            Ring& ring = **it;
            const bool gone = ring.thread_gone.load(std::memory_order_acquire);
            uint32_t head = ring.head.load(std::memory_order_relaxed);
            const uint32_t tail = ring.tail.load(std::memory_order_acquire);
            for (; head != tail; ++head) batch.push_back(ring.slots[head % Ring::kCapacity]);
            ring.head.store(head, std::memory_order_release);
            if (gone && ring.tail.load(std::memory_order_acquire) == head) {
                it = r.rings.erase(it);
            } else {
                ++it;
            }
        }
    }
    for (const TrackEvent& e : batch) sink(e);
}

}  // namespace mspti::seam
