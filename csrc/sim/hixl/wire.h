// The TCP protocol between engines of different processes, framed as the simulator's one
// transport layer frames messages (transport/frame.h: a 24-byte header {magic "HIXL", kind,
// request id, body length}, a meta block of fixed fields, then the payload).
//   Hello        meta: the client's engine name              -> HelloAck    meta: AckHead
//   Transfer     meta: TransferHead  payload: count x RangeDesc, WRITE: the data
//                                                             -> TransferAck meta: AckHead  payload: READ: the data
//   Bye          empty: the client closes the link
#pragma once

#include <cstdint>

#include "transport/frame.h"

namespace hixl::wire {

constexpr uint32_t kMagic = 0x4c584948U;  // "HIXL"
// A payload larger than this is refused as garbage (a transfer batch above 64 GiB).
constexpr uint64_t kMaxPayload = 64ULL << 30;

enum class Kind : uint32_t { Hello = 1, HelloAck = 2, Transfer = 3, TransferAck = 4, Bye = 5 };

struct TransferHead {
    uint32_t op = 0;
    uint32_t count = 0;
};

struct RangeDesc {
    uint64_t addr = 0;
    uint64_t len = 0;
};

struct AckHead {
    uint32_t status = 0;
    uint32_t reserved = 0;
};

using npusim::transport::Deadline;
using npusim::transport::Fd;
using npusim::transport::IoStatus;
using npusim::transport::Piece;
using npusim::transport::Writer;
using Channel = npusim::transport::Channel<Kind, kMagic>;
using Message = npusim::transport::Message<Kind>;

}  // namespace hixl::wire
