// Fault plans and call counters of the exported simulator functions.
#include <pybind11/pybind11.h>

#include "core/fault_plan.h"

namespace py = pybind11;

void bind_faults(py::module_& m) {
    // Returns the error ("" on success) rather than throwing: a C++ exception cannot cross a Python
    // interpreter that runs with a sanitizer runtime preloaded. sim_runtime.control raises it.
    m.def(
        "try_set_fault_plan",
        [](const std::string& text) {
            std::string error;
            npusim::set_fault_plan(text, error);
            return error;
        },
        py::arg("plan"), "Replaces the process's fault plan (grammar of NPU_SIM_FAULTS); returns the error or ''");
    m.def("clear_fault_plan", &npusim::clear_fault_plan);
    m.def("fault_plan", &npusim::current_fault_plan);
    m.def("call_count", &npusim::fault_site_calls, py::arg("function"),
          "How many times an exported simulator function has been called while counting was on");
    m.def("set_call_counting", &npusim::set_call_counting, py::arg("on"),
          "Asks for call counts without a fault plan (an installed plan always counts)");
    m.def("call_counting", &npusim::call_counting, "Whether fault points count their calls");
    m.def("reset_call_counts", &npusim::reset_fault_counters);
    m.def("faults_injected", &npusim::faults_injected, "How many calls a fault rule has acted on");
}
