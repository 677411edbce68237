// A thin Python face of the ACL runtime: every function returns the aclError first,
// then its outputs. Pointers and handles travel as integers.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"

namespace py = pybind11;

namespace {

void* as_ptr(uintptr_t v) { return reinterpret_cast<void*>(v); }
uintptr_t as_int(const void* p) { return reinterpret_cast<uintptr_t>(p); }

}  // namespace

void bind_acl(py::module_& m) {
    using py::arg;
    m.def("init", [](const char* path) { return aclInit(path); }, arg("config_path") = nullptr);
    m.def("finalize", [] { return aclFinalize(); });
    m.def("set_device", &aclrtSetDevice, arg("device"));
    m.def("reset_device", &aclrtResetDevice, arg("device"));
    m.def("get_device", [] {
        int32_t d = -1;
        aclError e = aclrtGetDevice(&d);
        return py::make_tuple(e, d);
    });
    m.def("get_device_count", [] {
        uint32_t n = 0;
        aclError e = aclrtGetDeviceCount(&n);
        return py::make_tuple(e, n);
    });
    m.def("get_soc_name", [] {
        const char* name = aclrtGetSocName();
        return name ? std::string(name) : std::string();
    });
    m.def("synchronize_device", [] {
        py::gil_scoped_release release;
        return aclrtSynchronizeDevice();
    });

    m.def("create_stream", [] {
        aclrtStream s = nullptr;
        aclError e = aclrtCreateStream(&s);
        return py::make_tuple(e, as_int(s));
    });
    m.def("destroy_stream", [](uintptr_t s) { return aclrtDestroyStream(as_ptr(s)); }, arg("stream"));
    m.def(
        "synchronize_stream",
        [](uintptr_t s) {
            py::gil_scoped_release release;
            return aclrtSynchronizeStream(as_ptr(s));
        },
        arg("stream") = 0);
    m.def(
        "stream_get_id",
        [](uintptr_t s) {
            int32_t id = -1;
            aclError e = aclrtStreamGetId(as_ptr(s), &id);
            return py::make_tuple(e, id);
        },
        arg("stream"));

    m.def(
        "malloc",
        [](size_t size, int policy) {
            void* p = nullptr;
            aclError e = aclrtMalloc(&p, size, static_cast<aclrtMemMallocPolicy>(policy));
            return py::make_tuple(e, as_int(p));
        },
        arg("size"), arg("policy") = 0);
    m.def("free", [](uintptr_t p) { return aclrtFree(as_ptr(p)); }, arg("ptr"));
    m.def(
        "malloc_host",
        [](size_t size) {
            void* p = nullptr;
            aclError e = aclrtMallocHost(&p, size);
            return py::make_tuple(e, as_int(p));
        },
        arg("size"));
    m.def("free_host", [](uintptr_t p) { return aclrtFreeHost(as_ptr(p)); }, arg("ptr"));
    m.def(
        "memcpy",
        [](uintptr_t dst, size_t dst_max, uintptr_t src, size_t count, int kind) {
            return aclrtMemcpy(as_ptr(dst), dst_max, as_ptr(src), count, static_cast<aclrtMemcpyKind>(kind));
        },
        arg("dst"), arg("dst_max"), arg("src"), arg("count"), arg("kind"));
    m.def(
        "memcpy_async",
        [](uintptr_t dst, size_t dst_max, uintptr_t src, size_t count, int kind, uintptr_t s) {
            return aclrtMemcpyAsync(as_ptr(dst), dst_max, as_ptr(src), count, static_cast<aclrtMemcpyKind>(kind),
                                    as_ptr(s));
        },
        arg("dst"), arg("dst_max"), arg("src"), arg("count"), arg("kind"), arg("stream"));
    m.def(
        "write",
        [](uintptr_t dev, py::bytes data) {
            // Host bytes to device memory (H2D).
            std::string buf = data;
            return aclrtMemcpy(as_ptr(dev), buf.size(), buf.data(), buf.size(), ACL_MEMCPY_HOST_TO_DEVICE);
        },
        arg("device_ptr"), arg("data"));
    m.def(
        "read",
        [](uintptr_t dev, size_t count) {
            // Device memory to host bytes (D2H).
            std::string buf(count, '\0');
            aclError e = aclrtMemcpy(buf.data(), count, as_ptr(dev), count, ACL_MEMCPY_DEVICE_TO_HOST);
            return py::make_tuple(e, py::bytes(buf));
        },
        arg("device_ptr"), arg("count"));
    m.def(
        "memset",
        [](uintptr_t p, size_t max, int32_t value, size_t count) { return aclrtMemset(as_ptr(p), max, value, count); },
        arg("ptr"), arg("max_count"), arg("value"), arg("count"));

    m.def("create_event", [] {
        aclrtEvent ev = nullptr;
        aclError e = aclrtCreateEvent(&ev);
        return py::make_tuple(e, as_int(ev));
    });
    m.def("destroy_event", [](uintptr_t ev) { return aclrtDestroyEvent(as_ptr(ev)); }, arg("event"));
    m.def(
        "record_event", [](uintptr_t ev, uintptr_t s) { return aclrtRecordEvent(as_ptr(ev), as_ptr(s)); }, arg("event"),
        arg("stream") = 0);
    m.def(
        "stream_wait_event", [](uintptr_t s, uintptr_t ev) { return aclrtStreamWaitEvent(as_ptr(s), as_ptr(ev)); },
        arg("stream"), arg("event"));
    m.def(
        "synchronize_event",
        [](uintptr_t ev) {
            py::gil_scoped_release release;
            return aclrtSynchronizeEvent(as_ptr(ev));
        },
        arg("event"));
    m.def(
        "event_elapsed_ms",
        [](uintptr_t start, uintptr_t end) {
            float ms = 0;
            aclError e = aclrtEventElapsedTime(&ms, as_ptr(start), as_ptr(end));
            return py::make_tuple(e, ms);
        },
        arg("start"), arg("end"));

    m.def(
        "binary_load",
        [](py::bytes data, uint32_t magic) {
            std::string buf = data;
            aclrtBinaryLoadOption opt{};
            opt.type = ACL_RT_BINARY_LOAD_OPT_MAGIC;
            opt.value.magic = magic;
            aclrtBinaryLoadOptions opts{&opt, magic ? 1u : 0u};
            aclrtBinHandle h = nullptr;
            aclError e = aclrtBinaryLoadFromData(buf.data(), buf.size(), &opts, &h);
            return py::make_tuple(e, as_int(h));
        },
        arg("data"), arg("magic") = 0);
    m.def(
        "binary_get_function",
        [](uintptr_t bin, const std::string& name) {
            aclrtFuncHandle f = nullptr;
            aclError e = aclrtBinaryGetFunction(as_ptr(bin), name.c_str(), &f);
            return py::make_tuple(e, as_int(f));
        },
        arg("binary"), arg("kernel_name"));
    m.def(
        "launch_kernel",
        [](uintptr_t func, uint32_t blocks, uintptr_t s, py::bytes args) {
            std::string buf = args;
            return aclrtLaunchKernel(as_ptr(func), blocks, buf.data(), buf.size(), as_ptr(s));
        },
        arg("function"), arg("blocks"), arg("stream") = 0, arg("args") = py::bytes());
    m.def(
        "launch_kernels",
        [](uintptr_t func, uint32_t blocks, uintptr_t s, uint64_t count) {
            // Launches `count` times without returning to Python in between (benchmarks).
            py::gil_scoped_release release;
            uint64_t args = 0;
            for (uint64_t i = 0; i < count; ++i) {
                aclError e = aclrtLaunchKernel(as_ptr(func), blocks, &args, sizeof args, as_ptr(s));
                if (e != ACL_SUCCESS) return e;
            }
            return ACL_SUCCESS;
        },
        arg("function"), arg("blocks"), arg("stream"), arg("count"));
}
