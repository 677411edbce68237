/*
 * aclnnAdaptiveAvgPool2d: the adaptive average pooling of self's last two dimensions ([C, H, W] or
 * [N, C, H, W]) to outputSize (two values): output cell i of a dimension of size L pooled to S averages
 * the input elements floor(i * L / S) to ceil((i + 1) * L / S) - 1 (torch's adaptive_avg_pool2d). The
 * signature is CANN's. Data types: float32, float16, bfloat16.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_ADAPTIVE_AVG_POOL2D_H
#define NPU_SIM_ACLNNOP_ACLNN_ADAPTIVE_AVG_POOL2D_H

#ifdef __cplusplus
#include <array> /* as CANN's header (a C++ header there) */
#endif
#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnAdaptiveAvgPool2dGetWorkspaceSize(const aclTensor *self, const aclIntArray *outputSize,
    aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnAdaptiveAvgPool2d(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
    const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_ADAPTIVE_AVG_POOL2D_H */
