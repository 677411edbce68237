// The HCCL functions msPTI interposes and the two it calls, declared from
// CANN's HCCL interface (hccl.h / hccl_types.h / hccl_comm.h), since msPTI
// builds without the HCCL headers. Types and values are CANN's.
#pragma once

#include <cstdint>

#include <acl/acl_base.h>

extern "C" {

typedef void* HcclComm;

typedef enum {
    HCCL_SUCCESS = 0,
    HCCL_E_PARA = 1,
    HCCL_E_PTR = 2,
    HCCL_E_MEMORY = 3,
    HCCL_E_INTERNAL = 4,
    HCCL_E_NOT_SUPPORT = 5,
} HcclResult;

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

typedef enum { HCCL_REDUCE_SUM = 0, HCCL_REDUCE_PROD = 1, HCCL_REDUCE_MAX = 2, HCCL_REDUCE_MIN = 3, HCCL_REDUCE_RESERVED = 255 } HcclReduceOp;

typedef enum { HCCL_SEND = 0, HCCL_RECV = 1 } HcclSendRecvType;

typedef struct {
    HcclSendRecvType sendRecvType;
    void* buf;
    uint64_t count;
    HcclDataType dataType;
    uint32_t remoteRank;
} HcclSendRecvItem;

#define MSPTI_HCCL_API __attribute__((visibility("default")))

MSPTI_HCCL_API HcclResult HcclAllReduce(void* sendBuf, void* recvBuf, uint64_t count, HcclDataType dataType,
                                        HcclReduceOp op, HcclComm comm, aclrtStream stream);
MSPTI_HCCL_API HcclResult HcclBroadcast(void* buf, uint64_t count, HcclDataType dataType, uint32_t root, HcclComm comm,
                                        aclrtStream stream);
MSPTI_HCCL_API HcclResult HcclAllGather(void* sendBuf, void* recvBuf, uint64_t sendCount, HcclDataType dataType,
                                        HcclComm comm, aclrtStream stream);
MSPTI_HCCL_API HcclResult HcclReduceScatter(void* sendBuf, void* recvBuf, uint64_t recvCount, HcclDataType dataType,
                                            HcclReduceOp op, HcclComm comm, aclrtStream stream);
MSPTI_HCCL_API HcclResult HcclReduce(void* sendBuf, void* recvBuf, uint64_t count, HcclDataType dataType,
                                     HcclReduceOp op, uint32_t root, HcclComm comm, aclrtStream stream);
MSPTI_HCCL_API HcclResult HcclAlltoAll(const void* sendBuf, uint64_t sendCount, HcclDataType sendType,
                                       const void* recvBuf, uint64_t recvCount, HcclDataType recvType, HcclComm comm,
                                       aclrtStream stream);
MSPTI_HCCL_API HcclResult HcclAlltoAllV(const void* sendBuf, const void* sendCounts, const void* sdispls,
                                        HcclDataType sendType, const void* recvBuf, const void* recvCounts,
                                        const void* rdispls, HcclDataType recvType, HcclComm comm, aclrtStream stream);
MSPTI_HCCL_API HcclResult HcclBarrier(HcclComm comm, aclrtStream stream);
MSPTI_HCCL_API HcclResult HcclScatter(void* sendBuf, void* recvBuf, uint64_t recvCount, HcclDataType dataType,
                                      uint32_t root, HcclComm comm, aclrtStream stream);
MSPTI_HCCL_API HcclResult HcclSend(void* sendBuf, uint64_t count, HcclDataType dataType, uint32_t destRank,
                                   HcclComm comm, aclrtStream stream);
MSPTI_HCCL_API HcclResult HcclRecv(void* recvBuf, uint64_t count, HcclDataType dataType, uint32_t srcRank,
                                   HcclComm comm, aclrtStream stream);
MSPTI_HCCL_API HcclResult HcclBatchSendRecv(HcclSendRecvItem* sendRecvInfo, uint32_t itemNum, HcclComm comm,
                                            aclrtStream stream);

// Called, not interposed.
HcclResult HcclGetCommName(HcclComm comm, char* commName);
HcclResult HcclGetRankSize(HcclComm comm, uint32_t* rankSize);

}  // extern "C"

// Longest communicator name HcclGetCommName writes (including the terminator).
constexpr size_t kHcclCommNameMax = 128;
