// First-phase argument checks shared by the operators. Each returns an aclnn
// status (ACLNN_SUCCESS when the argument is acceptable) and logs what is wrong.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "aclnn/acl_meta.h"
#include "opapi/tensor_io.h"

namespace npusim::opapi {

// Propagates a failed check from the enclosing function.
#define OPAPI_CHECK(expr)                                         \
    do {                                                          \
        const aclnnStatus opapi_status_ = (expr);                 \
        if (opapi_status_ != ACLNN_SUCCESS) return opapi_status_; \
    } while (0)

// Every pointer in the list is non-NULL (ACLNN_ERR_PARAM_NULLPTR otherwise).
aclnnStatus check_not_null(const char* api, std::initializer_list<const void*> pointers);
// A handle made by libnnopbase (ACLNN_ERR_PARAM_INVALID for a destroyed or foreign one).
aclnnStatus check_tensor(const char* api, const char* what, const aclTensor* tensor);
// float32, float16 or bfloat16.
bool is_float_type(aclDataType type);
aclnnStatus check_float_type(const char* api, const char* what, aclDataType type);
aclnnStatus check_rank(const char* api, const char* what, const Dims& dims, size_t min_rank, size_t max_rank);
aclnnStatus check_same_dims(const char* api, const char* what, const Dims& actual, const Dims& expected);
aclnnStatus check_same_dtype(const char* api, const char* what, aclDataType actual, aclDataType expected);
aclnnStatus invalid(const char* api, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

// The dimensions a reduction's `dims` names among `rank` (every one when `dims` is empty), as flags;
// ACLNN_ERR_PARAM_INVALID for a dimension out of range or named twice.
aclnnStatus reduced_dims(const char* api, const Dims& dims, size_t rank, std::vector<bool>& reduced);
// The broadcast shape of a and b (numpy rules); false when they do not broadcast.
bool broadcast_dims(const Dims& a, const Dims& b, Dims& out);
// A dimension index in [-rank, rank) made non-negative; false when out of range.
bool normalize_dim(int64_t dim, size_t rank, size_t& out);
// The wider float type of two (float32 wins; float16 with bfloat16 gives float32).
aclDataType promote_float(aclDataType a, aclDataType b);
std::string dims_text(const Dims& dims);

// A loss's reduction (torch's Reduction enum): 0 none (element-wise), 1 mean, 2 sum;
// ACLNN_ERR_PARAM_INVALID for another value.
inline constexpr int64_t kReductionNone = 0, kReductionMean = 1, kReductionSum = 2;
aclnnStatus check_reduction(const char* api, int64_t reduction);

}  // namespace npusim::opapi
