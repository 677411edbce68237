#include "reduce_kernels.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "numeric_formats.h"

namespace hccl {

namespace {

template <typename T>
T load(const uint8_t* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

template <typename T>
void store(uint8_t* p, T v) {
    std::memcpy(p, &v, sizeof v);
}

// The unsigned type of the same width (spelled out: strict C++17 has no traits for __int128).
template <typename T>
struct Unsigned {
    using type = std::make_unsigned_t<T>;
};
template <>
struct Unsigned<__int128> {
    using type = unsigned __int128;
};

template <typename T>
T apply_int(T a, T b, uint32_t op) {
    using U = typename Unsigned<T>::type;
    switch (op) {
        case HCCL_REDUCE_SUM: return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
        case HCCL_REDUCE_PROD: return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
        case HCCL_REDUCE_MAX: return a < b ? b : a;
        default: return b < a ? b : a;
    }
}

template <typename F>
F apply_float(F a, F b, uint32_t op) {
    switch (op) {
        case HCCL_REDUCE_SUM: return a + b;
        case HCCL_REDUCE_PROD: return a * b;
        case HCCL_REDUCE_MAX:
            if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<F>::quiet_NaN();
            return a < b ? b : a;
        default:
            if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<F>::quiet_NaN();
            return b < a ? b : a;
    }
}

// The loops take the reduction as a constant, so that the compiler vectorises them.
template <typename T, uint32_t Op>
void reduce_int_op(uint8_t* acc, const uint8_t* x, uint64_t n) {
    for (uint64_t i = 0; i < n; ++i, acc += sizeof(T), x += sizeof(T)) {
        store<T>(acc, apply_int<T>(load<T>(acc), load<T>(x), Op));
    }
}

template <typename F, uint32_t Op>
void reduce_float_op(uint8_t* acc, const uint8_t* x, uint64_t n) {
    for (uint64_t i = 0; i < n; ++i, acc += sizeof(F), x += sizeof(F)) {
        store<F>(acc, apply_float<F>(load<F>(acc), load<F>(x), Op));
    }
}

template <typename T>
void reduce_int(uint8_t* acc, const uint8_t* x, uint64_t n, uint32_t op) {
    switch (op) {
        case HCCL_REDUCE_SUM: return reduce_int_op<T, HCCL_REDUCE_SUM>(acc, x, n);
        case HCCL_REDUCE_PROD: return reduce_int_op<T, HCCL_REDUCE_PROD>(acc, x, n);
        case HCCL_REDUCE_MAX: return reduce_int_op<T, HCCL_REDUCE_MAX>(acc, x, n);
        default: return reduce_int_op<T, HCCL_REDUCE_MIN>(acc, x, n);
    }
}

template <typename F>
void reduce_native_float(uint8_t* acc, const uint8_t* x, uint64_t n, uint32_t op) {
    switch (op) {
        case HCCL_REDUCE_SUM: return reduce_float_op<F, HCCL_REDUCE_SUM>(acc, x, n);
        case HCCL_REDUCE_PROD: return reduce_float_op<F, HCCL_REDUCE_PROD>(acc, x, n);
        case HCCL_REDUCE_MAX: return reduce_float_op<F, HCCL_REDUCE_MAX>(acc, x, n);
        default: return reduce_float_op<F, HCCL_REDUCE_MIN>(acc, x, n);
    }
}

// 16-bit formats reduced through float.
template <float (*ToFloat)(uint16_t), uint16_t (*FromFloat)(float)>
void reduce_half(uint8_t* acc, const uint8_t* x, uint64_t n, uint32_t op) {
    for (uint64_t i = 0; i < n; ++i, acc += 2, x += 2) {
        const float r = apply_float<float>(ToFloat(load<uint16_t>(acc)), ToFloat(load<uint16_t>(x)), op);
        store<uint16_t>(acc, FromFloat(r));
    }
}

void reduce_fp8(Fp8 format, uint8_t* acc, const uint8_t* x, uint64_t n, uint32_t op) {
    for (uint64_t i = 0; i < n; ++i) {
        const float r = apply_float<float>(fp8_to_float(format, acc[i]), fp8_to_float(format, x[i]), op);
        acc[i] = float_to_fp8(format, r);
    }
}

}  // namespace

bool reduce_into(uint8_t* acc, const uint8_t* x, uint64_t n, uint32_t dtype, uint32_t op) {
    if (op != HCCL_REDUCE_SUM && op != HCCL_REDUCE_PROD && op != HCCL_REDUCE_MAX && op != HCCL_REDUCE_MIN) return false;
    switch (dtype) {
        case HCCL_DATA_TYPE_INT8: reduce_int<int8_t>(acc, x, n, op); return true;
        case HCCL_DATA_TYPE_INT16: reduce_int<int16_t>(acc, x, n, op); return true;
        case HCCL_DATA_TYPE_INT32: reduce_int<int32_t>(acc, x, n, op); return true;
        case HCCL_DATA_TYPE_INT64: reduce_int<int64_t>(acc, x, n, op); return true;
        case HCCL_DATA_TYPE_UINT8: reduce_int<uint8_t>(acc, x, n, op); return true;
        case HCCL_DATA_TYPE_UINT16: reduce_int<uint16_t>(acc, x, n, op); return true;
        case HCCL_DATA_TYPE_UINT32: reduce_int<uint32_t>(acc, x, n, op); return true;
        case HCCL_DATA_TYPE_UINT64: reduce_int<uint64_t>(acc, x, n, op); return true;
        case HCCL_DATA_TYPE_INT128: reduce_int<__int128>(acc, x, n, op); return true;
        case HCCL_DATA_TYPE_FP32: reduce_native_float<float>(acc, x, n, op); return true;
        case HCCL_DATA_TYPE_FP64: reduce_native_float<double>(acc, x, n, op); return true;
        case HCCL_DATA_TYPE_FP16: reduce_half<half_to_float, float_to_half>(acc, x, n, op); return true;
        case HCCL_DATA_TYPE_BFP16: reduce_half<bf16_to_float, float_to_bf16>(acc, x, n, op); return true;
        case HCCL_DATA_TYPE_HIF8: reduce_fp8(Fp8::HiF8, acc, x, n, op); return true;
        case HCCL_DATA_TYPE_FP8E4M3: reduce_fp8(Fp8::E4M3, acc, x, n, op); return true;
        case HCCL_DATA_TYPE_FP8E5M2: reduce_fp8(Fp8::E5M2, acc, x, n, op); return true;
        case HCCL_DATA_TYPE_FP8E8M0: reduce_fp8(Fp8::E8M0, acc, x, n, op); return true;
        default: return false;
    }
}

}  // namespace hccl
