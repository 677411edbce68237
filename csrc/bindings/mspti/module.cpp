// mspti_core._mspti: thin Python bindings of the delivery machinery (delivery.h), the loaded
// msPTI library (library.h) and the mstx front end (mstx_bindings.cpp).
//
// Nothing here throws a C++ exception: errors come back as values that the Python layer turns
// into exceptions. (A Python process whose sanitizer runtime is preloaded before libstdc++ is
// loaded cannot unwind C++ exceptions, and mspti_core must work in such test processes.)
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "delivery.h"
#include "library.h"

namespace py = pybind11;
using mspti_py::Delivery;
using mspti_py::Library;

void bind_mstx(py::module_& m);

namespace {

// The API of the loaded library, or null (the Python layer loads one before calling).
const mspti_py::Api* LoadedApi() { return Library::Instance().Loaded() ? &Library::Instance().api() : nullptr; }

}  // namespace

PYBIND11_MODULE(_mspti, m) {
    m.doc() = "msPTI bindings of mspti_core: library loading, buffer delivery to Python callables";
    using py::arg;

    // ---- the library ----
    m.def(
        "load", [](const std::string& path) { return Library::Instance().Load(path); }, arg("path"),
        "Loads the msPTI library at `path` (dlopen) and resolves its functions; returns '' or the error.");
    m.def(
        "loaded_path",
        []() -> py::object {
            if (!Library::Instance().Loaded()) {
                return py::none();
            }
            return py::str(Library::Instance().Path());
        },
        "The path of the loaded msPTI library, or None.");
    m.def(
        "find_loaded",
        []() -> py::object {
            std::string path = Library::FindLoaded();
            if (path.empty()) {
                return py::none();
            }
            return py::str(path);
        },
        "The file of an msPTI library already in the process (e.g. preloaded), or None.");
    m.def(
        "has_extensions", [] { return Library::Instance().Loaded() && Library::Instance().HasExtensions(); },
        "Whether the loaded library has this project's extensions (mspti_ext.h).");

    // ---- data classes ----
    m.def(
        "bind_types", [](const py::dict& types) { return Delivery::Instance().BindTypes(types.ptr()); }, arg("types"),
        "Binds the data classes and enums records are delivered as; returns '' or the error.");

    // ---- monitors ----
    m.attr("ROUTE_INSTANT_MARKS") = static_cast<int>(mspti_py::kRouteInstantMarks);
    m.attr("ROUTE_RANGES") = static_cast<int>(mspti_py::kRouteRanges);
    m.attr("FROM_CALLBACK") = mspti_py::kFromCallback;
    m.attr("NOT_READY") = mspti_py::kNotReady;
    m.def(
        "start_monitor",
        [](const std::vector<int>& kinds, const std::vector<std::pair<int, py::object>>& routes) {
            std::vector<std::pair<int, PyObject*>> raw;
            raw.reserve(routes.size());
            for (const auto& route : routes) {
                raw.emplace_back(route.first, route.second.ptr());
            }
            return Delivery::Instance().StartMonitor(kinds, raw);
        },
        arg("kinds"), arg("routes"),
        "Enables `kinds` and routes records to callables: [(route, callable)], route = a kind (1..12), "
        "ROUTE_INSTANT_MARKS or ROUTE_RANGES. Returns (msptiResult, token); FROM_CALLBACK inside a monitor "
        "callback, NOT_READY before load() and bind_types().");
    m.def(
        "stop_monitor",
        [](uint64_t token, uint32_t grace_ms) { return Delivery::Instance().StopMonitor(token, grace_ms); },
        arg("token"), arg("grace_ms") = 0,
        "Delivers pending records, disables the monitor's kinds and drops its callables.");
    m.def(
        "flush_all", [] { return Delivery::Instance().FlushAll(); },
        "msptiActivityFlushAll, then waits until the callables have seen the flushed records.");
    m.def("flush_period", [](uint32_t ms) { return Delivery::Instance().FlushPeriod(ms); }, arg("time_ms"));
    m.def(
        "set_buffer_size",
        [](uint32_t megabytes) { return Delivery::Instance().SetBufferSize(static_cast<size_t>(megabytes) << 20); },
        arg("megabytes"),
        "Buffer size (MB, 1..256) from the next start of the shared session on; False if out of range.");
    m.def(
        "buffer_size", [] { return Delivery::Instance().BufferSize() >> 20; },
        "The buffer size (MB) the next session will use.");
    m.def("active", [] { return Delivery::Instance().Active(); }, "Whether a monitor is running.");
    m.def(
        "in_callback", [] { return Delivery::Instance().OnConsumerThread(); },
        "Whether the caller runs on the delivery thread (inside a monitor callback).");
    m.def(
        "callback_errors", [] { return Delivery::Instance().CallbackErrors(); },
        "How many times a monitor callback raised (each one was printed to stderr).");
    m.def(
        "stats",
        [] {
            mspti_py::Stats s = Delivery::Instance().GetStats();
            py::dict d;
            d["buffers_completed"] = s.buffers_completed;
            d["buffers_declined"] = s.buffers_declined;
            d["buffers_allocated"] = s.buffers_allocated;
            d["buffer_size"] = s.buffer_size;
            d["buffer_count"] = s.buffer_count;
            d["records_seen"] = s.records_seen;
            d["records_skipped"] = s.records_skipped;
            d["records_delivered"] = s.records_delivered;
            d["batches"] = s.batches;
            d["callback_errors"] = s.callback_errors;
            d["ranges_pending"] = s.ranges_pending;
            return d;
        },
        "Delivery counters.");
    m.def(
        "shutdown", [] { Delivery::Instance().Shutdown(); },
        "Delivers what is pending and stops the consumer thread (called at interpreter exit).");

    // ---- the rest of the C API ----
    // Each of these answers NOT_READY (or None) while no library is loaded.
    m.def(
        "enable_marker_domain",
        [](const std::string& name) {
            const auto* api = LoadedApi();
            return api ? static_cast<int>(api->EnableMarkerDomain(name.c_str())) : mspti_py::kNotReady;
        },
        arg("name"));
    m.def(
        "disable_marker_domain",
        [](const std::string& name) {
            const auto* api = LoadedApi();
            return api ? static_cast<int>(api->DisableMarkerDomain(name.c_str())) : mspti_py::kNotReady;
        },
        arg("name"));
    m.def(
        "is_enabled",
        [](int kind) -> py::object {
            const auto* api = LoadedApi();
            if (api == nullptr || api->IsEnabled == nullptr) {
                return py::none();
            }
            return py::bool_(api->IsEnabled(static_cast<msptiActivityKind>(kind)));
        },
        arg("kind"), "msptiActivityIsEnabled (None when the library lacks it).");
    m.def(
        "push_external_correlation_id",
        [](int kind, uint64_t id) {
            const auto* api = LoadedApi();
            return api ? static_cast<int>(
                             api->PushExternalCorrelationId(static_cast<msptiExternalCorrelationKind>(kind), id))
                       : mspti_py::kNotReady;
        },
        arg("kind"), arg("id"));
    m.def(
        "pop_external_correlation_id",
        [](int kind) {
            const auto* api = LoadedApi();
            uint64_t id = 0;
            int rc = api ? static_cast<int>(
                               api->PopExternalCorrelationId(static_cast<msptiExternalCorrelationKind>(kind), &id))
                         : mspti_py::kNotReady;
            return py::make_tuple(rc, id);
        },
        arg("kind"), "Returns (msptiResult, id).");
    m.def(
        "result_string",
        [](int result) -> py::object {
            if (!Library::Instance().Loaded() || Library::Instance().api().ResultGetString == nullptr) {
                return py::none();
            }
            const char* text = Library::Instance().api().ResultGetString(static_cast<msptiResult>(result));
            return text != nullptr ? py::object(py::str(text)) : py::object(py::none());
        },
        arg("result"));
    m.def(
        "dropped_records",
        [](int kind) -> py::object {
            const auto* api = LoadedApi();
            if (api == nullptr || api->GetDroppedRecords == nullptr) {
                return py::none();
            }
            uint64_t dropped = 0;
            if (api->GetDroppedRecords(static_cast<msptiActivityKind>(kind), &dropped) != MSPTI_SUCCESS) {
                return py::none();
            }
            return py::int_(dropped);
        },
        arg("kind"), "Records of `kind` msPTI dropped (0 = all kinds); None without the extension.");
    m.def(
        "dropped_records_by_reason",
        [](int kind, int reason) -> py::object {
            const auto* api = LoadedApi();
            if (api == nullptr || api->GetDroppedRecordsByReason == nullptr) {
                return py::none();
            }
            uint64_t dropped = 0;
            if (api->GetDroppedRecordsByReason(static_cast<msptiActivityKind>(kind),
                                               static_cast<msptiDropReason>(reason), &dropped) != MSPTI_SUCCESS) {
                return py::none();
            }
            return py::int_(dropped);
        },
        arg("kind"), arg("reason"),
        "Records of `kind` (0 = all kinds) msPTI dropped for `reason` (0 = every reason); None without the "
        "extension or for an unknown kind or reason.");
    m.def(
        "timestamp",
        []() -> py::object {
            const auto* api = LoadedApi();
            uint64_t now = 0;
            if (api == nullptr || api->GetTimestamp == nullptr || api->GetTimestamp(&now) != MSPTI_SUCCESS) {
                return py::none();
            }
            return py::int_(now);
        },
        "The current time in the records' time base (ns), or None without the extension.");
    m.def(
        "version",
        []() -> py::object {
            const auto* api = LoadedApi();
            uint32_t version = 0;
            if (api == nullptr || api->GetVersion == nullptr || api->GetVersion(&version) != MSPTI_SUCCESS) {
                return py::none();
            }
            return py::int_(version);
        },
        "The msPTI API version as xxyyzz (260200 = 26.2.0), or None when the library lacks msptiGetVersion.");

    py::module_ mstx = m.def_submodule("mstx", "The mstx front end (markers and ranges, host and device)");
    bind_mstx(mstx);
}
