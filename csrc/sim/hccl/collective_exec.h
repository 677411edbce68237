// The collective executor libhccl registers with libhcomm: once every rank of a collective
// has arrived, it checks the ranks' descriptors against each other (any disagreement in
// operation, data type, count, reduction, root or V layout fails the operation with
// HCCL_E_PARA on every rank) and moves the data: every rank's output is computed from every
// rank's input, in rank order (so reductions are deterministic), in chunks so that a rank
// may use one buffer for input and output. Inputs that overlap another rank's output in any
// other way are copied first. A share of the movement (`share`, see exchange.h) writes: for
// all-reduce and reduce, its share of the elements (reduced over every input, written to
// every output); for reduce-scatter, the blocks j with j % parts == part; for the other
// operations, the outputs of the ranks r with r % parts == part. A rank marked `elsewhere`
// gets no output here (its own host computes it). Shares run concurrently
// only over buffers where no input overlaps an output (the peer-to-peer path's segments).
#pragma once

#include <vector>

#include "hcomm/exchange.h"

namespace hccl {

npusim::hcomm::CollectiveResult execute_collective(const std::vector<npusim::hcomm::CollectiveInput>& ranks,
                                                   bool move_data, npusim::hcomm::Share share);

}  // namespace hccl
