// All-to-all exchanges: HcclAlltoAll, HcclAlltoAllV, HcclAlltoAllVC.
#include <algorithm>
#include <vector>

#include "core/fault_plan.h"
#include "dtype.h"
#include "export.h"
#include "hccl/hccl.h"
#include "op_runner.h"

using namespace hccl;

HCCL_EXPORT HcclResult HcclAlltoAll(const void* sendBuf, uint64_t sendCount, HcclDataType sendType, const void* recvBuf,
                                    uint64_t recvCount, HcclDataType recvType, HcclComm comm, aclrtStream stream) {
    NPUSIM_FAULT_RETURN("HcclAlltoAll", HcclResult);
    if (HcclResult st = check_buffer(sendBuf, sendCount, sendType); st != HCCL_SUCCESS) return st;
    if (HcclResult st = check_buffer(recvBuf, recvCount, recvType); st != HCCL_SUCCESS) return st;
    const uint64_t p = std::max<uint32_t>(comm_size(comm), 1);
    if (!fits(sendCount, sendType, p) || !fits(recvCount, recvType, p)) return HCCL_E_PARA;
    CollectiveCall call;
    call.desc.kind = OpKind::AlltoAll;
    call.desc.dtype = sendType;
    call.desc.recv_dtype = recvType;
    call.desc.count = sendCount;
    call.desc.recv_count = recvCount;
    call.in = sendBuf;
    call.out = const_cast<void*>(recvBuf);  // declared const by the API, written by the operation
    call.item_name = "hcom_alltoall_";
    call.report_count = sendCount;
    return run_collective(comm, stream, call);
}

namespace {

HcclResult alltoallv(const void* sendBuf, const uint64_t* sendCounts, const uint64_t* sdispls, HcclDataType sendType,
                     const void* recvBuf, const uint64_t* recvCounts, const uint64_t* rdispls, HcclDataType recvType,
                     HcclComm comm, aclrtStream stream, const char* item_name) {
    const uint32_t p = comm_size(comm);
    if (p == 0) return comm == nullptr ? HCCL_E_PTR : HCCL_E_PARA;
    if (!valid_dtype(sendType) || !valid_dtype(recvType)) return HCCL_E_PARA;
    CollectiveCall call;
    call.desc.kind = OpKind::AlltoAllV;
    call.desc.dtype = sendType;
    call.desc.recv_dtype = recvType;
    call.desc.send_counts.assign(sendCounts, sendCounts + p);
    call.desc.send_displs.assign(sdispls, sdispls + p);
    call.desc.recv_counts.assign(recvCounts, recvCounts + p);
    call.desc.recv_displs.assign(rdispls, rdispls + p);
    uint64_t sent = 0, received = 0;
    for (uint32_t j = 0; j < p; ++j) {
        if (!fits(sdispls[j] + sendCounts[j], sendType, 1) || !fits(rdispls[j] + recvCounts[j], recvType, 1)) {
            return HCCL_E_PARA;
        }
        sent += sendCounts[j];
        received += recvCounts[j];
    }
    if (HcclResult st = check_buffer(sendBuf, sent, sendType); st != HCCL_SUCCESS) return st;
    if (HcclResult st = check_buffer(recvBuf, received, recvType); st != HCCL_SUCCESS) return st;
    call.in = sendBuf;
    call.out = const_cast<void*>(recvBuf);
    call.item_name = item_name;
    call.report_count = sent;
    return run_collective(comm, stream, call);
}

}  // namespace

HCCL_EXPORT HcclResult HcclAlltoAllV(const void* sendBuf, const void* sendCounts, const void* sdispls,
                                     HcclDataType sendType, const void* recvBuf, const void* recvCounts,
                                     const void* rdispls, HcclDataType recvType, HcclComm comm, aclrtStream stream) {
    NPUSIM_FAULT_RETURN("HcclAlltoAllV", HcclResult);
    if (sendCounts == nullptr || sdispls == nullptr || recvCounts == nullptr || rdispls == nullptr) return HCCL_E_PTR;
    return alltoallv(sendBuf, static_cast<const uint64_t*>(sendCounts), static_cast<const uint64_t*>(sdispls), sendType,
                     recvBuf, static_cast<const uint64_t*>(recvCounts), static_cast<const uint64_t*>(rdispls), recvType,
                     comm, stream, "hcom_alltoallv_");
}

// The count matrix [i][j] (elements rank i sends to rank j) lays out each rank's send
// buffer by destination and its receive buffer by source, both packed in rank order.
HCCL_EXPORT HcclResult HcclAlltoAllVC(const void* sendBuf, const void* sendCountMatrix, HcclDataType sendType,
                                      const void* recvBuf, HcclDataType recvType, HcclComm comm, aclrtStream stream) {
    NPUSIM_FAULT_RETURN("HcclAlltoAllVC", HcclResult);
    if (sendCountMatrix == nullptr) return HCCL_E_PTR;
    const uint32_t p = comm_size(comm);
    if (p == 0) return comm == nullptr ? HCCL_E_PTR : HCCL_E_PARA;
    const uint32_t me = comm_rank(comm);
    const auto* m = static_cast<const uint64_t*>(sendCountMatrix);
    std::vector<uint64_t> sc(p), sd(p), rc(p), rd(p);
    uint64_t s = 0, r = 0;
    for (uint32_t j = 0; j < p; ++j) {
        sc[j] = m[uint64_t(me) * p + j];
        sd[j] = s;
        s += sc[j];
        rc[j] = m[uint64_t(j) * p + me];
        rd[j] = r;
        r += rc[j];
    }
    return alltoallv(sendBuf, sc.data(), sd.data(), sendType, recvBuf, rc.data(), rd.data(), recvType, comm, stream,
                     "hcom_alltoallvc_");
}
