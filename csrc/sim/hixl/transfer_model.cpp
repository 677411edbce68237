#include "transfer_model.h"

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
    }
    return m;
}

}  // namespace

const LinkModel& link_model() {
    static const LinkModel model = build_model();
    return model;
}

uint64_t transfer_duration_ns(uint64_t bytes, TransferOp op, bool local_host) {
    const LinkModel& m = link_model();
    const double rate = local_host ? m.host_bytes_per_ns : op == READ ? m.read_bytes_per_ns : m.bytes_per_ns;
    const uint64_t alpha = local_host ? m.host_alpha_ns : op == READ ? m.read_alpha_ns : m.alpha_ns;
    return alpha + static_cast<uint64_t>(std::ceil(static_cast<double>(bytes) / rate));
}

void charge_api_call() {
    const LinkModel& m = link_model();
    if (m.virtual_clock) npusim::Clock::instance().spend(m.host_api_ns);
}

}  // namespace hixl
