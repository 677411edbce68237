/* aclnnConvolution: the forward convolution of torch's Conv1d / Conv2d (torch_npu's route for _convolution). */
#ifndef NPU_SIM_ACLNNOP_ACLNN_CONVOLUTION_H
#define NPU_SIM_ACLNNOP_ACLNN_CONVOLUTION_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnConvolution: output = conv(input, weight) + bias, input [N, C, L] or [N, C, H, W], weight
 * [O, C / groups, kL] or [O, C / groups, kH, kW], bias [O] or NULL; stride, padding and dilation hold
 * one value per spatial dimension (or one for all); transposed must be false in the simulator
 * (outputPadding is read by transposed convolution only); cubeMathType is accepted and ignored.
 * Data types: float32, float16, bfloat16 (every tensor alike).
 */
ACLNN_API aclnnStatus aclnnConvolutionGetWorkspaceSize(const aclTensor* input, const aclTensor* weight,
                                                       const aclTensor* bias, const aclIntArray* stride,
                                                       const aclIntArray* padding, const aclIntArray* dilation,
                                                       bool transposed, const aclIntArray* outputPadding,
                                                       const int64_t groups, aclTensor* output, int8_t cubeMathType,
                                                       uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnConvolution(void* workspace, const uint64_t workspaceSize, aclOpExecutor* executor,
                                       aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_CONVOLUTION_H */
