/*
 * aclnnFlashAttentionScoreGrad (backward of aclnnFlashAttentionScore):
 *   dqOut, dkOut, dvOut (and dpseOut) from dy, the gradient of attentionOut.
 *
 * The signature is CANN's. The simulator takes the subset its forward supports (see
 * aclnn_flash_attention_score.h: layouts, grouped-query heads, attenMaskOptional with sparseMode 0 to 3,
 * pseShiftOptional, dropMaskOptional with keepProb) and recomputes the forward's probabilities from
 * query, key, the masks and the pse, so softmaxMaxOptional, softmaxSumOptional, softmaxInOptional and
 * attentionInOptional are accepted and not read; paddingMaskOptional is reserved (not read). With
 * dropout, dropMaskOptional must be the mask the forward used. dpseOut has the shape of the pse (its
 * gradient summed over the axes the pse broadcasts along), or is NULL or empty without a pse.
 * Data types: float32, float16, bfloat16 (query, key, value, dy and the outputs alike); the products
 * accumulate in double and round once to the output's type.
 * Runs as one MIX kernel and asks for a 16 KiB workspace.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_FLASH_ATTENTION_SCORE_GRAD_H
#define NPU_SIM_ACLNNOP_ACLNN_FLASH_ATTENTION_SCORE_GRAD_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnFlashAttentionScoreGradGetWorkspaceSize(
    const aclTensor *query, const aclTensor *keyIn, const aclTensor *value, const aclTensor *dy,
    const aclTensor *pseShiftOptional, const aclTensor *dropMaskOptional, const aclTensor *paddingMaskOptional,
    const aclTensor *attenMaskOptional, const aclTensor *softmaxMaxOptional, const aclTensor *softmaxSumOptional,
    const aclTensor *softmaxInOptional, const aclTensor *attentionInOptional, const aclIntArray *prefixOptional,
    double scaleValue, double keepProb, int64_t preTokens, int64_t nextTokens, int64_t headNum, char *inputLayout,
    int64_t innerPrecise, int64_t sparseMode, const aclTensor *dqOut, const aclTensor *dkOut, const aclTensor *dvOut,
    const aclTensor *dpseOut, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnFlashAttentionScoreGrad(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_FLASH_ATTENTION_SCORE_GRAD_H */
