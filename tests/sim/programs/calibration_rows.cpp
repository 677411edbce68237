// Times calibration rows through the public CANN API, independently of the calibration runner
// (sim_runtime/data/calibrate_runner.cpp): tests/sim/test_calibration_identity.py checks that each row's
// simulated time is the one `npu-sim calibrate` reports, i.e. that it follows from the row's operation,
// shape, dtype and SoC alone.
//
//   calibration_rows ROWS_FILE
//   each line: ID OP METHOD key=value...   (the row's op, method and shape keys, as in calibration.toml)
// Prints "ID NS" per row: the time of one operation in ns, measured with events as the row's method
// says (stream: ITERS operations back to back; event / device: the best of three single operations,
// device behind a 256 MiB memset; sync: a synchronous call minus two back-to-back events; wall: the
// same around a call followed by aclrtSynchronizeStream).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_flash_attention_score.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "hccl/hccl.h"
#include "hixl/hixl.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace {

[[noreturn]] void die(const std::string& what, long code) {
    std::fprintf(stderr, "calibration_rows: %s (%ld)\n", what.c_str(), code);
    std::exit(1);
}

void ok(long code, const char* what) {
    if (code != 0) die(what, code);
}

struct Spec {
    std::string id, op, method;
    std::map<std::string, std::string> keys;
    long long num(const std::string& key, long long fallback = 0) const {
        auto it = keys.find(key);
        return it == keys.end() ? fallback : std::atoll(it->second.c_str());
    }
    std::string str(const std::string& key, const std::string& fallback) const {
        auto it = keys.find(key);
        return it == keys.end() ? fallback : it->second;
    }
};

// Device buffers and tensors of one row, freed when the row is done.
class Buffers {
public:
    Buffers() = default;
    Buffers(const Buffers&) = delete;
    Buffers& operator=(const Buffers&) = delete;
    ~Buffers() {
        for (aclTensor* t : tensors_) aclDestroyTensor(t);
        for (void* p : device_) aclrtFree(p);
        for (void* p : host_) aclrtFreeHost(p);
    }
    void* device(size_t bytes) {
        void* p = nullptr;
        ok(aclrtMalloc(&p, std::max<size_t>(bytes, 1), ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
        device_.push_back(p);
        return p;
    }
    void* host(size_t bytes) {
        void* p = nullptr;
        ok(aclrtMallocHost(&p, std::max<size_t>(bytes, 1)), "aclrtMallocHost");
        host_.push_back(p);
        return p;
    }
    aclTensor* tensor(const std::vector<int64_t>& dims, aclDataType dtype) {
        std::vector<int64_t> strides(dims.size(), 1);
        for (size_t i = dims.size(); i-- > 1;) strides[i - 1] = strides[i] * dims[i];
        int64_t elements = 1;
        for (int64_t d : dims) elements *= d;
        const size_t width = dtype == ACL_FLOAT ? 4 : 2;
        void* data = device(static_cast<size_t>(elements) * width);
        aclTensor* t =
            aclCreateTensor(dims.data(), dims.size(), dtype, strides.data(), 0, ACL_FORMAT_ND, &elements, 1, data);
        if (t == nullptr) die("aclCreateTensor", -1);
        tensors_.push_back(t);
        return t;
    }

private:
    std::vector<void*> device_, host_;
    std::vector<aclTensor*> tensors_;
};

aclDataType dtype_of(const std::string& name) {
    if (name == "bf16") return ACL_BF16;
    if (name == "fp32" || name == "hf32") return ACL_FLOAT;
    return ACL_FLOAT16;
}

// The second phase of an aclnn operator with the workspace it asked for.
using Launch = std::function<aclnnStatus(void*, uint64_t, aclOpExecutor*, aclrtStream)>;

void run_aclnn(Buffers& buffers, uint64_t workspace, aclOpExecutor* executor, const Launch& launch, aclrtStream s) {
    void* ws = workspace > 0 ? buffers.device(workspace) : nullptr;
    ok(launch(ws, workspace, executor, s), "aclnn launch");
}

using Call = std::function<void(aclrtStream)>;

float event_ms(aclrtEvent from, aclrtEvent to) {
    float ms = 0;
    ok(aclrtEventElapsedTime(&ms, from, to), "aclrtEventElapsedTime");
    return ms;
}

double measure(const Call& call, const Spec& spec, aclrtStream s, Buffers& buffers) {
    aclrtEvent start = nullptr, stop = nullptr;
    ok(aclrtCreateEvent(&start), "aclrtCreateEvent");
    ok(aclrtCreateEvent(&stop), "aclrtCreateEvent");
    call(s);  // the first call loads the operator's binary
    ok(aclrtSynchronizeStream(s), "aclrtSynchronizeStream");
    double ns = 0;
    if (spec.method == "stream") {
        const long long iters = spec.num("iters", 4);
        ok(aclrtRecordEvent(start, s), "aclrtRecordEvent");
        for (long long i = 0; i < iters; ++i) call(s);
        ok(aclrtRecordEvent(stop, s), "aclrtRecordEvent");
        ok(aclrtSynchronizeStream(s), "aclrtSynchronizeStream");
        ns = event_ms(start, stop) * 1e6 / static_cast<double>(iters);
    } else if (spec.method == "event" || spec.method == "device") {
        const size_t flush_bytes = size_t(256) << 20;
        void* flush = spec.method == "device" ? buffers.device(flush_bytes) : nullptr;
        for (int attempt = 0; attempt < 3; ++attempt) {
            if (flush != nullptr) ok(aclrtMemsetAsync(flush, flush_bytes, 0, flush_bytes, s), "aclrtMemsetAsync");
            ok(aclrtRecordEvent(start, s), "aclrtRecordEvent");
            call(s);
            ok(aclrtRecordEvent(stop, s), "aclrtRecordEvent");
            ok(aclrtSynchronizeStream(s), "aclrtSynchronizeStream");
            const double t = event_ms(start, stop) * 1e6;
            ns = attempt == 0 ? t : std::min(ns, t);
        }
    } else {
        ok(aclrtRecordEvent(start, s), "aclrtRecordEvent");
        ok(aclrtRecordEvent(stop, s), "aclrtRecordEvent");
        ok(aclrtSynchronizeStream(s), "aclrtSynchronizeStream");
        const double idle = event_ms(start, stop) * 1e6;
        ok(aclrtRecordEvent(start, s), "aclrtRecordEvent");
        call(s);
        // wall: a host clock around the call and a synchronisation; sync: the call is synchronous.
        if (spec.method == "wall") ok(aclrtSynchronizeStream(s), "aclrtSynchronizeStream");
        ok(aclrtRecordEvent(stop, s), "aclrtRecordEvent");
        ok(aclrtSynchronizeStream(s), "aclrtSynchronizeStream");
        ns = event_ms(start, stop) * 1e6 - idle;
    }
    aclrtDestroyEvent(start);
    aclrtDestroyEvent(stop);
    return ns;
}

double device_row(const Spec& spec) {
    ok(aclrtSetDevice(0), "aclrtSetDevice");
    aclrtStream s = nullptr;
    ok(aclrtCreateStream(&s), "aclrtCreateStream");
    Buffers b;
    const aclDataType dt = dtype_of(spec.str("dtype", "fp16"));
    Call call;
    if (spec.op == "matmul") {
        const int64_t batch = spec.num("batch", 1);
        const auto shape = [batch](int64_t rows, int64_t cols) {
            return batch > 1 ? std::vector<int64_t>{batch, rows, cols} : std::vector<int64_t>{rows, cols};
        };
        aclTensor* x = b.tensor(shape(spec.num("m"), spec.num("k")), dt);
        aclTensor* w = b.tensor(shape(spec.num("k"), spec.num("n")), dt);
        aclTensor* y = b.tensor(shape(spec.num("m"), spec.num("n")), dt);
        const int8_t math = spec.str("dtype", "") == "hf32" ? 1 : 0;
        call = [&b, x, w, y, math](aclrtStream st) {
            uint64_t ws = 0;
            aclOpExecutor* ex = nullptr;
            ok(aclnnMatmulGetWorkspaceSize(x, w, y, math, &ws, &ex), "aclnnMatmulGetWorkspaceSize");
            run_aclnn(b, ws, ex, aclnnMatmul, st);
        };
    } else if (spec.op == "flash_attention") {
        const int64_t batch = spec.num("batch", 1), heads = spec.num("heads", 1), d = spec.num("d", 128);
        aclTensor* q = b.tensor({batch, heads, spec.num("sq"), d}, dt);
        aclTensor* k = b.tensor({batch, heads, spec.num("skv"), d}, dt);
        aclTensor* v = b.tensor({batch, heads, spec.num("skv"), d}, dt);
        aclTensor* row_max = b.tensor({batch, heads, spec.num("sq"), 8}, ACL_FLOAT);
        aclTensor* row_sum = b.tensor({batch, heads, spec.num("sq"), 8}, ACL_FLOAT);
        aclTensor* out = b.tensor({batch, heads, spec.num("sq"), d}, dt);
        call = [&b, q, k, v, row_max, row_sum, out, heads](aclrtStream st) {
            uint64_t ws = 0;
            aclOpExecutor* ex = nullptr;
            char layout[] = "BNSD";
            ok(aclnnFlashAttentionScoreGetWorkspaceSize(q, k, v, nullptr, nullptr, nullptr, nullptr, nullptr, 0.088,
                                                        1.0, 2147483647, 2147483647, heads, layout, 0, 0, row_max,
                                                        row_sum, nullptr, out, &ws, &ex),
               "aclnnFlashAttentionScoreGetWorkspaceSize");
            run_aclnn(b, ws, ex, aclnnFlashAttentionScore, st);
        };
    } else if (spec.op == "unary") {
        aclTensor* x = b.tensor({spec.num("elements")}, dt);
        aclTensor* y = b.tensor({spec.num("elements")}, dt);
        call = [&b, x, y](aclrtStream st) {
            uint64_t ws = 0;
            aclOpExecutor* ex = nullptr;
            ok(aclnnReluGetWorkspaceSize(x, y, &ws, &ex), "aclnnReluGetWorkspaceSize");
            run_aclnn(b, ws, ex, aclnnRelu, st);
        };
    } else if (spec.op == "rms_norm") {
        const int64_t rows = spec.num("rows"), cols = spec.num("cols");
        aclTensor* x = b.tensor({rows, cols}, dt);
        aclTensor* gamma = b.tensor({cols}, dt);
        aclTensor* y = b.tensor({rows, cols}, dt);
        aclTensor* rstd = b.tensor({rows, 1}, ACL_FLOAT);
        call = [&b, x, gamma, y, rstd](aclrtStream st) {
            uint64_t ws = 0;
            aclOpExecutor* ex = nullptr;
            ok(aclnnRmsNormGetWorkspaceSize(x, gamma, 1e-6, y, rstd, &ws, &ex), "aclnnRmsNormGetWorkspaceSize");
            run_aclnn(b, ws, ex, aclnnRmsNorm, st);
        };
    } else if (spec.op == "memcpy") {
        const size_t bytes = static_cast<size_t>(spec.num("bytes"));
        void* dev = b.device(bytes);
        void* host = b.host(bytes);
        const bool to_host = spec.str("direction", "h2d") == "d2h";
        call = [=](aclrtStream st) {
            ok(to_host ? aclrtMemcpyAsync(host, bytes, dev, bytes, ACL_MEMCPY_DEVICE_TO_HOST, st)
                       : aclrtMemcpyAsync(dev, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE, st),
               "aclrtMemcpyAsync");
        };
    } else if (spec.op == "launch_sync") {
        static const char image[] = "calibration-rows-kernel";
        aclrtBinHandle bin = nullptr;
        aclrtFuncHandle fn = nullptr;
        ok(aclrtBinaryLoadFromData(image, sizeof image, nullptr, &bin), "aclrtBinaryLoadFromData");
        ok(aclrtBinaryGetFunction(bin, "empty_kernel", &fn),
           "aclrtBinaryGetFunction");  // an empty kernel: kernel_costs.toml "*empty*"
        // The launch alone: the row's method (wall) synchronises.
        call = [fn](aclrtStream st) { ok(aclrtLaunchKernel(fn, 1, nullptr, 0, st), "aclrtLaunchKernel"); };
    } else {
        die("unknown op " + spec.op, -1);
    }
    const double ns = measure(call, spec, s, b);
    ok(aclrtSynchronizeStream(s), "aclrtSynchronizeStream");
    aclrtDestroyStream(s);
    return ns;
}

// Ranks as threads, one device each; the row's time is the last rank's (the one nobody waits for).
double collective_row(const Spec& spec) {
    const uint32_t ranks = static_cast<uint32_t>(spec.num("ranks", 2));
    const uint64_t bytes = static_cast<uint64_t>(spec.num("bytes"));
    const std::string dtype = spec.str("dtype", "fp32");
    const HcclDataType dt = dtype == "fp16"   ? HCCL_DATA_TYPE_FP16
                            : dtype == "bf16" ? HCCL_DATA_TYPE_BFP16
                                              : HCCL_DATA_TYPE_FP32;
    const uint64_t width = dt == HCCL_DATA_TYPE_FP32 ? 4 : 2;
    HcclRootInfo root;
    ok(HcclGetRootInfo(&root), "HcclGetRootInfo");
    std::vector<double> times(ranks, 0);
    std::vector<std::thread> threads;
    for (uint32_t rank = 0; rank < ranks; ++rank) {
        threads.emplace_back([&, rank] {
            ok(aclrtSetDevice(static_cast<int32_t>(rank)), "aclrtSetDevice");
            aclrtStream s = nullptr;
            ok(aclrtCreateStream(&s), "aclrtCreateStream");
            HcclComm comm = nullptr;
            ok(HcclCommInitRootInfo(ranks, &root, rank, &comm), "HcclCommInitRootInfo");
            Buffers b;
            const uint64_t send_bytes = spec.op == "allgather" ? bytes / ranks : bytes;
            void* in = b.device(send_bytes);
            void* out = b.device(bytes);
            const Call call = [&](aclrtStream st) {
                if (spec.op == "allreduce") {
                    ok(HcclAllReduce(in, out, bytes / width, dt, HCCL_REDUCE_SUM, comm, st), "HcclAllReduce");
                } else if (spec.op == "allgather") {
                    ok(HcclAllGather(in, out, send_bytes / width, dt, comm, st), "HcclAllGather");
                } else if (rank == 0) {
                    ok(HcclSend(in, bytes / width, dt, 1, comm, st), "HcclSend");
                } else if (rank == 1) {
                    ok(HcclRecv(out, bytes / width, dt, 0, comm, st), "HcclRecv");
                }
            };
            times[rank] = measure(call, spec, s, b);
            ok(HcclCommDestroy(comm), "HcclCommDestroy");
            aclrtDestroyStream(s);
        });
    }
    for (auto& t : threads) t.join();
    return *std::min_element(times.begin(), times.end());
}

// A loopback port free now: the target engine is named by the address it was initialised with.
int free_port() {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    const bool bound = fd >= 0 && bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
                       getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0;
    if (fd >= 0) close(fd);
    if (!bound) die("no free loopback port", -1);
    return ntohs(addr.sin_port);
}

// HIXL: the row's path through Initialize's options (hixl_cs: a protocol description in
// GlobalResourceConfig; the communication domain: HIXL's default, no options); `total` bytes per
// TransferSync in `bytes`-sized op descs, the time per desc.
double hixl_row(const Spec& spec) {
    using namespace hixl;
    ok(aclrtSetDevice(0), "aclrtSetDevice");
    aclrtStream s = nullptr;
    ok(aclrtCreateStream(&s), "aclrtCreateStream");
    Buffers b;
    const size_t block = static_cast<size_t>(spec.num("bytes"));
    const size_t count =
        std::max<size_t>(1, static_cast<size_t>(spec.num("total", static_cast<long long>(block))) / block);
    const bool host_local = spec.str("local", "device") == "host";
    void* local = host_local ? b.host(block * count) : b.device(block * count);
    void* remote = b.device(block * count);
    const std::string name = "127.0.0.1:" + std::to_string(free_port());
    std::map<AscendString, AscendString> options;
    if (spec.str("path", "comm") == "cs")
        options.emplace(OPTION_GLOBAL_RESOURCE_CONFIG, R"({"comm_resource_config.protocol_desc": "hccs:device"})");
    Hixl initiator, target;
    MemDesc mine{}, theirs{};
    mine.addr = reinterpret_cast<uintptr_t>(local);
    mine.len = block * count;
    theirs.addr = reinterpret_cast<uintptr_t>(remote);
    theirs.len = block * count;
    MemHandle h_mine = nullptr, h_theirs = nullptr;
    if (initiator.Initialize("127.0.0.1:0", options) != SUCCESS ||
        target.Initialize(name.c_str(), options) != SUCCESS ||
        initiator.RegisterMem(mine, host_local ? MEM_HOST : MEM_DEVICE, h_mine) != SUCCESS ||
        target.RegisterMem(theirs, MEM_DEVICE, h_theirs) != SUCCESS || initiator.Connect(name.c_str()) != SUCCESS)
        die("HIXL setup", -1);
    std::vector<TransferOpDesc> ops(count);
    for (size_t i = 0; i < count; ++i) ops[i] = {mine.addr + i * block, theirs.addr + i * block, block};
    const TransferOp kind = spec.op == "hixl_read" ? READ : WRITE;
    const Call call = [&](aclrtStream) {
        if (initiator.TransferSync(name.c_str(), kind, ops) != SUCCESS) die("TransferSync", -1);
    };
    Spec sync = spec;
    sync.method = "sync";
    const double ns = measure(call, sync, s, b) / static_cast<double>(count);
    initiator.Finalize();
    target.Finalize();
    aclrtDestroyStream(s);
    return ns;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s ROWS_FILE\n", argv[0]);
        return 2;
    }
    std::ifstream in(argv[1]);
    if (!in) die(std::string("cannot read ") + argv[1], -1);
    std::vector<Spec> specs;
    for (std::string line; std::getline(in, line);) {
        std::istringstream words(line);
        Spec spec;
        if (!(words >> spec.id >> spec.op >> spec.method)) continue;
        for (std::string kv; words >> kv;) {
            const auto eq = kv.find('=');
            if (eq != std::string::npos) spec.keys[kv.substr(0, eq)] = kv.substr(eq + 1);
        }
        specs.push_back(spec);
    }
    ok(aclInit(nullptr), "aclInit");
    for (size_t i = 0; i < specs.size(); ++i) {
        const Spec& spec = specs[i];
        double ns = 0;
        if (spec.op == "allreduce" || spec.op == "allgather" || spec.op == "send") ns = collective_row(spec);
        else if (spec.op == "hixl_write" || spec.op == "hixl_read") ns = hixl_row(spec);
        else ns = device_row(spec);
        std::printf("%s %.3f\n", spec.id.c_str(), ns);
        std::fflush(stdout);
    }
    std::fflush(stdout);
    std::_Exit(0);
}
