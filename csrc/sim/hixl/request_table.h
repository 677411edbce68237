// The asynchronous requests of an engine, keyed by request handle, each with its
// transfer info (the profiling start time, the operation and the remote engine)
// and the time the transfer completes in the model.
//
// A request is released when a poll finds it finished; polling it again (like
// polling a handle that never existed) finds nothing.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

#include "hixl/hixl_types.h"

namespace hixl {

struct TransferInfo {
    uint64_t start_time = 0;  // MsprofSysCycleTime at submission; 0 when profiling was off
    TransferOp op_type = READ;
    AscendString remote_engine;
};

struct PendingTransfer {
    TransferInfo info;
    uint64_t complete_at = 0;  // simulator clock
    const void* user_data = nullptr;
};

// A request a poll found finished (and released).
struct FinishedTransfer {
    TransferReq req = nullptr;
    TransferStatus status = TransferStatus::COMPLETED;
    TransferInfo info;
};

class RequestTable {
public:
    TransferReq add(PendingTransfer transfer);

    enum class Poll { Unknown, Waiting, Finished };
    // One request at time `now`; a finished one is released and copied to `finished`.
    Poll poll(TransferReq req, uint64_t now, FinishedTransfer& finished);
    // Requests in submission order, at most `max_count` results; finished ones are released.
    void poll_all(uint32_t max_count, bool skip_waiting, uint64_t now, std::vector<TransferResult>& results,
                  std::vector<FinishedTransfer>& finished);
    void clear();

private:
    std::mutex mutex_;
    std::map<uint64_t, PendingTransfer> req_map_;
};

}  // namespace hixl
