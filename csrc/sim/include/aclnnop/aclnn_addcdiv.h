/* aclnnAddcdiv, aclnnInplaceAddcdiv: out = self + value * tensor1 / tensor2. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_ADDCDIV_H
#define NPU_SIM_ACLNNOP_ACLNN_ADDCDIV_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnAddcdiv: out = self + value * tensor1 / tensor2, element-wise with broadcasting.
 * aclnnInplaceAddcdiv: the same written to selfRef.
 */
ACLNN_API aclnnStatus aclnnAddcdivGetWorkspaceSize(
    const aclTensor *self, const aclTensor *tensor1, const aclTensor *tensor2, const aclScalar *value,
    const aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus
aclnnAddcdiv(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, const aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceAddcdivGetWorkspaceSize(
    const aclTensor *selfRef, const aclTensor *tensor1, const aclTensor *tensor2, const aclScalar *value,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus
aclnnInplaceAddcdiv(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_ADDCDIV_H */
