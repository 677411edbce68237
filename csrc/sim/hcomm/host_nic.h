// The host interface HCCL names communicators after, picked as CANN picks it
// (hicann/hccl docs/zh/user_guide/hccl_env/HCCL_IF_IP.md, HCCL_SOCKET_FAMILY.md; hcomm's
// FindLocalHostIP; the choice itself is the transport layer's, transport/interfaces.h):
//   HCCL_IF_IP (an IPv4 or IPv6 address, or "ip%ifname"; the interface holding it gives the name,
//     else the ifname given, else "ifip")
//   > HCCL_SOCKET_IFNAME (hicann/hccl docs/zh/user_guide/hccl_env/HCCL_SOCKET_IFNAME.md,
//     comma-separated: "eth,enp" prefixes to use, "=eth0,enp0" exact names to use,
//     "^eth,enp" prefixes to avoid, "^=eth0,enp0" exact names to avoid; the first interface
//     of the default order that the rule admits)
//   > interfaces other than docker*/lo*, in ascending name order > docker* > lo*.
// HCCL_SOCKET_FAMILY (AF_INET, the default, or AF_INET6) names the family searched first; when
// no interface of that family qualifies, the other family is searched the same way. So
// 127.0.0.1 is chosen only when lo is the host's only interface or the variables select it.
// Interfaces that are up count; IPv6 link-local addresses (fe80::/10, which need a scope to be
// reached) do not. A HCCL_SOCKET_IFNAME that admits no interface is ignored with a warning and
// the default order applies.
#pragma once

#include <string>

#include "transport/interfaces.h"

namespace npusim::hcomm {

struct HostNic {
    std::string ip;         // numeric address: dotted IPv4 or IPv6 text
    std::string ifname;     // interface name
    bool selected = false;  // chosen by HCCL_IF_IP / HCCL_SOCKET_IFNAME rather than the default order
};

// HCCL_SOCKET_FAMILY: AF_INET (also when unset) or AF_INET6; false for anything else (CANN
// then fails initialisation with HCCL_E_PARA).
bool socket_family(int& family);

// True when HCCL_SOCKET_IFNAME's rule `spec` admits the interface `name` (transport/interfaces.h).
using transport::ifname_admits;

// Chosen once per process; "127.0.0.1"/"lo" when the host has no usable interface.
const HostNic& host_nic();

// CANN's communicator identifier of a root-info communicator:
// "<ip>%<ifname>_<port>_<device>_<microseconds since the epoch>".
std::string comm_identifier(const HostNic& nic, unsigned port, unsigned device, unsigned long long micros);

}  // namespace npusim::hcomm
