// What ranks exchange to run an operation together, independent of how they are
// connected (threads of one process share memory; other processes go over TCP).
//
// A collective: every rank hands in an opaque descriptor (libhccl's encoding of the
// call), the device time its stream could start the operation, and its input and output
// buffers. When all ranks of the communicator are in, the collective executor (registered
// by libhccl) checks the descriptors against each other and moves the data; every rank
// gets the same status, the agreed start (the latest of the ranks' earliest starts) and
// the executor's agreed value. A point-to-point item is matched with its peer's opposite
// item in posting order per (sender, receiver) pair.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "core/export.h"
#include "hccl/hccl_types.h"

namespace npusim::hcomm {

struct Segment {
    uint64_t offset = 0;
    uint64_t length = 0;
};

// The result of one rank's part of an exchange.
struct Outcome {
    HcclResult status = HCCL_SUCCESS;
    uint64_t start_ns = 0;  // agreed device start
    uint64_t agreed = 0;    // executor-defined value every rank receives
    std::vector<Segment> written;  // output segments the executor wrote (collectives); point to
                                   // point without data: {item index, 0} of the items that matched
    int32_t missing_rank = -1;     // HCCL_E_TIMEOUT: a rank that did not arrive or is gone
};

// Called once per rank when an exchange has succeeded, before the rank's part returns: on
// the thread that completed the exchange for ranks in the hosting process (so all of them
// are placed at once), on the rank's own (progress) thread for ranks of other processes. The
// operation places its device task here.
using AgreedFn = std::function<void(const Outcome&)>;

// One rank's part of a collective as the executor sees it. `in`/`out` are the rank's own
// buffers (same process) or staging copies (other processes); null when no data moves.
struct CollectiveInput {
    uint32_t rank = 0;
    const std::vector<uint8_t>* desc = nullptr;
    const uint8_t* in = nullptr;
    uint64_t in_len = 0;
    uint8_t* out = nullptr;
    uint64_t out_len = 0;
    // The rank's output is computed on its own host (the peer-to-peer path across hosts):
    // `out` is null and the executor writes nothing for it.
    bool elsewhere = false;
};

struct CollectiveResult {
    HcclResult status = HCCL_SUCCESS;
    uint64_t agreed = 0;
    std::vector<std::vector<Segment>> written;  // per rank; empty when nothing was written
};

// The part of a collective's data movement one caller does: `part` of `parts` equal shares
// (the hub path runs the whole, {0, 1}; on the peer-to-peer path rank r runs share r of n).
// Shares write disjoint output bytes and the written segments reported are the whole
// operation's, whatever the share. Across hosts the shares are those of the host's ranks and
// cover only the outputs of its ranks (the others are `elsewhere`).
struct Share {
    uint32_t part = 0;
    uint32_t parts = 1;
};

// Checks the ranks' descriptors and, when `move_data`, computes every rank's output (the
// share `share` of it). The group calls it twice per collective: first to check (move_data
// false; the ranks then agree and schedule their tasks), then to move the data.
using CollectiveExecutor = CollectiveResult (*)(const std::vector<CollectiveInput>& ranks, bool move_data, Share share);

// A point-to-point item of one rank.
struct P2PItem {
    uint32_t peer = 0;
    bool send = false;
    uint64_t count = 0;
    uint32_t dtype = 0;
    uint64_t bytes = 0;
    const uint8_t* src = nullptr;  // send items
    uint8_t* dst = nullptr;        // receive items
};

// libhccl registers the executor when it is loaded. A hub process that never loaded
// libhccl loads it on its first collective.
NPUSIM_API void set_collective_executor(CollectiveExecutor executor);
CollectiveExecutor collective_executor();

}  // namespace npusim::hcomm
