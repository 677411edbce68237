/*
 * aclnnKlDivBackward: out = gradOutput * d kl_div / d self (-target, or -exp(target)).
 * reduction: 0 none, 1 mean, 2 sum. The signature is CANN's. Tensors: float32, float16, bfloat16.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_KL_DIV_BACKWARD_H
#define NPU_SIM_ACLNNOP_ACLNN_KL_DIV_BACKWARD_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnKlDivBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *self,
    const aclTensor *target, int64_t reduction, bool logTarget, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnKlDivBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_KL_DIV_BACKWARD_H */
