// Copies of growing storage in pieces of at most 4 KiB. Up to that size memcpy runs its vector loop;
// above it, it switches to a string instruction whose cost grows with every byte (callgrind counts
// each step, the launch_instructions benchmark), as a reallocating std::vector's single copy does.
#pragma once

#include <cstddef>
#include <cstring>

namespace mspti {

inline void CopyInPieces(void* dst, const void* src, size_t bytes) {
    constexpr size_t kPiece = 4096;
    auto* to = static_cast<char*>(dst);
    const auto* from = static_cast<const char*>(src);
    while (bytes > 0) {
        const size_t n = bytes < kPiece ? bytes : kPiece;  // not a constant: memcpy, not an inline copy
        std::memcpy(to, from, n);
        to += n;
        from += n;
        bytes -= n;
    }
}

}  // namespace mspti
