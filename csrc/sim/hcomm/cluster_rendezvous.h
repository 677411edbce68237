// Where the ranks of a rank-table communicator (HcclCommInitClusterInfo) meet. A rank table
// names no rendezvous, so the simulator takes the first server's:
//
// * HCCL_SIM_MASTER=host:port set: rank 0's process listens on that address and hosts the
//   communicator; the other ranks connect to it (retrying until the connect timeout).
// * Otherwise the lowest rank of the table's first server hosts it, listening on that server's
//   address ("host_ip", else "server_id") at its "host_port", else at the ports of
//   HCCL_IF_BASE_PORT (host_ports.h: base + its device id first, then the rest of the 32); the
//   other ranks try those ports until one answers with this table. A table whose servers are
//   not this host's (a rank's own server address is not an address of this host, e.g. made-up
//   addresses for one machine) meets on 127.0.0.1 instead. Ranks tell tables apart by a
//   fingerprint of the file's text (and, on one machine, of its path), so two jobs at once
//   across hosts need distinct tables or ports, as with CANN.
//
// Ranks in the hosting process join it directly; the others go over TCP. Nothing is written
// to the file system.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "rank_table.h"
#include "socket_io.h"
#include "transport.h"

namespace npusim::hcomm {

HcclResult cluster_rendezvous(const RankTable& table, uint32_t rank, uint32_t device, Deadline deadline,
                              std::unique_ptr<Transport>& out, uint64_t& uid);

}  // namespace npusim::hcomm
