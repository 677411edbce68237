/*
 * aclnnFlashAttentionScore (forward):
 *   attentionOut = Dropout(Softmax(Mask(scale * (pse + Q K^T), attenMask)), keepProb) V.
 *
 * The signature is CANN's. This simulator supports the common subset:
 *   - inputLayout "BSH", "BSND" or "BNSD" (query [B, Sq, N*D] / [B, Sq, N, D] / [B, N, Sq, D]; key and value
 *     the same layout with Skv and a head count that divides headNum: grouped-query attention);
 *   - attenMaskOptional: NULL, or a bool/uint8 tensor [Sq, Skv], [B, 1, Sq, Skv] or [B, N, Sq, Skv] in which a
 *     non-zero element masks the position out (sparseMode 0 and 1); sparseMode 2 (leftUpCausal) and 3
 *     (rightDownCausal) take CANN's compressed 2-D mask and mask the upper triangle from the top-left or the
 *     bottom-right corner; sparseMode 4 to 8 and prefixOptional are refused;
 *   - realShiftOptional (the pse, query's type): [B, N, Sq, Skv], [B, N, 1, Skv] or [1, N, Sq, Skv];
 *   - dropMaskOptional: uint8, bit k (of byte k / 8) for element k of [B, N, Sq, Skv], 1 keeps; read when
 *     keepProb < 1, which needs it; kept probabilities are scaled by 1 / keepProb;
 *   - paddingMaskOptional is reserved (not read); preTokens and nextTokens must be 2147483647 (no band)
 *     with sparseMode 0; innerPrecise is accepted and ignored;
 *   - softmaxMaxOut / softmaxSumOut (float32 [B, N, Sq, 8], each row's value repeated 8 times) may be NULL;
 *     softmaxOutOut is not written.
 * Data types: float32, float16, bfloat16 (query, key, value and attentionOutOut alike).
 * Runs as one MIX kernel (cube and vector cores) and asks for a 16 KiB workspace.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_FLASH_ATTENTION_SCORE_H
#define NPU_SIM_ACLNNOP_ACLNN_FLASH_ATTENTION_SCORE_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnFlashAttentionScoreGetWorkspaceSize(
    const aclTensor *query, const aclTensor *key, const aclTensor *value, const aclTensor *realShiftOptional,
    const aclTensor *dropMaskOptional, const aclTensor *paddingMaskOptional, const aclTensor *attenMaskOptional,
    const aclIntArray *prefixOptional, double scaleValue, double keepProb, int64_t preTokens, int64_t nextTokens,
    int64_t headNum, char *inputLayout, int64_t innerPrecise, int64_t sparseMode, const aclTensor *softmaxMaxOut,
    const aclTensor *softmaxSumOut, const aclTensor *softmaxOutOut, const aclTensor *attentionOutOut,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnFlashAttentionScore(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_FLASH_ATTENTION_SCORE_H */
