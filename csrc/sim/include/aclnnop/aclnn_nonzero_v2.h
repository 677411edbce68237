/*
 * aclnnNonzeroV2: out = the indices of the non-zero elements of self, one column per element
 * (D x N); the run sets out's view shape to (D, N) (see aclnn_nonzero.h). The signature is CANN's.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_NONZERO_V2_H
#define NPU_SIM_ACLNNOP_ACLNN_NONZERO_V2_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnNonzeroV2GetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnNonzeroV2(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_NONZERO_V2_H */
