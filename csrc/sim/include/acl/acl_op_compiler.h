/*
 * The operator compiler API of libacl_op_compiler (acl_op_compiler.h), compatible with CANN's ABI.
 * Compile options are stored and read back; compiling and executing an operator (the GE
 * single-operator path) is not supported: aclopCompileAndExecute[V2] return
 * ACL_ERROR_FEATURE_UNSUPPORTED. The simulator's operators are the aclnn operators of libopapi.
 */
#ifndef NPU_SIM_ACL_OP_COMPILER_H
#define NPU_SIM_ACL_OP_COMPILER_H

#include "acl/acl_base.h"
#include "acl/acl_op.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum aclCompileType { ACL_COMPILE_SYS = 0, ACL_COMPILE_UNREGISTERED = 1 } aclopCompileType;

typedef enum {
    ACL_PRECISION_MODE = 0,
    ACL_AICORE_NUM = 1,
    ACL_AUTO_TUNE_MODE = 2,
    ACL_OP_SELECT_IMPL_MODE = 3,
    ACL_OPTYPELIST_FOR_IMPLMODE = 4,
    ACL_OP_DEBUG_LEVEL = 5,
    ACL_DEBUG_DIR = 6,
    ACL_OP_COMPILER_CACHE_MODE = 7,
    ACL_OP_COMPILER_CACHE_DIR = 8,
    ACL_OP_PERFORMANCE_MODE = 9,
    ACL_OP_JIT_COMPILE = 10,
    ACL_OP_DETERMINISTIC = 11,
    ACL_CUSTOMIZE_DTYPES = 12,
    ACL_OP_PRECISION_MODE = 13,
    ACL_ALLOW_HF32 = 14,
    ACL_PRECISION_MODE_V2 = 15,
    ACL_OP_DEBUG_OPTION = 16
} aclCompileOpt;

ACL_FUNC_VISIBILITY aclError aclopCompileAndExecute(const char *opType, int numInputs,
                                                    const aclTensorDesc *const inputDesc[],
                                                    const aclDataBuffer *const inputs[], int numOutputs,
                                                    const aclTensorDesc *const outputDesc[],
                                                    aclDataBuffer *const outputs[], const aclopAttr *attr,
                                                    aclopEngineType engineType, aclopCompileType compileFlag,
                                                    const char *opPath, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclopCompileAndExecuteV2(const char *opType, int numInputs, aclTensorDesc *inputDesc[],
                                                      aclDataBuffer *inputs[], int numOutputs,
                                                      aclTensorDesc *outputDesc[], aclDataBuffer *outputs[],
                                                      aclopAttr *attr, aclopEngineType engineType,
                                                      aclopCompileType compileFlag, const char *opPath,
                                                      aclrtStream stream);

/* Compile options: stored per process. aclGetCompileoptSize is the length of the stored value plus
 * its terminating NUL (1 when the option was never set); aclGetCompileopt copies it. */
ACL_FUNC_VISIBILITY aclError aclSetCompileopt(aclCompileOpt opt, const char *value);
ACL_FUNC_VISIBILITY size_t aclGetCompileoptSize(aclCompileOpt opt);
ACL_FUNC_VISIBILITY aclError aclGetCompileopt(aclCompileOpt opt, char *value, size_t length);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACL_OP_COMPILER_H */
