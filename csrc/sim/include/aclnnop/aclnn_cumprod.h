/*
 * aclnnCumprod: the running product of input along dim (an integer aclScalar), out in dtype (torch.cumprod);
 * accumulated in double, rounded once per element. The signature is CANN's.
 * Data types: float32, float16, bfloat16, int8, uint8, int16, int32, int64.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_CUMPROD_H
#define NPU_SIM_ACLNNOP_ACLNN_CUMPROD_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnCumprodGetWorkspaceSize(const aclTensor *input, const aclScalar *dim, const aclDataType dtype,
    aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnCumprod(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_CUMPROD_H */
