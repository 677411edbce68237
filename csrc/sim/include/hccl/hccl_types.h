/*
 * Types of the HCCL collective communication library, compatible with CANN's C ABI
 * (result codes, data types, reduction operations, root info, send/receive items and
 * the communicator configuration block).
 */
#ifndef NPU_SIM_HCCL_TYPES_H
#define NPU_SIM_HCCL_TYPES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void *HcclComm;
typedef void *HcclConn;
typedef void *HcclCommSymWindow;

typedef enum {
    HCCL_SUCCESS = 0,
    HCCL_E_PARA = 1,
    HCCL_E_PTR = 2,
    HCCL_E_MEMORY = 3,
    HCCL_E_INTERNAL = 4,
    HCCL_E_NOT_SUPPORT = 5,
    HCCL_E_NOT_FOUND = 6,
    HCCL_E_UNAVAIL = 7,
    HCCL_E_SYSCALL = 8,
    HCCL_E_TIMEOUT = 9,
    HCCL_E_OPEN_FILE_FAILURE = 10,
    HCCL_E_TCP_CONNECT = 11,
    HCCL_E_ROCE_CONNECT = 12,
    HCCL_E_TCP_TRANSFER = 13,
    HCCL_E_ROCE_TRANSFER = 14,
    HCCL_E_RUNTIME = 15,
    HCCL_E_DRV = 16,
    HCCL_E_PROFILING = 17,
    HCCL_E_CCE = 18,
    HCCL_E_NETWORK = 19,
    HCCL_E_AGAIN = 20,
    HCCL_E_REMOTE = 21,
    HCCL_E_SUSPENDING = 22,
    HCCL_E_OPRETRY_FAIL = 23,
    HCCL_E_OOM = 24,
    HCCL_E_IN_STATUS = 1041,
    HCCL_E_RESERVED
} HcclResult;

typedef enum {
    HCCL_REDUCE_SUM = 0,
    HCCL_REDUCE_PROD = 1,
    HCCL_REDUCE_MAX = 2,
    HCCL_REDUCE_MIN = 3,
    HCCL_REDUCE_RESERVED = 255
} HcclReduceOp;

typedef enum {
    HCCL_DATA_TYPE_INT8 = 0,
    HCCL_DATA_TYPE_INT16 = 1,
    HCCL_DATA_TYPE_INT32 = 2,
    HCCL_DATA_TYPE_FP16 = 3,
    HCCL_DATA_TYPE_FP32 = 4,
    HCCL_DATA_TYPE_INT64 = 5,
    HCCL_DATA_TYPE_UINT64 = 6,
    HCCL_DATA_TYPE_UINT8 = 7,
    HCCL_DATA_TYPE_UINT16 = 8,
    HCCL_DATA_TYPE_UINT32 = 9,
    HCCL_DATA_TYPE_FP64 = 10,
    HCCL_DATA_TYPE_BFP16 = 11,
    HCCL_DATA_TYPE_INT128 = 12,
    HCCL_DATA_TYPE_HIF8 = 14,
    HCCL_DATA_TYPE_FP8E4M3 = 15,
    HCCL_DATA_TYPE_FP8E5M2 = 16,
    HCCL_DATA_TYPE_FP8E8M0 = 17,
    HCCL_DATA_TYPE_RESERVED = 255
} HcclDataType;

/* Operation kinds, as trace records name them. */
typedef enum {
    HCCL_CMD_INVALID = 0,
    HCCL_CMD_BROADCAST = 1,
    HCCL_CMD_ALLREDUCE = 2,
    HCCL_CMD_REDUCE = 3,
    HCCL_CMD_SEND = 4,
    HCCL_CMD_RECEIVE = 5,
    HCCL_CMD_ALLGATHER = 6,
    HCCL_CMD_REDUCE_SCATTER = 7,
    HCCL_CMD_ALLTOALLV = 8,
    HCCL_CMD_ALLTOALLVC = 9,
    HCCL_CMD_ALLTOALL = 10,
    HCCL_CMD_GATHER = 11,
    HCCL_CMD_SCATTER = 12,
    HCCL_CMD_BATCH_SEND_RECV = 13,
    HCCL_CMD_BATCH_PUT = 14,
    HCCL_CMD_BATCH_GET = 15,
    HCCL_CMD_ALLGATHER_V = 16,
    HCCL_CMD_REDUCE_SCATTER_V = 17,
    HCCL_CMD_BATCH_WRITE = 18,
    HCCL_CMD_HALF_ALLTOALLV = 20,
    HCCL_CMD_BARRIER = 103,
    HCCL_CMD_MAX
} HcclCMDType;

/*
 * CANN declares its sizes and defaults as C++ constants (`const uint32_t`); C programs, where such a
 * constant cannot size an array, get macros of the same names and values.
 */
#ifdef __cplusplus
const uint32_t HCCL_ROOT_INFO_BYTES = 4108;
const uint32_t COMM_NAME_MAX_LENGTH = 128;
const uint32_t BUFFER_NAME_MAX_LENGTH = 128;
const uint32_t UDI_MAX_LENGTH = 128;
const uint32_t HCCL_COMM_ALGO_MAX_LENGTH = 1600;
const uint32_t HCCL_COMM_RETRY_ENABLE_MAX_LENGTH = 50;
const uint32_t HCCL_COMM_RETRY_PARAMS_MAX_LENGTH = 128;
const uint32_t HCCL_COMM_CONFIG_INFO_BYTES = 24;
const uint32_t HCCL_COMM_CONFIG_MAGIC_WORD = 0xf0f0f0f0;
const uint32_t HCCL_COMM_CONFIG_VERSION = 10;
const uint32_t HCCL_COMM_DEFAULT_BUFFSIZE = 200; /* MB */
const uint32_t HCCL_COMM_BUFFSIZE_CONFIG_NOT_SET = 0xffffffff;
const uint32_t HCCL_COMM_DEFAULT_DETERMINISTIC = 0;
const uint32_t HCCL_COMM_DETERMINISTIC_CONFIG_NOT_SET = 0xffffffff;
const uint32_t HCCL_COMM_DEFAULT_OP_EXPANSION_MODE = 0;
const uint32_t HCCL_COMM_TRAFFIC_CLASS_CONFIG_NOT_SET = 0xffffffff;
const uint32_t HCCL_COMM_SERVICE_LEVEL_CONFIG_NOT_SET = 0xffffffff;
const int32_t HCCL_COMM_EXECTIMEOUT_CONFIG_NOT_SET = -1;
const uint32_t HCCL_COMM_QOS_CONFIG_NOT_SET = 0xffffffff;
const uint64_t HCCL_DEFAULT_SYMMETRIC_MEMORY_STRIDE = 16ULL;
#else
#define HCCL_ROOT_INFO_BYTES 4108U
#define COMM_NAME_MAX_LENGTH 128U
#define BUFFER_NAME_MAX_LENGTH 128U
#define UDI_MAX_LENGTH 128U
#define HCCL_COMM_ALGO_MAX_LENGTH 1600U
#define HCCL_COMM_RETRY_ENABLE_MAX_LENGTH 50U
#define HCCL_COMM_RETRY_PARAMS_MAX_LENGTH 128U
#define HCCL_COMM_CONFIG_INFO_BYTES 24U
#define HCCL_COMM_CONFIG_MAGIC_WORD 0xf0f0f0f0U
#define HCCL_COMM_CONFIG_VERSION 10U
#define HCCL_COMM_DEFAULT_BUFFSIZE 200U
#define HCCL_COMM_BUFFSIZE_CONFIG_NOT_SET 0xffffffffU
#define HCCL_COMM_DEFAULT_DETERMINISTIC 0U
#define HCCL_COMM_DETERMINISTIC_CONFIG_NOT_SET 0xffffffffU
#define HCCL_COMM_DEFAULT_OP_EXPANSION_MODE 0U
#define HCCL_COMM_TRAFFIC_CLASS_CONFIG_NOT_SET 0xffffffffU
#define HCCL_COMM_SERVICE_LEVEL_CONFIG_NOT_SET 0xffffffffU
#define HCCL_COMM_EXECTIMEOUT_CONFIG_NOT_SET (-1)
#define HCCL_COMM_QOS_CONFIG_NOT_SET 0xffffffffU
#define HCCL_DEFAULT_SYMMETRIC_MEMORY_STRIDE 16ULL
#endif

typedef struct HcclRootInfoDef {
    char internal[HCCL_ROOT_INFO_BYTES];
} HcclRootInfo;

typedef enum { HCCL_SEND = 0, HCCL_RECV = 1, HCCL_SEND_RECV_RESERVED } HcclSendRecvType;

typedef struct HcclSendRecvItemDef {
    HcclSendRecvType sendRecvType;
    void *buf;
    uint64_t count;
    HcclDataType dataType;
    uint32_t remoteRank;
} HcclSendRecvItem;

/* Who expands an operation into device tasks. */
typedef enum {
    HCCL_OP_EXPANSION_MODE_INVALID = -1,
    HCCL_OP_EXPANSION_MODE_AI_CPU = 0,
    HCCL_OP_EXPANSION_MODE_AIV = 1,
    HCCL_OP_EXPANSION_MODE_HOST = 2,
    HCCL_OP_EXPANSION_MODE_HOST_TS = 3,
    HCCL_OP_EXPANSION_MODE_CCU_MS = 4,
    HCCL_OP_EXPANSION_MODE_CCU_SCHED = 5,
    HCCL_OP_EXPANSION_MODE_AIV_ONLY = 6
} HcclOpExpansionMode;

/* Process-wide settings of HcclSetConfig / HcclGetConfig. */
typedef enum { HCCL_DETERMINISTIC = 0, HCCL_CONFIG_RESERVED } HcclConfig;
typedef union HcclConfigValueDef {
    int32_t value;
} HcclConfigValue;

/*
 * Fields of HcclCommConfig, numbered for HcclGetCommConfigCapability: a field is supported
 * when its number is below the value that function returns (CANN's numbering; later
 * numbers exist in CANN and are not declared here).
 */
typedef enum {
    HCCL_COMM_CONFIG_BUFFER_SIZE = 0,
    HCCL_COMM_CONFIG_DETERMINISTIC = 1,
    HCCL_COMM_CONFIG_COMM_NAME = 2,
    HCCL_COMM_CONFIG_OP_EXPANSION_MODE = 3,
    HCCL_COMM_CONFIG_SUPPORT_INIT_BY_ENV = 4,
    HCCL_COMM_CONFIG_WORLD_RANKID = 5,
    HCCL_COMM_CONFIG_JOBID = 6,
    HCCL_COMM_CONFIG_ACLGRAPH_ZEROCOPY_ENABLE = 7,
    HCCL_COMM_CONFIG_EXEC_TIMEOUT = 8,
    HCCL_COMM_CONFIG_ALGO = 9
} HcclCommConfigCapability;

/*
 * Communicator configuration. The first bytes are an in-band header
 * (size, magic word, version) written by HcclCommConfigInit; a reader uses only
 * the fields that lie inside `size`, so older and newer layouts interoperate.
 * A field left at its *_CONFIG_NOT_SET value takes the library's default.
 */
typedef struct HcclCommConfigDef {
    char reserved[HCCL_COMM_CONFIG_INFO_BYTES]; /* size_t size; u32 magicWord; u32 version; u64 reserved */
    uint32_t hcclBufferSize;
    uint32_t hcclDeterministic;
    char hcclCommName[COMM_NAME_MAX_LENGTH];
    char hcclUdi[UDI_MAX_LENGTH];
    uint32_t hcclOpExpansionMode;
    uint32_t hcclRdmaTrafficClass;
    uint32_t hcclRdmaServiceLevel;
    uint32_t hcclWorldRankID;
    uint64_t hcclJobID;
    uint8_t aclGraphZeroCopyEnable;
    int32_t hcclExecTimeOut;
    char hcclAlgo[HCCL_COMM_ALGO_MAX_LENGTH];
    char hcclRetryEnable[HCCL_COMM_RETRY_ENABLE_MAX_LENGTH];
    char hcclRetryParams[HCCL_COMM_RETRY_PARAMS_MAX_LENGTH];
    char hcclBufferName[BUFFER_NAME_MAX_LENGTH];
    uint32_t hcclQos;
    uint64_t hcclSymWinMaxMemSizePerRank;
} HcclCommConfig;

/* The header HcclCommConfigInit writes into HcclCommConfig.reserved. */
typedef struct HcclCommConfigInfoDef {
    size_t size;
    uint32_t magicWord;
    uint32_t version;
    uint64_t reserved;
} HcclCommConfigInfo;

static inline void HcclCommConfigInit(HcclCommConfig *config)
{
    if (config == NULL) {
        return;
    }
    memset(config, 0, sizeof(*config));
    HcclCommConfigInfo info;
    info.size = sizeof(HcclCommConfig);
    info.magicWord = HCCL_COMM_CONFIG_MAGIC_WORD;
    info.version = HCCL_COMM_CONFIG_VERSION;
    info.reserved = 0;
    memcpy(config->reserved, &info, sizeof(info));
    /* The values CANN's HcclCommConfigInit writes. */
    config->hcclBufferSize = HCCL_COMM_BUFFSIZE_CONFIG_NOT_SET;
    config->hcclDeterministic = HCCL_COMM_DETERMINISTIC_CONFIG_NOT_SET;
    config->hcclOpExpansionMode = HCCL_COMM_DEFAULT_OP_EXPANSION_MODE;
    config->hcclRdmaTrafficClass = HCCL_COMM_TRAFFIC_CLASS_CONFIG_NOT_SET;
    config->hcclRdmaServiceLevel = HCCL_COMM_SERVICE_LEVEL_CONFIG_NOT_SET;
    config->hcclWorldRankID = 0;
    config->hcclJobID = 0;
    config->hcclExecTimeOut = HCCL_COMM_EXECTIMEOUT_CONFIG_NOT_SET;
    config->hcclQos = HCCL_COMM_QOS_CONFIG_NOT_SET;
    config->hcclSymWinMaxMemSizePerRank = HCCL_DEFAULT_SYMMETRIC_MEMORY_STRIDE;
}

#ifdef __cplusplus
} /* extern "C" */
static_assert(sizeof(HcclRootInfo) == 4108, "HcclRootInfo is 4108 bytes");
static_assert(sizeof(HcclSendRecvItem) == 32, "HcclSendRecvItem is 32 bytes");
static_assert(sizeof(HcclCommConfigInfo) == HCCL_COMM_CONFIG_INFO_BYTES, "config header is 24 bytes");
static_assert(offsetof(HcclCommConfig, hcclBufferSize) == 24, "hcclBufferSize at 24");
static_assert(offsetof(HcclCommConfig, hcclCommName) == 32, "hcclCommName at 32");
static_assert(offsetof(HcclCommConfig, hcclJobID) == 304, "hcclJobID at 304");
static_assert(offsetof(HcclCommConfig, hcclExecTimeOut) == 316, "hcclExecTimeOut at 316");
static_assert(offsetof(HcclCommConfig, hcclAlgo) == 320, "hcclAlgo at 320");
static_assert(offsetof(HcclCommConfig, hcclSymWinMaxMemSizePerRank) == 2232, "last field at 2232");
static_assert(sizeof(HcclCommConfig) == 2240, "HcclCommConfig is 2240 bytes");
#endif

#endif /* NPU_SIM_HCCL_TYPES_H */
