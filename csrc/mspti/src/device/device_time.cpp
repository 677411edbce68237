#include "device/device_time.h"

#include <atomic>
#include <mutex>

#include "common/host_clock.h"
#include "common/log.h"
#include "common/no_destructor.h"
#include "common/seqlock.h"
#include "cann/cann_api.h"

namespace mspti::seam::device_time {
namespace {

// Without a frequency from the driver, assume nanosecond ticks (1e6 per ms), the unit the
// conversion formula uses; a wrong guess shifts times but never scales them by 1000.
constexpr uint64_t kDefaultFreqPerMs = 1000000;
// Counter reads per reference measurement (at device start and every resync).
constexpr int kSyncSamples = 3;

struct Reference {
    uint64_t record_ns;
    uint64_t count;
    uint64_t freq_per_ms;
    uint64_t valid;
};

struct Table {
    std::mutex write_mutex;
    SeqLock<Reference> refs[kMaxDevices];
};

Table& GetTable() {
    static NoDestructor<Table> table;
    return table.get();
}

}  // namespace

namespace detail {
std::atomic<uint64_t> g_ns_offset[kMaxDevices];
}  // namespace detail

bool Sync(uint32_t device) {
    if (device >= kMaxDevices) return false;
    auto info = cann::halGetDeviceInfo.get();
    if (info == nullptr) return false;
    int64_t freq = 0;
    if (info(device, MODULE_TYPE_SYSTEM, INFO_TYPE_DEV_OSC_FREQUE, &freq) != DRV_ERROR_NONE || freq <= 0) {
        MSPTI_LOGW("device %u: no DEV_OSC_FREQUE, assuming %llu counts/ms", device,
                   static_cast<unsigned long long>(kDefaultFreqPerMs));
        freq = static_cast<int64_t>(kDefaultFreqPerMs);
    }
    // The counter is read between two host clock reads and taken to belong to their midpoint, so a
    // reference is off by up to half the gap between them. Device times are compared with host
    // launch times (a device start after the launch that reused a graph task's key belongs to the new
    // task), so the sample with the smallest gap of a few is kept: one preempted or slowed read does
    // not shift every device time by its delay.
    uint64_t best_gap = UINT64_MAX;
    uint64_t record_ns = 0;
    int64_t best_count = 0;
    for (int sample = 0; sample < kSyncSamples; ++sample) {
        int64_t count = 0;
        const uint64_t before = host_clock::Now();
        const int rc = info(device, MODULE_TYPE_SYSTEM, INFO_TYPE_SYS_COUNT, &count);
        const uint64_t after = host_clock::Now();
        if (rc != DRV_ERROR_NONE) {
            MSPTI_LOGE("device %u: SYS_COUNT failed (%d); device times stay unconverted", device, rc);
            return false;
        }
        if (after - before < best_gap) {
            best_gap = after - before;
            record_ns = before + (after - before) / 2;
            best_count = count;
        }
    }
    Table& t = GetTable();
    std::lock_guard<std::mutex> lock(t.write_mutex);
    const Reference ref{record_ns, static_cast<uint64_t>(best_count), static_cast<uint64_t>(freq), 1};
    t.refs[device].Store(ref);
    // An offset whose flipped form is 0 (record_ns - count == 2^63) takes the scaled path, which
    // gives the same time.
    detail::g_ns_offset[device].store(
        ref.freq_per_ms == 1000000 ? (ref.record_ns - ref.count) ^ detail::kOffsetFlip : 0, std::memory_order_release);
    return true;
}

void ResyncAll() {
    for (uint32_t d = 0; d < kMaxDevices; ++d) {
        if (GetTable().refs[d].Load().valid != 0) Sync(d);
    }
}

namespace detail {

uint64_t ToRecordTimeScaled(uint32_t device, uint64_t count) {
    if (device >= kMaxDevices) return 0;
    const Reference ref = GetTable().refs[device].Load();
    if (ref.valid == 0 || ref.freq_per_ms == 0) return 0;
    const auto delta = static_cast<__int128>(count) - static_cast<__int128>(ref.count);
    // A nanosecond counter (1,000,000 counts per ms) converts without the 128-bit division.
    if (ref.freq_per_ms == 1000000) return static_cast<uint64_t>(static_cast<__int128>(ref.record_ns) + delta);
    return static_cast<uint64_t>(static_cast<__int128>(ref.record_ns) +
                                 delta * 1000000 / static_cast<__int128>(ref.freq_per_ms));
}

}  // namespace detail

}  // namespace mspti::seam::device_time
