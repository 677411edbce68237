// NextRecord (msptiActivityGetNextRecord): walks whole records of known kinds and stops at the end
// of the valid bytes, at a partial record, at an unknown kind and at a record pointer outside.
#include "activity/record_iterator.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "activity/kinds.h"

namespace mspti::activity {
namespace {

void PutKind(std::vector<uint8_t>& buffer, size_t at, int32_t kind) {
    std::memcpy(buffer.data() + at, &kind, sizeof kind);
}

// A buffer of the given kinds back to back, each record its schema's size.
std::vector<uint8_t> Records(std::initializer_list<msptiActivityKind> kinds, size_t* used) {
    std::vector<uint8_t> buffer(kMaxRecordSize * (kinds.size() + 1), 0);
    size_t at = 0;
    for (const msptiActivityKind kind : kinds) {
        PutKind(buffer, at, kind);
        at += RecordSize(kind);
    }
    *used = at;
    return buffer;
}

TEST(RecordIterator, WalksEveryRecordThenReportsTheEnd) {
    size_t used = 0;
    std::vector<uint8_t> buffer =
        Records({MSPTI_ACTIVITY_KIND_MARKER, MSPTI_ACTIVITY_KIND_KERNEL, MSPTI_ACTIVITY_KIND_API}, &used);
    ASSERT_GT(RecordSize(MSPTI_ACTIVITY_KIND_KERNEL), 0u);
    msptiActivity* record = nullptr;
    std::vector<msptiActivityKind> seen;
    msptiResult result;
    while ((result = NextRecord(buffer.data(), used, &record)) == MSPTI_SUCCESS) seen.push_back(record->kind);
    EXPECT_EQ(result, MSPTI_ERROR_MAX_LIMIT_REACHED);
    EXPECT_EQ(seen, (std::vector<msptiActivityKind>{MSPTI_ACTIVITY_KIND_MARKER, MSPTI_ACTIVITY_KIND_KERNEL,
                                                    MSPTI_ACTIVITY_KIND_API}));
}

TEST(RecordIterator, EmptyBufferHasNoRecord) {
    uint8_t byte = 0;
    msptiActivity* record = nullptr;
    EXPECT_EQ(NextRecord(&byte, 0, &record), MSPTI_ERROR_MAX_LIMIT_REACHED);
    EXPECT_EQ(record, nullptr);
}

TEST(RecordIterator, APartialRecordAtTheEndIsNotReturned) {
    size_t used = 0;
    std::vector<uint8_t> buffer = Records({MSPTI_ACTIVITY_KIND_MARKER, MSPTI_ACTIVITY_KIND_KERNEL}, &used);
    msptiActivity* record = nullptr;
    ASSERT_EQ(NextRecord(buffer.data(), used - 1, &record), MSPTI_SUCCESS);
    EXPECT_EQ(record->kind, MSPTI_ACTIVITY_KIND_MARKER);
    EXPECT_EQ(NextRecord(buffer.data(), used - 1, &record), MSPTI_ERROR_MAX_LIMIT_REACHED);
    // Fewer bytes than a kind field: the end too.
    record = nullptr;
    EXPECT_EQ(NextRecord(buffer.data(), 3, &record), MSPTI_ERROR_MAX_LIMIT_REACHED);
}

TEST(RecordIterator, UnknownKindIsAnInnerError) {
    std::vector<uint8_t> buffer(kMaxRecordSize, 0);
    msptiActivity* record = nullptr;
    PutKind(buffer, 0, MSPTI_ACTIVITY_KIND_INVALID);
    EXPECT_EQ(NextRecord(buffer.data(), buffer.size(), &record), MSPTI_ERROR_INNER);
    PutKind(buffer, 0, MSPTI_ACTIVITY_KIND_COUNT);
    EXPECT_EQ(NextRecord(buffer.data(), buffer.size(), &record), MSPTI_ERROR_INNER);
    PutKind(buffer, 0, -1);
    EXPECT_EQ(NextRecord(buffer.data(), buffer.size(), &record), MSPTI_ERROR_INNER);
    EXPECT_EQ(record, nullptr);
}

TEST(RecordIterator, RefusesBadArgumentsAndRecordsOutsideTheBuffer) {
    size_t used = 0;
    std::vector<uint8_t> buffer = Records({MSPTI_ACTIVITY_KIND_MARKER}, &used);
    msptiActivity* record = nullptr;
    EXPECT_EQ(NextRecord(nullptr, used, &record), MSPTI_ERROR_INVALID_PARAMETER);
    EXPECT_EQ(NextRecord(buffer.data(), used, nullptr), MSPTI_ERROR_INVALID_PARAMETER);
    // One past the valid bytes, and one before the buffer.
    record = reinterpret_cast<msptiActivity*>(buffer.data() + used);
    EXPECT_EQ(NextRecord(buffer.data(), used, &record), MSPTI_ERROR_INVALID_PARAMETER);
    record = reinterpret_cast<msptiActivity*>(buffer.data() + 1) - 1;
    EXPECT_EQ(NextRecord(buffer.data() + 1, used - 1, &record), MSPTI_ERROR_INVALID_PARAMETER);
}

}  // namespace
}  // namespace mspti::activity
