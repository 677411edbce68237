// HCCL data types and reduction operations: sizes, names, validity.
#pragma once

#include <cstddef>
#include <cstdint>

#include "hccl/hccl_types.h"

namespace hccl {

// Bytes per element; 0 for an unknown type.
size_t dtype_size(uint32_t dtype);
bool valid_dtype(uint32_t dtype);
bool valid_reduce_op(uint32_t op);
const char* dtype_name(uint32_t dtype);

}  // namespace hccl
