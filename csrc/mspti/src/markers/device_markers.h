// Device markers coming back from the device (step traces with tag 11): either
// the device half of an mstx mark/range, or one of the hidden markers that time
// an HCCL operation (routed to the HCCL reporter, never reported as MARKER).
//
// The device half of an mstx marker is owed from the moment msPTI asks the runtime
// to place it until it arrives, or is counted as dropped (DEVICE_HALF_LOST): when
// its stream was synchronised after it was placed and a flush that began after that
// did not find it, or when the device's channel stops. A device half that was not
// placed by this process (or was already counted) is ignored.
#pragma once

#include <cstdint>

namespace mspti::markers {

// Before aclrtProfTrace: the device half of marker `id` with `flag` (a *_WITH_DEVICE flag) is owed.
// False if it can never come because the device's step-trace channel is not collecting (its
// collection could not start): then it is counted as dropped, reason COLLECTION_FAILED, not owed.
bool NotePlaced(uint64_t id, uint64_t flag, const void* stream);
// aclrtProfTrace refused it: not owed after all (the caller counts it).
void Unplace(uint64_t id, uint64_t flag);

// Called by the channel parser (under the device-data mutex).
void OnDeviceMarker(uint32_t device, uint32_t stream, uint64_t id, uint64_t flag, uint64_t count);
// After a flush of the device's channel 44 that began at `flush_ns` (records' time base): device
// halves still owed on streams synchronised after they were placed (and before the flush) are lost.
void ExpireSynced(uint32_t device, uint64_t flush_ns);
// The device's channel 44 stopped: every device half still owed on it is lost.
void DropDeviceMarkers(uint32_t device);
// fork(), in the child: the owed device halves are the parent's.
void ForgetAfterFork();

}  // namespace mspti::markers
