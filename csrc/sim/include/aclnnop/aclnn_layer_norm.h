/* aclnnLayerNorm: Layer normalisation over the trailing normalizedShape dimensions; mean and rstd outputs are optional. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_LAYER_NORM_H
#define NPU_SIM_ACLNNOP_ACLNN_LAYER_NORM_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnLayerNorm: Layer normalisation over the trailing normalizedShape dimensions; mean and rstd outputs are optional.
 * Data types: float32, float16, bfloat16.
 */
ACLNN_API aclnnStatus aclnnLayerNormGetWorkspaceSize(const aclTensor *input, const aclIntArray *normalizedShape, const aclTensor *weightOptional,
    const aclTensor *biasOptional, double eps, aclTensor *out, aclTensor *meanOutOptional, aclTensor *rstdOutOptional,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnLayerNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

/*
 * aclnnFastLayerNorm: the same normalisation under the entry point torch_npu's layer_norm takes in its
 * compatible mode (TORCH_NPU_USE_COMPATIBLE_IMPL=1); arguments and results are aclnnLayerNorm's.
 */
ACLNN_API aclnnStatus aclnnFastLayerNormGetWorkspaceSize(const aclTensor *input, const aclIntArray *normalizedShape,
    const aclTensor *weightOptional, const aclTensor *biasOptional, double eps, aclTensor *out,
    aclTensor *meanOutOptional, aclTensor *rstdOutOptional, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnFastLayerNorm(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_LAYER_NORM_H */
