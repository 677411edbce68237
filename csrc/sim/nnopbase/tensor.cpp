// aclCreateTensor / aclDestroyTensor and the tensor queries.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>

#include "core/export.h"
#include "core/fault_plan.h"
#include "core/log.h"
#include "nnopbase/dtype.h"
#include "nnopbase/tensor.h"

namespace {

using npusim::log_message;
using npusim::LogLevel;

// Strides of a row-major contiguous tensor.
std::vector<int64_t> contiguous_strides(const std::vector<int64_t>& dims) {
    std::vector<int64_t> strides(dims.size(), 1);
    for (size_t i = dims.size(); i-- > 1;) strides[i - 1] = strides[i] * std::max<int64_t>(dims[i], 1);
    return strides;
}

bool dims_ok(const int64_t* dims, uint64_t count) {
    if (count > 0 && dims == nullptr) return false;
    for (uint64_t i = 0; i < count; ++i) {
        if (dims[i] < 0) return false;
    }
    return true;
}

// Copies an int64 vector into an array the caller releases with delete[]: CANN's contract for
// aclGetViewShape, aclGetViewStrides and aclGetStorageShape (nnopbase's API reference allocates with
// new[] and its examples, like torch_npu's nonzero and unique, release with delete[]).
aclnnStatus hand_out(const std::vector<int64_t>& values, int64_t** out, uint64_t* count) {
    if (out == nullptr || count == nullptr) return ACLNN_ERR_PARAM_NULLPTR;
    std::unique_ptr<int64_t[]> array(new (std::nothrow) int64_t[std::max<size_t>(values.size(), 1)]);
    if (array == nullptr) return ACLNN_ERR_INNER;
    std::copy(values.begin(), values.end(), array.get());
    *count = values.size();
    *out = array.release();  // ownership passes to the caller (delete[])
    return ACLNN_SUCCESS;
}

}  // namespace

NPUSIM_C_EXPORT aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType,
                                           const int64_t* stride, int64_t offset, aclFormat format,
                                           const int64_t* storageDims, uint64_t storageDimsNum, void* tensorData) {
    if (NPUSIM_FAULT("aclCreateTensor").fail) return nullptr;
    if (!dims_ok(viewDims, viewDimsNum) || !dims_ok(storageDims, storageDimsNum) || offset < 0 || viewDimsNum > 64 ||
        storageDimsNum > 64) {
        log_message(LogLevel::Error, "aclCreateTensor: invalid dims, storage dims or offset");
        return nullptr;
    }
    if (npusim::nn::dtype_size(dataType) == 0) {
        log_message(LogLevel::Error, "aclCreateTensor: unsupported data type %d", static_cast<int>(dataType));
        return nullptr;
    }
    auto tensor = std::make_unique<aclTensor>();
    tensor->dtype = dataType;
    tensor->format = format;
    tensor->view.assign(viewDims, viewDims + viewDimsNum);
    tensor->offset = offset;
    tensor->data = tensorData;
    if (stride != nullptr) {
        tensor->strides.assign(stride, stride + viewDimsNum);
        for (int64_t s : tensor->strides) {
            if (s < 0) {
                log_message(LogLevel::Error, "aclCreateTensor: negative stride");
                return nullptr;
            }
        }
    } else {
        tensor->strides = contiguous_strides(tensor->view);
    }
    // The furthest element of the view must lie inside the storage.
    int64_t last = offset;
    for (size_t i = 0; i < tensor->view.size(); ++i) {
        if (tensor->view[i] == 0) {
            last = -1;
            break;
        }
        last += (tensor->view[i] - 1) * tensor->strides[i];
    }
    if (storageDims != nullptr) {
        tensor->storage.assign(storageDims, storageDims + storageDimsNum);
        int64_t capacity = 1;
        for (int64_t d : tensor->storage) capacity *= d;
        if (last >= capacity) {
            log_message(LogLevel::Error, "aclCreateTensor: the view reaches element %lld of a storage of %lld",
                        static_cast<long long>(last), static_cast<long long>(capacity));
            return nullptr;
        }
    } else {
        tensor->storage = {last + 1};
    }
    return tensor.release();  // ownership passes to the caller's handle (aclDestroyTensor)
}

NPUSIM_C_EXPORT aclnnStatus aclDestroyTensor(const aclTensor* tensor) {
    NPUSIM_FAULT_RETURN("aclDestroyTensor", aclnnStatus);
    if (tensor == nullptr) return ACLNN_SUCCESS;
    if (!npusim::nn::valid(tensor)) return ACLNN_ERR_PARAM_INVALID;
    std::unique_ptr<aclTensor> owned(const_cast<aclTensor*>(tensor));
    owned->magic = 0;
    return ACLNN_SUCCESS;
}

NPUSIM_C_EXPORT aclnnStatus aclGetViewShape(const aclTensor* tensor, int64_t** viewDims, uint64_t* viewDimsNum) {
    NPUSIM_FAULT_RETURN("aclGetViewShape", aclnnStatus);
    if (tensor == nullptr) return ACLNN_ERR_PARAM_NULLPTR;
    if (!npusim::nn::valid(tensor)) return ACLNN_ERR_PARAM_INVALID;
    return hand_out(tensor->view, viewDims, viewDimsNum);
}

NPUSIM_C_EXPORT aclnnStatus aclGetStorageShape(const aclTensor* tensor, int64_t** storageDims,
                                               uint64_t* storageDimsNum) {
    NPUSIM_FAULT_RETURN("aclGetStorageShape", aclnnStatus);
    if (tensor == nullptr) return ACLNN_ERR_PARAM_NULLPTR;
    if (!npusim::nn::valid(tensor)) return ACLNN_ERR_PARAM_INVALID;
    return hand_out(tensor->storage, storageDims, storageDimsNum);
}

NPUSIM_C_EXPORT aclnnStatus aclGetViewStrides(const aclTensor* tensor, int64_t** stridesValue, uint64_t* stridesNum) {
    NPUSIM_FAULT_RETURN("aclGetViewStrides", aclnnStatus);
    if (tensor == nullptr) return ACLNN_ERR_PARAM_NULLPTR;
    if (!npusim::nn::valid(tensor)) return ACLNN_ERR_PARAM_INVALID;
    return hand_out(tensor->strides, stridesValue, stridesNum);
}

NPUSIM_C_EXPORT aclnnStatus aclGetViewOffset(const aclTensor* tensor, int64_t* offset) {
    NPUSIM_FAULT_RETURN("aclGetViewOffset", aclnnStatus);
    if (tensor == nullptr || offset == nullptr) return ACLNN_ERR_PARAM_NULLPTR;
    if (!npusim::nn::valid(tensor)) return ACLNN_ERR_PARAM_INVALID;
    *offset = tensor->offset;
    return ACLNN_SUCCESS;
}

NPUSIM_C_EXPORT aclnnStatus aclGetDataType(const aclTensor* tensor, aclDataType* dataType) {
    NPUSIM_FAULT_RETURN("aclGetDataType", aclnnStatus);
    if (tensor == nullptr || dataType == nullptr) return ACLNN_ERR_PARAM_NULLPTR;
    if (!npusim::nn::valid(tensor)) return ACLNN_ERR_PARAM_INVALID;
    *dataType = tensor->dtype;
    return ACLNN_SUCCESS;
}

NPUSIM_C_EXPORT aclnnStatus aclGetFormat(const aclTensor* tensor, aclFormat* format) {
    NPUSIM_FAULT_RETURN("aclGetFormat", aclnnStatus);
    if (tensor == nullptr || format == nullptr) return ACLNN_ERR_PARAM_NULLPTR;
    if (!npusim::nn::valid(tensor)) return ACLNN_ERR_PARAM_INVALID;
    *format = tensor->format;
    return ACLNN_SUCCESS;
}

NPUSIM_C_EXPORT aclnnStatus aclSetRawTensorAddr(aclTensor* tensor, void* addr) {
    NPUSIM_FAULT_RETURN("aclSetRawTensorAddr", aclnnStatus);
    if (tensor == nullptr) return ACLNN_ERR_PARAM_NULLPTR;
    if (!npusim::nn::valid(tensor)) return ACLNN_ERR_PARAM_INVALID;
    tensor->data = addr;
    return ACLNN_SUCCESS;
}
