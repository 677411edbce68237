/* aclnnDiv: self / other, element-wise with broadcasting (true division). */
#ifndef NPU_SIM_ACLNNOP_ACLNN_DIV_H
#define NPU_SIM_ACLNNOP_ACLNN_DIV_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnDiv: self / other, element-wise with broadcasting (true division).
 * Data types: float32, float16, bfloat16, the integers and bool (computed as float32).
 */
ACLNN_API aclnnStatus aclnnDivGetWorkspaceSize(const aclTensor *self, const aclTensor *other, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnDiv(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/*
 * aclnnDivs: self / other for a scalar other, element-wise (a zero divisor gives inf or nan).
 * Data types: float32, float16, bfloat16, the integers and bool (computed as float32); out has self's shape.
 */
ACLNN_API aclnnStatus aclnnDivsGetWorkspaceSize(const aclTensor *self, const aclScalar *other, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnDivs(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/*
 * aclnnInplaceDiv, aclnnInplaceDivs: the same written to selfRef (other must broadcast to it).
 */
ACLNN_API aclnnStatus aclnnInplaceDivGetWorkspaceSize(
    aclTensor *selfRef, const aclTensor *other, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceDivsGetWorkspaceSize(
    aclTensor *selfRef, const aclScalar *other, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus
aclnnInplaceDiv(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
ACLNN_API aclnnStatus
aclnnInplaceDivs(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_DIV_H */
