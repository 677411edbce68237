/*
 * Layout assertions for the public msPTI headers (conformance-clauses §2.3-2.5), shared by a C11
 * and a C++17 translation unit so that both languages see the same ABI.
 */
#ifndef LAYOUT_CHECK_H
#define LAYOUT_CHECK_H

#include <stddef.h>

#include "mspti/mspti.h"
#include "mspti/mspti_ext.h"

#ifdef __cplusplus
#define LAYOUT_ASSERT(cond, msg) static_assert(cond, msg)
#else
#define LAYOUT_ASSERT(cond, msg) _Static_assert(cond, msg)
#endif

#define CHECK_OFF(type, field, off) LAYOUT_ASSERT(offsetof(type, field) == (off), #type "." #field " at " #off)
#define CHECK_SIZE(type, size) LAYOUT_ASSERT(sizeof(type) == (size), "sizeof " #type " is " #size)

/* Enumerations are int-sized. */
CHECK_SIZE(msptiResult, 4);
CHECK_SIZE(msptiActivityKind, 4);
CHECK_SIZE(msptiActivitySourceKind, 4);
CHECK_SIZE(msptiActivityFlag, 4);
CHECK_SIZE(msptiExternalCorrelationKind, 4);
CHECK_SIZE(msptiActivityMemoryOperationType, 4);
CHECK_SIZE(msptiActivityMemoryKind, 4);
CHECK_SIZE(msptiActivityMemcpyKind, 4);
CHECK_SIZE(msptiCommunicationDataType, 4);
CHECK_SIZE(msptiCallbackDomain, 4);
CHECK_SIZE(msptiApiCallbackSite, 4);
CHECK_SIZE(msptiCallbackIdRuntime, 4);
CHECK_SIZE(msptiCallbackIdHccl, 4);
CHECK_SIZE(msptiCallbackId, 4);

/* Enumeration values. */
LAYOUT_ASSERT(MSPTI_ERROR_INNER == 999 && MSPTI_ERROR_WITHOUT_LD_PRELOAD == 6, "result values");
LAYOUT_ASSERT(MSPTI_ACTIVITY_KIND_RUNTIME_API == 12 && MSPTI_ACTIVITY_KIND_OVERHEAD == 13 &&
                  MSPTI_ACTIVITY_KIND_COUNT == 14,
              "kind values");
LAYOUT_ASSERT(MSPTI_ERROR_NOT_INITIALIZED == 7 && MSPTI_ERROR_INVALID_KIND == 8 &&
                  MSPTI_ERROR_PARAMETER_SIZE_NOT_SUFFICIENT == 9,
              "newer result values");
LAYOUT_ASSERT(MSPTI_ACTIVITY_MEMORY_HOST == 2 && MSPTI_ACTIVITY_MEMORY_MANAGED == 3, "memory kinds");
LAYOUT_ASSERT(MSPTI_ACTIVITY_OVERHEAD_UNKNOWN == 0 && MSPTI_ACTIVITY_OVERHEAD_MSPTI_RESOURCE == 1 &&
                  MSPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_REQUEST == 2 &&
                  MSPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_FLUSH == 3,
              "overhead kinds");
LAYOUT_ASSERT(MSPTI_ACTIVITY_OBJECT_UNKNOWN == 0 && MSPTI_ACTIVITY_OBJECT_PROCESS == 1 &&
                  MSPTI_ACTIVITY_OBJECT_THREAD == 2 && MSPTI_ACTIVITY_OBJECT_DEVICE == 3 &&
                  MSPTI_ACTIVITY_OBJECT_FORCE_INT == 0x7fffffff,
              "object kinds");
LAYOUT_ASSERT(MSPTI_ACTIVITY_ATTR_CHANNEL_BUFFER_SIZE == 0 && MSPTI_ACTIVITY_ATTR_TIMESTAMP_CALLBACK == 1 &&
                  MSPTI_ACTIVITY_ATTR_FORCE_INT == 0x7fffffff,
              "attributes");
CHECK_SIZE(msptiActivityOverheadKind, 4);
CHECK_SIZE(msptiActivityObjectKind, 4);
CHECK_SIZE(msptiActivityAttribute, 4);
LAYOUT_ASSERT(MSPTI_ACTIVITY_FLAG_MARKER_END_WITH_DEVICE == 32, "flag values");
LAYOUT_ASSERT(MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM2 == 4, "external kinds");
LAYOUT_ASSERT(MSPTI_ACTIVITY_COMMUNICATION_HIF8 == 14 && MSPTI_ACTIVITY_COMMUNICATION_INVALID_TYPE == 0xFFFF,
              "communication data types");
LAYOUT_ASSERT(MSPTI_CBID_RUNTIME_MEM_SET_PID_TO_SHAREABLE_HANDLE == 36 && MSPTI_CBID_RUNTIME_SIZE == 37,
              "runtime cbids");
LAYOUT_ASSERT(MSPTI_CBID_HCCL_SENDRECV == 12 && MSPTI_CBID_HCCL_SIZE == 13, "hccl cbids");

/* Records (packed, 8-aligned). */
CHECK_SIZE(msptiActivity, 8);
CHECK_SIZE(msptiObjectId, 8);
CHECK_SIZE(msptiActivityOverhead, 56);
CHECK_OFF(msptiActivityOverhead, kind, 0);
CHECK_OFF(msptiActivityOverhead, overheadKind, 4);
CHECK_OFF(msptiActivityOverhead, objectId, 8);
CHECK_OFF(msptiActivityOverhead, start, 16);
CHECK_OFF(msptiActivityOverhead, end, 24);
CHECK_OFF(msptiActivityOverhead, correlationId, 32);
CHECK_OFF(msptiActivityOverhead, overheadData, 40);
CHECK_OFF(msptiActivityOverhead, objectKind, 48);

CHECK_SIZE(msptiActivityMarker, 56);
CHECK_OFF(msptiActivityMarker, flag, 4);
CHECK_OFF(msptiActivityMarker, sourceKind, 8);
CHECK_OFF(msptiActivityMarker, timestamp, 12);
CHECK_OFF(msptiActivityMarker, id, 20);
CHECK_OFF(msptiActivityMarker, objectId, 28);
CHECK_OFF(msptiActivityMarker, name, 36);
CHECK_OFF(msptiActivityMarker, domain, 44);

CHECK_SIZE(msptiActivityKernel, 56);
CHECK_OFF(msptiActivityKernel, start, 4);
CHECK_OFF(msptiActivityKernel, end, 12);
CHECK_OFF(msptiActivityKernel, ds, 20);
CHECK_OFF(msptiActivityKernel, correlationId, 28);
CHECK_OFF(msptiActivityKernel, type, 36);
CHECK_OFF(msptiActivityKernel, name, 44);

CHECK_SIZE(msptiActivityApi, 48);
CHECK_OFF(msptiActivityApi, start, 4);
CHECK_OFF(msptiActivityApi, end, 12);
CHECK_OFF(msptiActivityApi, pt, 20);
CHECK_OFF(msptiActivityApi, correlationId, 28);
CHECK_OFF(msptiActivityApi, name, 36);

CHECK_SIZE(msptiActivityHccl, 56);
CHECK_OFF(msptiActivityHccl, ds, 20);
CHECK_OFF(msptiActivityHccl, bandWidth, 28);
CHECK_OFF(msptiActivityHccl, name, 36);
CHECK_OFF(msptiActivityHccl, commName, 44);

CHECK_SIZE(msptiActivityMemory, 64);
CHECK_OFF(msptiActivityMemory, memoryOperationType, 4);
CHECK_OFF(msptiActivityMemory, memoryKind, 8);
CHECK_OFF(msptiActivityMemory, correlationId, 12);
CHECK_OFF(msptiActivityMemory, start, 20);
CHECK_OFF(msptiActivityMemory, end, 28);
CHECK_OFF(msptiActivityMemory, address, 36);
CHECK_OFF(msptiActivityMemory, bytes, 44);
CHECK_OFF(msptiActivityMemory, processId, 52);
CHECK_OFF(msptiActivityMemory, deviceId, 56);
CHECK_OFF(msptiActivityMemory, streamId, 60);

CHECK_SIZE(msptiActivityMemset, 56);
CHECK_OFF(msptiActivityMemset, value, 4);
CHECK_OFF(msptiActivityMemset, bytes, 8);
CHECK_OFF(msptiActivityMemset, start, 16);
CHECK_OFF(msptiActivityMemset, end, 24);
CHECK_OFF(msptiActivityMemset, deviceId, 32);
CHECK_OFF(msptiActivityMemset, streamId, 36);
CHECK_OFF(msptiActivityMemset, correlationId, 40);
CHECK_OFF(msptiActivityMemset, isAsync, 48);

CHECK_SIZE(msptiActivityMemcpy, 56);
CHECK_OFF(msptiActivityMemcpy, copyKind, 4);
CHECK_OFF(msptiActivityMemcpy, bytes, 8);
CHECK_OFF(msptiActivityMemcpy, start, 16);
CHECK_OFF(msptiActivityMemcpy, end, 24);
CHECK_OFF(msptiActivityMemcpy, deviceId, 32);
CHECK_OFF(msptiActivityMemcpy, streamId, 36);
CHECK_OFF(msptiActivityMemcpy, correlationId, 40);
CHECK_OFF(msptiActivityMemcpy, isAsync, 48);

CHECK_SIZE(msptiActivityExternalCorrelation, 24);
CHECK_OFF(msptiActivityExternalCorrelation, externalKind, 4);
CHECK_OFF(msptiActivityExternalCorrelation, externalId, 8);
CHECK_OFF(msptiActivityExternalCorrelation, correlationId, 16);

CHECK_SIZE(msptiActivityCommunication, 72);
CHECK_OFF(msptiActivityCommunication, dataType, 4);
CHECK_OFF(msptiActivityCommunication, count, 8);
CHECK_OFF(msptiActivityCommunication, ds, 16);
CHECK_OFF(msptiActivityCommunication, start, 24);
CHECK_OFF(msptiActivityCommunication, end, 32);
CHECK_OFF(msptiActivityCommunication, algType, 40);
CHECK_OFF(msptiActivityCommunication, name, 48);
CHECK_OFF(msptiActivityCommunication, commName, 56);
CHECK_OFF(msptiActivityCommunication, correlationId, 64);

/* Callback data is naturally aligned. */
CHECK_SIZE(msptiCallbackData, 72);
CHECK_OFF(msptiCallbackData, functionName, 8);
CHECK_OFF(msptiCallbackData, functionParams, 16);
CHECK_OFF(msptiCallbackData, functionReturnValue, 24);
CHECK_OFF(msptiCallbackData, symbolName, 32);
CHECK_OFF(msptiCallbackData, correlationId, 40);
CHECK_OFF(msptiCallbackData, reserved1, 48);
CHECK_OFF(msptiCallbackData, reserved2, 56);
CHECK_OFF(msptiCallbackData, correlationData, 64);

#endif /* LAYOUT_CHECK_H */
