/* aclnnEmbedding: Gathers rows of weight [V, D] by indices (int32/int64, any shape) into out [indices..., D]. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_EMBEDDING_H
#define NPU_SIM_ACLNNOP_ACLNN_EMBEDDING_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnEmbedding: Gathers rows of weight [V, D] by indices (int32/int64, any shape) into out [indices..., D].
 * Data types: float32, float16, bfloat16 for weight and out.
 */
ACLNN_API aclnnStatus aclnnEmbeddingGetWorkspaceSize(const aclTensor *weight, const aclTensor *indices, const aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnEmbedding(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_EMBEDDING_H */
