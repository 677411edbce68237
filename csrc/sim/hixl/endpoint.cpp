#include "endpoint.h"

#include <arpa/inet.h>

#include <cstdlib>

namespace hixl {

std::string Endpoint::name() const { return has_port ? ip + ":" + std::to_string(port) : ip; }

bool parse_endpoint(const std::string& text, Endpoint& out) {
    const size_t colon = text.find(':');
    Endpoint ep;
    ep.ip = text.substr(0, colon);
    in_addr addr{};
    if (ep.ip.empty() || inet_pton(AF_INET, ep.ip.c_str(), &addr) != 1) return false;
    if (colon != std::string::npos) {
        const std::string port = text.substr(colon + 1);
        if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos) return false;
        const long value = std::strtol(port.c_str(), nullptr, 10);
        if (value > 65535) return false;
        ep.has_port = true;
        ep.port = static_cast<uint16_t>(value);
    }
    out = ep;
    return true;
}

}  // namespace hixl
