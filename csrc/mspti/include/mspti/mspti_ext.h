/*
 * Extensions of this msPTI implementation (not part of CANN's msPTI API).
 *
 *  - helper functions: result strings and drop counters;
 *  - the parameter structs that msptiCallbackData.functionParams points to, one per
 *    instrumented function. Handles are declared as void* and enumerations as int32_t so that
 *    this header does not need the CANN headers; each field keeps the name and order of the
 *    function's parameter list.
 */
#ifndef MSPTI_EXT_H
#define MSPTI_EXT_H

#include <stddef.h>
#include <stdint.h>

#include "mspti_activity.h"
#include "mspti_result.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MSPTI_EXT_VERSION_MAJOR 1
#define MSPTI_EXT_VERSION_MINOR 0
#define MSPTI_EXT_VERSION_PATCH 0

/* A static, human-readable name of a result code ("MSPTI_SUCCESS", ...); "MSPTI_ERROR_UNKNOWN" otherwise. */
MSPTI_API const char *msptiResultGetString(msptiResult result);

/*
 * Records of `kind` that were produced but could not be delivered (no buffer, a declined or too
 * small buffer, records of a disabled kind arriving from the device, unmatched device data...).
 * MSPTI_ACTIVITY_KIND_INVALID gives the total over all kinds.
 */
MSPTI_API msptiResult msptiActivityGetDroppedRecords(msptiActivityKind kind, uint64_t *dropped);

/* Why a record was counted as dropped. Every drop has exactly one reason, so the counts of the
 * reasons add up to msptiActivityGetDroppedRecords. */
typedef enum MSPTI_ENUM_INT {
    MSPTI_DROP_REASON_ANY = 0,              /* in queries: every reason */
    MSPTI_DROP_REASON_NO_BUFFER = 1,        /* no buffer callbacks, a declined buffer, a record made inside
                                               RequestFunc, msPTI's own host queue full */
    MSPTI_DROP_REASON_BUFFER_TOO_SMALL = 2, /* the buffer RequestFunc gave cannot hold the record */
    MSPTI_DROP_REASON_DEVICE_HALF_LOST = 3, /* the device half never arrived or arrived unusable (lost or
                                               garbled on the channel, the channel stopped first, the
                                               device clock unknown) */
    MSPTI_DROP_REASON_COLLECTION_FAILED = 4, /* the device's collection could not start or stopped failing:
                                                the device half could never come */
    MSPTI_DROP_REASON_BAD_ARGUMENT = 5,     /* a bad argument: an mstx message that is NULL or 255
                                               characters or longer, a stream that does not exist, a report
                                               whose name CANN never registered */
    MSPTI_DROP_REASON_KIND_DISABLED = 6,    /* a device half that arrived after its kind was switched off */
    MSPTI_DROP_REASON_COUNT
} msptiDropReason;

/*
 * Records of `kind` (MSPTI_ACTIVITY_KIND_INVALID: every kind) dropped for `reason`
 * (MSPTI_DROP_REASON_ANY: every reason). MSPTI_ERROR_INVALID_PARAMETER for another kind or reason
 * or a NULL `count`. A forked child's counts start at zero.
 */
MSPTI_API msptiResult msptiActivityGetDroppedRecordsByReason(msptiActivityKind kind, msptiDropReason reason,
                                                             uint64_t *count);

/* msptiGetVersion and msptiGetTimestamp are declared in mspti_activity.h (CANN's API). */

/* ---- parameters of the RUNTIME domain (aclrt*) ---- */

typedef struct { int32_t deviceId; } msptiRuntimeSetDeviceParams;
typedef struct { int32_t deviceId; } msptiRuntimeResetDeviceParams;
typedef struct { void **context; int32_t deviceId; } msptiRuntimeCreateContextParams;
typedef struct { void *context; } msptiRuntimeDestroyContextParams;
typedef struct { void **stream; } msptiRuntimeCreateStreamParams;
typedef struct { void *stream; } msptiRuntimeDestroyStreamParams;
typedef struct { void *stream; } msptiRuntimeSynchronizeStreamParams;

typedef struct {
    void *funcHandle;
    uint32_t numBlocks;
    const void *argsData;
    size_t argsSize;
    void *stream;
} msptiRuntimeLaunchKernelParams;
typedef struct {
    void *funcHandle;
    uint32_t numBlocks;
    const void *argsData;
    size_t argsSize;
    void *cfg; /* aclrtLaunchKernelCfg* */
    void *stream;
} msptiRuntimeLaunchKernelV2Params;
typedef struct {
    void *funcHandle;
    uint32_t numBlocks;
    void *stream;
    void *cfg; /* aclrtLaunchKernelCfg* */
    void *argsHandle;
    void *reserve;
} msptiRuntimeLaunchKernelWithConfigParams;
typedef struct {
    void *funcHandle;
    uint32_t numBlocks;
    void *stream;
    void *cfg; /* aclrtLaunchKernelCfg* */
    void *hostArgs;
    size_t argsSize;
    void *placeHolderArray; /* aclrtPlaceHolderInfo* */
    size_t placeHolderNum;
} msptiRuntimeLaunchKernelWithHostArgsParams;

typedef struct { void **devPtr; size_t size; int32_t policy; } msptiRuntimeMallocParams;
typedef struct { void **devPtr; size_t size; int32_t policy; } msptiRuntimeMallocCachedParams;
typedef struct {
    void **devPtr;
    size_t size;
    int32_t policy;
    void *cfg; /* aclrtMallocConfig* */
} msptiRuntimeMallocWithCfgParams;
typedef struct {
    void **devPtr;
    size_t size;
    int32_t policy;
    void *cfg; /* aclrtMallocConfig* */
} msptiRuntimeMallocForTaskSchedulerParams;
typedef struct { void *devPtr; } msptiRuntimeFreeParams;
typedef struct { void **hostPtr; size_t size; } msptiRuntimeMallocHostParams;
typedef struct { void *hostPtr; } msptiRuntimeFreeHostParams;
typedef struct { void *devPtr; size_t size; } msptiRuntimeMemFlushParams;
typedef struct { void *devPtr; size_t size; } msptiRuntimeMemInvalidateParams;

typedef struct {
    void *dst;
    size_t destMax;
    const void *src;
    size_t count;
    int32_t kind; /* aclrtMemcpyKind */
} msptiRuntimeMemcpyParams;
typedef struct {
    void *dst;
    size_t destMax;
    const void *src;
    size_t count;
    int32_t kind;
    void *stream;
} msptiRuntimeMemcpyAsyncParams;
typedef struct {
    void *dst;
    size_t dpitch;
    const void *src;
    size_t spitch;
    size_t width;
    size_t height;
    int32_t kind;
} msptiRuntimeMemcpy2dParams;
typedef struct {
    void *dst;
    size_t dpitch;
    const void *src;
    size_t spitch;
    size_t width;
    size_t height;
    int32_t kind;
    void *stream;
} msptiRuntimeMemcpy2dAsyncParams;
typedef struct { void *devPtr; size_t maxCount; int32_t value; size_t count; } msptiRuntimeMemsetParams;
typedef struct {
    void *devPtr;
    size_t maxCount;
    int32_t value;
    size_t count;
    void *stream;
} msptiRuntimeMemsetAsyncParams;
typedef struct { int32_t attr; size_t *free; size_t *total; } msptiRuntimeGetMemInfoParams;
typedef struct {
    void **virPtr;
    size_t size;
    size_t alignment;
    void *expectPtr;
    uint64_t flags;
} msptiRuntimeReserveMemAddressParams;
typedef struct { void *virPtr; } msptiRuntimeReleaseMemAddressParams;
typedef struct {
    void **handle; /* aclrtDrvMemHandle* */
    size_t size;
    const void *prop; /* const aclrtPhysicalMemProp* */
    uint64_t flags;
} msptiRuntimeMallocPhysicalParams;
typedef struct { void *handle; } msptiRuntimeFreePhysicalParams;
typedef struct {
    void *handle;
    int32_t handleType; /* aclrtMemHandleType */
    uint64_t flags;
    uint64_t *shareableHandle;
} msptiRuntimeMemExportToShareableHandleParams;
typedef struct {
    uint64_t shareableHandle;
    int32_t deviceId;
    void **handle;
} msptiRuntimeMemImportFromShareableHandleParams;
typedef struct {
    uint64_t shareableHandle;
    int32_t *pid;
    size_t pidNum;
} msptiRuntimeMemSetPidToShareableHandleParams;

/* ---- parameters of the HCCL domain (Hccl*) ---- */

typedef struct {
    void *sendBuf;
    void *recvBuf;
    uint64_t count;
    int32_t dataType; /* HcclDataType */
    int32_t op;       /* HcclReduceOp */
    void *comm;
    void *stream;
} msptiHcclAllReduceParams;
typedef struct {
    void *buf;
    uint64_t count;
    int32_t dataType;
    uint32_t root;
    void *comm;
    void *stream;
} msptiHcclBroadcastParams;
typedef struct {
    void *sendBuf;
    void *recvBuf;
    uint64_t sendCount;
    int32_t dataType;
    void *comm;
    void *stream;
} msptiHcclAllGatherParams;
typedef struct {
    void *sendBuf;
    void *recvBuf;
    uint64_t recvCount;
    int32_t dataType;
    int32_t op;
    void *comm;
    void *stream;
} msptiHcclReduceScatterParams;
typedef struct {
    void *sendBuf;
    void *recvBuf;
    uint64_t count;
    int32_t dataType;
    int32_t op;
    uint32_t root;
    void *comm;
    void *stream;
} msptiHcclReduceParams;
typedef struct {
    const void *sendBuf;
    uint64_t sendCount;
    int32_t sendType;
    const void *recvBuf;
    uint64_t recvCount;
    int32_t recvType;
    void *comm;
    void *stream;
} msptiHcclAlltoAllParams;
typedef struct {
    const void *sendBuf;
    const void *sendCounts;
    const void *sdispls;
    int32_t sendType;
    const void *recvBuf;
    const void *recvCounts;
    const void *rdispls;
    int32_t recvType;
    void *comm;
    void *stream;
} msptiHcclAlltoAllVParams;
typedef struct { void *comm; void *stream; } msptiHcclBarrierParams;
typedef struct {
    void *sendBuf;
    void *recvBuf;
    uint64_t recvCount;
    int32_t dataType;
    uint32_t root;
    void *comm;
    void *stream;
} msptiHcclScatterParams;
typedef struct {
    void *sendBuf;
    uint64_t count;
    int32_t dataType;
    uint32_t destRank;
    void *comm;
    void *stream;
} msptiHcclSendParams;
typedef struct {
    void *recvBuf;
    uint64_t count;
    int32_t dataType;
    uint32_t srcRank;
    void *comm;
    void *stream;
} msptiHcclRecvParams;
typedef struct {
    void *sendRecvInfo; /* HcclSendRecvItem* */
    uint32_t itemNum;
    void *comm;
    void *stream;
} msptiHcclBatchSendRecvParams;

#ifdef __cplusplus
}
#endif

#endif /* MSPTI_EXT_H */
