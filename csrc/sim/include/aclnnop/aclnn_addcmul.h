/* aclnnAddcmul, aclnnInplaceAddcmul: out = self + value * tensor1 * tensor2. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_ADDCMUL_H
#define NPU_SIM_ACLNNOP_ACLNN_ADDCMUL_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnAddcmul: out = self + value * tensor1 * tensor2, element-wise with broadcasting.
 * aclnnInplaceAddcmul: the same written to selfRef.
 */
ACLNN_API aclnnStatus aclnnAddcmulGetWorkspaceSize(
    const aclTensor *self, const aclTensor *tensor1, const aclTensor *tensor2, const aclScalar *value, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus
aclnnAddcmul(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceAddcmulGetWorkspaceSize(
    const aclTensor *selfRef, const aclTensor *tensor1, const aclTensor *tensor2, const aclScalar *value,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus
aclnnInplaceAddcmul(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_ADDCMUL_H */
