#include "opapi/device_rng.h"

namespace npusim::opapi {

namespace {

constexpr uint32_t kM0 = 0xD2511F53u, kM1 = 0xCD9E8D57u;  // the multipliers
constexpr uint32_t kW0 = 0x9E3779B9u, kW1 = 0xBB67AE85u;  // the key schedule's increments

void round(std::array<uint32_t, 4>& c, const std::array<uint32_t, 2>& k) {
    const uint64_t p0 = uint64_t{kM0} * c[0], p1 = uint64_t{kM1} * c[2];
    const auto hi0 = static_cast<uint32_t>(p0 >> 32), lo0 = static_cast<uint32_t>(p0);
    const auto hi1 = static_cast<uint32_t>(p1 >> 32), lo1 = static_cast<uint32_t>(p1);
    c = {hi1 ^ c[1] ^ k[0], lo1, hi0 ^ c[3] ^ k[1], lo0};
}

}  // namespace

std::array<uint32_t, 4> philox4x32_10(std::array<uint32_t, 4> counter, std::array<uint32_t, 2> key) {
    for (int r = 0; r < 10; ++r) {
        if (r > 0) key = {key[0] + kW0, key[1] + kW1};
        round(counter, key);
    }
    return counter;
}

std::array<uint32_t, 4> rng_block(const RngStream& stream, uint64_t block) {
    const uint64_t low = stream.offset_low + block;
    const uint64_t high = stream.offset_high + (low < stream.offset_low ? 1 : 0);
    const std::array<uint32_t, 4> counter{static_cast<uint32_t>(low), static_cast<uint32_t>(low >> 32),
                                          static_cast<uint32_t>(high), static_cast<uint32_t>(high >> 32)};
    const std::array<uint32_t, 2> key{static_cast<uint32_t>(stream.seed), static_cast<uint32_t>(stream.seed >> 32)};
    return philox4x32_10(counter, key);
}

}  // namespace npusim::opapi
