// OVERHEAD records: the time msPTI itself spends in the client's buffer callbacks (RequestFunc,
// CompleteFunc) and in starting and stopping device collection.
//
// They are made only where that work happens, never per record: a traced launch pays nothing for
// them, enabled or not. A buffer request's record is the first record of the buffer it obtained
// (BufferManager writes it there); a flush's record is written after CompleteFunc returned, on the
// delivering thread, so it reaches the client with a later buffer.
#pragma once

#include <cstddef>
#include <cstdint>

#include "activity/kinds.h"
#include "mspti/mspti_activity.h"

namespace mspti::activity::overhead {

inline bool On() { return Enabled(MSPTI_ACTIVITY_KIND_OVERHEAD); }

// A record of the calling thread (objectKind THREAD, pt = this process and thread).
msptiActivityOverhead ThreadRecord(msptiActivityOverheadKind kind, uint64_t start, uint64_t end);

// Whether a buffer's records include one that is not an OVERHEAD record. A buffer of overhead records
// only gets no FLUSH record of its own, so that overhead records never keep buffers cycling.
bool HoldsOtherRecords(const uint8_t* data, size_t valid);

// Times a scope that creates or destroys a device resource (a collection channel) and records it as
// MSPTI_RESOURCE of that device (objectKind DEVICE, ds = {device, MSPTI_INVALID_STREAM_ID}).
class DeviceScope {
public:
    explicit DeviceScope(uint32_t device);
    ~DeviceScope();
    DeviceScope(const DeviceScope&) = delete;
    DeviceScope& operator=(const DeviceScope&) = delete;

private:
    uint32_t device_;
    uint64_t start_;
    bool on_;
};

}  // namespace mspti::activity::overhead
