// Stream and task ids as the device reports them and as the host reports them
// (task tracks) are decoded the same way, then combined into one matching key
// per task: device << 48 | stream << 32 | task.
#pragma once

#include <atomic>
#include <cstdint>

namespace mspti::seam {

struct StreamTask {
    uint32_t stream;
    uint32_t task;
};

// Set when CANN reports "expanded stream id" mode (compact 5000/804).
std::atomic<bool>& StreamExpandMode();

// Decodes a 16-bit (stream, task) pair of chip types 5/7. Inline: the parser decodes every device log.
inline StreamTask DecodeStreamTask(uint16_t stream, uint16_t task) {
    if (StreamExpandMode().load(std::memory_order_relaxed)) {
        if ((stream & 0x8000U) != 0) {
            return {static_cast<uint32_t>(task & 0x7FFFU),
                    static_cast<uint32_t>((task & 0x8000U) | (stream & 0x7FFFU))};
        }
        return {static_cast<uint32_t>(stream & 0x7FFFU), task};
    }
    // The runtime borrows high stream bits to carry task-id bits (and the other way round).
    if ((stream & 0x1000U) != 0) {
        return {static_cast<uint32_t>(stream % 2048U), static_cast<uint32_t>((task & 0x1FFFU) | (stream & 0xE000U))};
    }
    if ((stream & 0x2000U) != 0) {
        return {static_cast<uint32_t>((task & 0x0FFFU) % 2048U),
                static_cast<uint32_t>((stream & 0x0FFFU) | (task & 0xF000U))};
    }
    return {static_cast<uint32_t>(stream % 2048U), task};
}

constexpr uint64_t TaskKey(uint32_t device, uint32_t stream, uint32_t task) {
    return (uint64_t{device & 0xFFFFU} << 48) | (uint64_t{stream & 0xFFFFU} << 32) | task;
}

// Whether a TaskKey belongs to `device`.
constexpr bool KeyOnDevice(uint64_t key, uint32_t device) { return (key >> 48) == (device & 0xFFFFU); }

}  // namespace mspti::seam
