// Reducing collectives: HcclAllReduce, HcclReduce, HcclReduceScatter, HcclReduceScatterV.
#include <algorithm>
#include <vector>

#include "core/fault_plan.h"
#include "dtype.h"
#include "export.h"
#include "hccl/hccl.h"
#include "op_runner.h"

using namespace hccl;

namespace {

HcclResult check_reduce(const void* send, const void* recv, uint64_t count, HcclDataType dtype, HcclReduceOp op) {
    if (HcclResult st = check_buffer(send, count, dtype); st != HCCL_SUCCESS) return st;
    if (HcclResult st = check_buffer(recv, count, dtype); st != HCCL_SUCCESS) return st;
    return valid_reduce_op(op) ? HCCL_SUCCESS : HCCL_E_PARA;
}

}  // namespace

HCCL_EXPORT HcclResult HcclAllReduce(void* sendBuf, void* recvBuf, uint64_t count, HcclDataType dataType,
                                     HcclReduceOp op, HcclComm comm, aclrtStream stream) {
    NPUSIM_FAULT_RETURN("HcclAllReduce", HcclResult);
    if (HcclResult st = check_reduce(sendBuf, recvBuf, count, dataType, op); st != HCCL_SUCCESS) return st;
    if (!fits(count, dataType, 1)) return HCCL_E_PARA;
    CollectiveCall call;
    call.desc.kind = OpKind::AllReduce;
    call.desc.dtype = dataType;
    call.desc.reduce_op = op;
    call.desc.count = count;
    call.in = sendBuf;
    call.out = recvBuf;
    call.item_name = "hcom_allReduce_";
    call.report_count = count;
    return run_collective(comm, stream, call);
}

HCCL_EXPORT HcclResult HcclReduce(void* sendBuf, void* recvBuf, uint64_t count, HcclDataType dataType, HcclReduceOp op,
                                  uint32_t root, HcclComm comm, aclrtStream stream) {
    NPUSIM_FAULT_RETURN("HcclReduce", HcclResult);
    const uint32_t p = comm_size(comm);
    const bool is_root = p > 0 && comm_rank(comm) == root;
    if (HcclResult st = check_reduce(sendBuf, is_root ? recvBuf : sendBuf, count, dataType, op); st != HCCL_SUCCESS) {
        return st;
    }
    if (p > 0 && root >= p) return HCCL_E_PARA;
    if (!fits(count, dataType, 1)) return HCCL_E_PARA;
    CollectiveCall call;
    call.desc.kind = OpKind::Reduce;
    call.desc.dtype = dataType;
    call.desc.reduce_op = op;
    call.desc.root = root;
    call.desc.count = count;
    call.in = sendBuf;
    call.out = recvBuf;
    call.item_name = "hcom_reduce_";
    call.report_count = count;
    return run_collective(comm, stream, call);
}

HCCL_EXPORT HcclResult HcclReduceScatter(void* sendBuf, void* recvBuf, uint64_t recvCount, HcclDataType dataType,
                                         HcclReduceOp op, HcclComm comm, aclrtStream stream) {
    NPUSIM_FAULT_RETURN("HcclReduceScatter", HcclResult);
    if (HcclResult st = check_reduce(sendBuf, recvBuf, recvCount, dataType, op); st != HCCL_SUCCESS) return st;
    if (!fits(recvCount, dataType, std::max<uint32_t>(comm_size(comm), 1))) return HCCL_E_PARA;
    CollectiveCall call;
    call.desc.kind = OpKind::ReduceScatter;
    call.desc.dtype = dataType;
    call.desc.reduce_op = op;
    call.desc.count = recvCount;
    call.in = sendBuf;
    call.out = recvBuf;
    call.item_name = "hcom_reduceScatter_";
    call.report_count = recvCount;
    return run_collective(comm, stream, call);
}

HCCL_EXPORT HcclResult HcclReduceScatterV(void* sendBuf, const void* sendCounts, const void* sendDispls, void* recvBuf,
                                          uint64_t recvCount, HcclDataType dataType, HcclReduceOp op, HcclComm comm,
                                          aclrtStream stream) {
    NPUSIM_FAULT_RETURN("HcclReduceScatterV", HcclResult);
    const uint32_t p = comm_size(comm);
    if (p == 0) return comm == nullptr ? HCCL_E_PTR : HCCL_E_PARA;
    if (sendCounts == nullptr || sendDispls == nullptr) return HCCL_E_PTR;
    if (HcclResult st = check_reduce(sendBuf, recvBuf, recvCount, dataType, op); st != HCCL_SUCCESS) return st;
    CollectiveCall call;
    call.desc.kind = OpKind::ReduceScatterV;
    call.desc.dtype = dataType;
    call.desc.reduce_op = op;
    call.desc.count = recvCount;
    const auto* counts = static_cast<const uint64_t*>(sendCounts);
    const auto* displs = static_cast<const uint64_t*>(sendDispls);
    call.desc.send_counts.assign(counts, counts + p);
    call.desc.send_displs.assign(displs, displs + p);
    for (uint32_t j = 0; j < p; ++j) {
        if (!fits(counts[j], dataType, 1) || !fits(displs[j] + counts[j], dataType, 1)) return HCCL_E_PARA;
    }
    call.in = sendBuf;
    call.out = recvBuf;
    call.item_name = "hcom_reduceScatterV_";
    call.report_count = recvCount;
    return run_collective(comm, stream, call);
}
