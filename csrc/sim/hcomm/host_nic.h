// The host interface HCCL names communicators after, picked as CANN picks it
// (hicann/hccl docs/zh/user_guide/hccl_env/HCCL_IF_IP.md):
//   HCCL_IF_IP (an IPv4 address; the interface holding it gives the name, else "ifip")
//   > HCCL_SOCKET_IFNAME (comma-separated prefixes, or "=name,..." for exact names)
//   > interfaces other than docker*/lo, in ascending name order > docker* > lo.
// Only IPv4 interfaces that are up are considered. Exclusion lists ("^...") and
// HCCL_SOCKET_FAMILY are not modelled: such a value selects nothing and the
// default order applies, with a warning.
#pragma once

#include <string>

namespace npusim::hcomm {

struct HostNic {
    std::string ip;      // dotted IPv4
    std::string ifname;  // interface name
};

// Chosen once per process; "127.0.0.1"/"lo" when the host has no usable interface.
const HostNic& host_nic();

// CANN's communicator identifier of a root-info communicator:
// "<ip>%<ifname>_<port>_<device>_<microseconds since the epoch>".
std::string comm_identifier(const HostNic& nic, unsigned port, unsigned device, unsigned long long micros);

}  // namespace npusim::hcomm
