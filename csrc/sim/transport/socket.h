// TCP plumbing shared by the simulator's libraries (hcomm's rendezvous, hixl's engines): an owned
// descriptor, listen/accept, connect with a time limit, and whole-buffer reads and writes (in
// chunks) with deadlines. Failures are values (an invalid Fd, an IoStatus), never exceptions.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/export.h"

namespace npusim::transport {

using SteadyTime = std::chrono::steady_clock::time_point;

// A point in time to give up at; `never()` waits without limit.
struct NPUSIM_API Deadline {
    SteadyTime at = SteadyTime::max();
    static Deadline never() { return {}; }
    static Deadline after(std::chrono::nanoseconds d) { return {std::chrono::steady_clock::now() + d}; }
    static Deadline after_ms(int64_t ms) { return after(std::chrono::milliseconds(ms)); }
    bool passed() const { return std::chrono::steady_clock::now() >= at; }
    bool limited() const { return at != SteadyTime::max(); }
    int poll_ms() const;  // milliseconds left for poll(2), -1 for no limit
};

class NPUSIM_API Fd {
public:
    Fd() = default;
    explicit Fd(int fd) : fd_(fd) {}
    Fd(Fd&& other) noexcept : fd_(other.release()) {}
    Fd& operator=(Fd&& other) noexcept;
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    ~Fd() { reset(); }

    int get() const { return fd_; }
    bool valid() const { return fd_ >= 0; }
    int release() {
        const int fd = fd_;
        fd_ = -1;
        return fd;
    }
    void reset();
    // Wakes any thread blocked on the descriptor (accept/read) without closing it.
    void shutdown_both() const;

private:
    int fd_ = -1;
};

enum class IoStatus { Ok, Closed, Timeout, Error };

// Listens on host:port (port 0 picks a free one); returns an invalid Fd on failure, with the
// errno of the failing call in `*error_number` when given (EADDRINUSE: the port is taken,
// EADDRNOTAVAIL: `host` is not an address of this host).
NPUSIM_API Fd listen_tcp(const std::string& host, uint16_t port, uint16_t* bound_port, std::string* error,
                         int* error_number = nullptr);
// One connection attempt, given up after `attempt` (a host that does not answer); an invalid Fd
// when refused or unreachable, with `*why` (when given) Timeout when the attempt ran out, else
// Closed. A non-empty `source` binds the local end to that address first. The descriptor blocks.
NPUSIM_API Fd connect_tcp(const std::string& host, uint16_t port, const std::string& source = std::string(),
                          std::chrono::milliseconds attempt = std::chrono::milliseconds(1000), IoStatus* why = nullptr);
// "ip:port" of the other end of a connection ("?" when unknown).
NPUSIM_API std::string peer_address(const Fd& fd);
// True when `host` resolves to an address held by an interface of this host (any 127/8).
NPUSIM_API bool is_local_address(const std::string& host);
// Accepts one connection; an invalid Fd when the listener was shut down.
NPUSIM_API Fd accept_tcp(const Fd& listener);

// A limited deadline gives up with Timeout once it passes.
NPUSIM_API IoStatus write_all(const Fd& fd, const void* data, size_t length, Deadline deadline = Deadline::never());
NPUSIM_API IoStatus read_all(const Fd& fd, void* data, size_t length, Deadline deadline = Deadline::never());
// Reads and discards `length` bytes.
NPUSIM_API IoStatus skip_bytes(const Fd& fd, uint64_t length, Deadline deadline = Deadline::never());
// One non-blocking step of a stream moved in many steps (links served together by one poll):
// `moved` bytes went (0: the socket is not ready now); Closed when the peer closed its end (a
// receive at EOF, a send to a reset connection), Error for another failure.
NPUSIM_API IoStatus send_some(int fd, const void* data, size_t length, size_t& moved);
NPUSIM_API IoStatus recv_some(int fd, void* data, size_t length, size_t& moved);
// TCP_NODELAY, as every connection of the layer has it (for descriptors made elsewhere).
NPUSIM_API void set_no_delay(int fd);
// True when the descriptor has data (or EOF) before the deadline.
NPUSIM_API bool wait_readable(const Fd& fd, Deadline deadline);

}  // namespace npusim::transport
