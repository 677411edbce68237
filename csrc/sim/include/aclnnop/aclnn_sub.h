/* aclnnSub: self - alpha * other, element-wise with broadcasting (alpha is required). */
#ifndef NPU_SIM_ACLNNOP_ACLNN_SUB_H
#define NPU_SIM_ACLNNOP_ACLNN_SUB_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnSub: self - alpha * other, element-wise with broadcasting (alpha is required).
 * Data types: float32, float16, bfloat16, int8, uint8, int16, int32, int64 (types promote as torch's).
 */
ACLNN_API aclnnStatus aclnnSubGetWorkspaceSize(const aclTensor *self, const aclTensor *other, const aclScalar *alpha, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnSub(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/*
 * aclnnSubs: self - alpha * other with a scalar other; out has self's shape. Data types: float32, float16, bfloat16, int8, uint8, int16, int32, int64 (types promote as torch's).
 */
ACLNN_API aclnnStatus aclnnSubsGetWorkspaceSize(const aclTensor *self, const aclScalar *other, const aclScalar *alpha,
    aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnSubs(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/*
 * aclnnInplaceSub, aclnnInplaceSubs: the same written to selfRef (other must broadcast to it).
 */
ACLNN_API aclnnStatus aclnnInplaceSubGetWorkspaceSize(
    aclTensor *selfRef, const aclTensor *other, const aclScalar *alpha, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus
aclnnInplaceSub(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceSubsGetWorkspaceSize(
    aclTensor *selfRef, const aclScalar *other, const aclScalar *alpha, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus
aclnnInplaceSubs(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_SUB_H */
