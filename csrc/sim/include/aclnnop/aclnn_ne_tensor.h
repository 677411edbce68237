/* aclnnNeTensor: out = (self != other), element-wise with broadcasting. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_NE_TENSOR_H
#define NPU_SIM_ACLNNOP_ACLNN_NE_TENSOR_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnNeTensor: out = (self != other) with broadcasting, compared in the promoted type; out of any
 * type receives 1 or 0. CANN's in-place form is not offered.
 * Data types: float32, float16, bfloat16, int8, uint8, int16, int32, int64, bool.
 */
ACLNN_API aclnnStatus aclnnNeTensorGetWorkspaceSize(const aclTensor *self, const aclTensor *other, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnNeTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_NE_TENSOR_H */
