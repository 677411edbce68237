#include "cost_model.h"

#include <algorithm>
#include <cmath>

namespace hccl {

namespace {

double per_byte(double gbps) { return gbps > 0 ? 1.0 / gbps : 0.0; }

uint32_t ceil_log2(uint32_t p) {
    uint32_t k = 0;
    while ((uint64_t(1) << k) < p) ++k;
    return k;
}

uint32_t floor_log2(uint32_t p) {
    uint32_t k = 0;
    while ((uint64_t(2) << k) <= p) ++k;
    return k;
}

struct Terms {
    double steps = 0;     // multiples of alpha
    double moved = 0;     // bytes over the link (times beta)
    double reduced = 0;   // bytes reduced (times gamma)
    double mesh_t = -1;   // mesh transfer time, when the algorithm is mesh
};

// Reduce-scatter and all-gather terms; an all-reduce is their sum.
Terms half(Prim prim, Algo algo, uint32_t p, double n, const LinkParams& link) {
    const bool reduce = prim == Prim::ReduceScatter;
    const double frac = double(p - 1) / double(p);
    Terms t;
    switch (algo) {
        case Algo::Ring:
        case Algo::Pipeline:
            t.steps = p - 1;
            t.moved = frac * n;
            break;
        case Algo::HalvingDoubling: {
            const uint32_t k = floor_log2(p);
            const uint32_t pp = 1u << k;
            if (pp == p) {
                t.steps = k;
                t.moved = frac * n;
            } else {
                t.steps = k + 1;
                t.moved = (double(pp - 1) / double(pp) + 1.0) * n;
            }
            break;
        }
        case Algo::Nhr:
            t.steps = ceil_log2(p);
            t.moved = frac * n;
            break;
        case Algo::Mesh:
            t.steps = 1;
            t.mesh_t = std::max(n / p * per_byte(link.link_gbps), frac * n * per_byte(link.aggregate_gbps));
            break;
    }
    if (reduce) t.reduced = algo == Algo::HalvingDoubling ? t.moved : frac * n;
    return t;
}

double cost(const Terms& t, const LinkParams& link, double gamma) {
    const double transfer = t.mesh_t >= 0 ? t.mesh_t : t.moved * per_byte(link.link_gbps);
    return t.steps * link.alpha_ns + transfer + t.reduced * gamma;
}

}  // namespace

double primitive_ns(Prim prim, Algo algo, uint32_t p, double n, const LinkParams& link, double reduce_gbps) {
    if (p <= 1) return 0;
    const double gamma = per_byte(reduce_gbps);
    const double beta = per_byte(link.link_gbps);
    const double frac = double(p - 1) / double(p);
    switch (prim) {
        case Prim::ReduceScatter: return cost(half(Prim::ReduceScatter, algo, p, n, link), link, gamma);
        case Prim::AllGather:
        case Prim::Scatter:
        case Prim::Gather: return cost(half(Prim::AllGather, algo, p, n, link), link, gamma);
        case Prim::AllReduce:
            return cost(half(Prim::ReduceScatter, algo, p, n, link), link, gamma) +
                   cost(half(Prim::AllGather, algo, p, n, link), link, gamma);
        case Prim::Reduce:
            return primitive_ns(Prim::ReduceScatter, algo, p, n, link, reduce_gbps) +
                   primitive_ns(Prim::Gather, algo, p, n, link, reduce_gbps);
        case Prim::Broadcast:
            switch (algo) {
                case Algo::Ring:
                case Algo::Pipeline: return (p - 1) * (link.alpha_ns + n * beta);
                case Algo::HalvingDoubling: return ceil_log2(p) * (link.alpha_ns + n * beta);
                case Algo::Nhr: return 2.0 * ceil_log2(p) * link.alpha_ns + 2.0 * frac * n * beta;
                case Algo::Mesh: return 2.0 * cost(half(Prim::AllGather, algo, p, n, link), link, gamma);
            }
            return 0;
        case Prim::AlltoAll:
            if (algo == Algo::Mesh) return cost(half(Prim::AllGather, algo, p, n, link), link, gamma);
            return (p - 1) * link.alpha_ns + frac * n * beta;
    }
    return 0;
}

double point_to_point_ns(double bytes, const LinkParams& link) {
    return link.alpha_ns + bytes * per_byte(link.link_gbps);
}

}  // namespace hccl
