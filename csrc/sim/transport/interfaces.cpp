#include "transport/interfaces.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>

#include <algorithm>

namespace npusim::transport {

namespace {

// 0: ordinary interfaces, 1: docker*, 2: lo* (CANN's default order).
int rank_of(const std::string& name) {
    if (name.rfind("lo", 0) == 0) return 2;
    return name.rfind("docker", 0) == 0 ? 1 : 0;
}

// The first interface of `family` (in the order given) that `admits` accepts.
template <typename Admits>
const Interface* first_of(const std::vector<Interface>& all, int family, Admits admits) {
    for (const auto& i : all) {
        if (i.family == family && admits(i.ifname)) return &i;
    }
    return nullptr;
}

// `family` first, then the other one.
template <typename Admits>
const Interface* first_admitted(const std::vector<Interface>& all, int family, Admits admits) {
    const Interface* found = first_of(all, family, admits);
    return found ? found : first_of(all, family == AF_INET ? AF_INET6 : AF_INET, admits);
}

}  // namespace

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
        out.push_back(Interface{ip, a->ifa_name, family});
    }
    ::freeifaddrs(list);
    return out;
}

void sort_default_order(std::vector<Interface>& all) {
    std::stable_sort(all.begin(), all.end(), [](const Interface& a, const Interface& b) {
        const int ra = rank_of(a.ifname), rb = rank_of(b.ifname);
        return ra != rb ? ra < rb : a.ifname < b.ifname;
    });
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

InterfaceChoice choose_interface(std::vector<Interface> all, int family, const std::string& address,
                                 const std::string& rule) {
    sort_default_order(all);
    InterfaceChoice choice;
    if (!address.empty()) {
        std::string ip = address, ifname = "ifip";
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
            choice.ip = canonical;
            choice.ifname = ifname;
            choice.selected = true;
            for (const auto& i : all) {
                if (i.ip == canonical) {
                    choice.ifname = i.ifname;
                    break;
                }
            }
            return choice;
        }
        choice.address_invalid = true;
    }
    if (!rule.empty()) {
        const auto admitted = [&rule](const std::string& name) { return ifname_admits(rule, name); };
        if (const Interface* i = first_admitted(all, family, admitted)) {
            choice.ip = i->ip;
            choice.ifname = i->ifname;
            choice.selected = true;
            return choice;
        }
        choice.rule_unmatched = true;
    }
    if (const Interface* i = first_admitted(all, family, [](const std::string&) { return true; })) {
        choice.ip = i->ip;
        choice.ifname = i->ifname;
        return choice;
    }
    choice.ip = "127.0.0.1";
    choice.ifname = "lo";
    return choice;
}

}  // namespace npusim::transport
