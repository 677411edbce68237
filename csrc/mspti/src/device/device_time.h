// Device timestamps (driver SYS_COUNT counts) in the records' time base.
//
// At device start msPTI reads the device counter frequency (DEV_OSC_FREQUE,
// counts per ms) and the counter itself (SYS_COUNT) between two host clock
// reads; a device count then converts as
//   ref_time + (count - ref_count) * 1e6 / freq.
// The reference is re-measured periodically to follow drift.
#pragma once

#include <atomic>
#include <cstdint>

namespace mspti::seam::device_time {

constexpr uint32_t kMaxDevices = 64;

// Measures (or re-measures) the reference of a device. False if the driver gave no counter.
bool Sync(uint32_t device);
// Re-measures every device synced before.
void ResyncAll();
// A device count in the records' time base; 0 when the device has no reference (never synced).
inline uint64_t ToRecordTime(uint32_t device, uint64_t count);

namespace detail {
// Per device whose counter ticks in ns (the simulator's and the common case), record_ns - count with
// its sign bit flipped, so that the zero of static initialisation means "none": such a device's
// conversion is one load and one add, inline at every record.
extern std::atomic<uint64_t> g_ns_offset[kMaxDevices];
constexpr uint64_t kOffsetFlip = uint64_t{1} << 63;
// Any other device: the whole reference, under its sequence lock.
uint64_t ToRecordTimeScaled(uint32_t device, uint64_t count);
}  // namespace detail

// Both ends of a span, with one look at the device's reference.
inline void ToRecordTimes(uint32_t device, uint64_t start_count, uint64_t end_count, uint64_t* start, uint64_t* end) {
    if (device < kMaxDevices) {
        const uint64_t flipped = detail::g_ns_offset[device].load(std::memory_order_acquire);
        if (flipped != 0) {
            const uint64_t offset = flipped ^ detail::kOffsetFlip;
            *start = start_count + offset;
            *end = end_count + offset;
            return;
        }
    }
    *start = ToRecordTime(device, start_count);
    *end = ToRecordTime(device, end_count);
}

inline uint64_t ToRecordTime(uint32_t device, uint64_t count) {
    if (device >= kMaxDevices) return 0;
    const uint64_t flipped = detail::g_ns_offset[device].load(std::memory_order_acquire);
    if (flipped != 0) return count + (flipped ^ detail::kOffsetFlip);
    return detail::ToRecordTimeScaled(device, count);
}

}  // namespace mspti::seam::device_time
