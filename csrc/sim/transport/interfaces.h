// The host's network interfaces and the choice of one, in CANN's default order and by HCCL's rules
// (hcomm/host_nic.h reads the variables and names the sources):
//   an address given (HCCL_IF_IP: "ip" or "ip%ifname")
//   > an interface-name rule (HCCL_SOCKET_IFNAME, comma-separated: "eth,enp" prefixes to use,
//     "=eth0,enp0" exact names to use, "^eth,enp" prefixes to avoid, "^=eth0,enp0" exact names to
//     avoid; the first interface of the default order that the rule admits)
//   > interfaces other than docker*/lo*, in ascending name order > docker* > lo*.
// The preferred family is searched first; when no interface of it qualifies, the other family is
// searched the same way. Interfaces that are up count; IPv6 link-local addresses (fe80::/10,
// which need a scope to be reached) do not.
#pragma once

#include <sys/socket.h>

#include <string>
#include <vector>

#include "core/export.h"

namespace npusim::transport {

struct Interface {
    std::string ip;      // numeric address: dotted IPv4 or IPv6 text
    std::string ifname;  // interface name
    int family = AF_INET;
};

// Every usable address of this host's interfaces, in the order the system lists them.
NPUSIM_API std::vector<Interface> host_interfaces();

// Sorts into CANN's default order: ordinary interfaces by name, then docker*, then lo*.
NPUSIM_API void sort_default_order(std::vector<Interface>& all);

// True when an interface-name rule `spec` admits the interface `name`.
NPUSIM_API bool ifname_admits(const std::string& spec, const std::string& name);

struct InterfaceChoice {
    std::string ip;
    std::string ifname;
    bool selected = false;         // chosen by the given address or name rule, not the default order
    bool address_invalid = false;  // the given address is not a numeric IPv4/IPv6 address (ignored)
    bool rule_unmatched = false;   // the name rule admits no interface (ignored)
};

// Chooses among `all` (in any order): `address` (may be empty) > `rule` (may be empty) > the
// default order, `family` (AF_INET or AF_INET6) first. "127.0.0.1"/"lo" when nothing qualifies.
// An address that no interface holds is still chosen, named after the "%ifname" given, else "ifip".
NPUSIM_API InterfaceChoice choose_interface(std::vector<Interface> all, int family, const std::string& address,
                                            const std::string& rule);

}  // namespace npusim::transport
