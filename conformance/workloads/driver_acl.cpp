// The driver's ACL commands: devices, contexts, streams, memory, copies, kernel launches, and stream
// capture into a model run instance and its replay.
#include "driver_common.h"

#ifdef CONFORMANCE_HAVE_ACL
namespace conformance::driver {

void cmd_acl_init(const Args& args) {
    ACL_CALL(aclInit, args, nullptr);
    call.emit();
}

void cmd_acl_finalize(const Args& args) {
    ACL_CALL(aclFinalize, args);
    call.emit();
}

void cmd_set_device(const Args& args) {
    auto device = static_cast<int32_t>(to_int(args.at(0)));
    ACL_CALL(aclrtSetDevice, args, device);
    call.json().inum("device", device);
    call.emit();
}

void cmd_reset_device(const Args& args) {
    auto device = static_cast<int32_t>(to_int(args.at(0)));
    ACL_CALL(aclrtResetDevice, args, device);
    call.json().inum("device", device);
    call.emit();
}

void cmd_create_context(const Args& args) {
    aclrtContext context = nullptr;
    auto device = static_cast<int32_t>(to_int(args.at(1)));
    ACL_CALL(aclrtCreateContext, args, &context, device);
    call.json().str("var", args.at(0)).inum("device", device);
    if (result == 0) store(args.at(0), Value{context, 0, 0, -1});
    call.emit();
}

void cmd_destroy_context(const Args& args) {
    void* context = lookup(args.at(0)).pointer;
    ACL_CALL(aclrtDestroyContext, args, context);
    call.json().str("var", args.at(0));
    call.emit();
}

void cmd_set_context(const Args& args) {
    void* context = lookup(args.at(0)).pointer;
    ACL_CALL(aclrtSetCurrentContext, args, context);
    call.json().str("var", args.at(0));
    call.emit();
}

void cmd_create_stream(const Args& args) {
    aclrtStream stream = nullptr;
    {
        ACL_CALL(aclrtCreateStream, args, &stream);
        call.json().str("var", args.at(0));
        call.emit();
        if (result != 0) return;
    }
    int32_t id = -1;
    if (auto get_id = RESOLVE(aclrtStreamGetId); get_id != nullptr) get_id(stream, &id);
    store(args.at(0), Value{stream, 0, 0, id});
    Json event("stream");
    event.str("var", args.at(0)).inum("stream_id", id).num("tid", conformance::thread_id());
    conformance::emit(event);
}

void cmd_destroy_stream(const Args& args) {
    aclrtStream stream = stream_arg(args.at(0));
    ACL_CALL(aclrtDestroyStream, args, stream);
    call.json().str("stream", args.at(0));
    call.emit();
}

void cmd_sync(const Args& args) {
    aclrtStream stream = stream_arg(args.at(0));
    ACL_CALL(aclrtSynchronizeStream, args, stream);
    call.json().str("stream", args.at(0)).inum("stream_id", stream_id_of(args.at(0)));
    call.emit();
}

void cmd_sync_device(const Args& args) {
    ACL_CALL(aclrtSynchronizeDevice, args);
    call.emit();
}

static void log_memory(Call& call, const std::string& var, void* pointer, size_t size) {
    call.json().str("var", var).num("ptr", reinterpret_cast<uintptr_t>(pointer)).num("bytes", size);
}

void cmd_malloc(const Args& args) {
    const std::string& var = args.at(0);
    auto size = static_cast<size_t>(to_int(args.at(1)));
    std::string variant = args.opt(2, "plain");
    void* pointer = nullptr;
    if (variant == "cfg") {
        ACL_CALL(aclrtMallocWithCfg, args, &pointer, size, ACL_MEM_MALLOC_HUGE_FIRST, nullptr);
        log_memory(call, var, pointer, size);
        if (result == 0) store(var, Value{pointer, size, 0, -1});
        call.emit();
    } else if (variant == "cached") {
        ACL_CALL(aclrtMallocCached, args, &pointer, size, ACL_MEM_MALLOC_HUGE_FIRST);
        log_memory(call, var, pointer, size);
        if (result == 0) store(var, Value{pointer, size, 0, -1});
        call.emit();
    } else if (variant == "task") {
        ACL_CALL(aclrtMallocForTaskScheduler, args, &pointer, size, ACL_MEM_MALLOC_HUGE_FIRST, nullptr);
        log_memory(call, var, pointer, size);
        if (result == 0) store(var, Value{pointer, size, 0, -1});
        call.emit();
    } else {
        ACL_CALL(aclrtMalloc, args, &pointer, size, ACL_MEM_MALLOC_HUGE_FIRST);
        log_memory(call, var, pointer, size);
        if (result == 0) store(var, Value{pointer, size, 0, -1});
        call.emit();
    }
}

void cmd_free(const Args& args) {
    Value value = lookup(args.at(0));
    ACL_CALL(aclrtFree, args, value.pointer);
    log_memory(call, args.at(0), value.pointer, value.size);
    if (result == 0) forget(args.at(0));
    call.emit();
}

void cmd_malloc_host(const Args& args) {
    auto size = static_cast<size_t>(to_int(args.at(1)));
    void* pointer = nullptr;
    ACL_CALL(aclrtMallocHost, args, &pointer, size);
    log_memory(call, args.at(0), pointer, size);
    if (result == 0) store(args.at(0), Value{pointer, size, 0, -1});
    call.emit();
}

void cmd_free_host(const Args& args) {
    Value value = lookup(args.at(0));
    ACL_CALL(aclrtFreeHost, args, value.pointer);
    log_memory(call, args.at(0), value.pointer, value.size);
    if (result == 0) forget(args.at(0));
    call.emit();
}

void cmd_reserve(const Args& args) {
    auto size = static_cast<size_t>(to_int(args.at(1)));
    void* pointer = nullptr;
    ACL_CALL(aclrtReserveMemAddress, args, &pointer, size, 0, nullptr, 0);
    log_memory(call, args.at(0), pointer, size);
    if (result == 0) store(args.at(0), Value{pointer, size, 0, -1});
    call.emit();
}

void cmd_release(const Args& args) {
    Value value = lookup(args.at(0));
    ACL_CALL(aclrtReleaseMemAddress, args, value.pointer);
    log_memory(call, args.at(0), value.pointer, value.size);
    if (result == 0) forget(args.at(0));
    call.emit();
}

void cmd_mem_info(const Args& args) {
    size_t free_bytes = 0;
    size_t total = 0;
    ACL_CALL(aclrtGetMemInfo, args, ACL_HBM_MEM, &free_bytes, &total);
    call.emit();
}

void cmd_mem_flush(const Args& args) {
    Value value = lookup(args.at(0));
    ACL_CALL(aclrtMemFlush, args, value.pointer, value.size);
    call.emit();
}

static aclrtMemcpyKind copy_kind(const std::string& word) {
    static const std::map<std::string, aclrtMemcpyKind> kinds = {
        {"h2h", ACL_MEMCPY_HOST_TO_HOST},
        {"h2d", ACL_MEMCPY_HOST_TO_DEVICE},
        {"d2h", ACL_MEMCPY_DEVICE_TO_HOST},
        {"d2d", ACL_MEMCPY_DEVICE_TO_DEVICE},
        {"default", ACL_MEMCPY_DEFAULT},
        {"h2b2d", ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE},
        {"inner_d2d", ACL_MEMCPY_INNER_DEVICE_TO_DEVICE},
        {"inter_d2d", ACL_MEMCPY_INTER_DEVICE_TO_DEVICE},
    };
    auto found = kinds.find(word);
    if (found == kinds.end()) die("unknown memcpy kind " + word);
    return found->second;
}

// libascendcl's own `name`, as a program that opens the library itself gets it (ctypes, plugin
// loaders): never a profiler's interposer. nullptr if the library or the function is missing.
static void* direct_function(const char* name) {
    static void* const acl = dlopen("libascendcl.so", RTLD_NOW | RTLD_LOCAL);
    return acl != nullptr ? dlsym(acl, name) : nullptr;
}

void cmd_memcpy(const Args& args) {
    Value dst = lookup(args.at(0));
    Value src = lookup(args.at(1));
    auto count = static_cast<size_t>(to_int(args.at(2)));
    aclrtMemcpyKind kind = copy_kind(args.at(3));
    if (args.size() > 5 && args.at(5) == "direct") {
        aclrtStream stream = stream_arg(args.at(4));
        const auto direct = reinterpret_cast<decltype(&aclrtMemcpyAsync)>(direct_function("aclrtMemcpyAsync"));
        if (direct == nullptr) {
            missing("aclrtMemcpyAsync", args);
            return;
        }
        Call call("aclrtMemcpyAsync", args);
        call.end(direct(dst.pointer, dst.size, src.pointer, count, kind, stream));
        call.json().num("bytes", count).str("copy", args.at(3)).str("stream", args.at(4)).boolean("direct", true);
        call.json().inum("stream_id", stream_id_of(args.at(4)));
        call.emit();
    } else if (args.size() == 5 && args.at(4) == "direct") {
        const auto direct = reinterpret_cast<decltype(&aclrtMemcpy)>(direct_function("aclrtMemcpy"));
        if (direct == nullptr) {
            missing("aclrtMemcpy", args);
            return;
        }
        Call call("aclrtMemcpy", args);
        call.end(direct(dst.pointer, dst.size, src.pointer, count, kind));
        call.json().num("bytes", count).str("copy", args.at(3)).boolean("direct", true);
        call.emit();
    } else if (args.size() > 4) {
        aclrtStream stream = stream_arg(args.at(4));
        ACL_CALL(aclrtMemcpyAsync, args, dst.pointer, dst.size, src.pointer, count, kind, stream);
        call.json().num("bytes", count).str("copy", args.at(3)).str("stream", args.at(4));
        call.json().inum("stream_id", stream_id_of(args.at(4)));
        call.emit();
    } else {
        ACL_CALL(aclrtMemcpy, args, dst.pointer, dst.size, src.pointer, count, kind);
        call.json().num("bytes", count).str("copy", args.at(3));
        call.emit();
    }
}

void cmd_memcpy2d(const Args& args) {
    Value dst = lookup(args.at(0));
    Value src = lookup(args.at(1));
    auto width = static_cast<size_t>(to_int(args.at(2)));
    auto height = static_cast<size_t>(to_int(args.at(3)));
    aclrtMemcpyKind kind = copy_kind(args.at(4));
    if (args.size() > 5 && args.at(5) == "direct") {
        const auto direct = reinterpret_cast<decltype(&aclrtMemcpy2d)>(direct_function("aclrtMemcpy2d"));
        if (direct == nullptr) {
            missing("aclrtMemcpy2d", args);
            return;
        }
        Call call("aclrtMemcpy2d", args);
        call.end(direct(dst.pointer, width, src.pointer, width, width, height, kind));
        call.json().num("bytes", width * height).str("copy", args.at(4)).boolean("direct", true);
        call.emit();
    } else if (args.size() > 5) {
        aclrtStream stream = stream_arg(args.at(5));
        ACL_CALL(aclrtMemcpy2dAsync, args, dst.pointer, width, src.pointer, width, width, height, kind, stream);
        call.json().num("bytes", width * height).str("copy", args.at(4)).str("stream", args.at(5));
        call.json().inum("stream_id", stream_id_of(args.at(5)));
        call.emit();
    } else {
        ACL_CALL(aclrtMemcpy2d, args, dst.pointer, width, src.pointer, width, width, height, kind);
        call.json().num("bytes", width * height).str("copy", args.at(4));
        call.emit();
    }
}

void cmd_memset(const Args& args) {
    Value target = lookup(args.at(0));
    auto value = static_cast<int32_t>(to_int(args.at(1)));
    auto count = static_cast<size_t>(to_int(args.at(2)));
    if (args.size() > 4 && args.at(4) == "direct") {
        aclrtStream stream = stream_arg(args.at(3));
        const auto direct = reinterpret_cast<decltype(&aclrtMemsetAsync)>(direct_function("aclrtMemsetAsync"));
        if (direct == nullptr) {
            missing("aclrtMemsetAsync", args);
            return;
        }
        Call call("aclrtMemsetAsync", args);
        call.end(direct(target.pointer, target.size, value, count, stream));
        call.json().inum("value", value).num("bytes", count).str("stream", args.at(3)).boolean("direct", true);
        call.json().inum("stream_id", stream_id_of(args.at(3)));
        call.emit();
    } else if (args.size() == 4 && args.at(3) == "direct") {
        const auto direct = reinterpret_cast<decltype(&aclrtMemset)>(direct_function("aclrtMemset"));
        if (direct == nullptr) {
            missing("aclrtMemset", args);
            return;
        }
        Call call("aclrtMemset", args);
        call.end(direct(target.pointer, target.size, value, count));
        call.json().inum("value", value).num("bytes", count).boolean("direct", true);
        call.emit();
    } else if (args.size() > 3) {
        aclrtStream stream = stream_arg(args.at(3));
        ACL_CALL(aclrtMemsetAsync, args, target.pointer, target.size, value, count, stream);
        call.json().inum("value", value).num("bytes", count).str("stream", args.at(3));
        call.json().inum("stream_id", stream_id_of(args.at(3)));
        call.emit();
    } else {
        ACL_CALL(aclrtMemset, args, target.pointer, target.size, value, count);
        call.json().inum("value", value).num("bytes", count);
        call.emit();
    }
}

static aclrtFuncHandle kernel_function(const std::string& name, const Args& launch_args) {
    Args args;  // the loading calls are logged without the launch's label
    args.line = launch_args.line;
    static std::mutex& mutex = *new std::mutex();
    static auto& functions = *new std::map<std::string, aclrtFuncHandle>();
    static aclrtBinHandle binary = nullptr;
    std::lock_guard<std::mutex> lock(mutex);
    auto found = functions.find(name);
    if (found != functions.end()) return found->second;
    if (binary == nullptr) {
        static std::vector<char>& data = *new std::vector<char>();
        const char* path = std::getenv("MSPTI_CONFORMANCE_KERNEL_BIN");
        if (path != nullptr && *path != 0) {
            std::ifstream file(path, std::ios::binary);
            data.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
        } else {
            const char blob[] = "mspti-conformance opaque kernel binary";
            data.assign(blob, blob + sizeof blob);
        }
        auto load = RESOLVE(aclrtBinaryLoadFromData);
        if (load == nullptr) {
            missing("aclrtBinaryLoadFromData", args);
            return nullptr;
        }
        Call call("aclrtBinaryLoadFromData", args);
        aclError result = load(data.data(), data.size(), nullptr, &binary);
        call.end(result).emit();
        if (result != 0) return nullptr;
    }
    auto get = RESOLVE(aclrtBinaryGetFunction);
    if (get == nullptr) {
        missing("aclrtBinaryGetFunction", args);
        return nullptr;
    }
    aclrtFuncHandle function = nullptr;
    Call call("aclrtBinaryGetFunction", args);
    aclError result = get(binary, name.c_str(), &function);
    call.end(result).json().str("kernel", name);
    call.emit();
    if (result != 0) return nullptr;
    functions[name] = function;
    return function;
}

void cmd_launch(const Args& args) {
    const std::string& name = args.at(0);
    aclrtStream stream = stream_arg(args.at(1));
    std::string variant = args.opt(2, "plain");
    auto blocks = static_cast<uint32_t>(to_int(args.opt(3, "1")));
    aclrtFuncHandle function = kernel_function(name, args);
    if (function == nullptr) {
        Json event("call");
        event.str("fn", "launch").str("kernel", name).boolean("no_function", true);
        conformance::emit(event);
        return;
    }
    uint64_t kernel_args[4] = {0, 0, 0, 0};
    auto annotate = [&](Call& call) {
        g_launches.fetch_add(1, std::memory_order_relaxed);
        call.json().str("kernel", name).str("stream", args.at(1)).inum("stream_id", stream_id_of(args.at(1)));
        call.json().num("blocks", blocks).str("variant", variant);
    };
    if (variant == "v2") {
        ACL_CALL(aclrtLaunchKernelV2, args, function, blocks, kernel_args, sizeof kernel_args, nullptr, stream);
        annotate(call);
        call.emit();
    } else if (variant == "config") {
        aclrtArgsHandle handle = nullptr;
        if (auto init = RESOLVE(aclrtKernelArgsInit); init != nullptr) init(function, &handle);
        if (auto finalize = RESOLVE(aclrtKernelArgsFinalize); finalize != nullptr && handle != nullptr)
            finalize(handle);
        ACL_CALL(aclrtLaunchKernelWithConfig, args, function, blocks, stream, nullptr, handle, nullptr);
        annotate(call);
        call.emit();
    } else if (variant == "hostargs") {
        ACL_CALL(aclrtLaunchKernelWithHostArgs, args, function, blocks, stream, nullptr, kernel_args,
                 sizeof kernel_args, nullptr, 0);
        annotate(call);
        call.emit();
    } else if (variant == "direct") {
        static const auto direct = reinterpret_cast<decltype(&aclrtLaunchKernel)>(direct_function("aclrtLaunchKernel"));
        if (direct == nullptr) {
            missing("aclrtLaunchKernel", args);
            return;
        }
        Call call("aclrtLaunchKernel", args);
        call.end(direct(function, blocks, kernel_args, sizeof kernel_args, stream));
        annotate(call);
        call.emit();
    } else {
        ACL_CALL(aclrtLaunchKernel, args, function, blocks, kernel_args, sizeof kernel_args, stream);
        annotate(call);
        call.emit();
    }
}
// Stream capture into a model run instance and its executions (aclmdlRI*). These are looked up by
// name with their C signatures spelled out here, so the driver also builds against CANN headers
// older than the capture API; a runtime without it logs the calls as missing.
using CaptureBeginFn = aclError (*)(aclrtStream, int32_t);
using CaptureEndFn = aclError (*)(aclrtStream, void**);
using ModelExecuteFn = aclError (*)(void*, aclrtStream);
using ModelDestroyFn = aclError (*)(void*);

#define ACL_CALL_AS(type, fn, args, ...)                                        \
    auto api = []() {                                                           \
        static auto pointer = reinterpret_cast<type>(dlsym(RTLD_DEFAULT, #fn)); \
        return pointer;                                                         \
    }();                                                                        \
    if (api == nullptr) {                                                       \
        missing(#fn, args);                                                     \
        return;                                                                 \
    }                                                                           \
    Call call(#fn, args);                                                       \
    aclError result = api(__VA_ARGS__);                                         \
    call.end(result)

void cmd_capture_begin(const Args& args) {
    aclrtStream stream = stream_arg(args.at(0));
    const std::string mode_word = args.opt(1, "global");
    // aclmdlRICaptureMode: GLOBAL 0, THREAD_LOCAL 1, RELAXED 2.
    const int32_t mode = mode_word == "relaxed" ? 2 : mode_word == "thread" ? 1 : 0;
    ACL_CALL_AS(CaptureBeginFn, aclmdlRICaptureBegin, args, stream, mode);
    call.json().str("stream", args.at(0)).str("mode", mode_word);
    call.emit();
}

void cmd_capture_end(const Args& args) {
    aclrtStream stream = stream_arg(args.at(0));
    void* model = nullptr;
    {
        ACL_CALL_AS(CaptureEndFn, aclmdlRICaptureEnd, args, stream, &model);
        call.json().str("stream", args.at(0)).str("var", args.at(1));
        call.emit();
        if (result != 0) return;
    }
    store(args.at(1), Value{model, 0, 0, -1});
}

void cmd_model_execute(const Args& args) {
    void* model = lookup(args.at(0)).pointer;
    aclrtStream stream = stream_arg(args.at(1));
    ACL_CALL_AS(ModelExecuteFn, aclmdlRIExecuteAsync, args, model, stream);
    call.json().str("model", args.at(0)).str("stream", args.at(1)).inum("stream_id", stream_id_of(args.at(1)));
    call.emit();
}

void cmd_model_destroy(const Args& args) {
    void* model = lookup(args.at(0)).pointer;
    ACL_CALL_AS(ModelDestroyFn, aclmdlRIDestroy, args, model);
    call.json().str("model", args.at(0));
    call.emit();
}

}  // namespace conformance::driver
#endif  // CONFORMANCE_HAVE_ACL
