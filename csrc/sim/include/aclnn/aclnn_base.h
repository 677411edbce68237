/* Base header of the aclnn operator headers (aclnnop/aclnn_*.h): the meta types and the ACL stream type. */
#ifndef NPU_SIM_ACLNN_BASE_H
#define NPU_SIM_ACLNN_BASE_H

#include "acl/acl_base.h"
#include "aclnn/acl_meta.h"

#endif /* NPU_SIM_ACLNN_BASE_H */
