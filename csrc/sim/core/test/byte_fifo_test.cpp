// ByteFifo: order across chunk boundaries, the pending limit, reservations across a chunk's end,
// chunk reuse and clear.
#include "core/byte_fifo.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace npusim {
namespace {

constexpr size_t kChunk = ByteFifo::kChunkBytes;
constexpr size_t kNoLimit = SIZE_MAX;

std::vector<char> Pattern(size_t n, uint32_t seed) {
    std::vector<char> bytes(n);
    for (size_t i = 0; i < n; ++i) bytes[i] = static_cast<char>((i * 131 + seed) & 0xFF);
    return bytes;
}

bool Append(ByteFifo& fifo, const std::vector<char>& bytes, size_t limit = kNoLimit) {
    fifo.lock_producers();
    const bool ok = fifo.append_locked(bytes.data(), bytes.size(), limit);
    fifo.unlock_producers();
    return ok;
}

std::vector<char> ReadAll(ByteFifo& fifo, size_t piece) {
    std::vector<char> out;
    std::vector<char> buf(piece);
    for (size_t n; (n = fifo.read(buf.data(), buf.size())) > 0;) out.insert(out.end(), buf.begin(), buf.begin() + n);
    return out;
}

TEST(ByteFifo, EmptyReadsNothing) {
    ByteFifo fifo;
    char buf[8];
    EXPECT_EQ(fifo.pending(), 0u);
    EXPECT_EQ(fifo.read(buf, sizeof buf), 0u);
}

TEST(ByteFifo, KeepsOrderAcrossChunks) {
    ByteFifo fifo;
    // Three appends that straddle two chunk ends, read back in pieces that do not line up with them.
    std::vector<char> all;
    for (uint32_t i = 0; i < 3; ++i) {
        const std::vector<char> part = Pattern(kChunk - 1000 + i * 7, i);
        ASSERT_TRUE(Append(fifo, part));
        all.insert(all.end(), part.begin(), part.end());
    }
    EXPECT_EQ(fifo.pending(), all.size());
    EXPECT_EQ(ReadAll(fifo, 4099), all);
    EXPECT_EQ(fifo.pending(), 0u);
}

TEST(ByteFifo, RefusesBytesBeyondTheLimitWhole) {
    ByteFifo fifo;
    ASSERT_TRUE(Append(fifo, Pattern(100, 1), 150));
    EXPECT_FALSE(Append(fifo, Pattern(51, 2), 150));  // 151 > 150: nothing of it is appended
    EXPECT_EQ(fifo.pending(), 100u);
    EXPECT_TRUE(Append(fifo, Pattern(50, 3), 150));  // exactly the limit
    EXPECT_EQ(fifo.pending(), 150u);
    // Reading frees room under the limit again.
    char buf[120];
    EXPECT_EQ(fifo.read(buf, sizeof buf), 120u);
    EXPECT_TRUE(Append(fifo, Pattern(120, 4), 150));
    EXPECT_EQ(fifo.pending(), 150u);
}

TEST(ByteFifo, ReservationAcrossAChunkEndArrivesWhole) {
    ByteFifo fifo;
    const std::vector<char> head = Pattern(kChunk - 10, 5);
    ASSERT_TRUE(Append(fifo, head));
    const std::vector<char> record = Pattern(ByteFifo::kMaxReserve, 6);
    fifo.lock_producers();
    char* place = fifo.reserve_locked(record.size(), kNoLimit);
    ASSERT_NE(place, nullptr);
    std::copy(record.begin(), record.end(), place);
    fifo.commit_locked(record.size());
    fifo.unlock_producers();

    std::vector<char> expected = head;
    expected.insert(expected.end(), record.begin(), record.end());
    EXPECT_EQ(ReadAll(fifo, 777), expected);
}

TEST(ByteFifo, ReserveRefusesBeyondTheLimit) {
    ByteFifo fifo;
    fifo.lock_producers();
    EXPECT_EQ(fifo.reserve_locked(65, 64), nullptr);
    EXPECT_NE(fifo.reserve_locked(64, 64), nullptr);
    fifo.unlock_producers();
    EXPECT_EQ(fifo.pending(), 0u);  // a reservation publishes nothing until its commit
}

TEST(ByteFifo, ReusesDrainedChunksAndStaysInOrder) {
    ByteFifo fifo;
    // Many rounds through a FIFO kept small: drained chunks come back from the free list.
    for (uint32_t round = 0; round < 20; ++round) {
        const std::vector<char> part = Pattern(kChunk + 333, round);
        ASSERT_TRUE(Append(fifo, part, 2 * kChunk));
        ASSERT_EQ(ReadAll(fifo, kChunk / 3), part) << "round " << round;
    }
}

TEST(ByteFifo, ClearDropsPendingBytesAndKeepsWorking) {
    ByteFifo fifo;
    ASSERT_TRUE(Append(fifo, Pattern(2 * kChunk + 5, 7)));
    fifo.lock_producers();
    fifo.clear_locked();
    fifo.unlock_producers();
    EXPECT_EQ(fifo.pending(), 0u);
    char buf[16];
    EXPECT_EQ(fifo.read(buf, sizeof buf), 0u);
    const std::vector<char> after = Pattern(40, 8);
    ASSERT_TRUE(Append(fifo, after));
    EXPECT_EQ(ReadAll(fifo, 16), after);
}

TEST(CopyInPieces, CopiesEveryByte) {
    const std::vector<char> src = Pattern(3 * 4096 + 17, 9);
    std::vector<char> dst(src.size(), 0);
    copy_in_pieces(dst.data(), src.data(), src.size());
    EXPECT_EQ(dst, src);
    copy_in_pieces(dst.data(), src.data(), 0);  // nothing to copy
    EXPECT_EQ(dst, src);
}

}  // namespace
}  // namespace npusim
