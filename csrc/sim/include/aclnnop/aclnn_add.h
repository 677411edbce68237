/* aclnnAdd: self + alpha * other, element-wise with broadcasting (alpha is required). */
#ifndef NPU_SIM_ACLNNOP_ACLNN_ADD_H
#define NPU_SIM_ACLNNOP_ACLNN_ADD_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnAdd: self + alpha * other, element-wise with broadcasting (alpha is required).
 * Data types: float32, float16, bfloat16, int8, uint8, int16, int32, int64, bool (types promote as torch's).
 */
ACLNN_API aclnnStatus aclnnAddGetWorkspaceSize(const aclTensor *self, const aclTensor *other, const aclScalar *alpha, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnAdd(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/*
 * aclnnAdds: self + alpha * other with a scalar other (alpha is required); out has self's shape.
 * Data types: float32, float16, bfloat16, int8, uint8, int16, int32, int64, bool (types promote as torch's).
 */
ACLNN_API aclnnStatus aclnnAddsGetWorkspaceSize(const aclTensor *self, const aclScalar *other, const aclScalar *alpha,
    aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnAdds(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/*
 * aclnnInplaceAdd: selfRef += alpha * other (other broadcast to selfRef; alpha is required).
 * Data types: float32, float16, bfloat16, int8, uint8, int16, int32, int64, bool (types promote as torch's).
 */
ACLNN_API aclnnStatus aclnnInplaceAddGetWorkspaceSize(const aclTensor *selfRef, const aclTensor *other, const aclScalar *alpha,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceAdd(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/*
 * aclnnInplaceAdds: selfRef += alpha * other with a scalar other (alpha is required).
 * Data types: float32, float16, bfloat16, int8, uint8, int16, int32, int64, bool (types promote as torch's).
 */
ACLNN_API aclnnStatus aclnnInplaceAddsGetWorkspaceSize(const aclTensor *selfRef, const aclScalar *other, const aclScalar *alpha,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceAdds(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_ADD_H */
