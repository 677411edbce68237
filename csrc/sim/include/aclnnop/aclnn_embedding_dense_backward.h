/* aclnnEmbeddingDenseBackward: the gradient of aclnnEmbedding with respect to its weight. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_EMBEDDING_DENSE_BACKWARD_H
#define NPU_SIM_ACLNNOP_ACLNN_EMBEDDING_DENSE_BACKWARD_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnEmbeddingDenseBackward: out [numWeights, D] = the rows of grad (rank 2-8, its leading axes
 * holding numel(indices) rows of D) summed by their index (indices: rank 1-8). Row paddingIdx stays
 * zero (a paddingIdx >= numWeights, e.g. -1 cast to uint64, means none); with scaleGradByFreq each
 * row is divided by the number of times its index occurs. An index outside [0, numWeights)
 * contributes nothing (and is logged).
 * Data types: float32, float16, bfloat16 for grad and out (one type); indices float32, float16,
 * double, int32, int64, int16, int8, uint8 or bool (a float index is truncated).
 */
ACLNN_API aclnnStatus aclnnEmbeddingDenseBackwardGetWorkspaceSize(const aclTensor *grad, const aclTensor *indices,
    uint64_t numWeights, uint64_t paddingIdx, bool scaleGradByFreq, const aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnEmbeddingDenseBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_EMBEDDING_DENSE_BACKWARD_H */
