// MEMCPY and MEMSET records, written in one place: the interposed calls' records
// (interpose/memory_reporter.cpp) and the stream tasks' (device/kernel_matcher.cpp) share every field
// but the copy kind or the fill value.
#pragma once

#include <cstdint>

#include "activity/buffer_manager.h"
#include "mspti/mspti_activity.h"

namespace mspti::activity {

// What a copy's and a fill's record share.
struct CopyFields {
    uint64_t bytes;
    uint64_t start;
    uint64_t end;
    uint32_t device_id;
    uint32_t stream_id;
    uint64_t correlation_id;
    bool async;
};

template <typename Record>
inline Record CopyRecord(msptiActivityKind kind, const CopyFields& f) {
    Record record{};
    record.kind = kind;
    record.bytes = f.bytes;
    record.start = f.start;
    record.end = f.end;
    record.deviceId = f.device_id;
    record.streamId = f.stream_id;
    record.correlationId = f.correlation_id;
    record.isAsync = f.async ? 1 : 0;
    return record;
}

inline void WriteMemcpy(msptiActivityMemcpyKind copy_kind, const CopyFields& fields) {
    auto record = CopyRecord<msptiActivityMemcpy>(MSPTI_ACTIVITY_KIND_MEMCPY, fields);
    record.copyKind = copy_kind;
    BufferManager::Instance().Write(record);
}

inline void WriteMemset(uint32_t value, const CopyFields& fields) {
    auto record = CopyRecord<msptiActivityMemset>(MSPTI_ACTIVITY_KIND_MEMSET, fields);
    record.value = value;
    BufferManager::Instance().Write(record);
}

}  // namespace mspti::activity
