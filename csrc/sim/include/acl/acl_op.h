/*
 * Operator attributes of the single-operator API (acl_op.h), compatible with CANN's ABI. The
 * attributes are stored and can be read back by the simulator; no operator runs through this API
 * (see acl_op_compiler.h).
 */
#ifndef NPU_SIM_ACL_OP_H
#define NPU_SIM_ACL_OP_H

#include "acl/acl_base.h"
#include "acl/acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct aclopAttr aclopAttr;

typedef enum aclEngineType { ACL_ENGINE_SYS = 0, ACL_ENGINE_AICORE = 1, ACL_ENGINE_VECTOR = 2 } aclopEngineType;

ACL_FUNC_VISIBILITY aclopAttr *aclopCreateAttr(void);
ACL_FUNC_VISIBILITY void aclopDestroyAttr(const aclopAttr *attr);
ACL_FUNC_VISIBILITY aclError aclopSetAttrBool(aclopAttr *attr, const char *attrName, uint8_t attrValue);
ACL_FUNC_VISIBILITY aclError aclopSetAttrInt(aclopAttr *attr, const char *attrName, int64_t attrValue);
ACL_FUNC_VISIBILITY aclError aclopSetAttrFloat(aclopAttr *attr, const char *attrName, float attrValue);
ACL_FUNC_VISIBILITY aclError aclopSetAttrString(aclopAttr *attr, const char *attrName, const char *attrValue);
ACL_FUNC_VISIBILITY aclError aclopSetAttrDataType(aclopAttr *attr, const char *attrName, aclDataType attrValue);
ACL_FUNC_VISIBILITY aclError aclopSetAttrListBool(aclopAttr *attr, const char *attrName, int numValues,
                                                  const uint8_t *values);
ACL_FUNC_VISIBILITY aclError aclopSetAttrListInt(aclopAttr *attr, const char *attrName, int numValues,
                                                 const int64_t *values);
ACL_FUNC_VISIBILITY aclError aclopSetAttrListFloat(aclopAttr *attr, const char *attrName, int numValues,
                                                   const float *values);
ACL_FUNC_VISIBILITY aclError aclopSetAttrListListInt(aclopAttr *attr, const char *attrName, int numLists,
                                                     const int *numValues, const int64_t *const values[]);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACL_OP_H */
