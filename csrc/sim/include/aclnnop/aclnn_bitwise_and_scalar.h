/* aclnnBitwiseAndScalar, aclnnInplaceBitwiseAndScalar: self & other, a scalar. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_BITWISE_AND_SCALAR_H
#define NPU_SIM_ACLNNOP_ACLNN_BITWISE_AND_SCALAR_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnBitwiseAndScalar: out = self & other, bitwise for integers and logical for bool, in torch's
 * result type of self and other. aclnnInplaceBitwiseAndScalar: the same written to selfRef.
 * Data types: int8, uint8, int16, int32, int64, bool.
 */
ACLNN_API aclnnStatus aclnnBitwiseAndScalarGetWorkspaceSize(const aclTensor *self, const aclScalar *other,
                                                            aclTensor *out, uint64_t *workspaceSize,
                                                            aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnBitwiseAndScalar(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                            aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceBitwiseAndScalarGetWorkspaceSize(const aclTensor *selfRef, const aclScalar *other,
                                                                   uint64_t *workspaceSize,
                                                                   aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceBitwiseAndScalar(void *workspace, uint64_t workspaceSize,
                                                   aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_BITWISE_AND_SCALAR_H */
