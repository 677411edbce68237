/*
 * aclnnSearchSorted / aclnnSearchSorteds: torch.searchsorted of a tensor or a scalar self in the rows
 * of sortedSequence (optionally in the order of sorter), into an int64 (int32 with outInt32) out. The
 * signatures are CANN's.
 * Data types: float32, float16, bfloat16 and the integer types.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_SEARCHSORTED_H
#define NPU_SIM_ACLNNOP_ACLNN_SEARCHSORTED_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnSearchSortedGetWorkspaceSize(const aclTensor *sortedSequence, const aclTensor *self,
    bool outInt32, bool right, const aclTensor *sorter, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnSearchSorted(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);
ACLNN_API aclnnStatus aclnnSearchSortedsGetWorkspaceSize(const aclTensor *sortedSequence, const aclScalar *self,
    const bool outInt32, const bool right, const aclTensor *sorter, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnSearchSorteds(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_SEARCHSORTED_H */
