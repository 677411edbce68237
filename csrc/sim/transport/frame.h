// The one message framing of the simulator's TCP protocols (hcomm's rendezvous, hixl's engines).
//
// A message is a 24-byte header {u32 magic, u32 type, u64 request id, u64 body length}, then the
// body: a length-prefixed "meta" block (u32 length + bytes: the fixed fields, written with Writer)
// followed by the payload (streamed in pieces, so gigabyte messages need no extra copy). Fields are
// in host byte order (both ends run the same build, on hosts of one architecture). Each protocol
// has its own magic, so a peer of another protocol is refused at the first header.
#pragma once

#include <cstdint>
#include <cstring>
#include <mutex>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/export.h"
#include "transport/socket.h"

namespace npusim::transport {

struct FrameHeader {
    uint32_t magic = 0;
    uint32_t type = 0;
    uint64_t request = 0;
    uint64_t body = 0;  // meta length field + meta + payload
};
static_assert(sizeof(FrameHeader) == 24, "the frame header is 24 bytes");

// A meta block larger than this is refused as garbage (a sanity bound on the fixed fields).
constexpr uint32_t kMaxMeta = 64u << 20;

// The header and the meta length field, as they go on the wire before the meta bytes.
struct FramePrefix {
    FrameHeader header;
    uint32_t meta_length = 0;
};
constexpr size_t kFramePrefixBytes = sizeof(FrameHeader) + sizeof(uint32_t);

NPUSIM_API FramePrefix make_prefix(uint32_t magic, uint32_t type, uint64_t request, uint32_t meta_length,
                                   uint64_t payload);
NPUSIM_API void encode_prefix(const FramePrefix& prefix, uint8_t (&out)[kFramePrefixBytes]);
// False for a header of another protocol (`magic`) or a body shorter than its meta length field.
NPUSIM_API bool header_valid(const FrameHeader& header, uint32_t magic);
// False for a meta block above kMaxMeta or longer than the header's body.
NPUSIM_API bool meta_length_valid(const FrameHeader& header, uint32_t meta_length);
// False when the bytes are not a prefix of `magic`'s protocol: another magic, a body shorter than
// its meta length field, or a meta block above kMaxMeta or longer than the body.
NPUSIM_API bool decode_prefix(const uint8_t (&in)[kFramePrefixBytes], uint32_t magic, FramePrefix& out);
// The payload bytes that follow the meta block.
inline uint64_t payload_bytes(const FramePrefix& p) { return p.header.body - sizeof(uint32_t) - p.meta_length; }

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

// Reads fixed fields in order; a read past the end yields zero values and clears ok().
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

// A received message: its header's fields and meta block; the payload stays on the socket.
template <typename Type>
struct Message {
    Type type{};
    uint64_t request = 0;
    std::vector<uint8_t> meta;
    uint64_t payload = 0;  // bytes that follow the meta block on the socket
};

// Marks a link over a descriptor owned elsewhere (an Acceptor's connection), which outlives the link.
struct Borrowed {};

// One connection end of a protocol: writes are serialised by a mutex (replies may come from any thread).
class NPUSIM_API FramedLink {
public:
    FramedLink(Fd fd, uint32_t magic) : own_(std::move(fd)), fd_(&own_), magic_(magic) {}
    FramedLink(Borrowed, const Fd& fd, uint32_t magic) : fd_(&fd), magic_(magic) {}
    FramedLink(const FramedLink&) = delete;
    FramedLink& operator=(const FramedLink&) = delete;
    const Fd& fd() const { return *fd_; }

    IoStatus send(uint32_t type, uint64_t request, const Writer& meta, const std::vector<Piece>& payload,
                  Deadline deadline);
    // Reads the header and the meta block; Error for a header of another protocol.
    IoStatus receive(Message<uint32_t>& out, Deadline deadline);
    void shutdown() const { fd_->shutdown_both(); }

private:
    Fd own_;
    const Fd* fd_;
    const uint32_t magic_;
    std::mutex write_mutex_;
};

// A FramedLink whose message types are the protocol's enum.
template <typename Type, uint32_t Magic>
class Channel {
public:
    explicit Channel(Fd fd) : link_(std::move(fd), Magic) {}
    Channel(Borrowed b, const Fd& fd) : link_(b, fd, Magic) {}
    const Fd& fd() const { return link_.fd(); }

    IoStatus send(Type type, uint64_t request, const Writer& meta, const std::vector<Piece>& payload = {},
                  Deadline deadline = Deadline::never()) {
        return link_.send(static_cast<uint32_t>(type), request, meta, payload, deadline);
    }
    IoStatus receive(Message<Type>& out, Deadline deadline = Deadline::never()) {
        Message<uint32_t> raw;
        const IoStatus st = link_.receive(raw, deadline);
        out.type = static_cast<Type>(raw.type);
        out.request = raw.request;
        out.meta = std::move(raw.meta);
        out.payload = raw.payload;
        return st;
    }
    void shutdown() const { link_.shutdown(); }

private:
    FramedLink link_;
};

}  // namespace npusim::transport
