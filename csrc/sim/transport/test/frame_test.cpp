// The frame prefix (header + meta length) and the fixed-field Writer/Reader of transport/frame.h.
#include <gtest/gtest.h>

#include <cstring>

#include "transport/frame.h"

namespace npusim::transport {
namespace {

constexpr uint32_t kMagic = 0x54534554;  // "TEST"

TEST(Frame, PrefixRoundTripsItsFields) {
    uint8_t bytes[kFramePrefixBytes];
    encode_prefix(make_prefix(kMagic, 7, 42, 12, 1000), bytes);
    FramePrefix back;
    ASSERT_TRUE(decode_prefix(bytes, kMagic, back));
    EXPECT_EQ(back.header.magic, kMagic);
    EXPECT_EQ(back.header.type, 7u);
    EXPECT_EQ(back.header.request, 42u);
    EXPECT_EQ(back.header.body, 4u + 12u + 1000u);  // meta length field + meta + payload
    EXPECT_EQ(back.meta_length, 12u);
    EXPECT_EQ(payload_bytes(back), 1000u);
}

TEST(Frame, WireLayoutIsHeaderThenMetaLength) {
    uint8_t bytes[kFramePrefixBytes];
    encode_prefix(make_prefix(kMagic, 3, 0x0102030405060708ULL, 5, 9), bytes);
    ASSERT_EQ(sizeof bytes, 28u);
    uint32_t magic = 0, type = 0, meta = 0;
    uint64_t request = 0, body = 0;
    std::memcpy(&magic, bytes, 4);
    std::memcpy(&type, bytes + 4, 4);
    std::memcpy(&request, bytes + 8, 8);
    std::memcpy(&body, bytes + 16, 8);
    std::memcpy(&meta, bytes + 24, 4);
    EXPECT_EQ(magic, kMagic);
    EXPECT_EQ(type, 3u);
    EXPECT_EQ(request, 0x0102030405060708ULL);
    EXPECT_EQ(body, 4u + 5u + 9u);
    EXPECT_EQ(meta, 5u);
}

TEST(Frame, AnotherProtocolsMagicIsRefused) {
    uint8_t bytes[kFramePrefixBytes];
    encode_prefix(make_prefix(kMagic, 1, 0, 0, 0), bytes);
    FramePrefix back;
    EXPECT_FALSE(decode_prefix(bytes, kMagic + 1, back));
}

TEST(Frame, BodyShorterThanItsMetaLengthFieldIsRefused) {
    FrameHeader h{kMagic, 1, 0, 3};
    EXPECT_FALSE(header_valid(h, kMagic));
    h.body = 4;
    EXPECT_TRUE(header_valid(h, kMagic));
}

TEST(Frame, MetaLongerThanTheBodyOrTheBoundIsRefused) {
    const FrameHeader h{kMagic, 1, 0, 4 + 10};
    EXPECT_TRUE(meta_length_valid(h, 10));
    EXPECT_FALSE(meta_length_valid(h, 11));
    const FrameHeader huge{kMagic, 1, 0, uint64_t(1) << 40};
    EXPECT_TRUE(meta_length_valid(huge, kMaxMeta));
    EXPECT_FALSE(meta_length_valid(huge, kMaxMeta + 1));
    uint8_t bytes[kFramePrefixBytes];
    encode_prefix(FramePrefix{h, 11}, bytes);
    FramePrefix back;
    EXPECT_FALSE(decode_prefix(bytes, kMagic, back));
}

TEST(Frame, WriterAndReaderAgreeOnFixedFields) {
    Writer w;
    w.put<uint64_t>(0xAABBCCDDEEFF0011ULL).put<uint8_t>(1).put<int32_t>(-5).raw("xyz", 3);
    EXPECT_EQ(w.bytes().size(), 8u + 1u + 4u + 3u);
    Reader r(w.bytes());
    EXPECT_EQ(r.get<uint64_t>(), 0xAABBCCDDEEFF0011ULL);
    EXPECT_EQ(r.get<uint8_t>(), 1u);
    EXPECT_EQ(r.get<int32_t>(), -5);
    const std::vector<uint8_t> tail = r.take(3);
    EXPECT_EQ(std::string(tail.begin(), tail.end()), "xyz");
    EXPECT_TRUE(r.ok());
}

TEST(Frame, ReaderPastTheEndYieldsZeroAndNotOk) {
    Writer w;
    w.put<uint16_t>(7);
    Reader r(w.bytes());
    EXPECT_EQ(r.get<uint32_t>(), 0u);
    EXPECT_FALSE(r.ok());
    Reader t(w.bytes());
    EXPECT_TRUE(t.take(3).empty());
    EXPECT_FALSE(t.ok());
}

}  // namespace
}  // namespace npusim::transport
