// The hierarchical data movement of the peer-to-peer path (hcomm/data_step.h), the algorithm
// the timing model charges for a communicator over several hosts (algorithm_select.h):
// inside a host through the ranks' shared-memory segments, between hosts only what the other
// host needs. With h hosts of k ranks, P = the smallest host's rank count, the elements split
// into P parts, part j "owned" by the rank of index j on every host:
//
//   all-reduce      owner j reduces part j over its host's inputs (rank order); the owners of
//                   part j exchange these host partials (each host's crosses to every other
//                   host once: size x (h - 1) bytes leave each host); each owner reduces the h
//                   partials in host order; every rank gathers the parts into its output.
//   reduce          the same, the partials going only to the root's host; the root gathers.
//   broadcast       the owners of the root's host send part j of the root's input to owner j
//                   of every other host; every rank gathers the parts (size x (h - 1) in all).
//   all-gather      each input crosses to one rank of every other host (the rank whose index
//                   is its sender's modulo that host's rank count); every rank gathers every
//                   input from its host's segments.
//   reduce-scatter  for rank j of another host, the rank of index (j's index modulo k) reduces
//                   block j over its host's inputs and sends that partial to j: k_g blocks go
//                   to a host of k_g ranks; j reduces the h partials of its block in host order.
//
// Reduction order: within a host in rank order, then the hosts' partials in host order (hosts
// in order of their lowest rank). On one host that is rank order, the hub path's; across hosts
// it equals rank order exactly for integers, MAX/MIN and floating values whose sums are exact.
// Outputs are written straight into the caller's buffer (no copy through the segment). Other
// operations (the V forms, scatter, all-to-all) are left to the transport (every input whole).
#pragma once

#include <vector>

#include "hcomm/data_step.h"

namespace hccl {

bool run_data_step(npusim::hcomm::DataStep& step, const std::vector<uint8_t>& desc, npusim::hcomm::Outcome& outcome);

}  // namespace hccl
