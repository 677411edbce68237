/* aclnnForeachAddList / aclnnForeachAddListV2: out[i] = x1[i] + alpha * x2[i] over tensor lists. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_FOREACH_ADD_LIST_H
#define NPU_SIM_ACLNNOP_ACLNN_FOREACH_ADD_LIST_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnForeachAddList: out[i] = x1[i] + alpha * x2[i]; the three lists have one length, each
 * triple one shape; alpha is a one-element tensor (read when the kernel runs).
 * Data types: float32, float16, bfloat16.
 */
ACLNN_API aclnnStatus aclnnForeachAddListGetWorkspaceSize(const aclTensorList *x1, const aclTensorList *x2,
    const aclTensor *alpha, aclTensorList *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnForeachAddList(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

/*
 * aclnnForeachAddListV2: aclnnForeachAddList with alpha an aclScalar.
 */
ACLNN_API aclnnStatus aclnnForeachAddListV2GetWorkspaceSize(const aclTensorList *x1, const aclTensorList *x2,
    const aclScalar *alpha, const aclTensorList *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnForeachAddListV2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_FOREACH_ADD_LIST_H */
