#include "transfer_model.h"

#include <algorithm>
#include <cmath>

#include "core/catalogue.h"
#include "core/clock.h"
#include "core/config.h"
#include "core/timing_model.h"

namespace hixl {

namespace {

// Last resort when neither the topology nor the SoC names a link (GB/s).
constexpr double kFallbackGbps = 20.0;

LinkModel build_model() {
    LinkModel m;
    const npusim::SimConfig& config = npusim::sim_config();
    m.virtual_clock = config.clock == npusim::ClockMode::Virtual;
    double gbps = 0;
    if (const npusim::SocSpec* soc = config.soc) {
        m.host_api_ns = soc->host_api_ns;
        if (const npusim::Topology* topo = npusim::Catalogue::builtin().topology(soc->topology)) {
            gbps = topo->link_gbps;
            m.alpha_ns = static_cast<uint64_t>(std::llround(topo->alpha_ns));
        }
        // Calibrated HIXL figures (timing.toml) replace the topology's when the family has them.
        const npusim::SocTiming& t = npusim::TimingModel::active().soc(soc->name);
        if (t.hixl_api_ns > 0) m.host_api_ns = static_cast<uint64_t>(std::llround(t.hixl_api_ns));
        if (t.hixl_gbps > 0) {
            gbps = t.hixl_gbps;
            m.alpha_ns = static_cast<uint64_t>(std::llround(t.hixl_alpha_ns));
        } else if (!t.family.empty()) {
            gbps = 0;  // the family names no inter-chip rate: the host link
            m.alpha_ns = static_cast<uint64_t>(std::llround(t.hixl_alpha_ns));
        }
        if (gbps <= 0) gbps = soc->host_link_gbps;
    }
    m.bytes_per_ns = gbps > 0 ? gbps : kFallbackGbps;
    m.read_bytes_per_ns = m.bytes_per_ns;
    m.host_bytes_per_ns = m.bytes_per_ns;
    m.read_alpha_ns = m.alpha_ns;
    m.host_alpha_ns = m.alpha_ns;
    if (const npusim::SocSpec* soc = config.soc) {
        // Reads and host-memory transfers have their own calibrated rates and fixed costs where the
        // family names them.
        const npusim::SocTiming& t = npusim::TimingModel::active().soc(soc->name);
        if (t.hixl_read_gbps > 0) m.read_bytes_per_ns = t.hixl_read_gbps;
        if (t.hixl_host_gbps > 0) m.host_bytes_per_ns = t.hixl_host_gbps;
        if (t.hixl_read_alpha_ns > 0) m.read_alpha_ns = static_cast<uint64_t>(std::llround(t.hixl_read_alpha_ns));
        if (t.hixl_host_alpha_ns > 0) m.host_alpha_ns = static_cast<uint64_t>(std::llround(t.hixl_host_alpha_ns));
        // The communication domain: HCCL's per-call host cost and the SoC's task costs.
        m.hccl_call_ns = static_cast<uint64_t>(std::llround(t.hccl_api_ns));
        m.launch_latency_ns = soc->launch_latency_ns;
        m.task_gap_ns = soc->task_gap_ns;
        m.task_overhead_ns = soc->task_overhead_ns;
        m.sync_wake_ns = soc->sync_wake_ns;
        if (soc->host_link_gbps > 0) m.host_link_bytes_per_ns = soc->host_link_gbps;
    }
    return m;
}

uint64_t bytes_ns(uint64_t bytes, double rate) {
    return static_cast<uint64_t>(std::ceil(static_cast<double>(bytes) / rate));
}

uint64_t client_server_ns(const LinkModel& m, uint64_t bytes, TransferOp op, bool local_host) {
    const double rate = local_host ? m.host_bytes_per_ns : op == READ ? m.read_bytes_per_ns : m.bytes_per_ns;
    const uint64_t alpha = local_host ? m.host_alpha_ns : op == READ ? m.read_alpha_ns : m.alpha_ns;
    return alpha + bytes_ns(bytes, rate);
}

// From the call's start: each HCCL call spends its host cost before its copy tasks exist; they reach
// the device a launch latency later and run in order on the one stream; the host returns a sync wake-up
// after the last one ends.
uint64_t comm_domain_ns(const LinkModel& m, const std::vector<TransferOpDesc>& descs, TransferOp op, bool local_host) {
    const double rate = local_host ? m.host_link_bytes_per_ns : op == READ ? m.read_bytes_per_ns : m.bytes_per_ns;
    uint64_t host = 0;
    uint64_t device_free = 0;  // when the stream's previous task ended (0: none yet)
    for (size_t i = 0; i < descs.size(); ++i) {
        if (i % kCommDescsPerCall == 0) host += m.hccl_call_ns;
        const uint64_t ready = host + m.launch_latency_ns;
        const uint64_t start = std::max(ready, device_free == 0 ? 0 : device_free + m.task_gap_ns);
        device_free = start + m.task_overhead_ns + bytes_ns(descs[i].len, rate);
    }
    return std::max(device_free, host) + m.sync_wake_ns;
}

}  // namespace

const LinkModel& link_model() {
    static const LinkModel model = build_model();
    return model;
}

uint64_t transfer_duration_ns(TransferPath path, const std::vector<TransferOpDesc>& descs, TransferOp op,
                              bool local_host) {
    const LinkModel& m = link_model();
    if (path == TransferPath::CommDomain) return comm_domain_ns(m, descs, op, local_host);
    uint64_t bytes = 0;
    for (const TransferOpDesc& d : descs) bytes += d.len;
    return client_server_ns(m, bytes, op, local_host);
}

void charge_api_call() {
    const LinkModel& m = link_model();
    if (m.virtual_clock) npusim::Clock::instance().spend(m.host_api_ns);
}

}  // namespace hixl
