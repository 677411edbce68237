/*
 * The msPTI Activity API: asynchronous activity records delivered in buffers
 * that the client supplies (RequestFunc) and gets back (CompleteFunc).
 */
#ifndef MSPTI_ACTIVITY_H
#define MSPTI_ACTIVITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mspti_callback.h"
#include "mspti_result.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MSPTI_INVALID_DEVICE_ID ((uint32_t)0xFFFFFFFFU)
#define MSPTI_INVALID_STREAM_ID ((uint32_t)0xFFFFFFFFU)
#define MSPTI_INVALID_CORRELATION_ID ((uint64_t)0)

/*
 * Every record type is packed (no padding between fields) and 8-byte aligned, so its size is the
 * sum of its fields rounded up to 8 and records sit back to back in a buffer at 8-byte offsets.
 * 64-bit fields inside a record are generally not 8-byte aligned: read them through these types.
 */
#define ACTIVITY_STRUCT_ALIGNMENT 8
#if defined(_MSC_VER)
#define START_PACKED_ALIGNMENT __pragma(pack(push, 1))
#define PACKED_ALIGNMENT __declspec(align(ACTIVITY_STRUCT_ALIGNMENT))
#define END_PACKED_ALIGNMENT __pragma(pack(pop))
#elif defined(__GNUC__)
#define START_PACKED_ALIGNMENT
#define PACKED_ALIGNMENT __attribute__((__packed__)) __attribute__((aligned(ACTIVITY_STRUCT_ALIGNMENT)))
#define END_PACKED_ALIGNMENT
#else
#define START_PACKED_ALIGNMENT
#define PACKED_ALIGNMENT
#define END_PACKED_ALIGNMENT
#endif

/* The kinds of activity records. Kinds 10-12 use the msptiActivityApi layout. */
typedef enum MSPTI_ENUM_INT {
    MSPTI_ACTIVITY_KIND_INVALID = 0,
    MSPTI_ACTIVITY_KIND_MARKER = 1,
    MSPTI_ACTIVITY_KIND_KERNEL = 2,
    MSPTI_ACTIVITY_KIND_API = 3,
    MSPTI_ACTIVITY_KIND_HCCL = 4,
    MSPTI_ACTIVITY_KIND_MEMORY = 5,
    MSPTI_ACTIVITY_KIND_MEMSET = 6,
    MSPTI_ACTIVITY_KIND_MEMCPY = 7,
    MSPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION = 8,
    MSPTI_ACTIVITY_KIND_COMMUNICATION = 9,
    MSPTI_ACTIVITY_KIND_ACL_API = 10,
    MSPTI_ACTIVITY_KIND_NODE_API = 11,
    MSPTI_ACTIVITY_KIND_RUNTIME_API = 12,
    MSPTI_ACTIVITY_KIND_OVERHEAD = 13,
    MSPTI_ACTIVITY_KIND_COUNT = 14,
    MSPTI_ACTIVITY_KIND_FORCE_INT = 0x7fffffff
} msptiActivityKind;

/* Where a marker record was taken. */
typedef enum {
    MSPTI_ACTIVITY_SOURCE_KIND_HOST = 0,
    MSPTI_ACTIVITY_SOURCE_KIND_DEVICE = 1
} msptiActivitySourceKind;

/* Marker flags (one per record). */
typedef enum {
    MSPTI_ACTIVITY_FLAG_NONE = 0,
    MSPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS = 1 << 0,
    MSPTI_ACTIVITY_FLAG_MARKER_START = 1 << 1,
    MSPTI_ACTIVITY_FLAG_MARKER_END = 1 << 2,
    MSPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS_WITH_DEVICE = 1 << 3,
    MSPTI_ACTIVITY_FLAG_MARKER_START_WITH_DEVICE = 1 << 4,
    MSPTI_ACTIVITY_FLAG_MARKER_END_WITH_DEVICE = 1 << 5
} msptiActivityFlag;

/* Kinds of external correlation ids (msptiActivityPush/PopExternalCorrelationId). */
typedef enum MSPTI_ENUM_INT {
    MSPTI_EXTERNAL_CORRELATION_KIND_INVALID = 0,
    MSPTI_EXTERNAL_CORRELATION_KIND_UNKNOWN = 1,
    MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0 = 2,
    MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM1 = 3,
    MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM2 = 4,
    MSPTI_EXTERNAL_CORRELATION_KIND_SIZE = 5,
    MSPTI_EXTERNAL_CORRELATION_KIND_FORCE_INT = 0x7fffffff
} msptiExternalCorrelationKind;

typedef enum {
    MSPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION = 0,
    MSPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE = 1
} msptiActivityMemoryOperationType;

typedef enum {
    MSPTI_ACTIVITY_MEMORY_UNKNOWN = 0,
    MSPTI_ACTIVITY_MEMORY_DEVICE = 1,
    MSPTI_ACTIVITY_MEMORY_HOST = 2,
    MSPTI_ACTIVITY_MEMORY_MANAGED = 3
} msptiActivityMemoryKind;

typedef enum {
    MSPTI_ACTIVITY_MEMCPY_KIND_UNKNOWN = 0,
    MSPTI_ACTIVITY_MEMCPY_KIND_HTOH = 1,
    MSPTI_ACTIVITY_MEMCPY_KIND_HTOD = 2,
    MSPTI_ACTIVITY_MEMCPY_KIND_DTOH = 3,
    MSPTI_ACTIVITY_MEMCPY_KIND_DTOD = 4,
    MSPTI_ACTIVITY_MEMCPY_KIND_DEFAULT = 5
} msptiActivityMemcpyKind;

/* Element types of communication operations (the values of HcclDataType). */
typedef enum {
    MSPTI_ACTIVITY_COMMUNICATION_INT8 = 0,
    MSPTI_ACTIVITY_COMMUNICATION_INT16 = 1,
    MSPTI_ACTIVITY_COMMUNICATION_INT32 = 2,
    MSPTI_ACTIVITY_COMMUNICATION_FP16 = 3,
    MSPTI_ACTIVITY_COMMUNICATION_FP32 = 4,
    MSPTI_ACTIVITY_COMMUNICATION_INT64 = 5,
    MSPTI_ACTIVITY_COMMUNICATION_UINT64 = 6,
    MSPTI_ACTIVITY_COMMUNICATION_UINT8 = 7,
    MSPTI_ACTIVITY_COMMUNICATION_UINT16 = 8,
    MSPTI_ACTIVITY_COMMUNICATION_UINT32 = 9,
    MSPTI_ACTIVITY_COMMUNICATION_FP64 = 10,
    MSPTI_ACTIVITY_COMMUNICATION_BFP16 = 11,
    MSPTI_ACTIVITY_COMMUNICATION_INT128 = 12,
    MSPTI_ACTIVITY_COMMUNICATION_HIF8 = 14,
    MSPTI_ACTIVITY_COMMUNICATION_FP8E4M3 = 15,
    MSPTI_ACTIVITY_COMMUNICATION_FP8E5M2 = 16,
    MSPTI_ACTIVITY_COMMUNICATION_FP8E8M0 = 17,
    MSPTI_ACTIVITY_COMMUNICATION_INVALID_TYPE = 0xFFFF
} msptiCommunicationDataType;

/* What an OVERHEAD record measured: where msPTI itself spent the time. */
typedef enum MSPTI_ENUM_INT {
    MSPTI_ACTIVITY_OVERHEAD_UNKNOWN = 0,
    MSPTI_ACTIVITY_OVERHEAD_MSPTI_RESOURCE = 1,          /* starting or stopping device collection */
    MSPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_REQUEST = 2, /* the client's RequestFunc */
    MSPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_FLUSH = 3    /* the client's CompleteFunc */
} msptiActivityOverheadKind;

/* Which view of msptiObjectId a record fills: pt for PROCESS and THREAD, ds for DEVICE. */
typedef enum MSPTI_ENUM_INT {
    MSPTI_ACTIVITY_OBJECT_UNKNOWN = 0,
    MSPTI_ACTIVITY_OBJECT_PROCESS = 1,
    MSPTI_ACTIVITY_OBJECT_THREAD = 2,
    MSPTI_ACTIVITY_OBJECT_DEVICE = 3,
    MSPTI_ACTIVITY_OBJECT_FORCE_INT = 0x7fffffff
} msptiActivityObjectKind;

/* Settings of msptiActivitySetAttribute / msptiActivityGetAttribute. */
typedef enum MSPTI_ENUM_INT {
    /* uint32_t: bytes of each device channel's read buffer, [2 MiB, 10 MiB], default 2 MiB; applies
       to channels started after the call. */
    MSPTI_ACTIVITY_ATTR_CHANNEL_BUFFER_SIZE = 0,
    /* msptiTimestampCallbackFunc: as msptiActivityRegisterTimestampCallback. */
    MSPTI_ACTIVITY_ATTR_TIMESTAMP_CALLBACK = 1,
    MSPTI_ACTIVITY_ATTR_FORCE_INT = 0x7fffffff
} msptiActivityAttribute;

START_PACKED_ALIGNMENT
#if defined(__GNUC__) && !defined(__clang__)
/* The 8-aligned object id sits at offset 28 of the packed marker record by design (CANN's layout). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpacked-not-aligned"
#endif

/* The common head of every record: read `kind`, then cast to the record type of that kind. */
typedef struct PACKED_ALIGNMENT {
    msptiActivityKind kind;
} msptiActivity;

/* Host records identify a process and thread, device records a device and stream. */
typedef union PACKED_ALIGNMENT {
    struct {
        uint32_t processId;
        uint32_t threadId;
    } pt;
    struct {
        uint32_t deviceId;
        uint32_t streamId;
    } ds;
} msptiObjectId;

/* MSPTI_ACTIVITY_KIND_MARKER: an mstx mark or range boundary, seen on the host or on the device. */
typedef struct PACKED_ALIGNMENT {
    msptiActivityKind kind;
    msptiActivityFlag flag;
    msptiActivitySourceKind sourceKind;
    uint64_t timestamp;
    uint64_t id;
    msptiObjectId objectId;
    const char *name;
    const char *domain;
} msptiActivityMarker;

/* MSPTI_ACTIVITY_KIND_KERNEL: one execution of a kernel on the device. */
typedef struct PACKED_ALIGNMENT {
    msptiActivityKind kind;
    uint64_t start;
    uint64_t end;
    struct {
        uint32_t deviceId;
        uint32_t streamId;
    } ds;
    uint64_t correlationId;
    const char *type;
    const char *name;
} msptiActivityKernel;

/* MSPTI_ACTIVITY_KIND_API, _ACL_API, _NODE_API, _RUNTIME_API: one host API call reported by CANN. */
typedef struct PACKED_ALIGNMENT {
    msptiActivityKind kind;
    uint64_t start;
    uint64_t end;
    struct {
        uint32_t processId;
        uint32_t threadId;
    } pt;
    uint64_t correlationId;
    const char *name;
} msptiActivityApi;

/* MSPTI_ACTIVITY_KIND_HCCL: one HCCL operation as executed on its stream. */
typedef struct PACKED_ALIGNMENT {
    msptiActivityKind kind;
    uint64_t start;
    uint64_t end;
    struct {
        uint32_t deviceId;
        uint32_t streamId;
    } ds;
    double bandWidth; /* GB/s (bytes per ns); 0 when it cannot be computed */
    const char *name;
    const char *commName;
} msptiActivityHccl;

/* MSPTI_ACTIVITY_KIND_MEMORY: a device memory allocation or release. */
typedef struct PACKED_ALIGNMENT {
    msptiActivityKind kind;
    msptiActivityMemoryOperationType memoryOperationType;
    msptiActivityMemoryKind memoryKind;
    uint64_t correlationId;
    uint64_t start;
    uint64_t end;
    uint64_t address;
    uint64_t bytes;
    uint32_t processId;
    uint32_t deviceId;
    uint32_t streamId;
} msptiActivityMemory;

/* MSPTI_ACTIVITY_KIND_MEMSET: a memory fill. */
typedef struct PACKED_ALIGNMENT {
    msptiActivityKind kind;
    uint32_t value;
    uint64_t bytes;
    uint64_t start;
    uint64_t end;
    uint32_t deviceId;
    uint32_t streamId;
    uint64_t correlationId;
    uint8_t isAsync;
} msptiActivityMemset;

/* MSPTI_ACTIVITY_KIND_MEMCPY: a memory copy. */
typedef struct PACKED_ALIGNMENT {
    msptiActivityKind kind;
    msptiActivityMemcpyKind copyKind;
    uint64_t bytes;
    uint64_t start;
    uint64_t end;
    uint32_t deviceId;
    uint32_t streamId;
    uint64_t correlationId;
    uint8_t isAsync;
} msptiActivityMemcpy;

/* MSPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION: links a correlation id to the client's external id. */
typedef struct PACKED_ALIGNMENT {
    msptiActivityKind kind;
    msptiExternalCorrelationKind externalKind;
    uint64_t externalId;
    uint64_t correlationId;
} msptiActivityExternalCorrelation;

/* MSPTI_ACTIVITY_KIND_COMMUNICATION: one communication operator as executed on the device. */
typedef struct PACKED_ALIGNMENT {
    msptiActivityKind kind;
    msptiCommunicationDataType dataType;
    uint64_t count;
    struct {
        uint32_t deviceId;
        uint32_t streamId;
    } ds;
    uint64_t start;
    uint64_t end;
    const char *algType;
    const char *name;
    const char *commName;
    uint64_t correlationId;
} msptiActivityCommunication;

/* MSPTI_ACTIVITY_KIND_OVERHEAD: time msPTI itself spent, between host timestamps start and end. */
typedef struct PACKED_ALIGNMENT {
    msptiActivityKind kind;
    msptiActivityOverheadKind overheadKind;
    msptiObjectId objectId;  /* the view objectKind names */
    uint64_t start;
    uint64_t end;
    uint64_t correlationId;  /* reserved: MSPTI_INVALID_CORRELATION_ID */
    void *overheadData;      /* reserved: NULL */
    msptiActivityObjectKind objectKind;
} msptiActivityOverhead;

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
END_PACKED_ALIGNMENT

/*
 * Asks the client for an empty buffer. The client stores a buffer (or NULL to decline, which drops
 * the records that needed it; the drops are counted, see msptiActivityGetDroppedRecords), its size
 * in bytes, and the most records msPTI may put in it (0 = as many as fit).
 */
typedef void (*msptiBuffersCallbackRequestFunc)(uint8_t **buffer, size_t *size, size_t *maxNumRecords);

/*
 * Hands a buffer back: `buffer` and `size` as the request gave them, `validSize` bytes of whole
 * records. msPTI does not touch the buffer after this call.
 */
typedef void (*msptiBuffersCallbackCompleteFunc)(uint8_t *buffer, size_t size, size_t validSize);

MSPTI_API msptiResult msptiActivityRegisterCallbacks(msptiBuffersCallbackRequestFunc funcBufferRequested,
                                                     msptiBuffersCallbackCompleteFunc funcBufferCompleted);

/* Switches collection of a kind on or off (MSPTI_ERROR_INVALID_PARAMETER for kinds outside 1..13). */
MSPTI_API msptiResult msptiActivityEnable(msptiActivityKind kind);
MSPTI_API msptiResult msptiActivityDisable(msptiActivityKind kind);
/* False for every value that is not an enabled kind. */
MSPTI_API bool msptiActivityIsEnabled(msptiActivityKind kind);

/* Markers of a domain are collected unless its exact name is disabled; "default" names the default domain. */
MSPTI_API msptiResult msptiActivityEnableMarkerDomain(const char *name);
MSPTI_API msptiResult msptiActivityDisableMarkerDomain(const char *name);

/*
 * Iterates the records of a completed buffer. *record == NULL starts at the first record, otherwise
 * the record after *record is returned. MSPTI_ERROR_MAX_LIMIT_REACHED when no whole record follows
 * within validBufferSizeBytes, MSPTI_ERROR_INNER for an unknown record kind.
 */
MSPTI_API msptiResult msptiActivityGetNextRecord(uint8_t *buffer, size_t validBufferSizeBytes,
                                                 msptiActivity **record);

/*
 * Delivers every record produced before the call (device records included) through CompleteFunc,
 * partly filled buffers too, and returns when the deliveries have returned. `flag` is unused.
 */
MSPTI_API msptiResult msptiActivityFlushAll(uint32_t flag);

/* Delivers buffers holding records every `time` ms (0 switches periodic delivery off). */
MSPTI_API msptiResult msptiActivityFlushPeriod(uint32_t time);

/* Per-thread stacks of external ids; records of the calling thread are linked to the top ids. */
MSPTI_API msptiResult msptiActivityPushExternalCorrelationId(msptiExternalCorrelationKind kind, uint64_t id);
/* lastId may be NULL. MSPTI_ERROR_QUEUE_EMPTY when nothing was pushed for the kind on this thread. */
MSPTI_API msptiResult msptiActivityPopExternalCorrelationId(msptiExternalCorrelationKind kind, uint64_t *lastId);

/* The msPTI API version as xxyyzz (26.2.0 -> 260200). INVALID_PARAMETER when version is NULL. */
MSPTI_API msptiResult msptiGetVersion(uint32_t *version);

/*
 * The size of the record struct of activityKind (`version` is accepted for compatibility and not
 * used). INVALID_PARAMETER when activityStructSize is NULL, INVALID_KIND for a kind outside 1..13.
 */
MSPTI_API msptiResult msptiActivityGetStructSize(msptiActivityKind activityKind, uint32_t version,
                                                 size_t *activityStructSize);

/*
 * The enabled kinds, in increasing order: *enabledKindsCount gets their number, buffer (when not
 * NULL) the first min(*bufferSize, count) of them. INVALID_PARAMETER when enabledKindsCount is
 * NULL, or buffer is given without bufferSize. `subscriber` is not used (one process-wide set).
 */
MSPTI_API msptiResult msptiActivityGetEnabledKinds(msptiSubscriberHandle subscriber, msptiActivityKind *buffer,
                                                   uint32_t *bufferSize, uint32_t *enabledKindsCount);

/* Records dropped since the previous call (the count restarts at 0). `context` and `streamId` are not used. */
MSPTI_API msptiResult msptiActivityGetNumDroppedRecords(void *context, uint32_t streamId, size_t *dropped);

/* The current time in the records' time base, ns. INVALID_PARAMETER when timestamp is NULL. */
MSPTI_API msptiResult msptiGetTimestamp(uint64_t *timestamp);

/* A client clock for the records' host timestamps: ns on any fixed epoch. */
typedef uint64_t (*msptiTimestampCallbackFunc)(void);

/*
 * Records' timestamps follow funcTimestamp from now on (register it before enabling any kind, so
 * that every record does). INVALID_PARAMETER for NULL.
 */
MSPTI_API msptiResult msptiActivityRegisterTimestampCallback(msptiTimestampCallbackFunc funcTimestamp);

/*
 * Sets or reads an attribute: *valueSize is the size of *value (uint32_t for CHANNEL_BUFFER_SIZE,
 * msptiTimestampCallbackFunc for TIMESTAMP_CALLBACK). INVALID_PARAMETER for NULL arguments, an
 * unknown attribute or a value out of range (a channel size outside [2 MiB, 10 MiB], a NULL
 * callback); PARAMETER_SIZE_NOT_SUFFICIENT when *valueSize is smaller than the attribute.
 * GetAttribute sets *valueSize to the attribute's size.
 */
MSPTI_API msptiResult msptiActivitySetAttribute(msptiActivityAttribute attr, size_t *valueSize, void *value);
MSPTI_API msptiResult msptiActivityGetAttribute(msptiActivityAttribute attr, size_t *valueSize, void *value);

#ifdef __cplusplus
}
#endif

#endif /* MSPTI_ACTIVITY_H */
