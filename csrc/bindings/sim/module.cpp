// sim_runtime._native: in-process control of the simulator (configuration, fault plans,
// channels, clock) and a thin workload API over the ACL runtime.
#include <pybind11/pybind11.h>

namespace py = pybind11;

void bind_platform(py::module_& m);
void bind_faults(py::module_& m);
void bind_acl(py::module_& m);
void bind_fakes(py::module_& m);

PYBIND11_MODULE(_native, m) {
    m.doc() = "In-process control of the simulated Ascend platform";
    bind_platform(m);
    bind_faults(m);
    bind_fakes(m);
    py::module_ acl = m.def_submodule("acl", "Thin bindings of the ACL runtime (results are aclError codes)");
    bind_acl(acl);
}
