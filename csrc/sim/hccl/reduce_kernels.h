// Element-wise reduction of one buffer into another, per data type and operation:
// acc[i] = acc[i] (op) x[i].
//
// Integers wrap around (two's complement) for SUM and PROD; MAX/MIN compare as signed or
// unsigned by type. INT128 is a signed 128-bit integer per 16-byte lane (little-endian),
// reduced like the other integers. FP32 and FP64 reduce natively. FP16, BFP16 and the 8-bit
// float formats convert both operands to float, apply the operation in float and round the
// result back to the format (numeric_formats.h), so each step rounds as the format does.
// Floating MAX/MIN return NaN when either operand is NaN.
#pragma once

#include <cstdint>

#include "hccl/hccl_types.h"

namespace hccl {

// The working set of a reduction step: reductions over many buffers go this many bytes at a
// time, so that the accumulator stays in cache while every input is added to it.
constexpr uint64_t kReduceChunkBytes = 256 * 1024;

// False for an unknown data type or operation.
bool reduce_into(uint8_t* acc, const uint8_t* x, uint64_t count, uint32_t dtype, uint32_t op);

}  // namespace hccl
