// Copies that keep clear of x86's string instructions, whose cost grows with every byte (callgrind
// counts each step, the launch_instructions benchmark):
//  - growing storage, in pieces of at most 4 KiB: up to that size memcpy runs its vector loop, above
//    it, it switches to a string instruction, as a reallocating std::vector's single copy does;
//  - a record of constant size into its buffer, in 16-byte moves: gcc expands the memcpy of a
//    4-byte-aligned record (msPTI's records are packed) of 48 bytes or more to `rep movsl`.
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

template <size_t N>
[[gnu::always_inline]] inline void CopyRecord(void* dst, const void* src) {
    using Bytes16 = unsigned char __attribute__((vector_size(16)));
    auto* to = static_cast<char*>(dst);
    const auto* from = static_cast<const char*>(src);
    size_t i = 0;
#pragma GCC unroll 8
    for (; i + 16 <= N; i += 16) {
        Bytes16 piece;
        std::memcpy(&piece, from + i, sizeof piece);
        std::memcpy(to + i, &piece, sizeof piece);
        __asm__("" : : "r"(to));  // keeps the moves from being merged back into one memcpy
    }
    std::memcpy(to + i, from + i, N - i);  // the tail, under 16 bytes
}

}  // namespace mspti
