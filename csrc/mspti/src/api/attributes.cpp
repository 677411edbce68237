// The newer Activity API of CANN's msPTI (mspti_activity.h, mspti_result.h): version, record sizes,
// enabled kinds, attributes, the client timestamp callback, dropped-record count, result strings.
#include <atomic>
#include <cstring>

#include "activity/drop_counter.h"
#include "activity/kinds.h"
#include "common/attributes.h"
#include "common/host_clock.h"
#include "mspti/mspti_activity.h"
#include "mspti/mspti_result.h"

namespace {

using namespace mspti;

// The API level these headers match (xxyyzz): 26.2.0.
constexpr uint32_t kApiVersion = 260200;

size_t AttributeSize(msptiActivityAttribute attr) {
    switch (attr) {
        case MSPTI_ACTIVITY_ATTR_CHANNEL_BUFFER_SIZE: return sizeof(uint32_t);
        case MSPTI_ACTIVITY_ATTR_TIMESTAMP_CALLBACK: return sizeof(msptiTimestampCallbackFunc);
        default: return 0;
    }
}

// Checks the arguments common to Set/GetAttribute; SUCCESS leaves the attribute's size in *size.
msptiResult CheckAttributeArgs(msptiActivityAttribute attr, const size_t* valueSize, const void* value, size_t* size) {
    if (valueSize == nullptr || value == nullptr) return MSPTI_ERROR_INVALID_PARAMETER;
    *size = AttributeSize(attr);
    if (*size == 0) return MSPTI_ERROR_INVALID_PARAMETER;
    if (*valueSize < *size) return MSPTI_ERROR_PARAMETER_SIZE_NOT_SUFFICIENT;
    return MSPTI_SUCCESS;
}

// What msptiActivityGetNumDroppedRecords reported so far: each call returns the drops since.
std::atomic<uint64_t> g_drops_reported{0};

const char* ResultText(msptiResult result) {
    switch (result) {
        case MSPTI_SUCCESS: return "No error.";
        case MSPTI_ERROR_INVALID_PARAMETER: return "An argument is invalid.";
        case MSPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED: return "Another subscriber is registered.";
        case MSPTI_ERROR_MAX_LIMIT_REACHED: return "No more records in the buffer.";
        case MSPTI_ERROR_DEVICE_OFFLINE: return "The device is offline.";
        case MSPTI_ERROR_QUEUE_EMPTY: return "No external correlation id was pushed.";
        case MSPTI_ERROR_WITHOUT_LD_PRELOAD: return "libmspti.so does not interpose the runtime (LD_PRELOAD).";
        case MSPTI_ERROR_NOT_INITIALIZED: return "msPTI is not initialized.";
        case MSPTI_ERROR_INVALID_KIND: return "The activity kind is invalid.";
        case MSPTI_ERROR_PARAMETER_SIZE_NOT_SUFFICIENT: return "The value buffer is too small.";
        case MSPTI_ERROR_INNER: return "Internal error of msPTI.";
        default: return nullptr;
    }
}

}  // namespace

extern "C" {

MSPTI_API msptiResult msptiGetVersion(uint32_t* version) {
    if (version == nullptr) return MSPTI_ERROR_INVALID_PARAMETER;
    *version = kApiVersion;
    return MSPTI_SUCCESS;
}

MSPTI_API msptiResult msptiActivityGetStructSize(msptiActivityKind activityKind, uint32_t /*version*/,
                                                 size_t* activityStructSize) {
    if (activityStructSize == nullptr) return MSPTI_ERROR_INVALID_PARAMETER;
    const size_t size = activity::IsValidKind(activityKind) ? activity::RecordSize(activityKind) : 0;
    if (size == 0) return MSPTI_ERROR_INVALID_KIND;
    *activityStructSize = size;
    return MSPTI_SUCCESS;
}

MSPTI_API msptiResult msptiActivityGetEnabledKinds(msptiSubscriberHandle /*subscriber*/, msptiActivityKind* buffer,
                                                   uint32_t* bufferSize, uint32_t* enabledKindsCount) {
    if (enabledKindsCount == nullptr || (buffer != nullptr && bufferSize == nullptr)) {
        return MSPTI_ERROR_INVALID_PARAMETER;
    }
    // One pass over a snapshot, so that count and list agree while another thread enables kinds.
    msptiActivityKind enabled[activity::kKindSlots];
    uint32_t count = 0;
    for (uint32_t k = MSPTI_ACTIVITY_KIND_INVALID + 1; k < activity::kKindSlots; ++k) {
        if (activity::Kinds().IsEnabled(k)) enabled[count++] = static_cast<msptiActivityKind>(k);
    }
    if (buffer != nullptr) {
        const uint32_t n = count < *bufferSize ? count : *bufferSize;
        for (uint32_t i = 0; i < n; ++i) buffer[i] = enabled[i];
    }
    *enabledKindsCount = count;
    return MSPTI_SUCCESS;
}

MSPTI_API msptiResult msptiActivityGetNumDroppedRecords(void* /*context*/, uint32_t /*streamId*/, size_t* dropped) {
    if (dropped == nullptr) return MSPTI_ERROR_INVALID_PARAMETER;
    const uint64_t total = activity::Drops().Get(MSPTI_ACTIVITY_KIND_INVALID);
    const uint64_t before = g_drops_reported.exchange(total, std::memory_order_relaxed);
    *dropped = static_cast<size_t>(total > before ? total - before : 0);
    return MSPTI_SUCCESS;
}

MSPTI_API msptiResult msptiActivityRegisterTimestampCallback(msptiTimestampCallbackFunc funcTimestamp) {
    if (funcTimestamp == nullptr) return MSPTI_ERROR_INVALID_PARAMETER;
    host_clock::SetClientClock(funcTimestamp);
    return MSPTI_SUCCESS;
}

MSPTI_API msptiResult msptiActivitySetAttribute(msptiActivityAttribute attr, size_t* valueSize, void* value) {
    size_t size = 0;
    const msptiResult checked = CheckAttributeArgs(attr, valueSize, value, &size);
    if (checked != MSPTI_SUCCESS) return checked;
    if (attr == MSPTI_ACTIVITY_ATTR_CHANNEL_BUFFER_SIZE) {
        uint32_t bytes = 0;
        std::memcpy(&bytes, value, sizeof bytes);
        if (bytes < attributes::kMinChannelBufferSize || bytes > attributes::kMaxChannelBufferSize) {
            return MSPTI_ERROR_INVALID_PARAMETER;
        }
        attributes::g_channel_buffer_size.store(bytes, std::memory_order_relaxed);
        return MSPTI_SUCCESS;
    }
    msptiTimestampCallbackFunc callback = nullptr;
    std::memcpy(&callback, value, sizeof callback);
    return msptiActivityRegisterTimestampCallback(callback);
}

MSPTI_API msptiResult msptiActivityGetAttribute(msptiActivityAttribute attr, size_t* valueSize, void* value) {
    size_t size = 0;
    const msptiResult checked = CheckAttributeArgs(attr, valueSize, value, &size);
    if (checked != MSPTI_SUCCESS) return checked;
    if (attr == MSPTI_ACTIVITY_ATTR_CHANNEL_BUFFER_SIZE) {
        const uint32_t bytes = attributes::ChannelBufferSize();
        std::memcpy(value, &bytes, sizeof bytes);
    } else {
        const msptiTimestampCallbackFunc callback = host_clock::ClientClock();
        std::memcpy(value, &callback, sizeof callback);
    }
    *valueSize = size;
    return MSPTI_SUCCESS;
}

MSPTI_API msptiResult msptiGetResultString(msptiResult result, const char** str) {
    if (str == nullptr) return MSPTI_ERROR_INVALID_PARAMETER;
    const char* text = ResultText(result);
    if (text == nullptr) return MSPTI_ERROR_INVALID_PARAMETER;
    *str = text;
    return MSPTI_SUCCESS;
}

}  // extern "C"
