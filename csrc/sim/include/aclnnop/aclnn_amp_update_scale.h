/* aclnnAmpUpdateScale: the dynamic loss scale's update. */
#ifndef NPU_SIM_ACLNNOP_ACLNN_AMP_UPDATE_SCALE_H
#define NPU_SIM_ACLNNOP_ACLNN_AMP_UPDATE_SCALE_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * aclnnAmpUpdateScale: when foundInf != 0, updatedScale = currentScale * backoffFactor and the tracker 0;
 * when growthTracker + 1 == growthInterval, updatedScale = currentScale * growthFactor (currentScale
 * when that is not finite) and the tracker 0; otherwise the scale unchanged and the tracker + 1.
 * currentScale, foundInf, updatedScale: one float32 element; the trackers: one int32 element.
 */
ACLNN_API aclnnStatus aclnnAmpUpdateScaleGetWorkspaceSize(const aclTensor *currentScale,
                                                          const aclTensor *growthTracker, const aclTensor *foundInf,
                                                          double growthFactor, double backoffFactor,
                                                          int64_t growthInterval, const aclTensor *updatedScale,
                                                          const aclTensor *updatedGrowthTracker,
                                                          uint64_t *workspaceSize, aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnAmpUpdateScale(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                          aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNNOP_ACLNN_AMP_UPDATE_SCALE_H */
