// HCCL records: an interposed HCCL operation is bracketed by two hidden device
// markers on its stream (START_WITH_DEVICE before the call, END_WITH_DEVICE
// after); when both come back from the device, one HCCL record is emitted with
// the device times, the communicator name and the bandwidth
// (bytes / duration, i.e. GB/s).
#pragma once

#include <cstdint>

#include "interpose/hccl_api.h"

namespace mspti::interpose::hccl {

// Bytes of one element of an HCCL data type, 0 when unknown.
uint64_t DataTypeSize(int64_t data_type);

// Places the start marker if HCCL records are collected; returns the marker id (0: nothing placed).
uint64_t BeginOp(const char* name, HcclComm comm, uint64_t bytes, aclrtStream stream);
void EndOp(uint64_t id, aclrtStream stream);

// Device side (under the device-data mutex). True if `id` belongs to an HCCL operation.
bool OnInnerMarker(uint32_t device, uint32_t stream, uint64_t id, uint64_t flag, uint64_t count);
void DropDevice(uint32_t device);
// fork(), in the child: the operators in flight are the parent's (neither reported nor counted here).
void ForgetAfterFork();

// The rank size of a communicator (0 when unknown).
uint32_t RankSize(HcclComm comm);

}  // namespace mspti::interpose::hccl
