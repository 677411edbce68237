#include "core/catalogue.h"

#include <fnmatch.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "core/immortal.h"
#include "core/toml_document.h"

namespace npusim {

namespace {

// Reads typed fields out of one table and remembers the first problem.
class FieldReader {
public:
    FieldReader(const TomlTable& table, std::string where) : table_(table), where_(std::move(where)) {}

    template <typename T>
    void integer(const char* key, T& out) {
        auto v = table_.get_int(key);
        if (!v) return missing(key, "an integer");
        if (*v < 0) return bad(key, "must not be negative");
        out = static_cast<T>(*v);
    }
    void number(const char* key, double& out) {
        auto v = table_.get_number(key);
        if (!v) return missing(key, "a number");
        if (*v < 0) return bad(key, "must not be negative");
        out = *v;
    }
    void string(const char* key, std::string& out) {
        auto v = table_.get_string(key);
        if (!v) return missing(key, "a string");
        out = *v;
    }
    bool ok() const { return error_.empty(); }
    const std::string& error() const { return error_; }

private:
    void missing(const char* key, const char* type) {
        if (error_.empty()) error_ = where_ + ": key '" + key + "' must be " + type;
    }
    void bad(const char* key, const char* what) {
        if (error_.empty()) error_ = where_ + ": key '" + key + "' " + what;
    }
    const TomlTable& table_;
    std::string where_;
    std::string error_;
};

bool parse_core(const std::string& name, CoreType& out) {
    static const std::pair<const char*, CoreType> kNames[] = {
        {"inherit", CoreType::Inherit}, {"AIC", CoreType::AIC},     {"AIV", CoreType::AIV},
        {"MIX", CoreType::MIX},         {"AICPU", CoreType::AICPU},
    };
    for (const auto& [text, type] : kNames) {
        if (name == text) {
            out = type;
            return true;
        }
    }
    return false;
}

}  // namespace

const char* core_type_name(CoreType type) {
    switch (type) {
        case CoreType::AIC: return "AIC";
        case CoreType::AIV: return "AIV";
        case CoreType::MIX: return "MIX";
        case CoreType::AICPU: return "AICPU";
        case CoreType::Inherit: break;
    }
    return "inherit";
}

bool Catalogue::parse(const std::string& text, Catalogue& out, std::string& error) {
    TomlDocument doc;
    if (!parse_toml(text, doc, error)) return false;
    out = Catalogue{};
    if (const TomlTable* d = doc.table("defaults")) {
        FieldReader r(*d, "[defaults]");
        r.string("soc", out.defaults_.soc);
        r.integer("devices", out.defaults_.devices);
        r.string("clock", out.defaults_.clock);
        r.integer("seed", out.defaults_.seed);
        r.number("jitter_pct", out.defaults_.jitter_pct);
        if (!r.ok()) return error = r.error(), false;
    }
    for (const auto& [name, table] : doc.children("topology")) {
        Topology t;
        t.name = name;
        FieldReader r(*table, "[topology." + name + "]");
        r.string("kind", t.kind);
        r.integer("ranks_per_server", t.ranks_per_server);
        r.number("alpha_ns", t.alpha_ns);
        r.number("link_gbps", t.link_gbps);
        r.number("aggregate_gbps", t.aggregate_gbps);
        r.number("sio_alpha_ns", t.sio_alpha_ns);
        r.number("sio_gbps", t.sio_gbps);
        r.number("scaleout_alpha_ns", t.scaleout_alpha_ns);
        r.number("scaleout_gbps", t.scaleout_gbps);
        r.number("reduce_gbps", t.reduce_gbps);
        if (!r.ok()) return error = r.error(), false;
        out.topologies_[name] = t;
    }
    for (const auto& [name, table] : doc.children("soc")) {
        SocSpec s;
        s.name = name;
        FieldReader r(*table, "[soc." + name + "]");
        uint64_t memory_gib = 0, l2_mib = 0;
        r.integer("chip_type", s.chip_type);
        r.string("family", s.family);
        r.integer("aic", s.aic);
        r.integer("aiv", s.aiv);
        r.integer("aicpu", s.aicpu);
        r.integer("cube_mhz", s.cube_mhz);
        r.integer("memory_gib", memory_gib);
        r.integer("l2_mib", l2_mib);
        r.number("cube_flops_per_cycle", s.cube_flops_per_cycle);
        r.number("vector_flops_per_cycle", s.vector_flops_per_cycle);
        r.number("hbm_gbps", s.hbm_gbps);
        r.number("hbm_peak_gbps", s.hbm_peak_gbps);
        r.number("host_link_gbps", s.host_link_gbps);
        r.integer("hd_connect_type", s.hd_connect_type);
        r.integer("host_api_ns", s.host_api_ns);
        r.integer("launch_latency_ns", s.launch_latency_ns);
        r.integer("task_gap_ns", s.task_gap_ns);
        r.integer("task_overhead_ns", s.task_overhead_ns);
        r.integer("sync_wake_ns", s.sync_wake_ns);
        r.integer("memcpy_fixed_ns", s.memcpy_fixed_ns);
        r.integer("event_task_ns", s.event_task_ns);
        r.integer("devices_per_server", s.devices_per_server);
        r.string("topology", s.topology);
        r.integer("dev_osc_khz", s.dev_osc_khz);
        if (!r.ok()) return error = r.error(), false;
        s.memory_bytes = memory_gib << 30;
        s.l2_bytes = l2_mib << 20;
        if (s.aic == 0 || s.cube_mhz == 0 || s.hbm_gbps <= 0 || s.host_link_gbps <= 0) {
            error = "[soc." + name + "]: aic, cube_mhz, hbm_gbps and host_link_gbps must be positive";
            return false;
        }
        out.socs_[name] = s;
    }
    if (out.socs_.empty()) {
        error = "the catalogue defines no [soc.*] table";
        return false;
    }
    if (!out.soc(out.defaults_.soc)) {
        error = "[defaults] soc '" + out.defaults_.soc + "' is not in the catalogue";
        return false;
    }
    return true;
}

const Catalogue& Catalogue::builtin() {
    // Immortal: devices keep references to its SoC specs, and threads launch while another exits.
    static Immortal<const Catalogue> instance([] {
        Catalogue c;
        std::string error;
        if (!parse(embedded_socs_toml(), c, error)) {
            // The embedded file is validated by the tests; a broken build is a programming error.
            std::fprintf(stderr, "npu-sim: embedded socs.toml is invalid: %s\n", error.c_str());
            std::abort();
        }
        return c;
    }());
    return instance.get();
}

const SocSpec* Catalogue::soc(const std::string& name) const {
    auto it = socs_.find(name);
    return it == socs_.end() ? nullptr : &it->second;
}

const Topology* Catalogue::topology(const std::string& name) const {
    auto it = topologies_.find(name);
    return it == topologies_.end() ? nullptr : &it->second;
}

std::string Catalogue::soc_names() const {
    std::string out;
    for (const auto& [name, spec] : socs_) {
        if (!out.empty()) out += ", ";
        out += name;
    }
    return out;
}

const KernelCost& KernelCostTable::lookup(const std::string& kernel_name) const {
    for (const auto& entry : entries_) {
        if (fnmatch(entry.pattern.c_str(), kernel_name.c_str(), FNM_CASEFOLD) == 0) return entry;
    }
    return entries_.back();  // parse() guarantees a final catch-all
}

bool KernelCostTable::parse(const std::string& text, KernelCostTable& out, std::string& error) {
    TomlDocument doc;
    if (!parse_toml(text, doc, error)) return false;
    out = KernelCostTable{};
    auto it = doc.arrays.find("kernel");
    if (it == doc.arrays.end() || it->second.empty()) {
        error = "the kernel cost table has no [[kernel]] entries";
        return false;
    }
    size_t index = 0;
    for (const auto& table : it->second) {
        KernelCost k;
        const std::string where =
            "[[kernel]] #" + std::to_string(index++) + " (line " + std::to_string(table.line) + ")";
        auto pattern = table.get_string("pattern");
        if (!pattern || pattern->empty()) return error = where + ": 'pattern' must be a non-empty string", false;
        k.pattern = *pattern;
        auto duration = table.get_int("duration_ns");
        auto flops = table.get_number("flops");
        auto bytes = table.get_number("bytes");
        if (duration && (flops || bytes)) return error = where + ": give duration_ns or flops+bytes, not both", false;
        if (!duration && !(flops && bytes)) return error = where + ": give duration_ns, or both flops and bytes", false;
        if (duration) {
            if (*duration <= 0) return error = where + ": duration_ns must be positive", false;
            k.duration_ns = static_cast<uint64_t>(*duration);
        } else {
            if (*flops < 0 || *bytes < 0) return error = where + ": flops and bytes must not be negative", false;
            k.flops = *flops;
            k.bytes = *bytes;
        }
        k.per_block = table.get_bool("per_block").value_or(false);
        auto core = table.get_string("core").value_or("inherit");
        if (!parse_core(core, k.core)) {
            return error = where + ": core '" + core + "' must be one of inherit, AIC, AIV, MIX, AICPU", false;
        }
        out.entries_.push_back(k);
    }
    if (out.entries_.back().pattern != "*") {
        KernelCost fallback;
        fallback.pattern = "*";
        fallback.duration_ns = 3000;
        out.entries_.push_back(fallback);
    }
    return true;
}

}  // namespace npusim
