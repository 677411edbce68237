/* aclnnConvolutionBackward: the gradients of aclnnConvolution (torch_npu's route for convolution_backward). */
#ifndef NPU_SIM_ACLNNOP_ACLNN_CONVOLUTION_BACKWARD_H
#define NPU_SIM_ACLNNOP_ACLNN_CONVOLUTION_BACKWARD_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnConvolutionBackward: gradInput, gradWeight and gradBias of aclnnConvolution for gradOutput;
 * outputMask (3 values) selects which are computed (an output not selected may be NULL); biasSizes
 * ([O]) may be NULL. Attributes as aclnnConvolution's (transposed included).
 * Data types: float32, float16, bfloat16 (every tensor alike).
 */
ACLNN_API aclnnStatus aclnnConvolutionBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* input, const aclTensor* weight, const aclIntArray* biasSizes,
    const aclIntArray* stride, const aclIntArray* padding, const aclIntArray* dilation, bool transposed,
    const aclIntArray* outputPadding, int groups, const aclBoolArray* outputMask, int8_t cubeMathType,
    aclTensor* gradInput, aclTensor* gradWeight, aclTensor* gradBias, uint64_t* workspaceSize,
    aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnConvolutionBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                               const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_CONVOLUTION_BACKWARD_H */
