/* aclnnPowTensorScalar: self raised to a scalar exponent. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_POW_H
#define NPU_SIM_ACLNNOP_ACLNN_POW_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnPowTensorScalar: out = self ^ exponent, element-wise; out has self's shape.
 * Data types: float32, float16, bfloat16.
 */
ACLNN_API aclnnStatus aclnnPowTensorScalarGetWorkspaceSize(const aclTensor *self, const aclScalar *exponent,
    const aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnPowTensorScalar(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_POW_H */
