#include "numeric_formats.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

namespace hccl {

namespace {

uint32_t bits_of(float f) {
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

float float_of(uint32_t u) {
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

float decode_e4m3(uint8_t c) {
    const float sign = (c & 0x80) ? -1.0f : 1.0f;
    const int e = (c >> 3) & 0xF, m = c & 0x7;
    if (e == 0xF && m == 0x7) return kNaN;
    if (e == 0) return sign * std::ldexp(float(m) / 8.0f, -6);
    return sign * std::ldexp(1.0f + float(m) / 8.0f, e - 7);
}

float decode_e5m2(uint8_t c) {
    const float sign = (c & 0x80) ? -1.0f : 1.0f;
    const int e = (c >> 2) & 0x1F, m = c & 0x3;
    if (e == 0x1F) return m == 0 ? sign * kInf : kNaN;
    if (e == 0) return sign * std::ldexp(float(m) / 4.0f, -14);
    return sign * std::ldexp(1.0f + float(m) / 4.0f, e - 15);
}

float decode_e8m0(uint8_t c) { return c == 0xFF ? kNaN : std::ldexp(1.0f, int(c) - 127); }

float decode_hif8(uint8_t c) {
    if (c == 0x00) return 0.0f;
    if (c == 0x80) return kNaN;
    const float sign = (c & 0x80) ? -1.0f : 1.0f;
    if (c == 0x6F || c == 0xEF) return sign * kInf;
    const uint8_t v = c & 0x7F;
    if ((v & 0x78) == 0) return sign * std::ldexp(1.0f, int(v & 0x7) - 23);  // denormal
    int exp_bits, man_bits;
    if ((v & 0x60) == 0x60) exp_bits = 4, man_bits = 1;
    else if ((v & 0x60) == 0x40) exp_bits = 3, man_bits = 2;
    else if ((v & 0x60) == 0x20) exp_bits = 2, man_bits = 3;
    else if ((v & 0x70) == 0x10) exp_bits = 1, man_bits = 3;
    else exp_bits = 0, man_bits = 3;  // 0001 prefix
    const int m = v & ((1 << man_bits) - 1);
    int e = 0;
    if (exp_bits > 0) {
        const int field = (v >> man_bits) & ((1 << exp_bits) - 1);
        const int top = 1 << (exp_bits - 1);
        const int magnitude = (field & (top - 1)) | top;
        e = (field & top) ? -magnitude : magnitude;
    }
    return sign * std::ldexp(1.0f + float(m) / float(1 << man_bits), e);
}

// A format's non-negative finite values in ascending order with their codes; encoding
// picks the nearest. An infinity joins the table at the value one step above the largest
// finite value, so that rounding decides overflow.
struct Fp8Table {
    std::array<float, 256> decoded{};
    std::vector<std::pair<float, uint8_t>> ascending;
    bool has_sign = true;
    bool ties_to_even = true;  // else ties away from zero
    uint8_t nan_code = 0x7F;
};

Fp8Table build(Fp8 format) {
    Fp8Table t;
    float (*decode)(uint8_t) = nullptr;
    float inf_step = 0;  // value standing for infinity in rounding (0: saturating format)
    uint8_t inf_code = 0;
    switch (format) {
        case Fp8::E4M3: decode = decode_e4m3; break;
        case Fp8::E5M2:
            decode = decode_e5m2;
            inf_step = 65536.0f;  // 1.00 * 2^16: the next value after 1.75 * 2^15
            inf_code = 0x7C;
            break;
        case Fp8::E8M0:
            decode = decode_e8m0;
            t.has_sign = false;
            t.ties_to_even = false;
            t.nan_code = 0xFF;
            break;
        case Fp8::HiF8:
            decode = decode_hif8;
            t.ties_to_even = false;
            t.nan_code = 0x80;
            inf_step = 49152.0f;  // 1.5 * 2^15, the pattern infinity occupies
            inf_code = 0x6F;
            break;
    }
    for (int c = 0; c < 256; ++c) t.decoded[size_t(c)] = decode(uint8_t(c));
    const int last = t.has_sign ? 0x80 : 0x100;
    for (int c = 0; c < last; ++c) {
        const float v = t.decoded[size_t(c)];
        if (std::isfinite(v) && v >= 0) t.ascending.emplace_back(v, uint8_t(c));
    }
    if (inf_step > 0) t.ascending.emplace_back(inf_step, inf_code);
    std::sort(t.ascending.begin(), t.ascending.end());
    return t;
}

const Fp8Table& table(Fp8 format) {
    static const std::array<Fp8Table, 4> tables = {build(Fp8::E4M3), build(Fp8::E5M2), build(Fp8::E8M0),
                                                   build(Fp8::HiF8)};
    return tables[size_t(format)];
}

}  // namespace

float half_to_float(uint16_t h) {
    const uint32_t sign = uint32_t(h & 0x8000) << 16;
    const uint32_t e = (h >> 10) & 0x1F, m = h & 0x3FF;
    if (e == 0x1F) return float_of(sign | 0x7F800000u | (m << 13));
    if (e == 0) {
        const float v = std::ldexp(float(m), -24);
        return sign ? -v : v;
    }
    return float_of(sign | ((e + 112) << 23) | (m << 13));
}

uint16_t float_to_half(float f) {
    const uint32_t x = bits_of(f);
    const auto sign = static_cast<uint16_t>((x >> 16) & 0x8000);
    const uint32_t a = x & 0x7FFFFFFF;
    if (a > 0x7F800000) return sign | 0x7E00;  // NaN
    if (a >= 0x477FF000) return sign | 0x7C00;  // >= 65520 rounds to inf
    if (a < 0x38800000) {                        // below 2^-14: subnormal (or zero)
        // Count of 2^-24 units, rounded to nearest even (the default rounding mode).
        const float units = std::nearbyint(float_of(a) * 16777216.0f);
        return sign | static_cast<uint16_t>(units);
    }
    uint32_t h = ((a >> 23) - 112) << 10 | ((a >> 13) & 0x3FF);
    const uint32_t rest = a & 0x1FFF;
    if (rest > 0x1000 || (rest == 0x1000 && (h & 1))) ++h;  // carries into the exponent when needed
    return sign | static_cast<uint16_t>(h);
}

float bf16_to_float(uint16_t b) { return float_of(uint32_t(b) << 16); }

uint16_t float_to_bf16(float f) {
    const uint32_t x = bits_of(f);
    if ((x & 0x7FFFFFFF) > 0x7F800000) return static_cast<uint16_t>((x >> 16) | 0x40);  // quiet NaN
    return static_cast<uint16_t>((x + 0x7FFF + ((x >> 16) & 1)) >> 16);
}

float fp8_to_float(Fp8 format, uint8_t code) { return table(format).decoded[code]; }

uint8_t float_to_fp8(Fp8 format, float value) {
    const Fp8Table& t = table(format);
    if (std::isnan(value)) return t.nan_code;
    const bool negative = std::signbit(value);
    if (!t.has_sign && negative && value != 0) return t.nan_code;
    if (format == Fp8::E4M3 && std::isinf(value)) return uint8_t(t.nan_code | (negative ? 0x80 : 0));
    const float a = std::fabs(value);
    const auto& v = t.ascending;
    auto hi = std::lower_bound(v.begin(), v.end(), std::make_pair(a, uint8_t(0)),
                               [](const auto& x, const auto& y) { return x.first < y.first; });
    uint8_t code;
    if (hi == v.end()) {
        code = v.back().second;  // beyond the table: saturate (or infinity, the last entry)
    } else if (hi->first == a || hi == v.begin()) {
        code = hi->second;
    } else {
        const auto lo = hi - 1;
        const float below = a - lo->first, above = hi->first - a;
        if (below < above) code = lo->second;
        else if (above < below) code = hi->second;
        else if (t.ties_to_even) code = (lo->second & 1) == 0 ? lo->second : hi->second;
        else code = hi->second;  // ties away from zero
    }
    if (!t.has_sign) return code;
    if (format == Fp8::HiF8 && code == 0) return 0;  // one zero; 0x80 is NaN
    return uint8_t(code | (negative ? 0x80 : 0));
}

}  // namespace hccl
