// CANN's host timestamps and their conversion to the records' time base.
//
// CANN stamps its reports with CLOCK_MONOTONIC_RAW ns, unless msPTI tells it
// (profapi callback 13) that host-frequency mode is on: then it uses the raw
// host counter (rdtsc / cntvct), which converts with the frequency the driver
// reports (HOST_OSC_FREQUE, counts per ms). Host-frequency mode is on when the
// driver's API version supports it and it reports a frequency.
#pragma once

#include <cstdint>

namespace mspti::seam::host_time {

// Decided once per process (CANN asks once too).
bool HostFreqEnabled();

// Now, in CANN's host time domain.
uint64_t CannNow();

// A CANN host timestamp in the records' time base.
uint64_t ToRecordTime(uint64_t cann_ts);
// Both ends of an interval of CANN host timestamps, in place.
void ToRecordTimes(uint64_t& begin, uint64_t& end);

// Re-measures the clock references.
void Resync();

// Makes CANN's own host clock (MsprofSysCycleTime) msPTI's monotonic source, so that msPTI's
// records and CANN's timestamps share one clock whatever clock CANN runs on (a simulator's
// virtual clock included). Only when CANN reports CLOCK_MONOTONIC_RAW-style ns (host-frequency
// mode off).
void UseCannClock();

}  // namespace mspti::seam::host_time
