// The path every HCCL operation takes once its arguments are checked. On the calling thread:
//   resolve the communicator and stream (NULL = the default stream of the communicator's
//   device); note the call's host start t0 and charge the SoC's host API cost; reserve the
//   task (id, submission time, jitter draw) and hold the stream (core/stream_queue.h); report
//   the operation (hccl_reporter.h); hand it to the rank's progress thread and return.
// On the progress thread, in call order: wait until everything issued to the stream before it
//   is placed; compute when the stream reaches the operation; exchange with the other ranks
//   (which agrees on the latest readiness and moves the data); place the task at agreement
//   (for ranks in one process: by the thread that completed the exchange, for all of them at
//   once), emit its device logs and release the stream, leaving the error of a failed
//   operation for the stream's next synchronisation and HcclGetCommAsyncError.
#pragma once

#include <cstdint>
#include <vector>

#include "acl/acl_base.h"
#include "hccl/hccl_types.h"
#include "hcomm/exchange.h"
#include "op_desc.h"

namespace hccl {

struct CollectiveCall {
    OpDesc desc;
    const void* in = nullptr;
    void* out = nullptr;
    const char* item_name = "";  // the node name CANN reports, e.g. "hcom_allReduce_"
    uint64_t report_count = 0;
    bool report = true;
};

HcclResult run_collective(HcclComm comm, aclrtStream stream, const CollectiveCall& call);

struct P2PCall {
    std::vector<npusim::hcomm::P2PItem> items;
    const char* item_name = "";
    uint64_t report_count = 0;
    uint32_t report_dtype = 0;
};

HcclResult run_p2p(HcclComm comm, aclrtStream stream, const P2PCall& call);

// Argument checks shared by the operations.
HcclResult check_buffer(const void* buf, uint64_t count, uint32_t dtype);  // E_PTR / E_PARA
bool fits(uint64_t count, uint32_t dtype, uint64_t factor);                 // count * size * factor < 2^63

// The communicator's rank count, or 0 when the handle is not a communicator.
uint32_t comm_size(HcclComm comm);
uint32_t comm_rank(HcclComm comm);

}  // namespace hccl
