// The hash msPTI hands out as CANN "hash ids" (profapi callback 12) and uses to
// intern strings: two 32-bit polynomial hashes of the bytes (multipliers 29 and
// 131) side by side in one 64-bit value. Deterministic across processes, so the
// same name always gets the same id unless two names collide (see NameCache).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace mspti {

constexpr uint64_t HashString(std::string_view s) {
    uint32_t h29 = 0;
    uint32_t h131 = 0;
    for (char c : s) {
        const auto b = static_cast<uint8_t>(c);
        h29 = h29 * 29U + b;
        h131 = h131 * 131U + b;
    }
    return (static_cast<uint64_t>(h29) << 32) | h131;
}

// Spreads a 64-bit key over a power-of-two table.
constexpr uint64_t MixKey(uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return k;
}

}  // namespace mspti
