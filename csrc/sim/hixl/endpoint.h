// Engine names: "ip" (connects out only) or "ip:port" (IPv4).
#pragma once

#include <cstdint>
#include <string>

namespace hixl {

struct Endpoint {
    std::string ip;
    bool has_port = false;
    uint16_t port = 0;

    // "ip:port", or "ip" without a port.
    std::string name() const;
};

// False when `text` is not an IPv4 address optionally followed by ":port" (0..65535).
bool parse_endpoint(const std::string& text, Endpoint& out);

}  // namespace hixl
