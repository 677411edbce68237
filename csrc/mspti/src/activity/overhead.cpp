#include "activity/overhead.h"

#include <cstring>

#include "activity/buffer_manager.h"
#include "common/host_clock.h"
#include "common/thread_id.h"

namespace mspti::activity::overhead {

msptiActivityOverhead ThreadRecord(msptiActivityOverheadKind kind, uint64_t start, uint64_t end) {
    msptiActivityOverhead r;
    std::memset(&r, 0, sizeof r);
    r.kind = MSPTI_ACTIVITY_KIND_OVERHEAD;
    r.overheadKind = kind;
    r.objectKind = MSPTI_ACTIVITY_OBJECT_THREAD;
    r.objectId.pt.processId = CurrentProcessId();
    r.objectId.pt.threadId = CurrentThreadId();
    r.start = start;
    r.end = end;
    r.correlationId = MSPTI_INVALID_CORRELATION_ID;
    r.overheadData = nullptr;
    return r;
}

bool HoldsOtherRecords(const uint8_t* data, size_t valid) {
    size_t offset = 0;
    while (valid - offset >= sizeof(int32_t)) {
        int32_t kind = 0;
        std::memcpy(&kind, data + offset, sizeof kind);
        if (kind != MSPTI_ACTIVITY_KIND_OVERHEAD) return true;
        offset += sizeof(msptiActivityOverhead);
        if (offset >= valid) break;
    }
    return false;
}

DeviceScope::DeviceScope(uint32_t device) : device_(device), start_(0), on_(On()) {
    if (on_) start_ = host_clock::Now();
}

DeviceScope::~DeviceScope() {
    if (!on_) return;
    msptiActivityOverhead r;
    std::memset(&r, 0, sizeof r);
    r.kind = MSPTI_ACTIVITY_KIND_OVERHEAD;
    r.overheadKind = MSPTI_ACTIVITY_OVERHEAD_MSPTI_RESOURCE;
    r.objectKind = MSPTI_ACTIVITY_OBJECT_DEVICE;
    r.objectId.ds.deviceId = device_;
    r.objectId.ds.streamId = MSPTI_INVALID_STREAM_ID;
    r.start = start_;
    r.end = host_clock::Now();
    r.correlationId = MSPTI_INVALID_CORRELATION_ID;
    r.overheadData = nullptr;
    BufferManager::Instance().Write(r);
}

}  // namespace mspti::activity::overhead
