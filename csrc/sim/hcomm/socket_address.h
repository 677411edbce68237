// Socket addresses of either family (IPv4, IPv6), from text and back: what the rendezvous's
// sockets bind, connect to and print. A numeric IPv6 address is written "[addr]:port" next to a
// port, as URLs write it.
#pragma once

#include <sys/socket.h>

#include <cstdint>
#include <string>

namespace npusim::hcomm {

struct SocketAddress {
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
bool resolve_address(const std::string& host, uint16_t port, SocketAddress& out);

// The address that stands for every address of `host`'s family ("0.0.0.0" or "::").
std::string any_address_like(const std::string& host);

// "host:port" with the host in brackets when it is an IPv6 address.
std::string join_host_port(const std::string& host, uint16_t port);

}  // namespace npusim::hcomm
