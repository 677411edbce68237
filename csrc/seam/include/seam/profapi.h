/*
 * The profiling-report seam of CANN (libprofapi), declared in our own words.
 *
 * Both sides of the seam include this header: the simulated libprofapi and the
 * components that report into it, and our msPTI core that registers callbacks.
 * Layouts are fixed by CANN's ABI (x86-64 / aarch64 LP64); the static asserts at
 * the end pin them.
 */
#ifndef SEAM_PROFAPI_H
#define SEAM_PROFAPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MSPROF_REPORT_DATA_MAGIC_NUM 0x5A5AU

/* Report levels (MsprofApi.level / MsprofCompactInfo.level). */
#define MSPROF_REPORT_AIC_LEVEL 3000U
#define MSPROF_REPORT_RUNTIME_LEVEL 5000U
#define MSPROF_REPORT_HCCL_NODE_LEVEL 5500U
#define MSPROF_REPORT_AICPU_LEVEL 6000U
#define MSPROF_REPORT_NODE_LEVEL 10000U
#define MSPROF_REPORT_MODEL_LEVEL 15000U
#define MSPROF_REPORT_ACL_LEVEL 20000U
#define MSPROF_REPORT_TX_LEVEL 20500U

/* Type-id bases at ACL level. */
#define MSPROF_REPORT_ACL_OP_BASE_TYPE 0x010000U
#define MSPROF_REPORT_ACL_MODEL_BASE_TYPE 0x020000U
#define MSPROF_REPORT_ACL_RUNTIME_BASE_TYPE 0x030000U
#define MSPROF_REPORT_ACL_OTHERS_BASE_TYPE 0x040000U
#define MSPROF_REPORT_ACL_NN_BASE_TYPE 0x050000U
#define MSPROF_REPORT_ACL_HOST_HCCL_BASE_TYPE 0x070000U
#define MSPROF_REPORT_ACL_HIXL_BASE_TYPE 0x0C0000U

/* Type ids at node level. */
#define MSPROF_REPORT_NODE_BASIC_INFO_TYPE 0U
#define MSPROF_REPORT_NODE_LAUNCH_TYPE 5U
#define MSPROF_REPORT_NODE_HCCL_OP_INFO_TYPE 10U

/* Type ids at HCCL-node level. */
#define MSPROF_REPORT_HCCL_MASTER_TYPE 0x010001U
#define MSPROF_REPORT_HCCL_SLAVE_TYPE 0x010002U

/* Compact record types at runtime level. */
#define MSPROF_REPORT_RUNTIME_MEMCPY_INFO_TYPE 801U
#define MSPROF_REPORT_RUNTIME_TASK_TRACK_TYPE 802U
#define MSPROF_REPORT_RUNTIME_EXPAND_SPEC_TYPE 804U
/* Runtime-level API records use 1000 + the runtime's API ordinal. */
#define MSPROF_REPORT_RUNTIME_API_BASE_TYPE 1000U

/* profSwitch bits (MsprofCommandHandle.profSwitch). */
#define PROF_ACL_API_MASK 0x00000001ULL
#define PROF_TASK_TIME_L1_MASK 0x00000002ULL
#define PROF_HCCL_TRACE_MASK 0x00000020ULL
#define PROF_MSPROFTX_MASK 0x00000080ULL
#define PROF_RUNTIME_API_MASK 0x00000100ULL
#define PROF_TASK_TIME_MASK 0x00000800ULL
#define PROF_RUNTIME_TRACE_MASK 0x04000000ULL

/* MsprofCommandHandle.type */
#define PROF_COMMANDHANDLE_TYPE_INIT 0U
#define PROF_COMMANDHANDLE_TYPE_START 1U
#define PROF_COMMANDHANDLE_TYPE_STOP 2U
#define PROF_COMMANDHANDLE_TYPE_FINALIZE 3U

/* First argument of a module's command handle. */
#define PROF_CTRL_INVALID 0U
#define PROF_CTRL_SWITCH 1U
#define PROF_CTRL_REPORTER 2U
#define PROF_CTRL_STEPINFO 3U

/* Module ids (MsprofRegisterCallback, logging). */
#define SEAM_MODULE_HCCL 3U
#define SEAM_MODULE_RUNTIME 7U
#define SEAM_MODULE_HIXL 12U
#define SEAM_MODULE_PROFILING 31U
#define SEAM_MODULE_GE 45U
#define SEAM_MODULE_ASCENDCL 48U

/* Callback types of MsprofRegisterProfileCallback. */
enum ProfileCallbackType {
    PROFILE_CTRL_CALLBACK = 0,
    PROFILE_DEVICE_STATE_CALLBACK = 1,
    PROFILE_REPORT_API_CALLBACK = 2,
    PROFILE_REPORT_EVENT_CALLBACK = 3,
    PROFILE_REPORT_COMPACT_CALLBACK = 4,
    PROFILE_REPORT_ADDITIONAL_CALLBACK = 5,
    PROFILE_REPORT_REG_TYPE_INFO_CALLBACK = 6,
    PROFILE_REPORT_GET_HASH_ID_CALLBACK = 7,
    PROFILE_HOST_FREQ_IS_ENABLE_CALLBACK = 8,
    PROFILE_REPORT_API_C_CALLBACK = 9,
    PROFILE_REPORT_EVENT_C_CALLBACK = 10,
    PROFILE_REPORT_REG_TYPE_INFO_C_CALLBACK = 11,
    PROFILE_REPORT_GET_HASH_ID_C_CALLBACK = 12,
    PROFILE_HOST_FREQ_IS_ENABLE_C_CALLBACK = 13,
    PROFILE_REG_DATA_FORMAT_CALLBACK = 14,
    PROFILE_REG_DATA_FORMAT_C_CALLBACK = 15,
    PROFILE_DEVICE_STATE_C_CALLBACK = 16,
    PROFILE_CALLBACK_TYPE_COUNT = 17
};

/* Result codes of libprofapi. */
#define PROFAPI_SUCCESS 0
#define PROFAPI_ERROR 5

struct MsprofApi {
    uint16_t magicNumber;
    uint16_t level;
    uint32_t type;
    uint32_t threadId; /* OS tid of the reporting thread */
    uint32_t reserve;
    uint64_t beginTime; /* host time (CLOCK_MONOTONIC_RAW ns unless host-freq mode) */
    uint64_t endTime;
    uint64_t itemId; /* hash id (node and HCCL levels) */
};

struct MsprofEvent {
    uint16_t magicNumber;
    uint16_t level;
    uint32_t type;
    uint32_t threadId;
    uint32_t requestId;
    uint64_t timeStamp;
    uint64_t eventFlag;
    uint64_t itemId;
};

/* A kernel task's part of its track (extInfo): the blockDim it was launched with, its argument
   size, the vector-to-cube ratio of a mixed kernel and the schedule mode. CANN's runtime fills it for
   AI Core and AI Vector kernel tasks and leaves it zero for other tasks. */
struct MsprofKernelInfo {
    uint16_t numBlocks;
    uint16_t argsSize;
    uint8_t ratio : 3;
    uint8_t schedMode : 2;
    uint8_t rsv : 3;
    uint8_t reserved[11];
};

/* Host half of a device task, reported before the device sees it (5000/802). */
struct MsprofRuntimeTrack {
    uint16_t deviceId;
    uint16_t streamId;
    uint32_t taskId;
    uint64_t taskType;   /* runtime task type; its registered name starts with KERNEL_ for kernels */
    uint64_t kernelName; /* hash id */
    union {
        struct MsprofKernelInfo kernelInfo; /* kernel tasks */
        uint8_t bytes[16];                  /* the other forms (SIMT kernels, model tasks) are not used */
    } extInfo;
};

#pragma pack(push, 1)
/* HCCL op info (10000/10). */
struct MsprofHcclOpInfo {
    uint8_t flags; /* bit 0 relay, bit 1 retry */
    uint8_t dataType;
    uint64_t algType;   /* hash id of the algorithm string */
    uint64_t count;
    uint64_t groupName; /* hash id of the communicator name */
};

/* Node basic info (10000/0): the operator a node launch ran, reported by the operator library on the
 * launching thread with the node launch's end as timeStamp; blockDim is its kernel's launch blocks. */
struct MsprofNodeBasicInfo {
    uint64_t opName; /* hash id of the node name */
    uint32_t taskType;
    uint64_t opType; /* hash id of the operator type */
    uint32_t blockDim;
    uint32_t opFlag;
};
#pragma pack(pop)

/* Memcpy info (5000/801): the size and direction of an asynchronous copy, reported by the runtime
 * on the copying thread. memcpyDirection uses the runtime's copy kinds (SEAM_RT_MEMCPY_*). */
struct MsprofMemcpyInfo {
    uint64_t dataSize; /* bytes copied */
    uint64_t maxSize;  /* largest number of bytes one task of the copy moves */
    uint16_t memcpyDirection;
};

/* The runtime's copy kinds (rtMemcpyKind_t), as memcpyDirection carries them. */
#define SEAM_RT_MEMCPY_HOST_TO_HOST 0U
#define SEAM_RT_MEMCPY_HOST_TO_DEVICE 1U
#define SEAM_RT_MEMCPY_DEVICE_TO_HOST 2U
#define SEAM_RT_MEMCPY_DEVICE_TO_DEVICE 3U
#define SEAM_RT_MEMCPY_MANAGED 4U
#define SEAM_RT_MEMCPY_ADDR_DEVICE_TO_DEVICE 5U
#define SEAM_RT_MEMCPY_HOST_TO_DEVICE_EX 6U
#define SEAM_RT_MEMCPY_DEVICE_TO_HOST_EX 7U
#define SEAM_RT_MEMCPY_DEFAULT 8U

struct MsprofStreamExpandSpecInfo {
    uint8_t expandStatus;
    uint8_t reserve[3];
};

#define MSPROF_COMPACT_INFO_DATA_LENGTH 40U
struct MsprofCompactInfo {
    uint16_t magicNumber;
    uint16_t level;
    uint32_t type;
    uint32_t threadId;
    uint32_t dataLen;
    uint64_t timeStamp;
    union {
        uint8_t info[MSPROF_COMPACT_INFO_DATA_LENGTH];
        struct MsprofRuntimeTrack runtimeTrack;
        struct MsprofHcclOpInfo hcclopInfo;
        struct MsprofNodeBasicInfo nodeBasicInfo;
        struct MsprofMemcpyInfo memcpyInfo;
        struct MsprofStreamExpandSpecInfo streamExpandInfo;
    } data;
};

#define MSPROF_ADDTIONAL_INFO_DATA_LENGTH 232U
struct MsprofAdditionalInfo {
    uint16_t magicNumber;
    uint16_t level;
    uint32_t type;
    uint32_t threadId;
    uint32_t dataLen;
    uint64_t timeStamp;
    uint8_t data[MSPROF_ADDTIONAL_INFO_DATA_LENGTH];
};

#define PROF_MAX_DEV_NUM 64U
struct MsprofCommandHandleParams {
    uint32_t pathLen;
    uint32_t storageLimit;
    uint32_t profDataLen;
    char path[1024];
    char profData[4096];
};

struct MsprofCommandHandle {
    uint64_t profSwitch;
    uint64_t profSwitchHi;
    uint32_t devNums;
    uint32_t devIdList[PROF_MAX_DEV_NUM];
    uint32_t modelId;
    uint32_t type;
    uint32_t cacheFlag;
    struct MsprofCommandHandleParams params;
};

/* Payload of the DEVICE_STATE_C callback. */
struct ProfSetDevPara {
    uint32_t chipId;
    uint32_t deviceId;
    bool isOpen;
};

/* Callback signatures a profiler registers (C variants). */
typedef int32_t (*ProfReportApiCFunc)(uint32_t agingFlag, const struct MsprofApi* api);
typedef int32_t (*ProfReportEventCFunc)(uint32_t agingFlag, const struct MsprofEvent* event);
typedef int32_t (*ProfReportCompactFunc)(uint32_t agingFlag, const void* data, uint32_t length);
typedef int32_t (*ProfReportAdditionalFunc)(uint32_t agingFlag, const void* data, uint32_t length);
typedef int32_t (*ProfRegTypeInfoCFunc)(uint16_t level, uint32_t typeId, const char* name, size_t len);
typedef uint64_t (*ProfGetHashIdCFunc)(const char* info, size_t len);
typedef int8_t (*ProfHostFreqIsEnableCFunc)(void);
typedef int32_t (*ProfDeviceStateCFunc)(void* devPara, uint32_t len);

/* A CANN module's command handler (MsprofRegisterCallback). */
typedef int32_t (*ProfCommandHandle)(uint32_t type, void* data, uint32_t len);

/* mstx module tables (see seam/mstx_table.h for ids). */
typedef void (*MstxFuncPointer)(void);
typedef int (*MstxGetModuleFuncTableFunc)(uint32_t module, MstxFuncPointer*** outTable, uint32_t* outSize);
typedef int (*MstxInitInjectionFunc)(MstxGetModuleFuncTableFunc getFuncTable);

#define PROF_MODULE_INVALID 0U
#define PROF_MODULE_MSPROF 1U
#define PROF_MODULE_MSPTI 2U

/* ---- functions libprofapi exports ---- */
int32_t MsprofRegisterProfileCallback(int32_t callbackType, void* callback, uint32_t len);
int32_t MsprofRegisterCallback(uint32_t moduleId, ProfCommandHandle handle);
int32_t profSetProfCommand(void* command, uint32_t len);
int32_t MsprofReportApi(uint32_t agingFlag, const struct MsprofApi* api);
int32_t MsprofReportEvent(uint32_t agingFlag, const struct MsprofEvent* event);
int32_t MsprofReportCompactInfo(uint32_t agingFlag, const void* data, uint32_t length);
int32_t MsprofReportAdditionalInfo(uint32_t agingFlag, const void* data, uint32_t length);
int32_t MsprofRegTypeInfo(uint16_t level, uint32_t typeId, const char* typeName);
uint64_t MsprofGetHashId(const char* hashInfo, size_t length);
uint64_t MsprofStr2Id(const char* hashInfo, size_t length);
char* MsprofId2Str(uint64_t hashId);
int32_t profRegDeviceStateCallback(ProfDeviceStateCFunc callback);
uint64_t MsprofSysCycleTime(void);
int32_t MsprofNotifySetDevice(uint32_t chipId, uint32_t deviceId, bool isOpen);
void ProfRegisterMstxFunc(MstxInitInjectionFunc initFunc, uint32_t module);
void ProfEnableMstxFunc(uint32_t module);
int InitInjectionMstx(MstxGetModuleFuncTableFunc getFuncTable);

#ifdef __cplusplus
} /* extern "C" */

static_assert(sizeof(MsprofApi) == 40, "MsprofApi is 40 bytes");
static_assert(sizeof(MsprofEvent) == 40, "MsprofEvent is 40 bytes");
static_assert(sizeof(MsprofRuntimeTrack) == 40, "MsprofRuntimeTrack is 40 bytes");
static_assert(sizeof(MsprofKernelInfo) == 16, "MsprofKernelInfo is 16 bytes");
static_assert(offsetof(MsprofRuntimeTrack, extInfo) == 24, "extInfo at 24");
static_assert(sizeof(MsprofHcclOpInfo) == 26, "MsprofHcclOpInfo is 26 bytes");
static_assert(sizeof(MsprofNodeBasicInfo) == 28, "MsprofNodeBasicInfo is 28 bytes");
static_assert(offsetof(MsprofNodeBasicInfo, blockDim) == 20, "blockDim at 20");
static_assert(sizeof(MsprofMemcpyInfo) == 24, "MsprofMemcpyInfo is 24 bytes");
static_assert(offsetof(MsprofMemcpyInfo, memcpyDirection) == 16, "memcpyDirection at 16");
static_assert(sizeof(MsprofCompactInfo) == 64, "MsprofCompactInfo is 64 bytes");
static_assert(sizeof(MsprofAdditionalInfo) == 256, "MsprofAdditionalInfo is 256 bytes");
static_assert(sizeof(MsprofCommandHandle) == 5424, "MsprofCommandHandle is 5424 bytes");
static_assert(offsetof(MsprofCommandHandle, modelId) == 276, "modelId at 276");
static_assert(offsetof(MsprofCommandHandle, type) == 280, "type at 280");
static_assert(offsetof(MsprofCommandHandle, params) == 288, "params at 288");
static_assert(sizeof(ProfSetDevPara) == 12, "ProfSetDevPara is 12 bytes");
#endif

#endif /* SEAM_PROFAPI_H */
