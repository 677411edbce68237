/*
 * The AscendCL profiling API (aclprof*), with CANN's declarations and values. Exported by
 * libmsprofiler.
 *
 * The simulator has no msprof collector: every function here is present, so a program written
 * for CANN compiles, links and runs unchanged, but each one reports that profiling through this
 * API is not available (ACL_ERROR_FEATURE_UNSUPPORTED, NULL or 0, as its return type allows) and
 * logs that once. Profile on the simulator through msPTI instead.
 */
#ifndef NPU_SIM_ACL_PROF_H
#define NPU_SIM_ACL_PROF_H

#include "acl/acl_base.h"

#if defined(__GNUC__)
#define MSVP_PROF_API __attribute__((visibility("default")))
#else
#define MSVP_PROF_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* dataTypeConfig bits of aclprofCreateConfig. */
#define ACL_PROF_ACL_API 0x0001ULL
#define ACL_PROF_TASK_TIME 0x0002ULL
#define ACL_PROF_AICORE_METRICS 0x0004ULL
#define ACL_PROF_AICPU 0x0008ULL
#define ACL_PROF_L2CACHE 0x0010ULL
#define ACL_PROF_HCCL_TRACE 0x0020ULL
#define ACL_PROF_TRAINING_TRACE 0x0040ULL
#define ACL_PROF_MSPROFTX 0x0080ULL
#define ACL_PROF_RUNTIME_API 0x0100ULL
#define ACL_PROF_GE_API_L0 0x0200ULL
#define ACL_PROF_TASK_TIME_L0 0x0800ULL
#define ACL_PROF_TASK_MEMORY 0x1000ULL
#define ACL_PROF_TASK_TIME_L2 0x2000ULL
#define ACL_PROF_OP_ATTR 0x4000ULL
#define ACL_PROF_TASK_TIME_L3 0x8000ULL
#define ACL_PROF_GE_API_L1 0x01000000ULL
#define ACL_PROF_API_STATS 0x400000000ULL

/* Deprecated fixed lengths (aclprofGetOpTypeLen / aclprofGetOpNameLen give the real ones). */
#define ACL_PROF_MAX_OP_NAME_LEN 257
#define ACL_PROF_MAX_OP_TYPE_LEN 65

typedef enum {
    ACL_AICORE_ARITHMETIC_UTILIZATION = 0,
    ACL_AICORE_PIPE_UTILIZATION = 1,
    ACL_AICORE_MEMORY_BANDWIDTH = 2,
    ACL_AICORE_L0B_AND_WIDTH = 3,
    ACL_AICORE_RESOURCE_CONFLICT_RATIO = 4,
    ACL_AICORE_MEMORY_UB = 5,
    ACL_AICORE_L2_CACHE = 6,
    ACL_AICORE_PIPE_EXECUTE_UTILIZATION = 7,
    ACL_AICORE_MEMORY_ACCESS = 8,
    ACL_AICORE_NONE = 0xFF
} aclprofAicoreMetrics;

typedef enum { ACL_STEP_START = 0, ACL_STEP_END = 1 } aclprofStepTag;

typedef enum {
    ACL_SUBSCRIBE_OP = 0,
    ACL_SUBSCRIBE_SUBGRAPH = 1,
    ACL_SUBSCRIBE_OP_THREAD = 2,
    ACL_SUBSCRIBE_NONE = 0xFF
} aclprofSubscribeOpFlag;

typedef enum { ACL_SUBSCRIBE_ATTRI_THREADID = 0, ACL_SUBSCRIBE_ATTRI_NONE } aclprofSubscribeOpAttri;

typedef enum {
    ACL_PROF_ARGS_MIN = 0,
    ACL_PROF_STORAGE_LIMIT = 1,
    ACL_PROF_SYS_HARDWARE_MEM_FREQ = 3,
    ACL_PROF_LLC_MODE = 4,
    ACL_PROF_SYS_IO_FREQ = 5,
    ACL_PROF_SYS_INTERCONNECTION_FREQ = 6,
    ACL_PROF_DVPP_FREQ = 7,
    ACL_PROF_HOST_SYS = 8,
    ACL_PROF_HOST_SYS_USAGE = 9,
    ACL_PROF_HOST_SYS_USAGE_FREQ = 10,
    ACL_PROF_LOW_POWER_FREQ = 11,
    ACL_PROF_SYS_MEM_SERVICEFLOW = 12,
    ACL_PROF_SYS_CPU_FREQ = 13,
    ACL_PROF_OPTYPE = 14,
    ACL_PROF_NTS_METRICS = 15,
    ACL_PROF_PATH = 16,
    ACL_PROF_ARGS_MAX = 17
} aclprofConfigType;

typedef struct aclprofConfig aclprofConfig;
typedef struct aclprofStopConfig aclprofStopConfig;
typedef struct aclprofAicoreEvents aclprofAicoreEvents;
typedef struct aclprofSubscribeConfig aclprofSubscribeConfig;
typedef struct aclprofStepInfo aclprofStepInfo;

typedef enum { ACL_PROF_MESSAGE_TYPE_TENSOR_INFO = 0 } aclprofMessageType;

/* The tensor information of aclprofRangePushEx, laid out as CANN's. A program that defines
 * ACL_PROF_TENSOR_INFO_DEFINED keeps its own definitions, as with CANN's header. */
#ifndef ACL_PROF_TENSOR_INFO_DEFINED
#define ACL_PROF_TENSOR_INFO_DEFINED
#define ACL_PROF_EVENT_ATTR_VERSION 1
#define ACL_PROF_TENSOR_DATA_SHAPE_LEN 8
typedef struct aclprofTensor {
    uint32_t type; /* 0 input, 1 output */
    uint32_t format;
    uint32_t dataType;
    uint32_t shapeDim;
    uint32_t shape[ACL_PROF_TENSOR_DATA_SHAPE_LEN];
} aclprofTensor;
typedef struct aclprofTensorInfo {
    uint64_t opNameId;
    uint64_t opTypeId;
    uint32_t resv;
    uint32_t tensorNum;
    uint32_t kernelType;
    uint32_t blockNums;
    void *stream;
    aclprofTensor *tensors;
} aclprofTensorInfo;
typedef struct aclprofEventAttributes {
    uint16_t version;
    uint16_t size;
    uint32_t messageType;
    union Message {
        aclprofTensorInfo *tensorInfo;
    } message;
} aclprofEventAttributes;
#endif

/* Collection sessions. */
MSVP_PROF_API aclError aclprofInit(const char *profilerResultPath, size_t length);
MSVP_PROF_API aclError aclprofFinalize(void);
MSVP_PROF_API aclError aclprofStart(const aclprofConfig *profilerConfig);
MSVP_PROF_API aclError aclprofStop(const aclprofConfig *profilerConfig);
MSVP_PROF_API aclprofConfig *aclprofCreateConfig(uint32_t *deviceIdList, uint32_t deviceNums,
                                                 aclprofAicoreMetrics aicoreMetrics,
                                                 const aclprofAicoreEvents *aicoreEvents, uint64_t dataTypeConfig);
MSVP_PROF_API aclError aclprofDestroyConfig(const aclprofConfig *profilerConfig);
MSVP_PROF_API aclError aclprofSetConfig(aclprofConfigType configType, const char *config, size_t configLength);

/* Model subscription and its op records. */
MSVP_PROF_API aclError aclprofModelSubscribe(uint32_t modelId, const aclprofSubscribeConfig *profSubscribeConfig);
MSVP_PROF_API aclError aclprofModelUnSubscribe(uint32_t modelId);
MSVP_PROF_API aclprofSubscribeConfig *aclprofCreateSubscribeConfig(int8_t timeInfoSwitch,
                                                                   aclprofAicoreMetrics aicoreMetrics, void *fd);
MSVP_PROF_API aclError aclprofDestroySubscribeConfig(const aclprofSubscribeConfig *profSubscribeConfig);
MSVP_PROF_API aclError aclprofGetOpDescSize(size_t *opDescSize);
MSVP_PROF_API aclError aclprofGetOpNum(const void *opInfo, size_t opInfoLen, uint32_t *opNumber);
MSVP_PROF_API aclError aclprofGetOpTypeLen(const void *opInfo, size_t opInfoLen, uint32_t index, size_t *opTypeLen);
MSVP_PROF_API aclError aclprofGetOpType(const void *opInfo, size_t opInfoLen, uint32_t index, char *opType,
                                        size_t opTypeLen);
MSVP_PROF_API aclError aclprofGetOpNameLen(const void *opInfo, size_t opInfoLen, uint32_t index, size_t *opNameLen);
MSVP_PROF_API aclError aclprofGetOpName(const void *opInfo, size_t opInfoLen, uint32_t index, char *opName,
                                        size_t opNameLen);
MSVP_PROF_API uint64_t aclprofGetOpStart(const void *opInfo, size_t opInfoLen, uint32_t index);
MSVP_PROF_API uint64_t aclprofGetOpEnd(const void *opInfo, size_t opInfoLen, uint32_t index);
MSVP_PROF_API uint64_t aclprofGetOpDuration(const void *opInfo, size_t opInfoLen, uint32_t index);
MSVP_PROF_API size_t aclprofGetModelId(const void *opInfo, size_t opInfoLen, uint32_t index);
MSVP_PROF_API aclprofSubscribeOpFlag aclprofGetOpFlag(const void *opInfo, size_t opInfoLen, uint32_t index);
MSVP_PROF_API const char *aclprofGetOpAttriValue(const void *opInfo, size_t opInfoLen, uint32_t index,
                                                 aclprofSubscribeOpAttri attri);

/* Step timestamps. */
MSVP_PROF_API aclError aclprofGetStepTimestamp(aclprofStepInfo *stepInfo, aclprofStepTag tag, aclrtStream stream);
MSVP_PROF_API aclprofStepInfo *aclprofCreateStepInfo(void);
MSVP_PROF_API void aclprofDestroyStepInfo(aclprofStepInfo *stepinfo);

/* msproftx stamps, marks and ranges. */
MSVP_PROF_API void *aclprofCreateStamp(void);
MSVP_PROF_API void aclprofDestroyStamp(void *stamp);
MSVP_PROF_API aclError aclprofPush(void *stamp);
MSVP_PROF_API aclError aclprofPop(void);
MSVP_PROF_API aclError aclprofRangeStart(void *stamp, uint32_t *rangeId);
MSVP_PROF_API aclError aclprofRangeStop(uint32_t rangeId);
MSVP_PROF_API aclError aclprofSetStampTraceMessage(void *stamp, const char *msg, uint32_t msgLen);
MSVP_PROF_API aclError aclprofMark(void *stamp);
MSVP_PROF_API aclError aclprofMarkEx(const char *msg, size_t msgLen, aclrtStream stream);
MSVP_PROF_API uint64_t aclprofStr2Id(const char *message);
MSVP_PROF_API aclError aclprofRangePushEx(aclprofEventAttributes *attr);
MSVP_PROF_API aclError aclprofRangePop(void);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_ACL_PROF_H */
