/* aclnnBitwiseAndTensor, aclnnInplaceBitwiseAndTensor: self & other, a tensor. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_BITWISE_AND_TENSOR_H
#define NPU_SIM_ACLNNOP_ACLNN_BITWISE_AND_TENSOR_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnBitwiseAndTensor: out = self & other (broadcast), bitwise for integers and logical for bool, in
 * torch's result type of self and other. aclnnInplaceBitwiseAndTensor: the same written to selfRef.
 * Data types: int8, uint8, int16, int32, int64, bool.
 */
ACLNN_API aclnnStatus aclnnBitwiseAndTensorGetWorkspaceSize(const aclTensor *self, const aclTensor *other,
                                                            aclTensor *out, uint64_t *workspaceSize,
                                                            aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnBitwiseAndTensor(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                            aclrtStream stream);
ACLNN_API aclnnStatus aclnnInplaceBitwiseAndTensorGetWorkspaceSize(const aclTensor *selfRef, const aclTensor *other,
                                                                   uint64_t *workspaceSize,
                                                                   aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceBitwiseAndTensor(void *workspace, uint64_t workspaceSize,
                                                   aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_BITWISE_AND_TENSOR_H */
