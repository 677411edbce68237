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
 * one value per spatial dimension (or one for all); cubeMathType is accepted and ignored.
 * transposed (ConvTranspose1d/2d): input [N, C_in, ...], weight [C_in, C_out / groups, kH, kW], bias
 * [C_out]; outputPadding (one value per spatial dimension, each below the stride or the dilation) is
 * added to one side of the output, whose size is (in - 1) * stride - 2 * padding + dilation * (k - 1)
 * + outputPadding + 1.
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
