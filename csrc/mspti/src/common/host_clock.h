// The only place msPTI reads host time.
//
// Records carry nanoseconds since the Unix epoch (the CLOCK_REALTIME domain,
// like CANN's msPTI). msPTI's own time base is CLOCK_MONOTONIC_RAW plus an
// offset to CLOCK_REALTIME that is measured at start and re-measured now and
// then (Resync), so that records taken by msPTI and timestamps CANN reports in
// CLOCK_MONOTONIC_RAW convert through the same reference and compare exactly.
//
// A different time source (a virtual clock) can be installed with SetSource.
#pragma once

#include <atomic>
#include <cstdint>

namespace mspti::host_clock {

struct Source {
    uint64_t (*realtime_ns)();   // CLOCK_REALTIME ns
    uint64_t (*monoraw_ns)();    // CLOCK_MONOTONIC_RAW ns (CANN's host timestamps)
    uint64_t (*counter)();       // the raw host counter CANN uses in host-frequency mode
};

// The system clocks.
const Source& SystemSource();

// Installs a time source (nullptr restores the system clocks) and re-measures the offset.
void SetSource(const Source* source);

uint64_t RealtimeNs();
uint64_t MonoRawNs();
uint64_t Counter();

// Re-measures the monotonic-raw to realtime offset.
void Resync();

namespace detail {
// realtime - monoraw, as a signed value (two's complement in a uint64), valid once measured. Inline
// readers: every API record converts its times through it.
extern std::atomic<int64_t> g_offset;
extern std::atomic<bool> g_offset_valid;

inline uint64_t Offset() {
    if (__builtin_expect(!g_offset_valid.load(std::memory_order_acquire), 0)) Resync();
    return static_cast<uint64_t>(g_offset.load(std::memory_order_relaxed));
}
// The offset without measuring it: false while it has not been measured.
inline bool MeasuredOffset(uint64_t* offset) {
    if (!g_offset_valid.load(std::memory_order_acquire)) return false;
    *offset = static_cast<uint64_t>(g_offset.load(std::memory_order_relaxed));
    return true;
}
}  // namespace detail

// Now in the records' time base (epoch ns).
uint64_t Now();
// Converts a CLOCK_MONOTONIC_RAW ns value to the records' time base.
inline uint64_t FromMonoRaw(uint64_t monoraw_ns) { return monoraw_ns + detail::Offset(); }
// The same for both ends of an interval (one look at the offset).
inline void FromMonoRaw(uint64_t& begin_ns, uint64_t& end_ns) {
    const uint64_t offset = detail::Offset();
    begin_ns += offset;
    end_ns += offset;
}

// A client clock (msptiActivityRegisterTimestampCallback) that takes CLOCK_REALTIME's place as the
// epoch of the records: the offset is then measured against it (at once, and at every Resync), so
// every record's time, CANN's and the device's included, follows the client's clock. nullptr
// restores CLOCK_REALTIME.
void SetClientClock(uint64_t (*clock)());
uint64_t (*ClientClock())();

}  // namespace mspti::host_clock
