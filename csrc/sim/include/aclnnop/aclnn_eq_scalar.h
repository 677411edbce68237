/* aclnnEqScalar: out = (self == other) for a scalar other. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_EQ_SCALAR_H
#define NPU_SIM_ACLNNOP_ACLNN_EQ_SCALAR_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnEqScalar: out = (self == other), compared in the promoted type of self and the scalar; out
 * (self's shape) of any type receives 1 or 0. CANN's in-place form is not offered.
 * Data types: float32, float16, bfloat16, int8, uint8, int16, int32, int64, bool.
 */
ACLNN_API aclnnStatus aclnnEqScalarGetWorkspaceSize(
    const aclTensor *self, const aclScalar *other, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus
aclnnEqScalar(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_EQ_SCALAR_H */
