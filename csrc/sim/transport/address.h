// Socket addresses of either family (IPv4, IPv6), from text and back: what the simulator's sockets
// bind, connect to and print. A numeric IPv6 address is written "[addr]:port" next to a port, as
// URLs write it.
#pragma once

#include <sys/socket.h>

#include <cstdint>
#include <string>

#include "core/export.h"

namespace npusim::transport {

struct NPUSIM_API SocketAddress {
    sockaddr_storage storage{};
    socklen_t length = 0;

    int family() const { return storage.ss_family; }
    const sockaddr* get() const { return reinterpret_cast<const sockaddr*>(&storage); }
    sockaddr* get() { return reinterpret_cast<sockaddr*>(&storage); }
    uint16_t port() const;
    // The numeric address without the port.
    std::string ip() const;
    // "ip:port", "[ip]:port" for IPv6.
    std::string text() const;
    // 127/8 or ::1.
    bool loopback() const;
};

// A numeric IPv4 or IPv6 address (an IPv6 one may be bracketed), "localhost" or "" (127.0.0.1),
// else a name resolved by the system (IPv4 first). False when nothing resolves.
NPUSIM_API bool resolve_address(const std::string& host, uint16_t port, SocketAddress& out);

// The address that stands for every address of `host`'s family ("0.0.0.0" or "::").
NPUSIM_API std::string any_address_like(const std::string& host);

// "host:port" with the host in brackets when it is an IPv6 address.
NPUSIM_API std::string join_host_port(const std::string& host, uint16_t port);

// "host:port" -> parts (port 1..65535; the host as written, brackets kept); false when malformed.
NPUSIM_API bool split_host_port(const std::string& text, std::string& host, uint16_t& port);

// A numeric address with an optional port: "ip", "ip:port" (IPv4), "[ip6]", "[ip6]:port", port 0..65535.
struct NPUSIM_API Endpoint {
    std::string ip;  // numeric, without brackets
    bool has_port = false;
    uint16_t port = 0;

    // "ip:port" ("[ip6]:port"), or the address alone without a port.
    std::string name() const;
};

// False when `text` is not a numeric address optionally followed by ":port".
NPUSIM_API bool parse_endpoint(const std::string& text, Endpoint& out);

}  // namespace npusim::transport
