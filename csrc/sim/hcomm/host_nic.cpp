#include "host_nic.h"

#include <sys/socket.h>

#include <cstdlib>

#include "core/immortal.h"
#include "core/log.h"

namespace npusim::hcomm {

namespace {

HostNic choose() {
    int family = AF_INET;
    if (!socket_family(family)) {
        log_message(LogLevel::Warn, "HCCL_SOCKET_FAMILY='%s' is neither AF_INET nor AF_INET6; using AF_INET",
                    std::getenv("HCCL_SOCKET_FAMILY"));
    }
    const char* address = std::getenv("HCCL_IF_IP");
    const char* rule = std::getenv("HCCL_SOCKET_IFNAME");
    const transport::InterfaceChoice c =
        transport::choose_interface(transport::host_interfaces(), family, address ? address : "", rule ? rule : "");
    if (c.address_invalid) {
        log_message(LogLevel::Warn, "HCCL_IF_IP='%s' is not an IPv4 or IPv6 address; ignored", address);
    }
    if (c.rule_unmatched) {
        log_message(LogLevel::Warn, "HCCL_SOCKET_IFNAME='%s' admits no interface of this host; ignored", rule);
    }
    return HostNic{c.ip, c.ifname, c.selected};
}

}  // namespace

bool socket_family(int& family) {
    family = AF_INET;
    const char* text = std::getenv("HCCL_SOCKET_FAMILY");
    if (text == nullptr || *text == '\0' || std::string(text) == "AF_INET") return true;
    if (std::string(text) == "AF_INET6") {
        family = AF_INET6;
        return true;
    }
    return false;
}

const HostNic& host_nic() {
    static Immortal<const HostNic> nic(choose());
    return nic.get();
}

std::string comm_identifier(const HostNic& nic, unsigned port, unsigned device, unsigned long long micros) {
    return nic.ip + "%" + nic.ifname + "_" + std::to_string(port) + "_" + std::to_string(device) + "_" +
           std::to_string(micros);
}

}  // namespace npusim::hcomm
