// Device timestamps (driver SYS_COUNT counts) in the records' time base.
//
// At device start msPTI reads the device counter frequency (DEV_OSC_FREQUE,
// counts per ms) and the counter itself (SYS_COUNT) between two host clock
// reads; a device count then converts as
//   ref_time + (count - ref_count) * 1e6 / freq.
// The reference is re-measured periodically to follow drift.
#pragma once

#include <cstdint>

namespace mspti::seam::device_time {

constexpr uint32_t kMaxDevices = 64;

// Measures (or re-measures) the reference of a device. False if the driver gave no counter.
bool Sync(uint32_t device);
// Re-measures every device synced before.
void ResyncAll();
// A device count in the records' time base; 0 when the device has no reference (never synced).
uint64_t ToRecordTime(uint32_t device, uint64_t count);

}  // namespace mspti::seam::device_time
