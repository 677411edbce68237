/*
 * aclnnInplaceMaskedFillScalar: selfRef[i] = value where mask[i] (mask broadcast to selfRef).
 * The signature is CANN's. selfRef: float, integer and bool types; mask: bool (or any type, non-zero
 * selects); value is rounded to selfRef's type.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_MASKED_FILL_SCALAR_H
#define NPU_SIM_ACLNNOP_ACLNN_MASKED_FILL_SCALAR_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnInplaceMaskedFillScalarGetWorkspaceSize(aclTensor *selfRef, const aclTensor *mask,
    const aclScalar *value, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceMaskedFillScalar(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_MASKED_FILL_SCALAR_H */
