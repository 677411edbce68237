// The array handles: aclIntArray, aclFloatArray, aclBoolArray and aclTensorList.
#include <memory>

#include "core/export.h"
#include "core/fault_plan.h"
#include "nnopbase/tensor.h"

namespace {

template <typename Array, typename T>
Array* make_array(const T* value, uint64_t size) {
    if (size > 0 && value == nullptr) return nullptr;
    auto array = std::make_unique<Array>();
    array->values.assign(value, value + size);
    return array.release();  // owned by the caller's handle
}

template <typename Array>
aclnnStatus destroy_array(const Array* array) {
    if (array == nullptr) return ACLNN_SUCCESS;
    if (array->magic != npusim::nn::kArrayMagic) return ACLNN_ERR_PARAM_INVALID;
    std::unique_ptr<Array> owned(const_cast<Array*>(array));
    owned->magic = 0;
    return ACLNN_SUCCESS;
}

}  // namespace

NPUSIM_C_EXPORT aclIntArray* aclCreateIntArray(const int64_t* value, uint64_t size) {
    if (NPUSIM_FAULT("aclCreateIntArray").fail) return nullptr;
    return make_array<aclIntArray>(value, size);
}

NPUSIM_C_EXPORT aclFloatArray* aclCreateFloatArray(const float* value, uint64_t size) {
    if (NPUSIM_FAULT("aclCreateFloatArray").fail) return nullptr;
    return make_array<aclFloatArray>(value, size);
}

NPUSIM_C_EXPORT aclBoolArray* aclCreateBoolArray(const bool* value, uint64_t size) {
    if (NPUSIM_FAULT("aclCreateBoolArray").fail) return nullptr;
    return make_array<aclBoolArray>(value, size);
}

NPUSIM_C_EXPORT aclTensorList* aclCreateTensorList(const aclTensor* const* value, uint64_t size) {
    if (NPUSIM_FAULT("aclCreateTensorList").fail) return nullptr;
    if (size > 0 && value == nullptr) return nullptr;
    auto list = std::make_unique<aclTensorList>();
    list->tensors.assign(value, value + size);
    return list.release();  // owned by the caller's handle
}

NPUSIM_C_EXPORT aclnnStatus aclDestroyIntArray(const aclIntArray* array) {
    NPUSIM_FAULT_RETURN("aclDestroyIntArray", aclnnStatus);
    return destroy_array(array);
}

NPUSIM_C_EXPORT aclnnStatus aclDestroyFloatArray(const aclFloatArray* array) {
    NPUSIM_FAULT_RETURN("aclDestroyFloatArray", aclnnStatus);
    return destroy_array(array);
}

NPUSIM_C_EXPORT aclnnStatus aclDestroyBoolArray(const aclBoolArray* array) {
    NPUSIM_FAULT_RETURN("aclDestroyBoolArray", aclnnStatus);
    return destroy_array(array);
}

NPUSIM_C_EXPORT aclnnStatus aclDestroyTensorList(const aclTensorList* array) {
    NPUSIM_FAULT_RETURN("aclDestroyTensorList", aclnnStatus);
    if (array == nullptr) return ACLNN_SUCCESS;
    if (array->magic != npusim::nn::kArrayMagic) return ACLNN_ERR_PARAM_INVALID;
    std::unique_ptr<aclTensorList> owned(const_cast<aclTensorList*>(array));
    owned->magic = 0;
    for (const aclTensor* t : owned->tensors) {
        if (t != nullptr) (void)aclDestroyTensor(t);
    }
    return ACLNN_SUCCESS;
}
