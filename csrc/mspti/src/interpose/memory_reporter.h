// MEMORY, MEMCPY and MEMSET records of the interposed aclrt* memory functions:
// host times around the real call, the calling thread's current device, the
// stream id of asynchronous calls, and the call's correlation id. Only successful calls are
// reported (a failed allocation has no address, a failed copy moved nothing).
#pragma once

#include <acl/acl_rt.h>

#include <cstdint>

#include "mspti/mspti_activity.h"

namespace mspti::interpose::memory {

// The msPTI copy kind of an ACL copy kind (inner/inter device-to-device and unknown kinds: UNKNOWN).
msptiActivityMemcpyKind CopyKind(aclrtMemcpyKind kind);

void ReportAllocation(uint64_t correlation_id, uint64_t start, uint64_t end, const void* address, uint64_t bytes);
void ReportRelease(uint64_t correlation_id, uint64_t start, uint64_t end, const void* address);
void ReportMemcpy(uint64_t correlation_id, uint64_t start, uint64_t end, aclrtMemcpyKind kind, uint64_t bytes,
                  bool async, aclrtStream stream);
void ReportMemset(uint64_t correlation_id, uint64_t start, uint64_t end, int32_t value, uint64_t bytes, bool async,
                  aclrtStream stream);

}  // namespace mspti::interpose::memory
