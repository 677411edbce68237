// CANN's host timestamps and their conversion to the records' time base.
//
// CANN stamps its reports with CLOCK_MONOTONIC_RAW ns, unless msPTI tells it
// (profapi callback 13) that host-frequency mode is on: then it uses the raw
// host counter (rdtsc / cntvct), which converts with the frequency the driver
// reports (HOST_OSC_FREQUE, counts per ms). Host-frequency mode is on when the
// driver's API version supports it and it reports a frequency.
#pragma once

#include <atomic>
#include <cstdint>

#include "common/host_clock.h"

namespace mspti::seam::host_time {

namespace detail {
// The decision, once made: 0 not yet, 1 off, 2 on. Read on every API record, so the common case is
// one inline load; the rest is out of line (host_time.cpp).
extern std::atomic<int> g_decided;
[[gnu::noinline]] bool DecideHostFreq();
[[gnu::noinline]] uint64_t CounterToRecordTime(uint64_t counter);
}  // namespace detail

// Decided once per process (CANN asks once too).
inline bool HostFreqEnabled() {
    const int decided = detail::g_decided.load(std::memory_order_acquire);
    return decided != 0 ? decided == 2 : detail::DecideHostFreq();
}

// Now, in CANN's host time domain.
uint64_t CannNow();

// A CANN host timestamp in the records' time base.
inline uint64_t ToRecordTime(uint64_t cann_ts) {
    return HostFreqEnabled() ? detail::CounterToRecordTime(cann_ts) : host_clock::FromMonoRaw(cann_ts);
}
// Both ends of an interval of CANN host timestamps, in place.
inline void ToRecordTimes(uint64_t& begin, uint64_t& end) {
    if (HostFreqEnabled()) {
        begin = detail::CounterToRecordTime(begin);
        end = detail::CounterToRecordTime(end);
        return;
    }
    host_clock::FromMonoRaw(begin, end);
}

// ToRecordTimes without a call (for paths that must not call out): false, with the times unchanged,
// while host-frequency mode is undecided or on, or the clock offset is not measured yet.
inline bool TryToRecordTimes(uint64_t& begin, uint64_t& end) {
    uint64_t offset = 0;
    if (detail::g_decided.load(std::memory_order_acquire) != 1 || !host_clock::detail::MeasuredOffset(&offset)) {
        return false;
    }
    begin += offset;
    end += offset;
    return true;
}

// Re-measures the clock references.
void Resync();

// Makes CANN's own host clock (MsprofSysCycleTime) msPTI's monotonic source, so that msPTI's
// records and CANN's timestamps share one clock whatever clock CANN runs on (a simulator's
// virtual clock included). Only when CANN reports CLOCK_MONOTONIC_RAW-style ns (host-frequency
// mode off).
void UseCannClock();

}  // namespace mspti::seam::host_time
