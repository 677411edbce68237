// Configuration, catalogue, clock and channel inspection.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "core/catalogue.h"
#include "core/platform.h"

namespace py = pybind11;
using npusim::Platform;

namespace {

// What both configuration functions report: the SoC, devices, clock, seed and the error, if any.
py::dict config_dict(const npusim::SimConfig& c) {
    py::dict d;
    d["soc"] = c.soc->name;
    d["devices"] = c.devices;
    d["clock"] = c.clock == npusim::ClockMode::Virtual ? "virtual" : "wall";
    d["seed"] = c.seed;
    d["error"] = c.error;
    return d;
}

}  // namespace

void bind_platform(py::module_& m) {
    m.def(
        "config",
        [] {
            const npusim::SimConfig& c = Platform::instance().config();
            py::dict d = config_dict(c);
            d["faults"] = c.faults;
            d["kernel_costs"] = c.kernel_costs_path;
            return d;
        },
        "The configuration this process runs with (read once from NPU_SIM_* variables)");

    m.def(
        "load_config",
        [](const std::map<std::string, std::string>& env) { return config_dict(npusim::load_sim_config(env)); },
        py::arg("env"), "Parses a configuration from the given variables, as a child process would");

    m.def("soc_table", [] {
        // The catalogue as the C++ core parsed it, to compare with the Python loader.
        py::dict out;
        const npusim::Catalogue& cat = npusim::Catalogue::builtin();
        std::string names = cat.soc_names();
        size_t start = 0;
        while (start < names.size()) {
            size_t end = names.find(", ", start);
            if (end == std::string::npos) end = names.size();
            const npusim::SocSpec* s = cat.soc(names.substr(start, end - start));
            py::dict d;
            d["chip_type"] = s->chip_type;
            d["aic"] = s->aic;
            d["aiv"] = s->aiv;
            d["cube_mhz"] = s->cube_mhz;
            d["memory_bytes"] = s->memory_bytes;
            d["hbm_gbps"] = s->hbm_gbps;
            d["fp16_tflops"] = s->cube_flops_per_ns() / 1000.0;
            d["topology"] = s->topology;
            out[py::str(s->name)] = d;
            start = end + 2;
        }
        return out;
    });

    m.def(
        "kernel_cost",
        [](const std::string& name) {
            const npusim::KernelCost& k = Platform::instance().config().kernel_costs.lookup(name);
            py::dict d;
            d["pattern"] = k.pattern;
            d["duration_ns"] = k.duration_ns;
            d["flops"] = k.flops;
            d["bytes"] = k.bytes;
            d["per_block"] = k.per_block;
            d["core"] = npusim::core_type_name(k.core);
            return d;
        },
        py::arg("kernel_name"));

    m.def("now_ns", [] { return Platform::instance().clock().now(); }, "The simulator's host time (ns)");

    m.def("channel_pending_bytes",
          [](uint32_t dev, uint32_t ch) { return Platform::instance().channels().pending_bytes(dev, ch); });
    m.def("channel_dropped_bytes",
          [](uint32_t dev, uint32_t ch) { return Platform::instance().channels().dropped_bytes(dev, ch); });
}
