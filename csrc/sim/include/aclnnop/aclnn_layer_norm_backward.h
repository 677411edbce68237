/* aclnnLayerNormBackward: the gradients of aclnnLayerNorm. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_LAYER_NORM_BACKWARD_H
#define NPU_SIM_ACLNNOP_ACLNN_LAYER_NORM_BACKWARD_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnLayerNormBackward: gradInput, gradWeight and gradBias of a layer norm over the trailing
 * normalizedShape dimensions, from the forward's mean and rstd (input's leading dimensions, 1 for
 * each normalised one); outputMask (3 values) selects the outputs written (the others may be NULL).
 * Data types: float32, float16, bfloat16.
 */
ACLNN_API aclnnStatus aclnnLayerNormBackwardGetWorkspaceSize(const aclTensor *gradOut, const aclTensor *input,
    const aclIntArray *normalizedShape, const aclTensor *mean, const aclTensor *rstd, const aclTensor *weightOptional,
    const aclTensor *biasOptional, const aclBoolArray *outputMask, aclTensor *gradInputOut, aclTensor *gradWeightOut,
    aclTensor *gradBiasOut, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnLayerNormBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_LAYER_NORM_BACKWARD_H */
