// Extensions of this implementation (mspti_ext.h).
#include "activity/drop_counter.h"
#include "activity/kinds.h"
#include "common/host_clock.h"
#include "mspti/mspti_ext.h"

extern "C" {

MSPTI_API const char* msptiResultGetString(msptiResult result) {
    switch (result) {
        case MSPTI_SUCCESS: return "MSPTI_SUCCESS";
        case MSPTI_ERROR_INVALID_PARAMETER: return "MSPTI_ERROR_INVALID_PARAMETER";
        case MSPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED: return "MSPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED";
        case MSPTI_ERROR_MAX_LIMIT_REACHED: return "MSPTI_ERROR_MAX_LIMIT_REACHED";
        case MSPTI_ERROR_DEVICE_OFFLINE: return "MSPTI_ERROR_DEVICE_OFFLINE";
        case MSPTI_ERROR_QUEUE_EMPTY: return "MSPTI_ERROR_QUEUE_EMPTY";
        case MSPTI_ERROR_WITHOUT_LD_PRELOAD: return "MSPTI_ERROR_WITHOUT_LD_PRELOAD";
        case MSPTI_ERROR_NOT_INITIALIZED: return "MSPTI_ERROR_NOT_INITIALIZED";
        case MSPTI_ERROR_INVALID_KIND: return "MSPTI_ERROR_INVALID_KIND";
        case MSPTI_ERROR_PARAMETER_SIZE_NOT_SUFFICIENT: return "MSPTI_ERROR_PARAMETER_SIZE_NOT_SUFFICIENT";
        case MSPTI_ERROR_INNER: return "MSPTI_ERROR_INNER";
        default: return "MSPTI_ERROR_UNKNOWN";
    }
}

MSPTI_API msptiResult msptiActivityGetDroppedRecords(msptiActivityKind kind, uint64_t* dropped) {
    if (dropped == nullptr) return MSPTI_ERROR_INVALID_PARAMETER;
    if (kind != MSPTI_ACTIVITY_KIND_INVALID && !mspti::activity::IsValidKind(kind))
        return MSPTI_ERROR_INVALID_PARAMETER;
    *dropped = mspti::activity::Drops().Get(kind);
    return MSPTI_SUCCESS;
}

MSPTI_API msptiResult msptiActivityGetDroppedRecordsByReason(msptiActivityKind kind, msptiDropReason reason,
                                                             uint64_t* count) {
    if (count == nullptr) return MSPTI_ERROR_INVALID_PARAMETER;
    if (kind != MSPTI_ACTIVITY_KIND_INVALID && !mspti::activity::IsValidKind(kind))
        return MSPTI_ERROR_INVALID_PARAMETER;
    if (reason != MSPTI_DROP_REASON_ANY && !mspti::activity::IsValidDropReason(reason)) {
        return MSPTI_ERROR_INVALID_PARAMETER;
    }
    *count = mspti::activity::Drops().Get(kind, reason);
    return MSPTI_SUCCESS;
}

MSPTI_API msptiResult msptiGetTimestamp(uint64_t* timestamp) {
    if (timestamp == nullptr) return MSPTI_ERROR_INVALID_PARAMETER;
    *timestamp = mspti::host_clock::Now();
    return MSPTI_SUCCESS;
}

}  // extern "C"
