/*
 * aclnnNorm: the p-norm of self over the dimensions dim (every dimension when dim is empty), as
 * torch.norm: p +inf the largest |x|, -inf the smallest, 0 the count of non-zero elements, otherwise
 * (sum |x|^p)^(1/p); keepdim keeps the reduced dimensions with size 1. out's data type is the result's.
 * The signature is CANN's. Data types: float32, float16, bfloat16.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_NORM_H
#define NPU_SIM_ACLNNOP_ACLNN_NORM_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnNormGetWorkspaceSize(const aclTensor *self, const aclScalar *pScalar, const aclIntArray *dim,
    bool keepdim, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_NORM_H */
