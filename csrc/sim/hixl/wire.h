// The loopback TCP protocol between engines of different processes.
//
// Every message is a 16-byte header {magic, kind, payload length} and a payload,
// in host byte order (both ends run on the same host).
//   Hello        payload: the client's engine name          -> HelloAck {u32 status}
//   Transfer     {u32 op, u32 count, count x {u64 remote_addr, u64 len}, WRITE: the data}
//                                                            -> TransferAck {u32 status, u32 0, READ: the data}
//   Bye          empty: the client closes the link
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace hixl::wire {

constexpr uint32_t kMagic = 0x4c584948U;  // "HIXL"
// A payload larger than this is refused as garbage (a transfer batch above 64 GiB).
constexpr uint64_t kMaxPayload = 64ULL << 30;

enum class Kind : uint32_t { Hello = 1, HelloAck = 2, Transfer = 3, TransferAck = 4, Bye = 5 };

struct Header {
    uint32_t magic = kMagic;
    uint32_t kind = 0;
    uint64_t length = 0;
};
static_assert(sizeof(Header) == 16, "wire header is 16 bytes");

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

using Clock = std::chrono::steady_clock;

// An absolute deadline; `none` waits forever.
struct Deadline {
    bool none = true;
    Clock::time_point at{};
    static Deadline after_ms(int64_t ms) { return Deadline{false, Clock::now() + std::chrono::milliseconds(ms)}; }
    static Deadline never() { return Deadline{}; }
};

enum class IoResult { Ok, Closed, Timeout };

IoResult send_all(int fd, const void* data, size_t len, Deadline deadline);
IoResult recv_all(int fd, void* data, size_t len, Deadline deadline);

IoResult send_header(int fd, Kind kind, uint64_t length, Deadline deadline);
// Reads a header; Closed also when the magic is wrong or the length exceeds kMaxPayload.
IoResult recv_header(int fd, Header& header, Deadline deadline);
// Reads and drops `len` payload bytes.
IoResult discard(int fd, uint64_t len, Deadline deadline);

// A TCP connection to ip:port within the deadline; -1 on failure (`timed_out` tells which).
int connect_tcp(const std::string& ip, uint16_t port, Deadline deadline, bool& timed_out);

}  // namespace hixl::wire
