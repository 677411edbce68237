/* Umbrella header of the ACL runtime. */
#ifndef NPU_SIM_ACL_H
#define NPU_SIM_ACL_H

#include "acl/acl_base.h"
#include "acl/acl_rt.h"
#include "acl/acl_op.h"

#define ACL_MAJOR_VERSION 1
#define ACL_MINOR_VERSION 17
#define ACL_PATCH_VERSION 0

#endif /* NPU_SIM_ACL_H */
