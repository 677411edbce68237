#include "core/config.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/fault_plan.h"
#include "core/immortal.h"
#include "core/log.h"
#include "core/toml_document.h"

extern char** environ;

namespace npusim {

SimConfig::SimConfig() : log_level(LogLevel::Warn) {}

namespace {

bool read_file(const std::string& path, std::string& out) {
    std::ifstream in(path);
    if (!in) return false;
    std::stringstream ss;
    ss << in.rdbuf();
    out = ss.str();
    return true;
}

// The offset of the first byte that is not part of well-formed UTF-8 (or a NUL), or npos: a
// binary file is named as such instead of being parsed as TOML.
size_t first_non_text_byte(const std::string& text) {
    size_t i = 0;
    while (i < text.size()) {
        const auto byte = static_cast<unsigned char>(text[i]);
        size_t extra = 0;
        if (byte == 0) return i;
        if (byte < 0x80) {
            extra = 0;
        } else if (byte >= 0xC2 && byte <= 0xDF) {
            extra = 1;
        } else if (byte >= 0xE0 && byte <= 0xEF) {
            extra = 2;
        } else if (byte >= 0xF0 && byte <= 0xF4) {
            extra = 3;
        } else {
            return i;
        }
        if (i + extra >= text.size()) return i;  // a sequence cut short by the end
        for (size_t k = 1; k <= extra; ++k) {
            if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return i;
        }
        i += extra + 1;
    }
    return std::string::npos;
}

bool parse_u64(const std::string& s, uint64_t& out) {
    if (s.empty() || s[0] == '-') return false;
    char* end = nullptr;
    errno = 0;
    unsigned long long v = std::strtoull(s.c_str(), &end, 0);
    if (*end != '\0' || errno != 0) return false;
    out = v;
    return true;
}

struct Overrides {
    std::map<std::string, std::string> values;  // key -> text
    std::map<std::string, std::string> origin;  // key -> where it came from, for messages
};

// Reads the flat keys of an NPU_SIM_CONFIG file into text values.
bool read_config_file(const std::string& path, Overrides& o, std::string& error) {
    std::string text;
    if (!read_file(path, text)) return error = "NPU_SIM_CONFIG: cannot read '" + path + "'", false;
    const size_t bad = first_non_text_byte(text);
    if (bad != std::string::npos) {
        char byte[8];
        std::snprintf(byte, sizeof(byte), "0x%02x", static_cast<unsigned>(static_cast<unsigned char>(text[bad])));
        return error = "NPU_SIM_CONFIG '" + path + "': not UTF-8 text (byte " + byte + " at offset " +
                       std::to_string(bad) + "); give a TOML file",
               false;
    }
    TomlDocument doc;
    std::string parse_error;
    if (!parse_toml(text, doc, parse_error)) return error = "NPU_SIM_CONFIG '" + path + "': " + parse_error, false;
    if (doc.tables.size() != 1 || !doc.arrays.empty())
        return error = "NPU_SIM_CONFIG '" + path + "': only top-level keys are allowed", false;
    static const char* const kKeys[] = {"soc",          "devices",   "clock",       "seed",  "faults",
                                        "kernel_costs", "log_level", "device_logs", "timing"};
    for (const auto& [key, value] : doc.tables[""].values) {
        bool known = false;
        for (const char* k : kKeys) known = known || key == k;
        if (!known) {
            return error = "NPU_SIM_CONFIG '" + path + "': unknown key '" + key +
                           "' (known: soc, devices, clock, seed, faults, kernel_costs, log_level, device_logs, timing)",
                   false;
        }
        std::string text_value;
        if (std::holds_alternative<std::string>(value)) text_value = std::get<std::string>(value);
        else if (std::holds_alternative<int64_t>(value))
            text_value = std::to_string(static_cast<uint64_t>(std::get<int64_t>(value)));
        else return error = "NPU_SIM_CONFIG '" + path + "': key '" + key + "' must be a string or an integer", false;
        // A relative timing profile is relative to the config file that names it (as in sim_runtime.config).
        if (key == "timing" && !text_value.empty() && text_value[0] != '/') {
            const auto slash = path.rfind('/');
            if (slash != std::string::npos) text_value = path.substr(0, slash + 1) + text_value;
        }
        o.values[key] = text_value;
        o.origin[key] = "NPU_SIM_CONFIG key '" + key + "'";
    }
    return true;
}

bool apply(SimConfig& cfg, const Overrides& o, std::string& error) {
    const Catalogue& cat = Catalogue::builtin();
    auto where = [&](const char* key) { return o.origin.at(key); };
    if (o.values.count("soc")) {
        const std::string& name = o.values.at("soc");
        cfg.soc = cat.soc(name);
        if (!cfg.soc)
            return error = where("soc") + ": unknown SoC '" + name + "'; choose one of: " + cat.soc_names(), false;
    }
    if (o.values.count("devices")) {
        uint64_t n = 0;
        if (!parse_u64(o.values.at("devices"), n) || n < 1 || n > 64)
            return error = where("devices") + ": '" + o.values.at("devices") + "' must be an integer from 1 to 64",
                   false;
        cfg.devices = static_cast<uint32_t>(n);
    }
    if (o.values.count("clock")) {
        const std::string& c = o.values.at("clock");
        if (c == "wall") cfg.clock = ClockMode::Wall;
        else if (c == "virtual") cfg.clock = ClockMode::Virtual;
        else return error = where("clock") + ": '" + c + "' must be 'wall' or 'virtual'", false;
    }
    if (o.values.count("device_logs")) {
        const std::string& r = o.values.at("device_logs");
        if (r == "due") cfg.device_logs = DeviceLogRelease::Due;
        else if (r == "sync") cfg.device_logs = DeviceLogRelease::Sync;
        else return error = where("device_logs") + ": '" + r + "' must be 'due' or 'sync'", false;
    }
    if (o.values.count("seed")) {
        if (!parse_u64(o.values.at("seed"), cfg.seed))
            return error = where("seed") + ": '" + o.values.at("seed") + "' must be an integer from 0 to 2^64-1", false;
    }
    if (o.values.count("faults")) {
        std::vector<FaultRule> rules;
        std::string fault_error;
        if (!parse_fault_plan(o.values.at("faults"), rules, fault_error))
            return error = where("faults") + ": " + fault_error, false;
        cfg.faults = o.values.at("faults");
    }
    if (o.values.count("log_level")) {
        static const std::pair<const char*, LogLevel> kLevels[] = {{"debug", LogLevel::Debug},
                                                                   {"info", LogLevel::Info},
                                                                   {"warn", LogLevel::Warn},
                                                                   {"error", LogLevel::Error},
                                                                   {"off", LogLevel::Off}};
        bool found = false;
        for (const auto& [name, level] : kLevels) {
            if (o.values.at("log_level") == name) cfg.log_level = level, found = true;
        }
        if (!found)
            return error = where("log_level") + ": '" + o.values.at("log_level") +
                           "' must be debug, info, warn, error or off",
                   false;
    }
    if (o.values.count("kernel_costs") && !o.values.at("kernel_costs").empty()) {
        const std::string& path = o.values.at("kernel_costs");
        std::string text, table_error;
        if (!read_file(path, text)) return error = where("kernel_costs") + ": cannot read '" + path + "'", false;
        KernelCostTable table;
        if (!KernelCostTable::parse(text, table, table_error))
            return error = where("kernel_costs") + " '" + path + "': " + table_error, false;
        cfg.kernel_costs = std::move(table);
        cfg.kernel_costs_path = path;
    }
    if (o.values.count("timing") && !o.values.at("timing").empty()) {
        const std::string& path = o.values.at("timing");
        std::string text, profile_error;
        if (!read_file(path, text)) return error = where("timing") + ": cannot read '" + path + "'", false;
        TimingModel model;
        if (!TimingModel::overlay(text, TimingModel::builtin(), model, profile_error))
            return error = where("timing") + " '" + path + "': " + profile_error, false;
        cfg.timing = std::move(model);
        cfg.timing_path = path;
    }
    return true;
}

SimConfig defaults() {
    const Catalogue& cat = Catalogue::builtin();
    SimConfig cfg;
    cfg.soc = cat.soc(cat.defaults().soc);
    cfg.devices = cat.defaults().devices;
    cfg.clock = cat.defaults().clock == "virtual" ? ClockMode::Virtual : ClockMode::Wall;
    cfg.seed = cat.defaults().seed;
    cfg.jitter_pct = cat.defaults().jitter_pct;
    std::string error;
    if (!KernelCostTable::parse(embedded_kernel_costs_toml(), cfg.kernel_costs, error)) {
        std::fprintf(stderr, "npu-sim: embedded kernel_costs.toml is invalid: %s\n", error.c_str());
        std::abort();
    }
    return cfg;
}

}  // namespace

std::map<std::string, std::string> process_environment() {
    std::map<std::string, std::string> env;
    for (char** e = environ; e && *e; ++e) {
        const char* eq = std::strchr(*e, '=');
        if (eq && std::strncmp(*e, "NPU_SIM_", 8) == 0) env[std::string(*e, static_cast<size_t>(eq - *e))] = eq + 1;
    }
    return env;
}

SimConfig load_sim_config(const std::map<std::string, std::string>& env) {
    SimConfig cfg = defaults();
    Overrides o;
    std::string error;
    auto it = env.find("NPU_SIM_CONFIG");
    if (it != env.end() && !it->second.empty() && !read_config_file(it->second, o, error)) {
        cfg.error = error;
        return cfg;
    }
    static const std::pair<const char*, const char*> kVars[] = {
        {"NPU_SIM_SOC", "soc"},
        {"NPU_SIM_DEVICES", "devices"},
        {"NPU_SIM_CLOCK", "clock"},
        {"NPU_SIM_SEED", "seed"},
        {"NPU_SIM_FAULTS", "faults"},
        {"NPU_SIM_KERNEL_COSTS", "kernel_costs"},
        {"NPU_SIM_LOG_LEVEL", "log_level"},
        {"NPU_SIM_DEVICE_LOGS", "device_logs"},
        {"NPU_SIM_TIMING", "timing"},
    };
    for (const auto& [var, key] : kVars) {
        auto v = env.find(var);
        if (v == env.end()) continue;
        o.values[key] = v->second;
        o.origin[key] = var;
    }
    SimConfig candidate = cfg;
    if (!apply(candidate, o, error)) {
        cfg.error = error;
        return cfg;
    }
    return candidate;
}

const SimConfig& sim_config() {
    // Immortal: read by every library (and its threads) until the process is gone.
    static Immortal<const SimConfig> cfg([] {
        SimConfig c = load_sim_config(process_environment());
        if (!c.error.empty()) std::fprintf(stderr, "npu-sim: configuration error: %s\n", c.error.c_str());
        return c;
    }());
    return cfg.get();
}

}  // namespace npusim
