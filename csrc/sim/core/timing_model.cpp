#include "core/timing_model.h"

#include <initializer_list>
#include <utility>
#include <vector>

#include "core/config.h"
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
        {"attention_vector_tile_ns", &SocTiming::attention_vector_tile_ns},
        {"vector_rate_fp16", &SocTiming::vector_rate_fp16},
        {"vector_rate_bf16", &SocTiming::vector_rate_bf16},
        {"vector_rate_fp32", &SocTiming::vector_rate_fp32},
        {"vector_rate_int8", &SocTiming::vector_rate_int8},
        {"hccl_api_ns", &SocTiming::hccl_api_ns},
        {"hixl_api_ns", &SocTiming::hixl_api_ns},
        {"acl_launch_ns", &SocTiming::acl_launch_ns},
        {"acl_memcpy_async_ns", &SocTiming::acl_memcpy_async_ns},
        {"acl_event_record_ns", &SocTiming::acl_event_record_ns},
        {"acl_sync_ns", &SocTiming::acl_sync_ns},
        {"aclnn_workspace_ns", &SocTiming::aclnn_workspace_ns},
        {"aclnn_run_ns", &SocTiming::aclnn_run_ns},
        {"hixl_alpha_ns", &SocTiming::hixl_alpha_ns},
        {"hixl_gbps", &SocTiming::hixl_gbps},
        {"hixl_read_gbps", &SocTiming::hixl_read_gbps},
        {"hixl_host_gbps", &SocTiming::hixl_host_gbps},
        {"hixl_read_alpha_ns", &SocTiming::hixl_read_alpha_ns},
        {"hixl_host_alpha_ns", &SocTiming::hixl_host_alpha_ns},
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
        {"scaleout_link_gbps", &HcclTiming::scaleout_link_gbps},
        {"scaleout_alpha_ns", &HcclTiming::scaleout_alpha_ns},
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

// Every key of `table` must be a field (or one of `extra`).
template <typename T>
bool only_known(const TomlTable& table, const Fields<T>& fields, std::initializer_list<const char*> extra,
                const std::string& where, std::string& error) {
    for (const auto& [key, value] : table.values) {
        bool known = false;
        for (const auto& field : fields) known = known || key == field.first;
        for (const char* e : extra) known = known || key == e;
        if (!known) {
            error = "[" + where + "] " + key + ": not a timing coefficient (docs/timing.md lists them)";
            return false;
        }
    }
    return true;
}

}  // namespace

bool TimingModel::overlay(const std::string& text, const TimingModel& base, TimingModel& out, std::string& error) {
    TomlDocument doc;
    if (!parse_toml(text, doc, error)) return false;
    for (const auto& [path, table] : doc.tables) {
        // Header parts are joined by \x1f (toml_document.h); only [soc.<name>], [family.<name>],
        // [hccl.<name>]. The document also lists each parent ("soc" of [soc.X]) as a table of its own.
        std::string shown = path;
        for (char& c : shown) c = c == '\x1f' ? '.' : c;
        const auto sep = path.find('\x1f');
        const std::string head = path.substr(0, sep);
        // A parent that only holds sub-tables is judged by them (so [kernel.x] is named whole).
        if (!path.empty() && sep == std::string::npos && table.values.empty() && !doc.children(path).empty()) continue;
        const bool known = sep != std::string::npos && path.find('\x1f', sep + 1) == std::string::npos &&
                           (head == "soc" || head == "family" || head == "hccl");
        if (path.empty() ? !table.values.empty() : !known) {
            error = path.empty() ? "top-level keys are not allowed; put coefficients in [soc.<name>], "
                                   "[family.<name>] or [hccl.<topology>] tables"
                                 : "[" + shown + "]: expected [soc.<name>], [family.<name>] or [hccl.<topology>]";
            return false;
        }
    }
    if (!doc.arrays.empty()) {
        error = "arrays of tables are not allowed in a timing profile";
        return false;
    }
    TimingModel result = base;
    for (const auto& [name, table] : doc.children("family")) {
        const std::string where = "family." + name;
        if (!only_known(*table, soc_fields(), {"source"}, where, error)) return false;
        bool any = false;
        for (auto& [soc, t] : result.socs_) {
            if (t.family != name) continue;
            any = true;
            if (!apply(*table, soc_fields(), t, where, error)) return false;
        }
        if (!any) {
            error = "[" + where + "]: no SoC of the catalogue is of that family";
            return false;
        }
    }
    for (const auto& [name, table] : doc.children("soc")) {
        const std::string where = "soc." + name;
        auto it = result.socs_.find(name);
        if (it == result.socs_.end()) {
            error = "[" + where + "]: unknown SoC";
            return false;
        }
        if (!only_known(*table, soc_fields(), {"source", "basis", "rows"}, where, error)) return false;
        if (!apply(*table, soc_fields(), it->second, where, error)) return false;
        it->second.basis = table->get_string("basis").value_or("site");
    }
    for (const auto& [name, table] : doc.children("hccl")) {
        const std::string where = "hccl." + name;
        auto it = result.hccl_.find(name);
        if (it == result.hccl_.end()) {
            error = "[" + where + "]: unknown topology";
            return false;
        }
        if (!only_known(*table, hccl_fields(), {"source"}, where, error)) return false;
        if (!apply(*table, hccl_fields(), it->second, where, error)) return false;
    }
    out = std::move(result);
    return true;
}

const TimingModel& TimingModel::active() {
    const SimConfig& config = sim_config();
    return config.timing ? *config.timing : builtin();
}

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
