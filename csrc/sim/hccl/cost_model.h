// Hockney alpha-beta-gamma costs of the communication primitives per algorithm, on one
// level of the topology (device-specs sec7). p ranks, n bytes (the full vector of the
// primitive: a rank's input of a reduce-scatter, output of an all-gather, buffer of an
// all-reduce or broadcast, a rank's total send volume of an all-to-all), alpha the cost of
// one step, beta = 1 / link bandwidth, gamma = 1 / reduction bandwidth (all from the
// topology table):
//
//   ring      RS (p-1)a + (p-1)/p n(b+g)     AG (p-1)a + (p-1)/p nb     BC (p-1)(a + nb)
//   H-D_R     p = 2^k:  RS k a + (p-1)/p n(b+g)     AG k a + (p-1)/p nb     BC ceil(log2 p)(a + nb)
//             other p (p' = 2^floor(log2 p), k = log2 p'): RS (k+1)a + ((p'-1)/p' + 1) n(b+g),
//             AG (k+1)a + ((p'-1)/p' + 1) nb  (their sum is the documented all-reduce cost)
//   NHR, NB   RS c a + (p-1)/p n(b+g)  AG c a + (p-1)/p nb  BC 2c a + 2(p-1)/p nb,  c = ceil(log2 p)
//   mesh      RS a + t + (p-1)/p n g    AG a + t    BC 2a + 2t,  where every rank sends its p-1
//             blocks at once: t = max((n/p) b_link, (p-1)/p n b_aggregate)
//   AR = RS + AG for every algorithm; scatter and gather cost as AG; reduce as RS + gather;
//   all-to-all: mesh a + t, the others pairwise (p-1)a + (p-1)/p nb.
#pragma once

#include <cstdint>

namespace hccl {

// Pipeline is HCCL's two-level algorithm between servers (algorithm_select.cpp prices it with the level
// below it); priced on one level alone it is a ring.
enum class Algo : uint8_t { Mesh, Ring, HalvingDoubling, Nhr, Pipeline };
enum class Prim : uint8_t { ReduceScatter, AllGather, AllReduce, Broadcast, Scatter, Gather, Reduce, AlltoAll };

// One level's link, from the topology table (bandwidths in GB/s = bytes per ns).
struct LinkParams {
    double alpha_ns = 0;
    double link_gbps = 0;
    double aggregate_gbps = 0;  // what a rank drives to all its peers at once (mesh)
};

double primitive_ns(Prim prim, Algo algo, uint32_t p, double bytes, const LinkParams& link, double reduce_gbps);

// One message between two ranks over one link: alpha + n beta.
double point_to_point_ns(double bytes, const LinkParams& link);

}  // namespace hccl
