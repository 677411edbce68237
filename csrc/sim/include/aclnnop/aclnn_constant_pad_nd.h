/* aclnnConstantPadNd: pads (or, with negative amounts, crops) the last dimensions with a constant. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_CONSTANT_PAD_ND_H
#define NPU_SIM_ACLNNOP_ACLNN_CONSTANT_PAD_ND_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnConstantPadNd: pad holds an even number of amounts, at most two per dimension of self, in
 * torch's order: (before, after) of the last dimension first, then of the one before it. out has
 * self's type and, in each padded dimension, size + before + after; its elements outside self are
 * value (rounded to out's type), a negative amount removes elements.
 * Data types: float32, float16, bfloat16, int8, uint8, int16, int32, int64, bool.
 */
ACLNN_API aclnnStatus aclnnConstantPadNdGetWorkspaceSize(const aclTensor *self, const aclIntArray *pad,
                                                         const aclScalar *value, aclTensor *out,
                                                         uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnConstantPadNd(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                         aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_CONSTANT_PAD_ND_H */
