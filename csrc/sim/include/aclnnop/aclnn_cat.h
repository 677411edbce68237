/* aclnnCat: a list of tensors joined along one dimension. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_CAT_H
#define NPU_SIM_ACLNNOP_ACLNN_CAT_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnCat: out = the tensors of the list joined along dim; each has out's rank and sizes except
 * along dim, where they add up to out's.
 * Data types: any the simulator stores (each tensor converts to out's type).
 */
ACLNN_API aclnnStatus aclnnCatGetWorkspaceSize(const aclTensorList *tensors, int64_t dim, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnCat(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_CAT_H */
