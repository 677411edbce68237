/*
 * aclnnTranspose: swaps two dimensions of self (a permute with dims dim0 and dim1 exchanged).
 * Not part of CANN's operator library: a convenience of this simulator, implemented by aclnnPermute's kernel.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_TRANSPOSE_H
#define NPU_SIM_ACLNNOP_ACLNN_TRANSPOSE_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnTransposeGetWorkspaceSize(const aclTensor *self, int64_t dim0, int64_t dim1, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnTranspose(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_TRANSPOSE_H */
