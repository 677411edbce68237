/* aclnnInplaceCopy: Copies src into selfRef (broadcasting src, converting the dtype). */
#ifndef NPU_SIM_ACLNNOP_ACLNN_COPY_H
#define NPU_SIM_ACLNNOP_ACLNN_COPY_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnInplaceCopy: Copies src into selfRef (broadcasting src, converting the dtype).
 * Data types: float32, float16, bfloat16 (also the integer types, bool and double).
 */
ACLNN_API aclnnStatus aclnnInplaceCopyGetWorkspaceSize(aclTensor *selfRef, const aclTensor *src,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceCopy(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_COPY_H */
