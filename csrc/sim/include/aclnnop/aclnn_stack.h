/* aclnnStack: tensors of one shape joined along a new dimension. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_STACK_H
#define NPU_SIM_ACLNNOP_ACLNN_STACK_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnStack: out has the tensors' shape with the list's length inserted at dim (in [-(rank + 1), rank]);
 * out.select(dim, i) = tensors[i], converted to out's type.
 * Data types: float32, float16, bfloat16, int8, uint8, int16, int32, int64, bool.
 */
ACLNN_API aclnnStatus aclnnStackGetWorkspaceSize(const aclTensorList *tensors, int64_t dim, aclTensor *out,
                                                 uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnStack(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                 const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_STACK_H */
