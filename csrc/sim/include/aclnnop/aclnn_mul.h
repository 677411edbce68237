/* aclnnMul: self * other, element-wise with broadcasting. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_MUL_H
#define NPU_SIM_ACLNNOP_ACLNN_MUL_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnMul: self * other, element-wise with broadcasting.
 * Data types: float32, float16, bfloat16, int8, uint8, int16, int32, int64, bool (types promote as torch's).
 */
ACLNN_API aclnnStatus aclnnMulGetWorkspaceSize(const aclTensor *self, const aclTensor *other, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnMul(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/*
 * aclnnMuls: self * other with a scalar other; out has self's shape. Data types: float32, float16, bfloat16, int8, uint8, int16, int32, int64, bool (types promote as torch's).
 */
ACLNN_API aclnnStatus aclnnMulsGetWorkspaceSize(const aclTensor *self, const aclScalar *other, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnMuls(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/*
 * aclnnInplaceMul: selfRef *= other (other broadcast to selfRef).
 * Data types: float32, float16, bfloat16, int8, uint8, int16, int32, int64, bool (types promote as torch's).
 */
ACLNN_API aclnnStatus aclnnInplaceMulGetWorkspaceSize(aclTensor *selfRef, const aclTensor *other,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceMul(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/*
 * aclnnInplaceMuls: selfRef *= other with a scalar other.
 * Data types: float32, float16, bfloat16, int8, uint8, int16, int32, int64, bool (types promote as torch's).
 */
ACLNN_API aclnnStatus aclnnInplaceMulsGetWorkspaceSize(aclTensor *selfRef, const aclScalar *other,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceMuls(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_MUL_H */
