/* aclnnNeScalar: out = (self != other) for a scalar other. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_NE_SCALAR_H
#define NPU_SIM_ACLNNOP_ACLNN_NE_SCALAR_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnNeScalar: out = (self != other), compared in the promoted type of self and the scalar; out
 * (self's shape) of any type receives 1 or 0. CANN's in-place form is not offered.
 * Data types: float32, float16, bfloat16, int8, uint8, int16, int32, int64, bool.
 */
ACLNN_API aclnnStatus aclnnNeScalarGetWorkspaceSize(const aclTensor *self, const aclScalar *other, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnNeScalar(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_NE_SCALAR_H */
