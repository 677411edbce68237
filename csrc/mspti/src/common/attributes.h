// Process-wide settings of msptiActivitySetAttribute.
#pragma once

#include <atomic>
#include <cstdint>

namespace mspti::attributes {

constexpr uint32_t kMinChannelBufferSize = 2U << 20;
constexpr uint32_t kMaxChannelBufferSize = 10U << 20;
constexpr uint32_t kDefaultChannelBufferSize = 2U << 20;

// The read buffer of each device channel started from now on, in bytes.
inline std::atomic<uint32_t> g_channel_buffer_size{kDefaultChannelBufferSize};
inline uint32_t ChannelBufferSize() { return g_channel_buffer_size.load(std::memory_order_relaxed); }

}  // namespace mspti::attributes
