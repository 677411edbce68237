/*
 * aclnn meta types: the opaque tensor, scalar, array and executor handles of the
 * aclnn operator API (libnnopbase), the aclnn status codes, and the functions that
 * create and destroy the handles. Signatures and values follow CANN's ABI.
 */
#ifndef NPU_SIM_ACLNN_ACL_META_H
#define NPU_SIM_ACLNN_ACL_META_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef ACLNN_API
#define ACLNN_API __attribute__((visibility("default")))
#endif

typedef struct aclOpExecutor aclOpExecutor;
typedef struct aclTensor aclTensor;
typedef struct aclScalar aclScalar;
typedef struct aclIntArray aclIntArray;
typedef struct aclFloatArray aclFloatArray;
typedef struct aclBoolArray aclBoolArray;
typedef struct aclTensorList aclTensorList;

typedef int32_t aclnnStatus;

/*
 * Status codes (CANN's documented aclnn return codes). 1xxxxx: the caller's
 * parameters; 3xxxxx: the runtime underneath failed; 5xxxxx: inside the operator.
 */
#define ACLNN_SUCCESS 0
#define ACLNN_ERR_PARAM_NULLPTR 161001            /* a required pointer argument is NULL */
#define ACLNN_ERR_PARAM_INVALID 161002            /* bad dtype, shape, format or attribute value */
#define ACLNN_ERR_RUNTIME_ERROR 361001            /* an ACL runtime call (e.g. the kernel launch) failed */
#define ACLNN_ERR_INNER 561000                    /* inner error; here also: workspace smaller than
                                                     requested, or an executor that was already run
                                                     (not repeatable) or destroyed */
#define ACLNN_ERR_INNER_INFERSHAPE_ERROR 561001   /* output shape inference failed */
#define ACLNN_ERR_INNER_TILING_ERROR 561002       /* tiling failed */
#define ACLNN_ERR_INNER_FIND_KERNEL_ERROR 561003  /* the kernel binary could not be loaded or found */
#define ACLNN_ERR_INNER_CREATE_EXECUTOR 561101    /* the executor could not be created */
#define ACLNN_ERR_INNER_NOT_TRANS_EXECUTOR 561102 /* the executor was not handed over */
#define ACLNN_ERR_INNER_NULLPTR 561103            /* an internal null pointer */

/* Tensors: a view (dims, strides in elements, offset in elements) over storage at tensorData. */
ACLNN_API aclTensor *aclCreateTensor(const int64_t *viewDims, uint64_t viewDimsNum, aclDataType dataType,
                                     const int64_t *stride, int64_t offset, aclFormat format,
                                     const int64_t *storageDims, uint64_t storageDimsNum, void *tensorData);
ACLNN_API aclScalar *aclCreateScalar(void *value, aclDataType dataType);
ACLNN_API aclIntArray *aclCreateIntArray(const int64_t *value, uint64_t size);
ACLNN_API aclFloatArray *aclCreateFloatArray(const float *value, uint64_t size);
ACLNN_API aclBoolArray *aclCreateBoolArray(const bool *value, uint64_t size);
ACLNN_API aclTensorList *aclCreateTensorList(const aclTensor *const *value, uint64_t size);

ACLNN_API aclnnStatus aclDestroyTensor(const aclTensor *tensor);
ACLNN_API aclnnStatus aclDestroyScalar(const aclScalar *scalar);
ACLNN_API aclnnStatus aclDestroyIntArray(const aclIntArray *array);
ACLNN_API aclnnStatus aclDestroyFloatArray(const aclFloatArray *array);
ACLNN_API aclnnStatus aclDestroyBoolArray(const aclBoolArray *array);
/* Destroys the list and the tensors in it. */
ACLNN_API aclnnStatus aclDestroyTensorList(const aclTensorList *array);

/* Shape queries. *viewDims / *storageDims are allocated with malloc; the caller frees them. */
ACLNN_API aclnnStatus aclGetViewShape(const aclTensor *tensor, int64_t **viewDims, uint64_t *viewDimsNum);
ACLNN_API aclnnStatus aclGetStorageShape(const aclTensor *tensor, int64_t **storageDims, uint64_t *storageDimsNum);
ACLNN_API aclnnStatus aclGetViewStrides(const aclTensor *tensor, int64_t **stridesValue, uint64_t *stridesNum);
ACLNN_API aclnnStatus aclGetViewOffset(const aclTensor *tensor, int64_t *offset);
ACLNN_API aclnnStatus aclGetDataType(const aclTensor *tensor, aclDataType *dataType);
ACLNN_API aclnnStatus aclGetFormat(const aclTensor *tensor, aclFormat *format);
ACLNN_API aclnnStatus aclSetRawTensorAddr(aclTensor *tensor, void *addr);

/*
 * Executors. An executor made by an aclnnXxxGetWorkspaceSize call is consumed by
 * the matching aclnnXxx call, unless it was made repeatable first; a repeatable
 * executor lives until aclDestroyAclOpExecutor.
 */
ACLNN_API aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor *executor);
ACLNN_API aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor *executor);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACLNN_ACL_META_H */
