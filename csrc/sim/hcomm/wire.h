// The rendezvous protocol between a rank and the hub that hosts its communicator.
//
// Messages are framed as the simulator's one transport layer frames them (transport/frame.h):
// a 24-byte header {u32 magic "HSIM", u32 type, u64 request id, u64 body length}, then a
// length-prefixed "meta" block (the fixed fields, written with Writer) and the payload (buffer
// contents, streamed in chunks so gigabyte messages need no extra copy).
//
//   rank -> hub   JOIN {u64 uid, u32 nranks, u32 rank, u32 pid, u32 device, u64 key}
//   hub -> rank   ACCEPTED {}: at once, when uid (0: any) and key (a rank table's fingerprint, 0
//                 for a root info) are the hub's
//   hub -> rank   READY {i32 status, u64 uid}: at once when the join is refused (uid 0: another
//                 communicator's hub), else when every rank has joined
//   rank -> hub   COLLECTIVE {u64 seq, u64 earliest, u8 data, u64 in_len, u64 out_len,
//                             u32 desc_len, desc}  payload: in_len input bytes (when data)
//   rank -> hub   P2P {u64 earliest, u8 data, u32 n, n x {u32 peer, u8 send, u64 count,
//                      u32 dtype, u64 bytes}}      payload: the send items' bytes in order
//   rank -> hub   CANCEL (of the request with the same id)       BYE (the rank leaves)
//   hub -> rank   AGREED {i32 status, u64 start, u64 agreed}: the ranks agree (before the data
//                 moves), so the rank schedules its task at once; then
//   hub -> rank   REPLY {i32 status, u64 start, u64 agreed, u32 n, n x {u64 offset, u64 length},
//                        i32 missing rank (HCCL_E_TIMEOUT: the rank waited for, else -1)}
//                 payload: the bytes of each segment in order (collective: output segments;
//                 P2P: one segment per receive item, offset = item index)
#pragma once

#include <cstdint>

#include "socket_io.h"
#include "transport/frame.h"

namespace npusim::hcomm {

constexpr uint32_t kWireMagic = 0x4D495348;  // "HSIM"

enum class MsgType : uint32_t {
    Join = 1,
    Ready = 3,
    Collective = 4,
    P2P = 5,
    Cancel = 6,
    Reply = 7,
    Bye = 8,
    Agreed = 9,
    Accepted = 10,  // the hub took a Join for its communicator (Ready follows once all joined)
};

using Incoming = transport::Message<MsgType>;
using transport::Piece;
using transport::Reader;
using transport::Writer;
// One connection end: writes are serialised by a mutex (replies may come from any thread).
using Channel = transport::Channel<MsgType, kWireMagic>;

}  // namespace npusim::hcomm
