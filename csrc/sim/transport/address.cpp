#include "transport/address.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>

#include <cstdlib>
#include <cstring>

namespace npusim::transport {

namespace {

std::string unbracketed(const std::string& host) {
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']') return host.substr(1, host.size() - 2);
    return host;
}

// "0".."65535" in decimal digits only.
bool parse_port(const std::string& text, uint16_t& port) {
    if (text.empty() || text.size() > 5 || text.find_first_not_of("0123456789") != std::string::npos) return false;
    const long value = std::strtol(text.c_str(), nullptr, 10);
    if (value > 65535) return false;
    port = static_cast<uint16_t>(value);
    return true;
}

}  // namespace

uint16_t SocketAddress::port() const {
    if (family() == AF_INET6) return ntohs(reinterpret_cast<const sockaddr_in6*>(&storage)->sin6_port);
    return ntohs(reinterpret_cast<const sockaddr_in*>(&storage)->sin_port);
}

std::string SocketAddress::ip() const {
    char text[INET6_ADDRSTRLEN] = {};
    const void* raw = family() == AF_INET6
                          ? static_cast<const void*>(&reinterpret_cast<const sockaddr_in6*>(&storage)->sin6_addr)
                          : static_cast<const void*>(&reinterpret_cast<const sockaddr_in*>(&storage)->sin_addr);
    if (::inet_ntop(family(), raw, text, sizeof text) == nullptr) return "?";
    return text;
}

std::string SocketAddress::text() const { return join_host_port(ip(), port()); }

bool SocketAddress::loopback() const {
    if (family() == AF_INET6) return IN6_IS_ADDR_LOOPBACK(&reinterpret_cast<const sockaddr_in6*>(&storage)->sin6_addr);
    return (ntohl(reinterpret_cast<const sockaddr_in*>(&storage)->sin_addr.s_addr) >> 24) == 127;
}

bool resolve_address(const std::string& given, uint16_t port, SocketAddress& out) {
    out = SocketAddress{};
    const std::string host = unbracketed(given);
    auto* v4 = reinterpret_cast<sockaddr_in*>(&out.storage);
    auto* v6 = reinterpret_cast<sockaddr_in6*>(&out.storage);
    if (host.empty() || host == "localhost" || ::inet_pton(AF_INET, host.c_str(), &v4->sin_addr) == 1) {
        if (host.empty() || host == "localhost") v4->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        v4->sin_family = AF_INET;
        v4->sin_port = htons(port);
        out.length = sizeof(sockaddr_in);
        return true;
    }
    if (::inet_pton(AF_INET6, host.c_str(), &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(port);
        out.length = sizeof(sockaddr_in6);
        return true;
    }
    for (const int family : {AF_INET, AF_INET6}) {
        addrinfo hints{};
        hints.ai_family = family;
        hints.ai_socktype = SOCK_STREAM;
        addrinfo* found = nullptr;
        if (::getaddrinfo(host.c_str(), nullptr, &hints, &found) != 0 || found == nullptr) continue;
        std::memcpy(&out.storage, found->ai_addr, found->ai_addrlen);
        out.length = found->ai_addrlen;
        ::freeaddrinfo(found);
        if (family == AF_INET) {
            v4->sin_port = htons(port);
        } else {
            v6->sin6_port = htons(port);
        }
        return true;
    }
    return false;
}

std::string any_address_like(const std::string& host) {
    SocketAddress a;
    return resolve_address(host, 0, a) && a.family() == AF_INET6 ? "::" : "0.0.0.0";
}

std::string join_host_port(const std::string& host, uint16_t port) {
    const bool v6 = host.find(':') != std::string::npos && host.front() != '[';
    return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

bool split_host_port(const std::string& text, std::string& host, uint16_t& port) {
    const size_t colon = text.rfind(':');
    if (colon == std::string::npos || colon + 1 >= text.size()) return false;
    char* end = nullptr;
    const unsigned long p = std::strtoul(text.c_str() + colon + 1, &end, 10);
    if (*end != '\0' || p == 0 || p > 65535) return false;
    host = text.substr(0, colon);
    port = static_cast<uint16_t>(p);
    return true;
}

std::string Endpoint::name() const { return has_port ? join_host_port(ip, port) : ip; }

bool parse_endpoint(const std::string& text, Endpoint& out) {
    Endpoint ep;
    std::string rest;
    in6_addr raw{};
    if (!text.empty() && text.front() == '[') {
        const size_t close = text.find(']');
        if (close == std::string::npos) return false;
        ep.ip = text.substr(1, close - 1);
        if (::inet_pton(AF_INET6, ep.ip.c_str(), &raw) != 1) return false;
        rest = text.substr(close + 1);
        if (!rest.empty() && rest.front() != ':') return false;
    } else {
        const size_t colon = text.find(':');
        ep.ip = text.substr(0, colon);
        if (ep.ip.empty() || ::inet_pton(AF_INET, ep.ip.c_str(), &raw) != 1) return false;
        if (colon != std::string::npos) rest = text.substr(colon);
    }
    if (!rest.empty()) {
        if (!parse_port(rest.substr(1), ep.port)) return false;
        ep.has_port = true;
    }
    out = ep;
    return true;
}

}  // namespace npusim::transport
