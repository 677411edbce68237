/*
 * aclnnInplaceMaskedFillTensor: selfRef[i] = value where mask[i] (mask broadcast to selfRef); value is a
 * one-element tensor, read when the operator runs. The signature is CANN's. Types as
 * aclnnInplaceMaskedFillScalar.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_MASKED_FILL_TENSOR_H
#define NPU_SIM_ACLNNOP_ACLNN_MASKED_FILL_TENSOR_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnInplaceMaskedFillTensorGetWorkspaceSize(aclTensor *selfRef, const aclTensor *mask,
    const aclTensor *value, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceMaskedFillTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_MASKED_FILL_TENSOR_H */
