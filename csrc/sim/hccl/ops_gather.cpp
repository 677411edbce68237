// Data-distributing collectives: HcclBroadcast, HcclAllGather, HcclAllGatherV, HcclScatter.
#include <algorithm>
#include <vector>

#include "core/fault_plan.h"
#include "dtype.h"
#include "export.h"
#include "hccl/hccl.h"
#include "op_runner.h"

using namespace hccl;

HCCL_EXPORT HcclResult HcclBroadcast(void* buf, uint64_t count, HcclDataType dataType, uint32_t root, HcclComm comm,
                                     aclrtStream stream) {
    NPUSIM_FAULT_RETURN("HcclBroadcast", HcclResult);
    if (HcclResult st = check_buffer(buf, count, dataType); st != HCCL_SUCCESS) return st;
    const uint32_t p = comm_size(comm);
    if ((p > 0 && root >= p) || !fits(count, dataType, 1)) return HCCL_E_PARA;
    CollectiveCall call;
    call.desc.kind = OpKind::Broadcast;
    call.desc.dtype = dataType;
    call.desc.root = root;
    call.desc.count = count;
    call.in = buf;
    call.out = buf;
    call.item_name = "hcom_broadcast_";
    call.report_count = count;
    return run_collective(comm, stream, call);
}

HCCL_EXPORT HcclResult HcclAllGather(void* sendBuf, void* recvBuf, uint64_t sendCount, HcclDataType dataType,
                                     HcclComm comm, aclrtStream stream) {
    NPUSIM_FAULT_RETURN("HcclAllGather", HcclResult);
    if (HcclResult st = check_buffer(sendBuf, sendCount, dataType); st != HCCL_SUCCESS) return st;
    if (HcclResult st = check_buffer(recvBuf, sendCount, dataType); st != HCCL_SUCCESS) return st;
    if (!fits(sendCount, dataType, std::max<uint32_t>(comm_size(comm), 1))) return HCCL_E_PARA;
    CollectiveCall call;
    call.desc.kind = OpKind::AllGather;
    call.desc.dtype = dataType;
    call.desc.count = sendCount;
    call.in = sendBuf;
    call.out = recvBuf;
    call.item_name = "hcom_allGather_";
    call.report_count = sendCount;
    return run_collective(comm, stream, call);
}

HCCL_EXPORT HcclResult HcclAllGatherV(void* sendBuf, uint64_t sendCount, void* recvBuf, const void* recvCounts,
                                      const void* recvDispls, HcclDataType dataType, HcclComm comm,
                                      aclrtStream stream) {
    NPUSIM_FAULT_RETURN("HcclAllGatherV", HcclResult);
    const uint32_t p = comm_size(comm);
    if (p == 0) return comm == nullptr ? HCCL_E_PTR : HCCL_E_PARA;
    if (recvCounts == nullptr || recvDispls == nullptr) return HCCL_E_PTR;
    if (HcclResult st = check_buffer(sendBuf, sendCount, dataType); st != HCCL_SUCCESS) return st;
    CollectiveCall call;
    call.desc.kind = OpKind::AllGatherV;
    call.desc.dtype = dataType;
    call.desc.count = sendCount;
    const auto* counts = static_cast<const uint64_t*>(recvCounts);
    const auto* displs = static_cast<const uint64_t*>(recvDispls);
    call.desc.recv_counts.assign(counts, counts + p);
    call.desc.recv_displs.assign(displs, displs + p);
    uint64_t total = 0;
    for (uint32_t j = 0; j < p; ++j) {
        if (!fits(displs[j] + counts[j], dataType, 1)) return HCCL_E_PARA;
        total += counts[j];
    }
    if (HcclResult st = check_buffer(recvBuf, total, dataType); st != HCCL_SUCCESS) return st;
    call.in = sendBuf;
    call.out = recvBuf;
    call.item_name = "hcom_allGatherV_";
    call.report_count = sendCount;
    return run_collective(comm, stream, call);
}

HCCL_EXPORT HcclResult HcclScatter(void* sendBuf, void* recvBuf, uint64_t recvCount, HcclDataType dataType,
                                   uint32_t root, HcclComm comm, aclrtStream stream) {
    NPUSIM_FAULT_RETURN("HcclScatter", HcclResult);
    const uint32_t p = comm_size(comm);
    const bool is_root = p > 0 && comm_rank(comm) == root;
    if (HcclResult st = check_buffer(is_root ? sendBuf : recvBuf, recvCount, dataType); st != HCCL_SUCCESS) return st;
    if (HcclResult st = check_buffer(recvBuf, recvCount, dataType); st != HCCL_SUCCESS) return st;
    if ((p > 0 && root >= p) || !fits(recvCount, dataType, std::max<uint32_t>(p, 1))) return HCCL_E_PARA;
    CollectiveCall call;
    call.desc.kind = OpKind::Scatter;
    call.desc.dtype = dataType;
    call.desc.root = root;
    call.desc.count = recvCount;
    call.in = sendBuf;
    call.out = recvBuf;
    call.item_name = "hcom_scatter_";
    call.report_count = recvCount;
    return run_collective(comm, stream, call);
}
