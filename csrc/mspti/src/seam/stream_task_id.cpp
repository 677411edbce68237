#include "seam/stream_task_id.h"

namespace mspti::seam {

std::atomic<bool>& StreamExpandMode() {
    static std::atomic<bool> expand{false};
    return expand;
}

StreamTask DecodeStreamTask(uint16_t stream, uint16_t task) {
    if (StreamExpandMode().load(std::memory_order_relaxed)) {
        if ((stream & 0x8000U) != 0) {
            return {static_cast<uint32_t>(task & 0x7FFFU), static_cast<uint32_t>((task & 0x8000U) | (stream & 0x7FFFU))};
        }
        return {static_cast<uint32_t>(stream & 0x7FFFU), task};
    }
    // The runtime borrows high stream bits to carry task-id bits (and the other way round).
    if ((stream & 0x1000U) != 0) {
        return {static_cast<uint32_t>(stream % 2048U), static_cast<uint32_t>((task & 0x1FFFU) | (stream & 0xE000U))};
    }
    if ((stream & 0x2000U) != 0) {
        return {static_cast<uint32_t>((task & 0x0FFFU) % 2048U), static_cast<uint32_t>((stream & 0x0FFFU) | (task & 0xF000U))};
    }
    return {static_cast<uint32_t>(stream % 2048U), task};
}

}  // namespace mspti::seam
