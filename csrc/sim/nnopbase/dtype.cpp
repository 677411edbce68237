#include "nnopbase/dtype.h"

#include <cmath>
#include <cstring>

namespace npusim::nn {

size_t dtype_size(aclDataType type) {
    switch (type) {
        case ACL_FLOAT:
        case ACL_INT32:
        case ACL_UINT32: return 4;
        case ACL_FLOAT16:
        case ACL_BF16:
        case ACL_INT16:
        case ACL_UINT16: return 2;
        case ACL_INT8:
        case ACL_UINT8:
        case ACL_BOOL: return 1;
        case ACL_INT64:
        case ACL_UINT64:
        case ACL_DOUBLE: return 8;
        default: return 0;
    }
}

bool is_floating(aclDataType type) {
    return type == ACL_FLOAT || type == ACL_FLOAT16 || type == ACL_BF16 || type == ACL_DOUBLE;
}

bool is_integral(aclDataType type) { return dtype_size(type) != 0 && !is_floating(type); }

const char* dtype_name(aclDataType type) {
    switch (type) {
        case ACL_FLOAT: return "float32";
        case ACL_FLOAT16: return "float16";
        case ACL_BF16: return "bfloat16";
        case ACL_DOUBLE: return "float64";
        case ACL_INT8: return "int8";
        case ACL_UINT8: return "uint8";
        case ACL_INT16: return "int16";
        case ACL_UINT16: return "uint16";
        case ACL_INT32: return "int32";
        case ACL_UINT32: return "uint32";
        case ACL_INT64: return "int64";
        case ACL_UINT64: return "uint64";
        case ACL_BOOL: return "bool";
        default: return "unsupported";
    }
}

namespace {

uint32_t float_bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

float bits_float(uint32_t u) {
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}

}  // namespace

uint16_t float_to_half(float value) {
    const uint32_t x = float_bits(value);
    const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
    const uint32_t abs = x & 0x7FFFFFFFu;
    if (abs >= 0x7F800000u) {  // inf or nan (nan stays a quiet nan)
        return static_cast<uint16_t>(sign | 0x7C00u | (abs > 0x7F800000u ? 0x0200u : 0u));
    }
    if (abs >= 0x477FF000u) return static_cast<uint16_t>(sign | 0x7C00u);  // rounds to >= 65520: inf
    if (abs < 0x38800000u) {
        // Subnormal half (or zero): value = m * 2^-24 with m rounded to nearest even.
        if (abs < 0x33000000u) return sign;  // below half the smallest subnormal (ties at exactly 2^-25 go to 0)
        const uint32_t exponent = abs >> 23;
        const uint32_t mantissa = (abs & 0x7FFFFFu) | 0x800000u;
        const uint32_t shift = 126u - exponent;  // 14 .. 24
        uint32_t half = mantissa >> shift;
        const uint32_t rest = mantissa & ((1u << shift) - 1u);
        const uint32_t halfway = 1u << (shift - 1u);
        if (rest > halfway || (rest == halfway && (half & 1u))) ++half;
        return static_cast<uint16_t>(sign | half);
    }
    // Normal: rebias the exponent and round the mantissa to 10 bits, nearest even.
    uint32_t h = ((abs >> 13) - (112u << 10));
    const uint32_t rest = abs & 0x1FFFu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;
    return static_cast<uint16_t>(sign | h);
}

float half_to_float(uint16_t bits) {
    const uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
    const uint32_t exponent = (bits >> 10) & 0x1Fu;
    uint32_t mantissa = bits & 0x3FFu;
    if (exponent == 0x1F) return bits_float(sign | 0x7F800000u | (mantissa << 13));
    if (exponent == 0) {
        if (mantissa == 0) return bits_float(sign);
        const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
        return sign ? -magnitude : magnitude;
    }
    return bits_float(sign | ((exponent + 112u) << 23) | (mantissa << 13));
}

uint16_t float_to_bfloat16(float value) {
    uint32_t x = float_bits(value);
    if ((x & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<uint16_t>((x >> 16) | 0x0040u);  // quiet nan
    x += 0x7FFFu + ((x >> 16) & 1u);
    return static_cast<uint16_t>(x >> 16);
}

float bfloat16_to_float(uint16_t bits) { return bits_float(static_cast<uint32_t>(bits) << 16); }

namespace {

template <typename T>
T load_as(const void* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

template <typename T>
void store_as(void* p, T v) {
    std::memcpy(p, &v, sizeof v);
}

// A C-style conversion that stays defined for out-of-range and nan input.
template <typename T>
T to_integer(double value) {
    if (std::isnan(value)) return 0;
    const double t = std::trunc(value);
    if (t <= static_cast<double>(INT64_MIN)) return static_cast<T>(INT64_MIN);
    if (t >= 18446744073709551616.0) return static_cast<T>(UINT64_MAX);
    if (t >= 9223372036854775808.0) return static_cast<T>(static_cast<uint64_t>(t));
    return static_cast<T>(static_cast<int64_t>(t));
}

}  // namespace

double load_element(const void* p, aclDataType type) {
    switch (type) {
        case ACL_FLOAT: return load_as<float>(p);
        case ACL_FLOAT16: return half_to_float(load_as<uint16_t>(p));
        case ACL_BF16: return bfloat16_to_float(load_as<uint16_t>(p));
        case ACL_DOUBLE: return load_as<double>(p);
        case ACL_INT8: return load_as<int8_t>(p);
        case ACL_UINT8: return load_as<uint8_t>(p);
        case ACL_INT16: return load_as<int16_t>(p);
        case ACL_UINT16: return load_as<uint16_t>(p);
        case ACL_INT32: return load_as<int32_t>(p);
        case ACL_UINT32: return load_as<uint32_t>(p);
        case ACL_INT64: return static_cast<double>(load_as<int64_t>(p));
        case ACL_UINT64: return static_cast<double>(load_as<uint64_t>(p));
        case ACL_BOOL: return load_as<uint8_t>(p) != 0 ? 1.0 : 0.0;
        default: return 0.0;
    }
}

void store_element(void* p, aclDataType type, double value) {
    switch (type) {
        case ACL_FLOAT: store_as<float>(p, static_cast<float>(value)); break;
        case ACL_FLOAT16: store_as<uint16_t>(p, float_to_half(static_cast<float>(value))); break;
        case ACL_BF16: store_as<uint16_t>(p, float_to_bfloat16(static_cast<float>(value))); break;
        case ACL_DOUBLE: store_as<double>(p, value); break;
        case ACL_INT8: store_as<int8_t>(p, to_integer<int8_t>(value)); break;
        case ACL_UINT8: store_as<uint8_t>(p, to_integer<uint8_t>(value)); break;
        case ACL_INT16: store_as<int16_t>(p, to_integer<int16_t>(value)); break;
        case ACL_UINT16: store_as<uint16_t>(p, to_integer<uint16_t>(value)); break;
        case ACL_INT32: store_as<int32_t>(p, to_integer<int32_t>(value)); break;
        case ACL_UINT32: store_as<uint32_t>(p, to_integer<uint32_t>(value)); break;
        case ACL_INT64: store_as<int64_t>(p, to_integer<int64_t>(value)); break;
        case ACL_UINT64: store_as<uint64_t>(p, to_integer<uint64_t>(value)); break;
        case ACL_BOOL: store_as<uint8_t>(p, value != 0.0 ? 1 : 0); break;
        default: break;
    }
}

float load_float(const void* p, aclDataType type) {
    switch (type) {
        case ACL_FLOAT: return load_as<float>(p);
        case ACL_FLOAT16: return half_to_float(load_as<uint16_t>(p));
        case ACL_BF16: return bfloat16_to_float(load_as<uint16_t>(p));
        default: return static_cast<float>(load_element(p, type));
    }
}

void store_float(void* p, aclDataType type, float value) {
    switch (type) {
        case ACL_FLOAT: store_as<float>(p, value); break;
        case ACL_FLOAT16: store_as<uint16_t>(p, float_to_half(value)); break;
        case ACL_BF16: store_as<uint16_t>(p, float_to_bfloat16(value)); break;
        default: store_element(p, type, value); break;
    }
}

}  // namespace npusim::nn
