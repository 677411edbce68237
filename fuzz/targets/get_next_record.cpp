// msptiActivityGetNextRecord on arbitrary bytes and sizes.
//
// Input: [mode][cursor][buffer bytes...]. The buffer bytes are copied into a heap block of
// exactly their length (at an offset of mode&7 bytes from the allocation, so unaligned
// buffers occur too), and validBufferSizeBytes is that length: any read past it is a heap
// overflow that ASan reports. The walk from NULL is checked against the contract of
// mspti_activity.h: only whole records inside the valid bytes, back to back at the header's
// record sizes, INNER (with *record unchanged) at an unknown kind, MAX_LIMIT_REACHED when no
// whole record follows, and the end is sticky. A cursor chosen by the input (inside, at the
// edge or outside the buffer) must give a documented result and never a record outside.
#include "fuzz_support.h"

namespace {

using fuzz::RecordSize;

int32_t KindAt(const uint8_t* p) {
    int32_t kind = 0;
    std::memcpy(&kind, p, sizeof kind);
    return kind;
}

// The documented result of one step from `offset` (the next record to return starts there).
msptiResult Expected(const uint8_t* buf, size_t valid, size_t offset) {
    if (offset >= valid || valid - offset < sizeof(int32_t)) return MSPTI_ERROR_MAX_LIMIT_REACHED;
    const size_t size = RecordSize(KindAt(buf + offset));
    if (size == 0) return MSPTI_ERROR_INNER;
    return valid - offset < size ? MSPTI_ERROR_MAX_LIMIT_REACHED : MSPTI_SUCCESS;
}

void WalkFromStart(uint8_t* buf, size_t valid) {
    msptiActivity* record = nullptr;
    size_t offset = 0;
    for (size_t steps = 0;; ++steps) {
        FUZZ_CHECK(steps <= valid / 8 + 1, "the walk does not end (%zu steps over %zu bytes)", steps, valid);
        msptiActivity* before = record;
        const msptiResult want = Expected(buf, valid, offset);
        const msptiResult got = msptiActivityGetNextRecord(buf, valid, &record);
        FUZZ_CHECK(got == want, "at offset %zu of %zu: result %d, documented %d", offset, valid, got, want);
        if (got != MSPTI_SUCCESS) {
            FUZZ_CHECK(record == before, "*record changed on result %d", got);
            if (got == MSPTI_ERROR_MAX_LIMIT_REACHED) {
                // Sticky: asking again from the same record gives the end again.
                const msptiResult again = msptiActivityGetNextRecord(buf, valid, &record);
                FUZZ_CHECK(again == MSPTI_ERROR_MAX_LIMIT_REACHED, "end not sticky: %d", again);
            }
            return;
        }
        const auto* p = reinterpret_cast<uint8_t*>(record);
        FUZZ_CHECK(p == buf + offset, "record at %td, expected offset %zu", p - buf, offset);
        const size_t size = RecordSize(KindAt(p));
        FUZZ_CHECK(size != 0 && offset + size <= valid, "returned a record that is not whole");
        // Touch the whole record, as a client does (ASan checks every byte is inside).
        uint8_t copy[sizeof(msptiActivityCommunication)];
        std::memcpy(copy, p, size);
        offset += size;
    }
}

void StepFromCursor(uint8_t* buf, size_t valid, uint8_t cursor) {
    // Cursor positions: inside (any byte), the last bytes, one past the end, before the start.
    msptiActivity* record = nullptr;
    uint8_t* target = nullptr;
    switch (cursor >> 6) {
        case 0: target = buf + (valid ? cursor % valid : 0); break;
        case 1: target = buf + (valid >= 1 + (cursor & 7) ? valid - 1 - (cursor & 7) : 0); break;
        case 2: target = buf + valid + (cursor & 7); break;
        default: target = buf - 1 - (cursor & 7); break;
    }
    record = reinterpret_cast<msptiActivity*>(target);
    msptiActivity* const before = record;
    const msptiResult got = msptiActivityGetNextRecord(buf, valid, &record);
    const bool inside = target >= buf && target < buf + valid;
    if (!inside) {
        FUZZ_CHECK(got == MSPTI_ERROR_INVALID_PARAMETER, "cursor outside the buffer gave %d", got);
        FUZZ_CHECK(record == before, "*record changed for a cursor outside the buffer");
        return;
    }
    FUZZ_CHECK(got == MSPTI_SUCCESS || got == MSPTI_ERROR_MAX_LIMIT_REACHED || got == MSPTI_ERROR_INNER ||
                   got == MSPTI_ERROR_INVALID_PARAMETER,
               "undocumented result %d", got);
    if (got != MSPTI_SUCCESS) {
        FUZZ_CHECK(record == before, "*record changed on result %d", got);
        return;
    }
    // The record after the cursor's record: whole, inside, right behind it.
    const auto* p = reinterpret_cast<uint8_t*>(record);
    const size_t cur = static_cast<size_t>(target - buf);
    FUZZ_CHECK(valid - cur >= sizeof(int32_t), "stepped from a cursor with no whole kind");
    const size_t cur_size = RecordSize(KindAt(target));
    FUZZ_CHECK(cur_size != 0 && p == target + cur_size, "next record not right after the cursor's record");
    const size_t size = RecordSize(KindAt(p));
    FUZZ_CHECK(size != 0 && static_cast<size_t>(p - buf) + size <= valid, "returned a record that is not whole");
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** argv) {
    fuzz::EnsureEnvironment(*argv);
    std::atexit(fuzz::Stats::Print);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 2) return 0;
    fuzz::Stats::Instance().inputs++;
    const uint8_t mode = data[0];
    const uint8_t cursor = data[1];
    const size_t valid = size - 2;
    const size_t shift = mode & 7;
    auto* block = static_cast<uint8_t*>(std::malloc(shift + valid));
    uint8_t* buf = block + shift;
    std::memcpy(buf, data + 2, valid);

    // The documented argument errors.
    msptiActivity* record = nullptr;
    FUZZ_EXPECT_RESULT(msptiActivityGetNextRecord(nullptr, valid, &record), MSPTI_ERROR_INVALID_PARAMETER);
    FUZZ_EXPECT_RESULT(msptiActivityGetNextRecord(buf, valid, nullptr), MSPTI_ERROR_INVALID_PARAMETER);
    fuzz::Stats::Instance().api_calls += 2;

    if (valid == 0) {
        FUZZ_EXPECT_RESULT(msptiActivityGetNextRecord(buf, 0, &record), MSPTI_ERROR_MAX_LIMIT_REACHED);
    } else {
        WalkFromStart(buf, valid);
        StepFromCursor(buf, valid, cursor);
    }
    std::free(block);
    return 0;
}
