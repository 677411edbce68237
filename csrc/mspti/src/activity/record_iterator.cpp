#include "activity/record_iterator.h"

#include <array>
#include <cstring>

#include "activity/kinds.h"

namespace mspti::activity {
namespace {

// RecordSize as a table: a client's walk asks it twice per record, and an indexed load is a few
// instructions where the switch is a chain of compares.
constexpr std::array<uint16_t, kKindSlots> MakeSizes() {
    std::array<uint16_t, kKindSlots> sizes{};
    for (uint32_t kind = 0; kind < kKindSlots; ++kind) sizes[kind] = static_cast<uint16_t>(RecordSize(kind));
    return sizes;
}
constexpr std::array<uint16_t, kKindSlots> kSizes = MakeSizes();
static_assert(kMaxRecordSize <= UINT16_MAX, "record sizes fit the table");

// The size of the record at `p` (its kind is its first field), 0 for an unknown kind.
size_t SizeAt(const uint8_t* p) {
    uint32_t kind = 0;
    std::memcpy(&kind, p, sizeof kind);  // a negative kind reads as a large one: unknown
    return kind < kKindSlots ? kSizes[kind] : 0;
}

}  // namespace

msptiResult NextRecord(uint8_t* buffer, size_t valid_bytes, msptiActivity** record) {
    if (buffer == nullptr || record == nullptr) return MSPTI_ERROR_INVALID_PARAMETER;
    size_t offset = 0;
    if (*record != nullptr) {
        // As an unsigned distance, a record before the buffer is as far out as one past its end.
        const size_t at = reinterpret_cast<uintptr_t>(*record) - reinterpret_cast<uintptr_t>(buffer);
        if (at >= valid_bytes || valid_bytes - at < sizeof(int32_t)) return MSPTI_ERROR_INVALID_PARAMETER;
        const size_t size = SizeAt(buffer + at);
        if (size == 0) return MSPTI_ERROR_INNER;
        offset = at + size;
    }
    // Only whole records are returned; trailing bytes shorter than a record end the walk.
    if (offset >= valid_bytes || valid_bytes - offset < sizeof(int32_t)) return MSPTI_ERROR_MAX_LIMIT_REACHED;
    const size_t size = SizeAt(buffer + offset);
    if (size == 0) return MSPTI_ERROR_INNER;
    if (valid_bytes - offset < size) return MSPTI_ERROR_MAX_LIMIT_REACHED;
    *record = reinterpret_cast<msptiActivity*>(buffer + offset);
    return MSPTI_SUCCESS;
}

}  // namespace mspti::activity
