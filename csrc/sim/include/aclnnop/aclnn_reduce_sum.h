/* aclnnReduceSum: Sum over the dimensions in dim (all when dim is empty); dtype is out's dtype. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_REDUCE_SUM_H
#define NPU_SIM_ACLNNOP_ACLNN_REDUCE_SUM_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnReduceSum: Sum over the dimensions in dim (all when dim is empty); dtype is out's dtype.
 * Data types: float32, float16, bfloat16.
 */
ACLNN_API aclnnStatus aclnnReduceSumGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, bool keepDim, aclDataType dtype, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnReduceSum(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_REDUCE_SUM_H */
