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

struct Interface {
    HostNic nic;
    int family = AF_INET;
};

// Every address of an interface that is up, IPv4 and IPv6 (not IPv6 link-local), in the
// order the system lists them.
std::vector<Interface> host_interfaces() {
    std::vector<Interface> out;
    ifaddrs* list = nullptr;
    if (::getifaddrs(&list) != 0) return out;
    for (const ifaddrs* a = list; a != nullptr; a = a->ifa_next) {
        if (a->ifa_addr == nullptr || (a->ifa_flags & IFF_UP) == 0) continue;
        const int family = a->ifa_addr->sa_family;
        char ip[INET6_ADDRSTRLEN] = {};
        if (family == AF_INET) {
            const auto* sin = reinterpret_cast<const sockaddr_in*>(a->ifa_addr);
            if (::inet_ntop(AF_INET, &sin->sin_addr, ip, sizeof ip) == nullptr) continue;
        } else if (family == AF_INET6) {
            const auto* sin6 = reinterpret_cast<const sockaddr_in6*>(a->ifa_addr);
            if (IN6_IS_ADDR_LINKLOCAL(&sin6->sin6_addr)) continue;
            if (::inet_ntop(AF_INET6, &sin6->sin6_addr, ip, sizeof ip) == nullptr) continue;
        } else {
            continue;
        }
        out.push_back(Interface{HostNic{ip, a->ifa_name}, family});
    }
    ::freeifaddrs(list);
    return out;
}

// 0: ordinary interfaces, 1: docker*, 2: lo* (CANN's default order).
int rank_of(const std::string& name) {
    if (name.rfind("lo", 0) == 0) return 2;
    return name.rfind("docker", 0) == 0 ? 1 : 0;
}

// The first interface of `family` (in CANN's default order) that `admits` accepts.
template <typename Admits>
const Interface* first_of(const std::vector<Interface>& all, int family, Admits admits) {
    for (const auto& i : all) {
        if (i.family == family && admits(i.nic.ifname)) return &i;
    }
    return nullptr;
}

// `family` first, then the other one, as CANN searches.
template <typename Admits>
const Interface* first_admitted(const std::vector<Interface>& all, int family, Admits admits) {
    const Interface* found = first_of(all, family, admits);
    return found ? found : first_of(all, family == AF_INET ? AF_INET6 : AF_INET, admits);
}

HostNic choose() {
    std::vector<Interface> all = host_interfaces();
    std::stable_sort(all.begin(), all.end(), [](const Interface& a, const Interface& b) {
        const int ra = rank_of(a.nic.ifname), rb = rank_of(b.nic.ifname);
        return ra != rb ? ra < rb : a.nic.ifname < b.nic.ifname;
    });
    int family = AF_INET;
    if (!socket_family(family)) {
        log_message(LogLevel::Warn, "HCCL_SOCKET_FAMILY='%s' is neither AF_INET nor AF_INET6; using AF_INET",
                    std::getenv("HCCL_SOCKET_FAMILY"));
    }
    if (const char* given = std::getenv("HCCL_IF_IP"); given != nullptr && *given != '\0') {
        // "ip" or "ip%ifname" (CANN's readable form of an address).
        std::string ip = given, ifname = "ifip";
        if (const size_t pct = ip.find('%'); pct != std::string::npos) {
            if (pct + 1 < ip.size()) ifname = ip.substr(pct + 1);
            ip.resize(pct);
        }
        in6_addr parsed{};
        const bool v4 = ::inet_pton(AF_INET, ip.c_str(), &parsed) == 1;
        const bool v6 = !v4 && ::inet_pton(AF_INET6, ip.c_str(), &parsed) == 1;
        if (v4 || v6) {
            char canonical[INET6_ADDRSTRLEN] = {};
            ::inet_ntop(v4 ? AF_INET : AF_INET6, &parsed, canonical, sizeof canonical);
            for (const auto& i : all) {
                if (i.nic.ip == canonical) return HostNic{i.nic.ip, i.nic.ifname, true};
            }
            return HostNic{canonical, ifname, true};
        }
        log_message(LogLevel::Warn, "HCCL_IF_IP='%s' is not an IPv4 or IPv6 address; ignored", given);
    }
    if (const char* spec = std::getenv("HCCL_SOCKET_IFNAME"); spec != nullptr && *spec != '\0') {
        const std::string rule = spec;
        const auto admitted = [&rule](const std::string& name) { return ifname_admits(rule, name); };
        if (const Interface* i = first_admitted(all, family, admitted)) {
            return HostNic{i->nic.ip, i->nic.ifname, true};
        }
        log_message(LogLevel::Warn, "HCCL_SOCKET_IFNAME='%s' admits no interface of this host; ignored", spec);
    }
    if (const Interface* i = first_admitted(all, family, [](const std::string&) { return true; })) return i->nic;
    return HostNic{"127.0.0.1", "lo", false};
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
