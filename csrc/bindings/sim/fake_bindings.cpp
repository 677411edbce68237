// sim_runtime.fakes: fakes of the exported simulator functions (core/fakes.h), channel feeding and
// profapi report injection. The Python side (sim_runtime/fakes.py) decodes arguments and runs the
// test's callables; this file only moves words between C and Python.
#include <Python.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <string>
#include <vector>

#include "core/fakes.h"
#include "core/platform.h"
#include "seam/profapi.h"

namespace py = pybind11;

namespace {

// The Python dispatcher: dispatch(function, fake_id, call, acting, args) -> int | None.
// Owned by a leaked holder so that no Python object is destroyed after the interpreter.
py::object* g_dispatcher = nullptr;

bool dispatch_hook(const npusim::FakeCallInfo& call, int64_t* result) {
    if (!Py_IsInitialized()) return false;
    py::gil_scoped_acquire gil;  // reentrant: a Python thread calling the simulator already holds it
    if (g_dispatcher == nullptr || g_dispatcher->is_none()) return false;
    try {
        py::list args;
        for (size_t i = 0; i < call.argc; ++i) args.append(py::int_(call.args[i]));
        py::object out = (*g_dispatcher)(call.function, call.fake_id, call.call, call.acting, args);
        if (out.is_none()) return false;
        *result = out.cast<int64_t>();
        return true;
    } catch (py::error_already_set& e) {
        // The dispatcher records a test's exceptions itself; anything escaping it is reported here
        // and the call runs as if not faked.
        e.restore();
        PyErr_WriteUnraisable(nullptr);
        return false;
    } catch (const std::exception&) {
        return false;
    }
}

}  // namespace

void bind_fakes(py::module_& m) {
    m.def(
        "fake_set_dispatcher",
        [](py::object dispatcher) {
            if (g_dispatcher == nullptr) g_dispatcher = new py::object();  // leaked: see above
            *g_dispatcher = std::move(dispatcher);
            npusim::set_fake_hook(g_dispatcher->is_none() ? nullptr : &dispatch_hook);
        },
        py::arg("dispatcher"));
    m.def(
        "fake_install",
        [](const std::string& function, bool replace_code, int64_t code, bool hooked, bool observe, uint64_t after,
           uint64_t times) {
            npusim::FakeBehaviour b;
            b.replace_code = replace_code;
            b.code = code;
            b.hooked = hooked;
            b.observe = observe;
            b.after = after;
            b.times = times;
            return npusim::install_fake(function, b);
        },
        py::arg("function"), py::arg("replace_code"), py::arg("code"), py::arg("hooked"), py::arg("observe"),
        py::arg("after"), py::arg("times"));
    m.def("fake_remove", &npusim::remove_fake, py::arg("function"));
    m.def("fake_clear", &npusim::clear_fakes);
    m.def(
        "fake_counts",
        [](const std::string& function) {
            const npusim::FakeCounts c = npusim::fake_counts(function);
            return py::make_tuple(c.installed, c.calls, c.acted);
        },
        py::arg("function"));
    m.def("faked_functions", &npusim::faked_functions);
    m.def("fault_point_functions", [] { return npusim::fault_point_functions(); });
    m.def(
        "decoded_functions", [] { return npusim::decoded_functions(); }, "[(name, arguments its fault point passes)]");

    m.def(
        "channel_feed",
        [](uint32_t device, uint32_t channel, const py::bytes& data) {
            const std::string bytes = data;
            py::gil_scoped_release release;
            return npusim::Platform::instance().channels().feed(device, channel, bytes.data(), bytes.size());
        },
        py::arg("device"), py::arg("channel"), py::arg("data"), "PROF_OK, or PROF_ERROR (unknown channel, full)");

    // Reports as a CANN module sends them: through libprofapi's exported functions, so that they
    // reach the profiler's callback (or count as not collected) exactly like the runtime's.
    m.def(
        "report_bytes",
        [](const std::string& kind, uint32_t aging, const py::bytes& data) -> int64_t {
            const std::string bytes = data;
            py::gil_scoped_release release;
            if (kind == "api") {
                if (bytes.size() != sizeof(MsprofApi)) return -1;
                MsprofApi api;
                std::memcpy(&api, bytes.data(), sizeof api);
                return MsprofReportApi(aging, &api);
            }
            if (kind == "event") {
                if (bytes.size() != sizeof(MsprofEvent)) return -1;
                MsprofEvent event;
                std::memcpy(&event, bytes.data(), sizeof event);
                return MsprofReportEvent(aging, &event);
            }
            if (kind == "compact")
                return MsprofReportCompactInfo(aging, bytes.data(), static_cast<uint32_t>(bytes.size()));
            if (kind == "additional")
                return MsprofReportAdditionalInfo(aging, bytes.data(), static_cast<uint32_t>(bytes.size()));
            return -1;
        },
        py::arg("kind"), py::arg("aging"), py::arg("data"),
        "The profapi result, or -1 for an unknown kind or an api/event record of the wrong size");
}
