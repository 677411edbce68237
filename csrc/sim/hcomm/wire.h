// The rendezvous protocol between a rank and the hub that hosts its communicator.
//
// A message is a 24-byte header {u32 magic, u32 type, u64 request id, u64 body length},
// then the body: a length-prefixed "meta" block (u32 length + bytes: the fixed fields,
// little-endian, written with Writer) followed by the payload (buffer contents, streamed
// in chunks so gigabyte messages need no extra copy).
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
#include <cstring>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "socket_io.h"

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

struct Incoming {
    MsgType type{};
    uint64_t request = 0;
    std::vector<uint8_t> meta;
    uint64_t payload = 0;  // bytes that follow the meta block on the socket
};

class Writer {
public:
    template <typename T>
    Writer& put(T value) {
        static_assert(std::is_trivially_copyable<T>::value, "plain values only");
        return raw(&value, sizeof(T));
    }
    Writer& raw(const void* data, size_t length) {
        // resize + memcpy rather than a range insert: GCC 12 at -O3 misreads the latter as an overflow.
        if (length == 0) return *this;
        const size_t at = bytes_.size();
        bytes_.resize(at + length);
        std::memcpy(bytes_.data() + at, data, length);
        return *this;
    }
    const std::vector<uint8_t>& bytes() const { return bytes_; }

private:
    std::vector<uint8_t> bytes_;
};

class Reader {
public:
    explicit Reader(const std::vector<uint8_t>& bytes) : p_(bytes.data()), left_(bytes.size()) {}
    template <typename T>
    T get() {
        T value{};
        if (left_ < sizeof(T)) {
            ok_ = false;
            return value;
        }
        std::memcpy(&value, p_, sizeof(T));
        p_ += sizeof(T);
        left_ -= sizeof(T);
        return value;
    }
    std::vector<uint8_t> take(size_t length) {
        if (left_ < length) {
            ok_ = false;
            return {};
        }
        std::vector<uint8_t> out(p_, p_ + length);
        p_ += length;
        left_ -= length;
        return out;
    }
    bool ok() const { return ok_; }

private:
    const uint8_t* p_;
    size_t left_;
    bool ok_ = true;
};

// A piece of payload to stream after the meta block.
using Piece = std::pair<const void*, uint64_t>;

// One connection end: writes are serialised by a mutex (replies may come from any thread).
class Channel {
public:
    explicit Channel(Fd fd) : fd_(std::move(fd)) {}
    const Fd& fd() const { return fd_; }

    IoStatus send(MsgType type, uint64_t request, const Writer& meta, const std::vector<Piece>& payload = {});
    // Reads the header and the meta block; the payload stays on the socket.
    IoStatus receive(Incoming& out, Deadline deadline = Deadline::never());
    void shutdown() const { fd_.shutdown_both(); }

private:
    Fd fd_;
    std::mutex write_mutex_;
};

}  // namespace npusim::hcomm
