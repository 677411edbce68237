// Element types of aclnn tensors: sizes, classification, and the float16 /
// bfloat16 conversions (round to nearest even, as the hardware and numpy do).
#pragma once

#include <cstddef>
#include <cstdint>

#include "acl/acl_base.h"
#include "core/export.h"

namespace npusim::nn {

// Bytes per element; 0 for types this library does not handle.
NPUSIM_API size_t dtype_size(aclDataType type);
NPUSIM_API bool is_floating(aclDataType type);  // float32, float16, bfloat16, double
NPUSIM_API bool is_integral(aclDataType type);  // the signed and unsigned integers and bool
NPUSIM_API const char* dtype_name(aclDataType type);

NPUSIM_API uint16_t float_to_half(float value);
NPUSIM_API float half_to_float(uint16_t bits);
NPUSIM_API uint16_t float_to_bfloat16(float value);
NPUSIM_API float bfloat16_to_float(uint16_t bits);

// One element at `p` as a double, and a double stored at `p` rounded to the type
// (integers truncate toward zero and wrap like a C cast of an in-range value; bool is value != 0).
NPUSIM_API double load_element(const void* p, aclDataType type);
NPUSIM_API void store_element(void* p, aclDataType type, double value);
// The float path used by the operators: load as float, store a float rounded to the type.
NPUSIM_API float load_float(const void* p, aclDataType type);
NPUSIM_API void store_float(void* p, aclDataType type, float value);

}  // namespace npusim::nn
