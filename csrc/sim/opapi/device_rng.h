// The device RNG of the operator library: Philox4x32-10 (Salmon et al., "Parallel random numbers:
// as easy as 1, 2, 3", SC 2011), the counter-based generator torch's and CANN's device RNG use.
// A stream is named by a seed (the 64-bit key) and an offset (the 128-bit counter it starts at):
// element k of the stream is word k % 4 of philox(counter = offset + k / 4, key = seed), so the same
// seed and offset give the same stream, another seed or offset another, and any element can be
// computed without the ones before it.
#pragma once

#include <array>
#include <cstdint>

namespace npusim::opapi {

struct RngStream {
    uint64_t seed = 0;         // the key
    uint64_t offset_low = 0;   // the counter's low 64 bits
    uint64_t offset_high = 0;  // its high 64 bits
};

std::array<uint32_t, 4> philox4x32_10(std::array<uint32_t, 4> counter, std::array<uint32_t, 2> key);
// Elements 4 * block .. 4 * block + 3 of the stream (one Philox call).
std::array<uint32_t, 4> rng_block(const RngStream& stream, uint64_t block);
// The top 24 bits of an element, as a float in [0, 1).
inline float rng_to_uniform(uint32_t word) { return static_cast<float>(word >> 8) * (1.0f / 16777216.0f); }

}  // namespace npusim::opapi
