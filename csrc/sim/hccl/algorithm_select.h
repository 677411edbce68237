// Which algorithm HCCL would run for an operation on a communicator, and what it costs.
//
// The ranks form levels, innermost first, from the communicator's layout and the SoC's
// topology table:
//   mesh (A2 HCCS full mesh)        one intra-server level: MESH over the server's ranks
//   sio_mesh (A3, 16 dies/server)   when every package holds both its dies: SIO (the die pair)
//                                   then MESH over the packages (HCCS); otherwise MESH
//   ub (A3 SuperPoD, Ascend 950)    MESH inside the server (NHR on chip type 15, the only
//                                   algorithm 950 offers)
// and, when the ranks span servers, one inter-server level over the scale-out link (RoCE; timing.toml's
// scaleout_* coefficients of the topology, else the topology table's): the level-1 algorithm of
// HCCL_ALGO (or the communicator's hcclAlgo) when it names ring, H-D_R, NHR, NHR_V1, NB or pipeline;
// otherwise, on the A2 generation (a "mesh" topology), what HCCL's own rule picks (hcomm
// coll_alg_operator.cc, GetDefaultAlgoLevel1V2): the pipeline for an all-reduce whose block per rank
// (bytes / ranks) is at least 1 MiB, and for a reduce-scatter or all-gather whose block is at least
// 32 KiB (reductions of types and operations the copy engines reduce inline, several ranks per
// server), else the cheapest of ring, NHR and H-D_R under HCCL's planning figures (60 us a step,
// 20 GiB/s of RDMA per NPU) over one loop of the communication buffer, a tie keeping ring, then
// NHR; on other topologies the cheapest of H-D_R, ring and NHR under the model (ties in that order);
// NHR on chip type 15; pairwise exchange for all-to-all.
//
// The pipeline (two levels, a server's ranks below it): the data crosses the servers in S - 1 steps
// of one block per rank, each step's RDMA transfer overlapped with the next step's reduce-scatter
// (all-gather) inside the server over the n / S bytes bound for one server:
//   half = (S - 1) max(alpha_out + (n / P) beta_out, intra(n / S)) + intra(n / S)
// and an all-reduce is the reduce-scatter half plus the all-gather half (device-specs sec7).
//
// Hierarchical execution (device-specs sec7): all-reduce = reduce-scatter up the levels,
// all-reduce at the top, all-gather back down; reduce-scatter runs outermost level first,
// all-gather innermost first; broadcast = scatter up, broadcast at the top, all-gather
// down; reduce = reduce-scatter up, reduce at the top, gather down; scatter outermost
// first; all-to-all innermost first, each level moving the share of the data that crosses
// it. The algorithm name joins the level names: "MESH", "MESH-HD", "SIO-MESH", "NHR", ...
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/timing_model.h"
#include "cost_model.h"
#include "hcomm/communicator.h"
#include "op_desc.h"

namespace hccl {

struct Level {
    Algo algo = Algo::Mesh;
    uint32_t ranks = 1;
    LinkParams link;
    std::string name;
};

struct Plan {
    std::vector<Level> levels;  // innermost first; empty for a single rank
    double reduce_gbps = 0;
    double staging_bytes = 0, staging_chunk_ns = 0;  // larger messages move in chunks of the buffer
    std::string name;
};

// The primitive an operation kind is (barrier: an all-reduce of nothing).
Prim primitive_of(OpKind kind);
// The HCCL_ALGO operation key of an operation kind ("allreduce", ...).
const char* algo_key(OpKind kind);

Plan plan_collective(const OpDesc& desc, const npusim::hcomm::Communicator& comm, uint32_t chip_type, double bytes);
double plan_cost_ns(const Plan& plan, Prim prim, double bytes);
double plan_levels_ns(const Plan& plan, Prim prim, double bytes);  // without the staging term
// Extra time of a message larger than the staging buffer: one chunk_ns per chunk after the first.
double staging_ns(double bytes, double staging_bytes, double chunk_ns);
const npusim::HcclTiming* topology_timing(const npusim::Topology& topology);

// The link between two ranks (SIO inside a package, the server fabric, or scale-out).
LinkParams link_between(const npusim::hcomm::Communicator& comm, uint32_t a, uint32_t b);

// The level-1 algorithm an HCCL_ALGO string names for an operation key ("" when none).
std::string level1_override(const std::string& spec, const std::string& op_key);

}  // namespace hccl
