#include "algorithm_select.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>

#include "core/timing_model.h"
#include "hccl/hccl_types.h"

namespace hccl {

using npusim::Topology;
using npusim::hcomm::Communicator;

namespace {

constexpr uint32_t kChipType950 = 15;

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::string trim(const std::string& s) {
    const size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
    return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    size_t start = 0;
    for (;;) {
        const size_t pos = s.find(sep, start);
        out.push_back(s.substr(start, pos - start));
        if (pos == std::string::npos) return out;
        start = pos + 1;
    }
}

const npusim::HcclTiming* timing_of(const Topology& t) { return npusim::TimingModel::active().hccl(t.name); }

// Collective steps inside a server (SDMA tasks between notify waits); timing.toml's collective path
// when it has one for the topology, else the topology's own link figures.
LinkParams intra_link(const Topology& t) {
    if (const npusim::HcclTiming* h = timing_of(t); h != nullptr && h->collective_link_gbps > 0)
        return {h->collective_alpha_ns, h->collective_link_gbps,
                std::max(h->collective_aggregate_gbps, h->collective_link_gbps)};
    return {t.alpha_ns, t.link_gbps, t.aggregate_gbps};
}

// A point-to-point message inside a server: one copy engine on one peer link.
LinkParams p2p_link(const Topology& t) {
    if (const npusim::HcclTiming* h = timing_of(t); h != nullptr && h->p2p_link_gbps > 0)
        return {h->p2p_alpha_ns, h->p2p_link_gbps, h->p2p_link_gbps};
    return {t.alpha_ns, t.link_gbps, t.aggregate_gbps};
}
LinkParams sio_link(const Topology& t) { return {t.sio_alpha_ns, t.sio_gbps, t.sio_gbps}; }
// Between servers: timing.toml's scale-out link of the topology when it has one, else the topology's.
LinkParams scaleout_link(const Topology& t) {
    if (const npusim::HcclTiming* h = timing_of(t); h != nullptr && h->scaleout_link_gbps > 0)
        return {h->scaleout_alpha_ns, h->scaleout_link_gbps, h->scaleout_link_gbps};
    return {t.scaleout_alpha_ns, t.scaleout_gbps, t.scaleout_gbps};
}

// HCCL's level-1 choice on the A2 generation (hcomm src/algorithm/impl/operator/coll_alg_operator.cc,
// GetDefaultAlgoLevel1V2, with HCCL's own planning figures from there and src/platform/common/
// device_capacity.cc). RDMA lite is taken as supported, which sets the all-reduce threshold [est].
constexpr double kPlanningStepNs = 60000;                  // LATENCY: 60 us of "static latency" a step
constexpr double kPlanningRdmaGbps = 25.0 * 0.8 * 1.073741824;  // BANDWIDTH_RDMA_910B (GiB/s), in bytes/ns
constexpr double kPipelineAllReduceBlock = 1 << 20;        // PIPELINE_ALLREDUCE_MIN_SIZE
constexpr double kPipelineGatherBlock = 32 << 10;          // PIPELINE_MIN_SIZE (reduce-scatter, all-gather)
constexpr uint64_t kFftsCapacity = 65535;                  // HCCL_FFTS_CAPACITY: contexts of one FFTS+ graph

// Types and operations the copy engines (SDMA and RDMA) reduce inline on A2 (device_capacity.cc).
bool inline_reducible(const OpDesc& d) {
    const bool type = d.dtype == HCCL_DATA_TYPE_INT8 || d.dtype == HCCL_DATA_TYPE_INT16 ||
                      d.dtype == HCCL_DATA_TYPE_INT32 || d.dtype == HCCL_DATA_TYPE_FP16 ||
                      d.dtype == HCCL_DATA_TYPE_FP32 || d.dtype == HCCL_DATA_TYPE_BFP16;
    const bool op = d.reduce_op == HCCL_REDUCE_SUM || d.reduce_op == HCCL_REDUCE_MAX || d.reduce_op == HCCL_REDUCE_MIN;
    return type && op;
}

// The FFTS+ contexts HCCL's pipeline needs (CalcContextNumForPipeline): per step 5 per intra-server peer,
// 7 for RDMA, 1 local copy; 4 for the closing barrier and 1 copy; twice that for an all-reduce.
uint64_t pipeline_contexts(Prim prim, uint32_t servers, uint32_t per_server) {
    const uint64_t per_step = 5ull * (per_server - 1) + 7 + 1;
    const uint64_t n = uint64_t(servers) * per_step + 4 + 1;
    return prim == Prim::AllReduce ? 2 * n : n;
}

bool hccl_picks_pipeline(const OpDesc& d, Prim prim, uint32_t servers, uint32_t per_server, double bytes) {
    const double block = bytes / (double(servers) * per_server);
    bool large = false;
    if (d.kind == OpKind::AllReduce) large = inline_reducible(d) && block >= kPipelineAllReduceBlock;
    else if (d.kind == OpKind::ReduceScatter) large = inline_reducible(d) && block >= kPipelineGatherBlock;
    else if (d.kind == OpKind::AllGather || d.kind == OpKind::AllGatherV) large = block >= kPipelineGatherBlock;
    return large && pipeline_contexts(prim, servers, per_server) <= kFftsCapacity;
}

Level level(Algo algo, uint32_t ranks, LinkParams link, std::string name) {
    Level l;
    l.algo = algo;
    l.ranks = ranks;
    l.link = link;
    l.name = std::move(name);
    return l;
}

// Ranks per server (the largest server) and whether every package holds two ranks.
void shape(const Communicator& comm, uint32_t& servers, uint32_t& per_server, bool& paired) {
    std::map<uint32_t, uint32_t> in_server;
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> in_package;
    const auto& l = comm.layout();
    for (uint32_t r = 0; r < comm.size(); ++r) {
        ++in_server[l.server[r]];
        ++in_package[{l.server[r], l.package[r]}];
    }
    servers = static_cast<uint32_t>(in_server.size());
    per_server = 0;
    for (const auto& [s, n] : in_server) per_server = std::max(per_server, n);
    paired = true;
    for (const auto& [k, n] : in_package) paired = paired && n == 2;
}

bool parse_algo(const std::string& name, Algo& algo, std::string& label) {
    const std::string n = lower(name);
    if (n == "ring") algo = Algo::Ring, label = "RING";
    else if (n == "h-d_r" || n == "hd") algo = Algo::HalvingDoubling, label = "HD";
    else if (n == "nhr" || n == "nhr_v1") algo = Algo::Nhr, label = "NHR";
    else if (n == "nb") algo = Algo::Nhr, label = "NB";  // same cost as NHR (device-specs sec7)
    else if (n == "pipeline") algo = Algo::Pipeline, label = "PIPELINE";
    else return false;
    return true;
}

}  // namespace

Prim primitive_of(OpKind kind) {
    switch (kind) {
        case OpKind::AllReduce:
        case OpKind::Barrier: return Prim::AllReduce;
        case OpKind::Broadcast: return Prim::Broadcast;
        case OpKind::AllGather:
        case OpKind::AllGatherV: return Prim::AllGather;
        case OpKind::ReduceScatter:
        case OpKind::ReduceScatterV: return Prim::ReduceScatter;
        case OpKind::Reduce: return Prim::Reduce;
        case OpKind::AlltoAll:
        case OpKind::AlltoAllV: return Prim::AlltoAll;
        case OpKind::Scatter: return Prim::Scatter;
    }
    return Prim::AllReduce;
}

const char* algo_key(OpKind kind) {
    switch (kind) {
        case OpKind::AllReduce: return "allreduce";
        case OpKind::Barrier: return "barrier";
        case OpKind::Broadcast: return "broadcast";
        case OpKind::AllGather:
        case OpKind::AllGatherV: return "allgather";
        case OpKind::ReduceScatter:
        case OpKind::ReduceScatterV: return "reducescatter";
        case OpKind::Reduce: return "reduce";
        case OpKind::AlltoAll:
        case OpKind::AlltoAllV: return "alltoall";
        case OpKind::Scatter: return "scatter";
    }
    return "";
}

std::string level1_override(const std::string& spec, const std::string& op_key) {
    std::string general, specific;
    for (const std::string& part : split(spec, '/')) {
        std::string levels = trim(part);
        std::string key;
        if (const size_t eq = levels.find('='); eq != std::string::npos) {
            key = lower(trim(levels.substr(0, eq)));
            levels = levels.substr(eq + 1);
        }
        for (const std::string& item : split(levels, ';')) {
            const size_t colon = item.find(':');
            if (colon == std::string::npos || lower(trim(item.substr(0, colon))) != "level1") continue;
            const std::string algo = trim(item.substr(colon + 1));
            if (key.empty()) general = algo;
            else if (key == op_key) specific = algo;
        }
    }
    return specific.empty() ? general : specific;
}

double staging_ns(double bytes, double staging_bytes, double chunk_ns) {
    if (staging_bytes <= 0 || bytes <= staging_bytes) return 0;
    return (std::ceil(bytes / staging_bytes) - 1.0) * chunk_ns;
}

double plan_cost_ns(const Plan& plan, Prim prim, double n) {
    const auto& lv = plan.levels;
    if (lv.empty()) return 0;
    return plan_levels_ns(plan, prim, n) + staging_ns(n, plan.staging_bytes, plan.staging_chunk_ns);
}

double plan_levels_ns(const Plan& plan, Prim prim, double n) {
    const auto& lv = plan.levels;
    const size_t k = lv.size() - 1;
    auto at = [&](size_t i, Prim p, double bytes) {
        return primitive_ns(p, lv[i].algo, lv[i].ranks, bytes, lv[i].link, plan.reduce_gbps);
    };
    const bool pipelined = lv.size() == 2 && lv[1].algo == Algo::Pipeline &&
                           (prim == Prim::AllReduce || prim == Prim::ReduceScatter || prim == Prim::AllGather);
    if (pipelined) {
        // S - 1 steps of one block per rank between servers, each overlapped with the next step inside the
        // server over the n / S bytes bound for one server (algorithm_select.h).
        const double servers = lv[1].ranks, ranks = servers * lv[0].ranks;
        auto half = [&](Prim p) {
            const double inside = at(0, p, n / servers);
            double between = lv[1].link.alpha_ns + n / ranks / lv[1].link.link_gbps;
            if (p == Prim::ReduceScatter && plan.reduce_gbps > 0) between += n / ranks / plan.reduce_gbps;
            return (servers - 1) * std::max(inside, between) + inside;
        };
        if (prim == Prim::AllReduce) return half(Prim::ReduceScatter) + half(Prim::AllGather);
        return half(prim);
    }
    std::vector<double> inner(lv.size() + 1, 1.0), outer(lv.size() + 1, 1.0);  // products of ranks below / above
    for (size_t i = 0; i < lv.size(); ++i) inner[i + 1] = inner[i] * lv[i].ranks;
    for (size_t i = lv.size(); i-- > 0;) outer[i] = outer[i + 1] * lv[i].ranks;
    const double total_ranks = inner[lv.size()];
    double t = 0;
    switch (prim) {
        case Prim::AllReduce:
        case Prim::Reduce:
        case Prim::Broadcast: {
            const Prim up = prim == Prim::Broadcast ? Prim::Scatter : Prim::ReduceScatter;
            const Prim down = prim == Prim::Reduce ? Prim::Gather : Prim::AllGather;
            for (size_t i = 0; i < k; ++i) t += at(i, up, n / inner[i]) + at(i, down, n / inner[i]);
            t += at(k, prim, n / inner[k]);
            break;
        }
        case Prim::ReduceScatter:
        case Prim::Scatter:
            for (size_t i = lv.size(); i-- > 0;) t += at(i, prim, n / outer[i + 1]);
            break;
        case Prim::AllGather:
        case Prim::Gather:
            for (size_t i = 0; i < lv.size(); ++i) t += at(i, prim, n / outer[i + 1]);
            break;
        case Prim::AlltoAll:
            for (size_t i = 0; i < lv.size(); ++i) t += at(i, prim, n * inner[i + 1] / total_ranks);
            break;
    }
    return t;
}

Plan plan_collective(const OpDesc& desc, const Communicator& comm, uint32_t chip_type, double bytes) {
    const Topology& topo = comm.topology();
    Plan plan;
    plan.reduce_gbps = topo.reduce_gbps;
    if (const npusim::HcclTiming* h = timing_of(topo)) {
        plan.reduce_gbps = h->reduce_gbps;
        plan.staging_bytes = h->staging_bytes;
        plan.staging_chunk_ns = h->staging_chunk_ns;
    }
    if (comm.size() <= 1) {
        plan.name = "LOCAL";
        return plan;
    }
    uint32_t servers = 1, per_server = 1;
    bool paired = false;
    shape(comm, servers, per_server, paired);
    const bool is_950 = chip_type == kChipType950;
    if (per_server > 1) {
        if (topo.kind == "sio_mesh" && paired && topo.sio_gbps > 0) {
            plan.levels.push_back(level(Algo::Mesh, 2, sio_link(topo), "SIO"));
            if (per_server > 2) plan.levels.push_back(level(Algo::Mesh, per_server / 2, intra_link(topo), "MESH"));
        } else if (is_950) {
            plan.levels.push_back(level(Algo::Nhr, per_server, intra_link(topo), "NHR"));
        } else {
            plan.levels.push_back(level(Algo::Mesh, per_server, intra_link(topo), "MESH"));
        }
    }
    if (servers > 1) {
        const Prim prim = primitive_of(desc.kind);
        Level inter = level(Algo::Nhr, servers, scaleout_link(topo), "NHR");
        Algo forced{};
        std::string label;
        const bool overridden = parse_algo(level1_override(comm.options().algo, algo_key(desc.kind)), forced, label);
        // The pipeline needs a server's ranks below it and moves blocks of a reduce-scatter or all-gather.
        const bool pipeline_fits = plan.levels.size() == 1 && per_server > 1 &&
                                   (prim == Prim::AllReduce || prim == Prim::ReduceScatter || prim == Prim::AllGather);
        if (prim == Prim::AlltoAll) {
            inter.algo = Algo::Ring;  // pairwise exchange: the ring formula of all-to-all
            inter.name = "PAIRWISE";
        } else if (is_950) {
            // NHR is the only inter-server algorithm of the 950 generation.
        } else if (overridden && (forced != Algo::Pipeline || pipeline_fits)) {
            inter.algo = forced;
            inter.name = label;
        } else if (topo.kind == "mesh" && pipeline_fits &&
                   hccl_picks_pipeline(desc, prim, servers, per_server, bytes)) {
            inter.algo = Algo::Pipeline;
            inter.name = "PIPELINE";
        } else if (topo.kind == "mesh") {
            // HCCL's comparison, with its planning figures rather than the link's, over one loop of the
            // communication buffer; a tie keeps ring, then NHR (H-D_R must be strictly cheaper).
            const LinkParams planning{kPlanningStepNs, kPlanningRdmaGbps, kPlanningRdmaGbps};
            const double loop = std::min(bytes, double(comm.options().buffer_mb) * 1024.0 * 1024.0);
            double best = -1;
            for (auto [algo, name] : {std::pair<Algo, const char*>{Algo::Ring, "RING"},
                                      {Algo::Nhr, "NHR"},
                                      {Algo::HalvingDoubling, "HD"}}) {
                Plan trial = plan;
                trial.levels.push_back(level(algo, servers, planning, name));
                const double c = plan_levels_ns(trial, prim, loop);
                if (best < 0 || c < best) {
                    best = c;
                    inter.algo = algo;
                    inter.name = name;
                }
            }
        } else {
            // Adaptive: the cheapest under the model, ties to H-D_R, then ring, then NHR.
            double best = -1;
            for (auto [algo, name] : {std::pair<Algo, const char*>{Algo::HalvingDoubling, "HD"},
                                      {Algo::Ring, "RING"},
                                      {Algo::Nhr, "NHR"}}) {
                Plan trial = plan;
                trial.levels.push_back(level(algo, servers, scaleout_link(topo), name));
                const double c = plan_cost_ns(trial, prim, bytes);
                if (best < 0 || c < best) {
                    best = c;
                    inter.algo = algo;
                    inter.name = name;
                }
            }
        }
        plan.levels.push_back(inter);
    }
    for (const Level& l : plan.levels) plan.name += (plan.name.empty() ? "" : "-") + l.name;
    return plan;
}

const npusim::HcclTiming* topology_timing(const Topology& topology) { return timing_of(topology); }

LinkParams link_between(const Communicator& comm, uint32_t a, uint32_t b) {
    const Topology& topo = comm.topology();
    const auto& l = comm.layout();
    if (l.server[a] != l.server[b]) return scaleout_link(topo);
    if (topo.kind == "sio_mesh" && l.package[a] == l.package[b] && topo.sio_gbps > 0) return sio_link(topo);
    return p2p_link(topo);
}

}  // namespace hccl
