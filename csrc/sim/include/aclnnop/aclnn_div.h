/* aclnnDiv: self / other, element-wise with broadcasting (true division). */
#ifndef NPU_SIM_ACLNNOP_ACLNN_DIV_H
#define NPU_SIM_ACLNNOP_ACLNN_DIV_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnDiv: self / other, element-wise with broadcasting (true division).
 * Data types: float32, float16, bfloat16.
 */
ACLNN_API aclnnStatus aclnnDivGetWorkspaceSize(const aclTensor *self, const aclTensor *other, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnDiv(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/*
 * aclnnDivs: self / other for a scalar other, element-wise (a zero divisor gives inf or nan).
 * Data types: float32, float16, bfloat16; out has self's shape.
 */
ACLNN_API aclnnStatus aclnnDivsGetWorkspaceSize(const aclTensor *self, const aclScalar *other, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnDivs(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_DIV_H */
