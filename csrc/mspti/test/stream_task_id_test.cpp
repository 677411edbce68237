// Stream/task id decoding (plain and expanded mode) and the per-task matching key.
#include "device/stream_task_id.h"

#include <gtest/gtest.h>

namespace mspti::seam {
namespace {

// Sets the expanded-stream mode for one test and restores it.
class ExpandMode {
public:
    explicit ExpandMode(bool on) : saved_(StreamExpandMode().load()) { StreamExpandMode().store(on); }
    ~ExpandMode() { StreamExpandMode().store(saved_); }
    ExpandMode(const ExpandMode&) = delete;
    ExpandMode& operator=(const ExpandMode&) = delete;

private:
    bool saved_;
};

void ExpectDecoded(uint16_t stream, uint16_t task, uint32_t want_stream, uint32_t want_task) {
    const StreamTask got = DecodeStreamTask(stream, task);
    EXPECT_EQ(got.stream, want_stream) << "stream 0x" << std::hex << stream << " task 0x" << task;
    EXPECT_EQ(got.task, want_task) << "stream 0x" << std::hex << stream << " task 0x" << task;
}

TEST(StreamTaskId, PlainIdsPassThrough) {
    ExpandMode mode(false);
    ExpectDecoded(5, 17, 5, 17);
    ExpectDecoded(2047, 0xFFFF, 2047, 0xFFFF);
}

TEST(StreamTaskId, BorrowedBitsMoveBackToTheirOwner) {
    ExpandMode mode(false);
    // Bit 12 of the stream: its bits 13-15 belong to the task.
    ExpectDecoded(0x1000 | 0xE000 | 7, 0x0123, 7, 0xE123);
    // Bit 13 of the stream: its low 12 bits belong to the task, the task's low bits to the stream.
    ExpectDecoded(0x2000 | 0x0456, 0xF009, 9, 0xF456);
}

TEST(StreamTaskId, ExpandedMode) {
    ExpandMode mode(true);
    ExpectDecoded(0x0005, 0x1234, 5, 0x1234);
    // Top stream bit: the stream is in the task field, the task's low bits in the stream field.
    ExpectDecoded(0x8000 | 0x0042, 0x8000 | 0x0011, 0x11, 0x8042);
}

TEST(StreamTaskId, TaskKeyPacksAndMasks) {
    EXPECT_EQ(TaskKey(1, 2, 3), (uint64_t{1} << 48) | (uint64_t{2} << 32) | 3u);
    // Device and stream keep 16 bits each; the task all 32.
    EXPECT_EQ(TaskKey(0x1FFFF, 0x10005, 0xFFFFFFFF), (uint64_t{0xFFFF} << 48) | (uint64_t{5} << 32) | 0xFFFFFFFFu);
    EXPECT_TRUE(KeyOnDevice(TaskKey(3, 9, 9), 3));
    EXPECT_FALSE(KeyOnDevice(TaskKey(3, 9, 9), 4));
    EXPECT_TRUE(KeyOnDevice(TaskKey(0x10003, 0, 0), 3));  // both sides masked the same way
}

}  // namespace
}  // namespace mspti::seam
