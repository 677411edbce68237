#include "core/timing_model.h"

#include <utility>
#include <vector>

#include "core/log.h"
#include "core/toml_document.h"

namespace npusim {

namespace {

template <typename T>
using Fields = std::vector<std::pair<const char*, double T::*>>;

const Fields<SocTiming>& soc_fields() {
    static const Fields<SocTiming> fields{
        {"cube_rate_fp16", &SocTiming::cube_rate_fp16},
        {"cube_rate_bf16", &SocTiming::cube_rate_bf16},
        {"cube_rate_fp32", &SocTiming::cube_rate_fp32},
        {"cube_rate_hf32", &SocTiming::cube_rate_hf32},
        {"cube_rate_int8", &SocTiming::cube_rate_int8},
        {"cube_efficiency", &SocTiming::cube_efficiency},
        {"cube_floor_ns", &SocTiming::cube_floor_ns},
        {"cube_wave_ns", &SocTiming::cube_wave_ns},
        {"cube_tile_m", &SocTiming::cube_tile_m},
        {"cube_tile_n", &SocTiming::cube_tile_n},
        {"cube_l2_spill", &SocTiming::cube_l2_spill},
        {"attention_efficiency", &SocTiming::attention_efficiency},
        {"attention_floor_ns", &SocTiming::attention_floor_ns},
        {"attention_fill_tiles", &SocTiming::attention_fill_tiles},
        {"attention_kv_split", &SocTiming::attention_kv_split},
        {"vector_rate_fp16", &SocTiming::vector_rate_fp16},
        {"vector_rate_bf16", &SocTiming::vector_rate_bf16},
        {"vector_rate_fp32", &SocTiming::vector_rate_fp32},
        {"vector_rate_int8", &SocTiming::vector_rate_int8},
        {"hccl_api_ns", &SocTiming::hccl_api_ns},
        {"hixl_api_ns", &SocTiming::hixl_api_ns},
        {"hixl_alpha_ns", &SocTiming::hixl_alpha_ns},
        {"hixl_gbps", &SocTiming::hixl_gbps},
        {"hixl_read_gbps", &SocTiming::hixl_read_gbps},
        {"hixl_host_gbps", &SocTiming::hixl_host_gbps},
    };
    return fields;
}

const Fields<HcclTiming>& hccl_fields() {
    static const Fields<HcclTiming> fields{
        {"collective_link_gbps", &HcclTiming::collective_link_gbps},
        {"collective_aggregate_gbps", &HcclTiming::collective_aggregate_gbps},
        {"collective_alpha_ns", &HcclTiming::collective_alpha_ns},
        {"reduce_gbps", &HcclTiming::reduce_gbps},
        {"p2p_link_gbps", &HcclTiming::p2p_link_gbps},
        {"p2p_alpha_ns", &HcclTiming::p2p_alpha_ns},
        {"staging_bytes", &HcclTiming::staging_bytes},
        {"staging_chunk_ns", &HcclTiming::staging_chunk_ns},
    };
    return fields;
}

// Reads every known key the table has; a key of the wrong type or a negative value is an error.
template <typename T>
bool apply(const TomlTable& table, const Fields<T>& fields, T& out, const std::string& where, std::string& error) {
    for (const auto& [key, member] : fields) {
        if (!table.has(key)) continue;
        const auto v = table.get_number(key);
        if (!v || *v < 0) {
            error = "[" + where + "] " + key + ": expected a non-negative number";
            return false;
        }
        out.*member = *v;
    }
    return true;
}

}  // namespace

bool TimingModel::parse(const std::string& text, TimingModel& out, std::string& error) {
    TomlDocument doc;
    if (!parse_toml(text, doc, error)) return false;
    std::map<std::string, SocTiming> families;
    for (const auto& [name, table] : doc.children("family")) {
        SocTiming t;
        t.family = name;
        if (!apply(*table, soc_fields(), t, "family." + name, error)) return false;
        families[name] = t;
    }
    for (const auto& [name, table] : doc.children("soc")) {
        const auto family = table->get_string("family");
        auto it = family ? families.find(*family) : families.end();
        if (it == families.end()) {
            error = "[soc." + name + "]: family must name a [family.<name>] table";
            return false;
        }
        SocTiming t = it->second;
        t.basis = table->get_string("basis").value_or("family");
        if (!apply(*table, soc_fields(), t, "soc." + name, error)) return false;
        out.socs_[name] = t;
    }
    for (const auto& [name, table] : doc.children("hccl")) {
        HcclTiming h;
        if (!apply(*table, hccl_fields(), h, "hccl." + name, error)) return false;
        out.hccl_[name] = h;
    }
    return true;
}

const TimingModel& TimingModel::builtin() {
    static const TimingModel* model = [] {
        auto* m = new TimingModel();
        std::string error;
        if (!parse(embedded_timing_toml(), *m, error)) {
            log_message(LogLevel::Error, "timing.toml: %s; timing coefficients left neutral", error.c_str());
            *m = TimingModel();
        }
        return m;
    }();
    return *model;
}

const SocTiming& TimingModel::soc(const std::string& name) const {
    static const SocTiming neutral;
    auto it = socs_.find(name);
    return it == socs_.end() ? neutral : it->second;
}

const HcclTiming* TimingModel::hccl(const std::string& topology) const {
    auto it = hccl_.find(topology);
    return it == hccl_.end() ? nullptr : &it->second;
}

}  // namespace npusim
