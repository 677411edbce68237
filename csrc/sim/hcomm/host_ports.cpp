#include "host_ports.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>

#include "core/log.h"
#include "socket_address.h"

namespace npusim::hcomm {

namespace {

bool parse_port(const std::string& text, unsigned long lo, unsigned long hi, unsigned long& out) {
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || text.size() > 5) return false;
    out = std::strtoul(text.c_str(), nullptr, 10);
    return out >= lo && out <= hi;
}

// "60000,60050-60100": each item a port or an inclusive range, ranges not overlapping.
bool parse_range_list(const std::string& text, std::vector<uint16_t>& out) {
    std::vector<std::pair<unsigned long, unsigned long>> ranges;
    size_t pos = 0;
    while (pos <= text.size()) {
        const size_t comma = std::min(text.find(',', pos), text.size());
        const std::string item = text.substr(pos, comma - pos);
        const size_t dash = item.find('-');
        unsigned long a = 0, b = 0;
        if (dash == std::string::npos) {
            if (!parse_port(item, 1, 65535, a)) return false;
            b = a;
        } else if (!parse_port(item.substr(0, dash), 1, 65535, a) || !parse_port(item.substr(dash + 1), 1, 65535, b) ||
                   b < a) {
            return false;
        }
        for (const auto& [x, y] : ranges) {
            if (a <= y && x <= b) return false;
        }
        ranges.emplace_back(a, b);
        pos = comma + 1;
    }
    for (const auto& [a, b] : ranges) {
        for (unsigned long p = a; p <= b; ++p) out.push_back(static_cast<uint16_t>(p));
    }
    return !out.empty();
}

}  // namespace

std::string PortPlan::describe() const {
    if (ports.empty() || ports == std::vector<uint16_t>{0}) return "a port the system picks";
    const auto [lo, hi] = std::minmax_element(ports.begin(), ports.end());
    return *lo == *hi ? std::to_string(*lo) : std::to_string(*lo) + ".." + std::to_string(*hi);
}

HcclResult host_port_plan(uint32_t device, PortPlan& out) {
    out = PortPlan{};
    if (const char* range = std::getenv("HCCL_HOST_SOCKET_PORT_RANGE"); range != nullptr && *range != '\0') {
        if (std::string(range) == "auto") {
            out.ports = {0};
            return HCCL_SUCCESS;
        }
        if (!parse_range_list(range, out.ports)) {
            log_message(LogLevel::Error,
                        "HCCL_HOST_SOCKET_PORT_RANGE='%s' is not \"auto\" or ports and ranges in [1, 65535], "
                        "e.g. \"60000,60050-60100\"",
                        range);
            return HCCL_E_PARA;
        }
        return HCCL_SUCCESS;
    }
    unsigned long base = kDefaultBasePort;
    if (const char* text = std::getenv("HCCL_IF_BASE_PORT"); text != nullptr && *text != '\0') {
        if (!parse_port(text, 1024, 65520, base)) {
            log_message(LogLevel::Error, "HCCL_IF_BASE_PORT='%s' is not an integer in [1024, 65520]", text);
            return HCCL_E_PARA;
        }
    } else {
        out.system_fallback = true;
    }
    const uint32_t first = device % kBasePortSpan;
    for (uint32_t i = 0; i < kBasePortSpan; ++i) {
        const unsigned long port = base + (first + i) % kBasePortSpan;
        if (port <= 65535) out.ports.push_back(static_cast<uint16_t>(port));  // a base above 65504 has fewer
    }
    return HCCL_SUCCESS;
}

std::shared_ptr<HubServer> start_hub(const std::string& host, const PortPlan& plan, uint64_t uid, uint64_t key) {
    const std::string any = any_address_like(host);
    std::string listen_host = host, error;
    std::vector<uint16_t> ports = plan.ports;
    if (plan.system_fallback) ports.push_back(0);
    size_t i = 0;
    while (i < ports.size()) {
        int error_number = 0;
        if (auto hub = HubServer::start(listen_host, ports[i], uid, key, &error, &error_number)) {
            if (ports[i] == 0 && plan.system_fallback) {
                log_message(LogLevel::Warn, "hccl: ports %s are taken; listening on port %u", plan.describe().c_str(),
                            unsigned(hub->port()));
            }
            return hub;
        }
        if (error_number == EADDRNOTAVAIL && listen_host != any) {
            log_message(LogLevel::Warn, "hccl: %s is not an address of this host; listening on all addresses",
                        host.c_str());
            listen_host = any;
            continue;  // the same port again
        }
        if (error_number != EADDRINUSE) break;
        ++i;
    }
    log_message(LogLevel::Error, "hccl: cannot listen on %s (ports %s, see HCCL_IF_BASE_PORT): %s", host.c_str(),
                plan.describe().c_str(), error.c_str());
    return nullptr;
}

}  // namespace npusim::hcomm
