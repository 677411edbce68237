// Device markers coming back from the device (step traces with tag 11): either
// the device half of an mstx mark/range, or one of the hidden markers that time
// an HCCL operation (routed to the HCCL reporter, never reported as MARKER).
#pragma once

#include <cstdint>

namespace mspti::markers {

// Called by the channel parser (under the device-data mutex).
void OnDeviceMarker(uint32_t device, uint32_t stream, uint64_t id, uint64_t flag, uint64_t count);
// The device's channel 44 stopped.
void DropDeviceMarkers(uint32_t device);

}  // namespace mspti::markers
