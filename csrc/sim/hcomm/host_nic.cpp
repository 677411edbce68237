#include "host_nic.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "core/immortal.h"
#include "core/log.h"

namespace npusim::hcomm {

namespace {

std::vector<HostNic> ipv4_interfaces() {
    std::vector<HostNic> out;
    ifaddrs* list = nullptr;
    if (::getifaddrs(&list) != 0) return out;
    for (const ifaddrs* a = list; a != nullptr; a = a->ifa_next) {
        if (a->ifa_addr == nullptr || a->ifa_addr->sa_family != AF_INET || (a->ifa_flags & IFF_UP) == 0) continue;
        char ip[INET_ADDRSTRLEN] = {};
        const auto* sin = reinterpret_cast<const sockaddr_in*>(a->ifa_addr);
        if (::inet_ntop(AF_INET, &sin->sin_addr, ip, sizeof ip) == nullptr) continue;
        out.push_back(HostNic{ip, a->ifa_name});
    }
    ::freeifaddrs(list);
    return out;
}

// 0: ordinary interfaces, 1: docker*, 2: lo (CANN's default order).
int rank_of(const std::string& name) {
    if (name == "lo") return 2;
    return name.rfind("docker", 0) == 0 ? 1 : 0;
}

HostNic choose() {
    std::vector<HostNic> nics = ipv4_interfaces();
    std::stable_sort(nics.begin(), nics.end(), [](const HostNic& a, const HostNic& b) {
        const int ra = rank_of(a.ifname), rb = rank_of(b.ifname);
        return ra != rb ? ra < rb : a.ifname < b.ifname;
    });
    if (const char* family = std::getenv("HCCL_SOCKET_FAMILY"); family != nullptr && *family != '\0') {
        if (std::string(family) == "AF_INET6") {
            log_message(LogLevel::Warn, "HCCL_SOCKET_FAMILY=AF_INET6: the simulator speaks IPv4 only; using AF_INET");
        } else if (std::string(family) != "AF_INET") {
            log_message(LogLevel::Warn, "HCCL_SOCKET_FAMILY='%s' is neither AF_INET nor AF_INET6; using AF_INET",
                        family);
        }
    }
    if (const char* ip = std::getenv("HCCL_IF_IP"); ip != nullptr && *ip != '\0') {
        for (const auto& n : nics) {
            if (n.ip == ip) return HostNic{n.ip, n.ifname, true};
        }
        in_addr parsed{};
        if (::inet_pton(AF_INET, ip, &parsed) == 1) return HostNic{ip, "ifip", true};
        log_message(LogLevel::Warn, "HCCL_IF_IP='%s' is not an IPv4 address; ignored", ip);
    }
    if (const char* spec = std::getenv("HCCL_SOCKET_IFNAME"); spec != nullptr && *spec != '\0') {
        for (const auto& n : nics) {
            if (ifname_admits(spec, n.ifname)) return HostNic{n.ip, n.ifname, true};
        }
        log_message(LogLevel::Warn, "HCCL_SOCKET_IFNAME='%s' admits no IPv4 interface of this host; ignored", spec);
    }
    if (!nics.empty()) return nics.front();
    return HostNic{"127.0.0.1", "lo", false};
}

}  // namespace

bool ifname_admits(const std::string& spec, const std::string& name) {
    size_t pos = 0;
    const bool exclude = spec.compare(0, 1, "^") == 0;
    if (exclude) ++pos;
    const bool exact = spec.compare(pos, 1, "=") == 0;
    if (exact) ++pos;
    bool listed = false;
    while (pos <= spec.size() && !listed) {
        const size_t comma = std::min(spec.find(',', pos), spec.size());
        const std::string item = spec.substr(pos, comma - pos);
        listed = !item.empty() && (exact ? name == item : name.rfind(item, 0) == 0);
        pos = comma + 1;
    }
    return listed != exclude;
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
