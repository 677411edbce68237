// Where the ranks of a rank-table communicator (HcclCommInitClusterInfo) meet. A rank
// table names no rendezvous, so the simulator chooses one:
//
// * HCCL_SIM_MASTER=host:port set: rank 0's process listens on that address and hosts the
//   communicator; the other ranks connect to it (retrying until the connect timeout).
// * Otherwise the ranks meet through two files in /tmp keyed by a hash of the rank table's
//   real path: "hccl_sim_<hash>.lock" (flock'ed while the rendezvous is looked up or created)
//   and "hccl_sim_<hash>.addr" ("<host> <port> <uid> <pid>"). The first rank to take the lock
//   hosts the communicator and writes its address; later ranks connect to it. An address
//   whose host no longer answers is stale and replaced. The host removes the file once
//   every rank has joined.
//
// Ranks in the hosting process join it directly; the others go over TCP.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "socket_io.h"
#include "transport.h"

namespace npusim::hcomm {

HcclResult cluster_rendezvous(const std::string& rank_table_path, uint32_t nranks, uint32_t rank, uint32_t device,
                              Deadline deadline, std::unique_ptr<Transport>& out, uint64_t& uid);

}  // namespace npusim::hcomm
