// aclCreateScalar / aclDestroyScalar.
#include <memory>

#include "core/export.h"
#include "core/fault_plan.h"
#include "core/log.h"
#include "nnopbase/dtype.h"
#include "nnopbase/tensor.h"

NPUSIM_C_EXPORT aclScalar* aclCreateScalar(void* value, aclDataType dataType) {
    if (NPUSIM_FAULT("aclCreateScalar").fail) return nullptr;
    if (value == nullptr || npusim::nn::dtype_size(dataType) == 0) {
        npusim::log_message(npusim::LogLevel::Error, "aclCreateScalar: %s",
                            value == nullptr ? "no value" : "unsupported type");
        return nullptr;
    }
    auto scalar = std::make_unique<aclScalar>();
    scalar->dtype = dataType;
    scalar->value = npusim::nn::load_element(value, dataType);
    return scalar.release();  // owned by the caller's handle (aclDestroyScalar)
}

NPUSIM_C_EXPORT aclnnStatus aclDestroyScalar(const aclScalar* scalar) {
    NPUSIM_FAULT_RETURN("aclDestroyScalar", aclnnStatus);
    if (scalar == nullptr) return ACLNN_SUCCESS;
    if (!npusim::nn::valid(scalar)) return ACLNN_ERR_PARAM_INVALID;
    std::unique_ptr<aclScalar> owned(const_cast<aclScalar*>(scalar));
    owned->magic = 0;
    return ACLNN_SUCCESS;
}
