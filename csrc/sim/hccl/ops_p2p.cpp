// Point-to-point operations: HcclSend, HcclRecv, HcclBatchSendRecv. A send completes when
// its receive is posted (and the other way round); items between a pair of ranks match in
// the order each rank posts them.
#include "core/fault_plan.h"
#include "dtype.h"
#include "export.h"
#include "hccl/hccl.h"
#include "op_runner.h"

using namespace hccl;
using npusim::hcomm::P2PItem;

namespace {

P2PItem item(bool send, void* buf, uint64_t count, HcclDataType dtype, uint32_t peer) {
    P2PItem it;
    it.peer = peer;
    it.send = send;
    it.count = count;
    it.dtype = dtype;
    it.bytes = count * dtype_size(dtype);
    if (send) it.src = static_cast<const uint8_t*>(buf);
    else it.dst = static_cast<uint8_t*>(buf);
    return it;
}

}  // namespace

HCCL_EXPORT HcclResult HcclSend(void* sendBuf, uint64_t count, HcclDataType dataType, uint32_t destRank, HcclComm comm,
                                aclrtStream stream) {
    NPUSIM_FAULT_RETURN("HcclSend", HcclResult);
    if (HcclResult st = check_buffer(sendBuf, count, dataType); st != HCCL_SUCCESS) return st;
    if (!fits(count, dataType, 1)) return HCCL_E_PARA;
    P2PCall call;
    call.items.push_back(item(true, sendBuf, count, dataType, destRank));
    call.item_name = "hcom_send_";
    call.report_count = count;
    call.report_dtype = dataType;
    return run_p2p(comm, stream, call);
}

HCCL_EXPORT HcclResult HcclRecv(void* recvBuf, uint64_t count, HcclDataType dataType, uint32_t srcRank, HcclComm comm,
                                aclrtStream stream) {
    NPUSIM_FAULT_RETURN("HcclRecv", HcclResult);
    if (HcclResult st = check_buffer(recvBuf, count, dataType); st != HCCL_SUCCESS) return st;
    if (!fits(count, dataType, 1)) return HCCL_E_PARA;
    P2PCall call;
    call.items.push_back(item(false, recvBuf, count, dataType, srcRank));
    call.item_name = "hcom_receive_";
    call.report_count = count;
    call.report_dtype = dataType;
    return run_p2p(comm, stream, call);
}

HCCL_EXPORT HcclResult HcclBatchSendRecv(HcclSendRecvItem* sendRecvInfo, uint32_t itemNum, HcclComm comm,
                                         aclrtStream stream) {
    NPUSIM_FAULT_RETURN("HcclBatchSendRecv", HcclResult);
    if (sendRecvInfo == nullptr && itemNum > 0) return HCCL_E_PTR;
    P2PCall call;
    for (uint32_t i = 0; i < itemNum; ++i) {
        const HcclSendRecvItem& it = sendRecvInfo[i];
        if (it.sendRecvType != HCCL_SEND && it.sendRecvType != HCCL_RECV) return HCCL_E_PARA;
        if (HcclResult st = check_buffer(it.buf, it.count, it.dataType); st != HCCL_SUCCESS) return st;
        if (!fits(it.count, it.dataType, 1)) return HCCL_E_PARA;
        call.items.push_back(item(it.sendRecvType == HCCL_SEND, it.buf, it.count, it.dataType, it.remoteRank));
        call.report_count += it.count;
    }
    call.item_name = "hcom_batchSendRecv_";
    call.report_dtype = itemNum > 0 ? sendRecvInfo[0].dataType : HCCL_DATA_TYPE_INT8;
    return run_p2p(comm, stream, call);
}
