#include "opapi/checks.h"

#include <cstdarg>
#include <cstdio>
#include <string>

#include "core/log.h"
#include "nnopbase/dtype.h"
#include "nnopbase/tensor.h"

namespace npusim::opapi {

aclnnStatus check_not_null(const char* api, std::initializer_list<const void*> pointers) {
    size_t index = 0;
    for (const void* p : pointers) {
        if (p == nullptr) {
            log_message(LogLevel::Error, "%sGetWorkspaceSize: required argument %zu is NULL", api, index);
            return ACLNN_ERR_PARAM_NULLPTR;
        }
        ++index;
    }
    return ACLNN_SUCCESS;
}

aclnnStatus check_tensor(const char* api, const char* what, const aclTensor* tensor) {
    if (tensor == nullptr) {
        log_message(LogLevel::Error, "%s: %s is NULL", api, what);
        return ACLNN_ERR_PARAM_NULLPTR;
    }
    if (!nn::valid(tensor)) return invalid(api, "%s is not a live aclTensor", what);
    return ACLNN_SUCCESS;
}

bool is_float_type(aclDataType type) { return type == ACL_FLOAT || type == ACL_FLOAT16 || type == ACL_BF16; }

aclnnStatus check_float_type(const char* api, const char* what, aclDataType type) {
    if (is_float_type(type)) return ACLNN_SUCCESS;
    return invalid(api, "%s has data type %s; float32, float16 or bfloat16 expected", what, nn::dtype_name(type));
}

aclnnStatus check_rank(const char* api, const char* what, const Dims& dims, size_t min_rank, size_t max_rank) {
    if (dims.size() >= min_rank && dims.size() <= max_rank) return ACLNN_SUCCESS;
    return invalid(api, "%s has %zu dimensions; %zu to %zu expected", what, dims.size(), min_rank, max_rank);
}

aclnnStatus check_same_dims(const char* api, const char* what, const Dims& actual, const Dims& expected) {
    if (actual == expected) return ACLNN_SUCCESS;
    return invalid(api, "%s has shape %s; %s expected", what, dims_text(actual).c_str(), dims_text(expected).c_str());
}

aclnnStatus check_same_dtype(const char* api, const char* what, aclDataType actual, aclDataType expected) {
    if (actual == expected) return ACLNN_SUCCESS;
    return invalid(api, "%s has data type %s; %s expected", what, nn::dtype_name(actual), nn::dtype_name(expected));
}

aclnnStatus invalid(const char* api, const char* fmt, ...) {
    char text[512];
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(text, sizeof text, fmt, args);
    va_end(args);
    log_message(LogLevel::Error, "%sGetWorkspaceSize: %s", api, text);
    return ACLNN_ERR_PARAM_INVALID;
}

bool broadcast_dims(const Dims& a, const Dims& b, Dims& out) {
    const size_t rank = std::max(a.size(), b.size());
    out.assign(rank, 1);
    for (size_t i = 0; i < rank; ++i) {
        const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
        const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
        if (da != db && da != 1 && db != 1) return false;
        out[i] = da == 1 ? db : da;
    }
    return true;
}

bool normalize_dim(int64_t dim, size_t rank, size_t& out) {
    const int64_t r = static_cast<int64_t>(rank);
    if (dim < -r || dim >= r) return false;
    out = static_cast<size_t>(dim < 0 ? dim + r : dim);
    return true;
}

aclDataType promote_float(aclDataType a, aclDataType b) { return a == b ? a : ACL_FLOAT; }

std::string dims_text(const Dims& dims) {
    std::string text = "[";
    for (size_t i = 0; i < dims.size(); ++i) {
        if (i) text += ", ";
        text += std::to_string(dims[i]);
    }
    return text + "]";
}

aclnnStatus reduced_dims(const char* api, const Dims& dims, size_t rank, std::vector<bool>& reduced) {
    reduced.assign(rank, dims.empty());
    for (int64_t d : dims) {
        size_t i = 0;
        if (!normalize_dim(d, rank, i) || reduced[i]) {
            return invalid(api, "dim %s is out of range or repeated", dims_text(dims).c_str());
        }
        reduced[i] = true;
    }
    return ACLNN_SUCCESS;
}

aclnnStatus check_reduction(const char* api, int64_t reduction) {
    if (reduction >= kReductionNone && reduction <= kReductionSum) return ACLNN_SUCCESS;
    return invalid(api, "reduction %lld; 0 (none), 1 (mean) or 2 (sum) expected", static_cast<long long>(reduction));
}

}  // namespace npusim::opapi
