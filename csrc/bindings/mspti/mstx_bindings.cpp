// The mstx front end for Python programs (what torch_npu.npu.mstx offers to PyTorch): marks and
// ranges, in the default domain or a named one, host-only (stream 0) or also on a stream. The
// calls reach the tool named by MSTX_INJECTION_PATH exactly as a C program's calls do.
#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>

#include "mstx/ms_tools_ext.h"

namespace py = pybind11;

namespace {

aclrtStream AsStream(uintptr_t stream) { return reinterpret_cast<aclrtStream>(stream); }
mstxDomainHandle_t AsDomain(uintptr_t domain) { return reinterpret_cast<mstxDomainHandle_t>(domain); }

}  // namespace

void bind_mstx(py::module_& m) {
    using py::arg;
    m.def(
        "mark", [](const std::string& message, uintptr_t stream) { mstxMarkA(message.c_str(), AsStream(stream)); },
        arg("message"), arg("stream") = 0, "An instant mark (with a stream: also on the device).");
    m.def(
        "range_start",
        [](const std::string& message, uintptr_t stream) {
            return static_cast<uint64_t>(mstxRangeStartA(message.c_str(), AsStream(stream)));
        },
        arg("message"), arg("stream") = 0, "Opens a range; returns its id (0: not recorded).");
    m.def("range_end", [](uint64_t id) { mstxRangeEnd(static_cast<mstxRangeId>(id)); }, arg("range_id"));
    m.def(
        "domain_create",
        [](const std::string& name) { return reinterpret_cast<uintptr_t>(mstxDomainCreateA(name.c_str())); },
        arg("name"), "A domain handle (0 when no tool is attached).");
    m.def("domain_destroy", [](uintptr_t domain) { mstxDomainDestroy(AsDomain(domain)); }, arg("domain"));
    m.def(
        "domain_mark",
        [](uintptr_t domain, const std::string& message, uintptr_t stream) {
            mstxDomainMarkA(AsDomain(domain), message.c_str(), AsStream(stream));
        },
        arg("domain"), arg("message"), arg("stream") = 0);
    m.def(
        "domain_range_start",
        [](uintptr_t domain, const std::string& message, uintptr_t stream) {
            return static_cast<uint64_t>(mstxDomainRangeStartA(AsDomain(domain), message.c_str(), AsStream(stream)));
        },
        arg("domain"), arg("message"), arg("stream") = 0);
    m.def(
        "domain_range_end",
        [](uintptr_t domain, uint64_t id) { mstxDomainRangeEnd(AsDomain(domain), static_cast<mstxRangeId>(id)); },
        arg("domain"), arg("range_id"));
    m.def(
        "tool_id",
        [] {
            uint64_t id = 0;
            mstxGetToolId(&id);
            return id;
        },
        "The id of the attached tool (0: none).");
}
