/* aclnnCast: Converts self to dtype (out must have that dtype and self's shape). */
#ifndef NPU_SIM_ACLNNOP_ACLNN_CAST_H
#define NPU_SIM_ACLNNOP_ACLNN_CAST_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnCast: Converts self to dtype (out must have that dtype and self's shape).
 * Data types: float32, float16, bfloat16 (also int8, uint8, int16, int32, int64, bool, double as source or target).
 */
ACLNN_API aclnnStatus aclnnCastGetWorkspaceSize(const aclTensor *self, const aclDataType dtype, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnCast(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_CAST_H */
