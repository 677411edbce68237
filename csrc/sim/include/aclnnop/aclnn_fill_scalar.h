/* aclnnInplaceFillScalar: sets every element of selfRef to a scalar value. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_FILL_SCALAR_H
#define NPU_SIM_ACLNNOP_ACLNN_FILL_SCALAR_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnInplaceFillScalar: selfRef = value, element-wise (strided views included), the value
 * rounded to selfRef's type.
 * Data types: float32, float16, bfloat16.
 */
ACLNN_API aclnnStatus aclnnInplaceFillScalarGetWorkspaceSize(aclTensor *selfRef, const aclScalar *value,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceFillScalar(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

/*
 * aclnnInplaceOne: writes 1 over selfRef.
 * Data types: float32, float16, bfloat16.
 */
ACLNN_API aclnnStatus aclnnInplaceOneGetWorkspaceSize(aclTensor *selfRef, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceOne(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_FILL_SCALAR_H */
