/*
 * aclnnInplaceMaskedScatter: selfRef's elements where mask is true take source's elements in row-major
 * order. The signature is CANN's.
 */
#ifndef NPU_SIM_ACLNNOP_ACLNN_MASKED_SCATTER_H
#define NPU_SIM_ACLNNOP_ACLNN_MASKED_SCATTER_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACLNN_API aclnnStatus aclnnInplaceMaskedScatterGetWorkspaceSize(aclTensor* selfRef, const aclTensor* mask,
    const aclTensor* source, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnInplaceMaskedScatter(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_MASKED_SCATTER_H */
