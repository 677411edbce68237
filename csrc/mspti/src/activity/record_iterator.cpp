#include "activity/record_iterator.h"

#include <cstring>

#include "activity/kinds.h"

namespace mspti::activity {
namespace {

int32_t KindAt(const uint8_t* p) {
    int32_t kind = 0;
    std::memcpy(&kind, p, sizeof kind);
    return kind;
}

}  // namespace

msptiResult NextRecord(uint8_t* buffer, size_t valid_bytes, msptiActivity** record) {
    if (buffer == nullptr || record == nullptr) return MSPTI_ERROR_INVALID_PARAMETER;
    size_t offset = 0;
    if (*record != nullptr) {
        const auto* current = reinterpret_cast<const uint8_t*>(*record);
        if (current < buffer || current >= buffer + valid_bytes) return MSPTI_ERROR_INVALID_PARAMETER;
        offset = static_cast<size_t>(current - buffer);
        if (valid_bytes - offset < sizeof(int32_t)) return MSPTI_ERROR_INVALID_PARAMETER;
        const size_t size = RecordSize(KindAt(current));
        if (size == 0) return MSPTI_ERROR_INNER;
        offset += size;
    }
    // Only whole records are returned; trailing bytes shorter than a record end the walk.
    if (offset >= valid_bytes || valid_bytes - offset < sizeof(int32_t)) return MSPTI_ERROR_MAX_LIMIT_REACHED;
    const size_t size = RecordSize(KindAt(buffer + offset));
    if (size == 0) return MSPTI_ERROR_INNER;
    if (valid_bytes - offset < size) return MSPTI_ERROR_MAX_LIMIT_REACHED;
    *record = reinterpret_cast<msptiActivity*>(buffer + offset);
    return MSPTI_SUCCESS;
}

}  // namespace mspti::activity
