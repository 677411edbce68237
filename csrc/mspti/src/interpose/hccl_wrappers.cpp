// Interposed HCCL operations: callbacks of the HCCL domain, a correlation
// scope, and (when HCCL records are collected) the two hidden device markers
// around the operation that give the HCCL record its device times. The
// operation's size is taken before the call, while the count arrays the
// caller passed are certainly still valid.
#include <algorithm>

#include "activity/kinds.h"
#include "interpose/hccl_api.h"
#include "interpose/hccl_reporter.h"
#include "interpose/wrapper.h"
#include "mspti/mspti_cbid.h"
#include "mspti/mspti_ext.h"
#include "reports/communication_tracker.h"

namespace {

using mspti::interpose::Intercept;
using mspti::interpose::NoRecord;
namespace hccl = mspti::interpose::hccl;

#define MSPTI_REAL_HCCL(fn) \
    ::mspti::seam::CannFunction<decltype(&::fn)> real_##fn { ::mspti::seam::CannLibrary::kHccl, #fn }

MSPTI_REAL_HCCL(HcclAllReduce);
MSPTI_REAL_HCCL(HcclBroadcast);
MSPTI_REAL_HCCL(HcclAllGather);
MSPTI_REAL_HCCL(HcclReduceScatter);
MSPTI_REAL_HCCL(HcclReduce);
MSPTI_REAL_HCCL(HcclAlltoAll);
MSPTI_REAL_HCCL(HcclAlltoAllV);
MSPTI_REAL_HCCL(HcclBarrier);
MSPTI_REAL_HCCL(HcclScatter);
MSPTI_REAL_HCCL(HcclSend);
MSPTI_REAL_HCCL(HcclRecv);
MSPTI_REAL_HCCL(HcclBatchSendRecv);

bool CommunicationKindOn() { return mspti::activity::Enabled(MSPTI_ACTIVITY_KIND_HCCL); }

uint64_t Bytes(uint64_t count, HcclDataType type) { return count * hccl::DataTypeSize(type); }

// Runs one HCCL operation: start marker, ENTER, the call, EXIT, end marker; then the check that CANN
// reported the operator inside the call (its COMMUNICATION record is owed otherwise).
template <typename Fn, typename Params, typename... Args>
HcclResult Run(const mspti::seam::CannFunction<Fn>& real, uint32_t cbid, const char* name, const Params& params,
               uint64_t bytes, HcclComm comm, aclrtStream stream, Args... args) noexcept {
    uint64_t marker = 0;
    try {
        if (CommunicationKindOn()) marker = hccl::BeginOp(name, comm, bytes, stream);
    } catch (...) {
        marker = 0;
    }
    const uint64_t operators = mspti::seam::communication::AccountedOps();
    const HcclResult result = Intercept<HcclResult>(real, HCCL_E_INTERNAL, MSPTI_CB_DOMAIN_HCCL, cbid, name, params,
                                                    false, NoRecord{}, args...);
    try {
        hccl::EndOp(marker, stream);
        mspti::seam::communication::EndCollectiveCall(operators, result == HCCL_SUCCESS);
    } catch (...) {}
    return result;
}

uint64_t SumCounts(const void* counts, uint32_t ranks) {
    if (counts == nullptr) return 0;
    const auto* values = static_cast<const uint64_t*>(counts);
    uint64_t sum = 0;
    for (uint32_t i = 0; i < ranks; ++i) sum += values[i];
    return sum;
}

}  // namespace

// The interposed definitions are the library's exported interface (CMake hides
// everything else by default).
#pragma GCC visibility push(default)
extern "C" {

HcclResult HcclAllReduce(void* sendBuf, void* recvBuf, uint64_t count, HcclDataType dataType, HcclReduceOp op,
                         HcclComm comm, aclrtStream stream) {
    const msptiHcclAllReduceParams params{sendBuf, recvBuf, count, dataType, op, comm, stream};
    return Run(real_HcclAllReduce, MSPTI_CBID_HCCL_ALLREDUCE, "HcclAllReduce", params, Bytes(count, dataType), comm,
               stream, sendBuf, recvBuf, count, dataType, op, comm, stream);
}

HcclResult HcclBroadcast(void* buf, uint64_t count, HcclDataType dataType, uint32_t root, HcclComm comm,
                         aclrtStream stream) {
    const msptiHcclBroadcastParams params{buf, count, dataType, root, comm, stream};
    return Run(real_HcclBroadcast, MSPTI_CBID_HCCL_BROADCAST, "HcclBroadcast", params, Bytes(count, dataType), comm,
               stream, buf, count, dataType, root, comm, stream);
}

HcclResult HcclAllGather(void* sendBuf, void* recvBuf, uint64_t sendCount, HcclDataType dataType, HcclComm comm,
                         aclrtStream stream) {
    const msptiHcclAllGatherParams params{sendBuf, recvBuf, sendCount, dataType, comm, stream};
    const uint64_t bytes = CommunicationKindOn() ? Bytes(sendCount, dataType) * hccl::RankSize(comm) : 0;
    return Run(real_HcclAllGather, MSPTI_CBID_HCCL_ALLGATHER, "HcclAllGather", params, bytes, comm, stream, sendBuf,
               recvBuf, sendCount, dataType, comm, stream);
}

HcclResult HcclReduceScatter(void* sendBuf, void* recvBuf, uint64_t recvCount, HcclDataType dataType, HcclReduceOp op,
                             HcclComm comm, aclrtStream stream) {
    const msptiHcclReduceScatterParams params{sendBuf, recvBuf, recvCount, dataType, op, comm, stream};
    const uint64_t bytes = CommunicationKindOn() ? Bytes(recvCount, dataType) * hccl::RankSize(comm) : 0;
    return Run(real_HcclReduceScatter, MSPTI_CBID_HCCL_REDUCE_SCATTER, "HcclReduceScatter", params, bytes, comm, stream,
               sendBuf, recvBuf, recvCount, dataType, op, comm, stream);
}

HcclResult HcclReduce(void* sendBuf, void* recvBuf, uint64_t count, HcclDataType dataType, HcclReduceOp op,
                      uint32_t root, HcclComm comm, aclrtStream stream) {
    const msptiHcclReduceParams params{sendBuf, recvBuf, count, dataType, op, root, comm, stream};
    return Run(real_HcclReduce, MSPTI_CBID_HCCL_REDUCE, "HcclReduce", params, Bytes(count, dataType), comm, stream,
               sendBuf, recvBuf, count, dataType, op, root, comm, stream);
}

HcclResult HcclAlltoAll(const void* sendBuf, uint64_t sendCount, HcclDataType sendType, const void* recvBuf,
                        uint64_t recvCount, HcclDataType recvType, HcclComm comm, aclrtStream stream) {
    const msptiHcclAlltoAllParams params{sendBuf, sendCount, sendType, recvBuf, recvCount, recvType, comm, stream};
    const uint64_t bytes = CommunicationKindOn() ? Bytes(sendCount, sendType) * hccl::RankSize(comm) : 0;
    return Run(real_HcclAlltoAll, MSPTI_CBID_HCCL_ALL_TO_ALL, "HcclAlltoAll", params, bytes, comm, stream, sendBuf,
               sendCount, sendType, recvBuf, recvCount, recvType, comm, stream);
}

HcclResult HcclAlltoAllV(const void* sendBuf, const void* sendCounts, const void* sdispls, HcclDataType sendType,
                         const void* recvBuf, const void* recvCounts, const void* rdispls, HcclDataType recvType,
                         HcclComm comm, aclrtStream stream) {
    const msptiHcclAlltoAllVParams params{sendBuf,    sendCounts, sdispls,  sendType, recvBuf,
                                          recvCounts, rdispls,    recvType, comm,     stream};
    uint64_t bytes = 0;
    if (CommunicationKindOn()) {
        const uint32_t ranks = hccl::RankSize(comm);
        bytes = std::max(SumCounts(sendCounts, ranks) * hccl::DataTypeSize(sendType),
                         SumCounts(recvCounts, ranks) * hccl::DataTypeSize(recvType));
    }
    return Run(real_HcclAlltoAllV, MSPTI_CBID_HCCL_ALL_TO_ALLV, "HcclAlltoAllV", params, bytes, comm, stream, sendBuf,
               sendCounts, sdispls, sendType, recvBuf, recvCounts, rdispls, recvType, comm, stream);
}

HcclResult HcclBarrier(HcclComm comm, aclrtStream stream) {
    const msptiHcclBarrierParams params{comm, stream};
    // A barrier moves no data: callbacks only, no HCCL record.
    return Intercept<HcclResult>(real_HcclBarrier, HCCL_E_INTERNAL, MSPTI_CB_DOMAIN_HCCL, MSPTI_CBID_HCCL_BARRIER,
                                 "HcclBarrier", params, false, NoRecord{}, comm, stream);
}

HcclResult HcclScatter(void* sendBuf, void* recvBuf, uint64_t recvCount, HcclDataType dataType, uint32_t root,
                       HcclComm comm, aclrtStream stream) {
    const msptiHcclScatterParams params{sendBuf, recvBuf, recvCount, dataType, root, comm, stream};
    const uint64_t bytes = CommunicationKindOn() ? Bytes(recvCount, dataType) * hccl::RankSize(comm) : 0;
    return Run(real_HcclScatter, MSPTI_CBID_HCCL_SCATTER, "HcclScatter", params, bytes, comm, stream, sendBuf, recvBuf,
               recvCount, dataType, root, comm, stream);
}

HcclResult HcclSend(void* sendBuf, uint64_t count, HcclDataType dataType, uint32_t destRank, HcclComm comm,
                    aclrtStream stream) {
    const msptiHcclSendParams params{sendBuf, count, dataType, destRank, comm, stream};
    return Run(real_HcclSend, MSPTI_CBID_HCCL_SEND, "HcclSend", params, Bytes(count, dataType), comm, stream, sendBuf,
               count, dataType, destRank, comm, stream);
}

HcclResult HcclRecv(void* recvBuf, uint64_t count, HcclDataType dataType, uint32_t srcRank, HcclComm comm,
                    aclrtStream stream) {
    const msptiHcclRecvParams params{recvBuf, count, dataType, srcRank, comm, stream};
    return Run(real_HcclRecv, MSPTI_CBID_HCCL_RECV, "HcclRecv", params, Bytes(count, dataType), comm, stream, recvBuf,
               count, dataType, srcRank, comm, stream);
}

HcclResult HcclBatchSendRecv(HcclSendRecvItem* sendRecvInfo, uint32_t itemNum, HcclComm comm, aclrtStream stream) {
    const msptiHcclBatchSendRecvParams params{sendRecvInfo, itemNum, comm, stream};
    uint64_t bytes = 0;
    if (CommunicationKindOn() && sendRecvInfo != nullptr) {
        for (uint32_t i = 0; i < itemNum; ++i) bytes += Bytes(sendRecvInfo[i].count, sendRecvInfo[i].dataType);
    }
    return Run(real_HcclBatchSendRecv, MSPTI_CBID_HCCL_SENDRECV, "HcclBatchSendRecv", params, bytes, comm, stream,
               sendRecvInfo, itemNum, comm, stream);
}

}  // extern "C"
#pragma GCC visibility pop
