/* aclnnLinalgVectorNorm: the vector norm of order ord over dimensions. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_LINALG_VECTOR_NORM_H
#define NPU_SIM_ACLNNOP_ACLNN_LINALG_VECTOR_NORM_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnLinalgVectorNorm: the norm of order ord (+inf: max |x|, -inf: min |x|, 0: the count of non-zero
 * elements, otherwise (sum |x|^ord)^(1/ord)) over dims (every dimension when dims is empty), kept as
 * size 1 when keepDims; computed and written in dtype, out's data type.
 * Data types: float32, float16, bfloat16.
 */
ACLNN_API aclnnStatus aclnnLinalgVectorNormGetWorkspaceSize(const aclTensor *self, const aclScalar *ord,
                                                            const aclIntArray *dims, bool keepDims,
                                                            const aclDataType dtype, aclTensor *out,
                                                            uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnLinalgVectorNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                            aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_LINALG_VECTOR_NORM_H */
