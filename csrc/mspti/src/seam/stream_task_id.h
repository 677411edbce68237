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

// Decodes a 16-bit (stream, task) pair of chip types 5/7.
StreamTask DecodeStreamTask(uint16_t stream, uint16_t task);

constexpr uint64_t TaskKey(uint32_t device, uint32_t stream, uint32_t task) {
    return (uint64_t{device & 0xFFFFU} << 48) | (uint64_t{stream & 0xFFFFU} << 32) | task;
}

// Whether a TaskKey belongs to `device`.
constexpr bool KeyOnDevice(uint64_t key, uint32_t device) { return (key >> 48) == (device & 0xFFFFU); }

}  // namespace mspti::seam
