// Runs one calibration row on the simulated NPU through the public C/C++ API and prints the
// simulated time of one operation in ns ("ns=<value>") and the SoC it ran on ("soc=<aclrtGetSocName>").
// Built and run by `npu-sim calibrate` (sim_runtime/calibrate.py) with the virtual clock,
// NPU_SIM_TIMING_ONLY=1 and HCCL_SIM_DATA=0, so that large shapes cost no host arithmetic; built
// against a CANN installation and run on its NPU by `npu-sim calibrate --measure` (public API only).
//
//   calibrate_runner OP METHOD key=value...
//   OP      matmul | flash_attention | unary | rms_norm | memcpy | send | allreduce | allgather |
//           hixl_write | hixl_read | launch_sync
//   HIXL rows: local=device|host names the kind of the local buffer; the remote buffer is device memory.
//           path=cs|comm the transfer path, chosen through Initialize's options as a program does
//           (cs: GlobalResourceConfig naming the protocol "hccs:device", as HIXL's benchmark does;
//           comm: no options, HIXL's default); total=N (optional) moves N bytes per TransferSync cut
//           into `bytes`-sized descriptors, as HIXL's benchmark does, and reports the time per block
//   matmul: m, n, k, dtype and an optional batch (> 1: a batched MatMul, as torch.bmm)
//   METHOD  stream (ITERS operations back to back between two events, per operation)
//           event  (one operation between two events after a synchronisation; the best of three)
//           device (one operation between two events queued behind a 256 MiB memset, so that the
//                   host is ahead of the device, as triton's do_bench does; the best of three)
//           sync   (host time of a synchronous call: events around it on an idle stream, minus two
//                   back-to-back events)
//           wall   (the same around a call followed by aclrtSynchronizeStream: a host clock around the
//                   call and a synchronisation, as `call; torch.npu.synchronize()` is timed)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
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

std::map<std::string, std::string> g_args;

int64_t arg(const char* key, int64_t fallback = 0) {
    auto it = g_args.find(key);
    return it == g_args.end() ? fallback : std::atoll(it->second.c_str());
}

std::string sarg(const char* key, const char* fallback = "") {
    auto it = g_args.find(key);
    return it == g_args.end() ? fallback : it->second;
}

[[noreturn]] void fail(const char* what, long rc) {
    std::fprintf(stderr, "calibrate_runner: %s failed (%ld)\n", what, rc);
    std::exit(2);
}

#define CHECK(call)                               \
    do {                                          \
        const long rc_ = static_cast<long>(call); \
        if (rc_ != 0) fail(#call, rc_);           \
    } while (0)

aclDataType acl_dtype(const std::string& name) {
    if (name == "fp32" || name == "hf32") return ACL_FLOAT;
    if (name == "bf16") return ACL_BF16;
    return ACL_FLOAT16;
}

size_t dtype_bytes(aclDataType t) { return t == ACL_FLOAT ? 4 : 2; }

struct Tensor {
    void* dev = nullptr;
    aclTensor* t = nullptr;
    Tensor(std::vector<int64_t> dims, aclDataType dtype) {
        std::vector<int64_t> strides(dims.size(), 1);
        for (size_t i = dims.size(); i-- > 1;) strides[i - 1] = strides[i] * dims[i];
        int64_t n = 1;
        for (int64_t d : dims) n *= d;
        CHECK(aclrtMalloc(&dev, std::max<size_t>(1, size_t(n) * dtype_bytes(dtype)), ACL_MEM_MALLOC_HUGE_FIRST));
        const int64_t storage[1] = {n};
        t = aclCreateTensor(dims.data(), dims.size(), dtype, strides.data(), 0, ACL_FORMAT_ND, storage, 1, dev);
        if (t == nullptr) fail("aclCreateTensor", -1);
    }
};

// One operation of the row on `stream` (the two phases of an aclnn operator, or a copy).
using Op = std::function<void(aclrtStream)>;

double elapsed_ns(aclrtEvent a, aclrtEvent b) {
    float ms = 0;
    CHECK(aclrtEventElapsedTime(&ms, a, b));
    return double(ms) * 1e6;
}

double time_op(const Op& op, const std::string& method, aclrtStream stream, int iters) {
    aclrtEvent e0, e1;
    CHECK(aclrtCreateEvent(&e0));
    CHECK(aclrtCreateEvent(&e1));
    op(stream);  // warm-up: binaries load on first use
    CHECK(aclrtSynchronizeStream(stream));
    double best = -1;
    if (method == "stream") {
        CHECK(aclrtRecordEvent(e0, stream));
        for (int i = 0; i < iters; ++i) op(stream);
        CHECK(aclrtRecordEvent(e1, stream));
        CHECK(aclrtSynchronizeStream(stream));
        best = elapsed_ns(e0, e1) / iters;
    } else if (method == "event" || method == "device") {
        // device: a 256 MiB memset ahead of each timed call keeps the host ahead of the device.
        constexpr size_t kFlush = size_t(256) << 20;
        void* flush = nullptr;
        if (method == "device") CHECK(aclrtMalloc(&flush, kFlush, ACL_MEM_MALLOC_HUGE_FIRST));
        for (int i = 0; i < 3; ++i) {
            if (flush != nullptr) CHECK(aclrtMemsetAsync(flush, kFlush, 0, kFlush, stream));
            CHECK(aclrtRecordEvent(e0, stream));
            op(stream);
            CHECK(aclrtRecordEvent(e1, stream));
            CHECK(aclrtSynchronizeStream(stream));
            const double t = elapsed_ns(e0, e1);
            best = best < 0 ? t : std::min(best, t);
        }
        if (flush != nullptr) CHECK(aclrtFree(flush));
    } else {  // sync / wall: host time of a call, on an otherwise idle stream
        CHECK(aclrtRecordEvent(e0, stream));
        CHECK(aclrtRecordEvent(e1, stream));
        CHECK(aclrtSynchronizeStream(stream));
        const double empty = elapsed_ns(e0, e1);
        CHECK(aclrtRecordEvent(e0, stream));
        op(stream);  // sync: a synchronous call, which returns when the operation is done
        if (method == "wall") CHECK(aclrtSynchronizeStream(stream));  // wall: the call, then a synchronisation
        CHECK(aclrtRecordEvent(e1, stream));
        CHECK(aclrtSynchronizeStream(stream));
        best = elapsed_ns(e0, e1) - empty;
    }
    aclrtDestroyEvent(e0);
    aclrtDestroyEvent(e1);
    return best;
}

struct MatmulCtx {
    aclTensor *a, *b, *c;
};

struct FaCtx {
    aclTensor *q, *k, *v, *smax, *ssum, *out;
    int64_t heads;
    double scale;
};

struct UnaryCtx {
    aclTensor *x, *y, *gamma, *rstd;
};

Op kernel_op(const std::string& op, aclrtStream) {
    const aclDataType dt = acl_dtype(sarg("dtype", "fp16"));
    if (op == "matmul") {
        // batch > 1: a batched MatMul (torch.bmm), [batch, m, k] x [batch, k, n]
        const int64_t m = arg("m"), n = arg("n"), k = arg("k"), batch = arg("batch", 1);
        const auto dims = [batch](int64_t rows, int64_t cols) {
            return batch > 1 ? std::vector<int64_t>{batch, rows, cols} : std::vector<int64_t>{rows, cols};
        };
        auto* ctx = new MatmulCtx{Tensor(dims(m, k), dt).t, Tensor(dims(k, n), dt).t, Tensor(dims(m, n), dt).t};
        const int8_t math = sarg("dtype") == "hf32" ? 1 : 0;
        return [ctx, math](aclrtStream s) {
            uint64_t ws_size = 0;
            aclOpExecutor* ex = nullptr;
            CHECK(aclnnMatmulGetWorkspaceSize(ctx->a, ctx->b, ctx->c, math, &ws_size, &ex));
            void* ws = nullptr;
            if (ws_size > 0) CHECK(aclrtMalloc(&ws, ws_size, ACL_MEM_MALLOC_HUGE_FIRST));
            CHECK(aclnnMatmul(ws, ws_size, ex, s));
        };
    }
    if (op == "flash_attention") {
        const int64_t b = arg("batch", 1), n = arg("heads", 1), sq = arg("sq"), skv = arg("skv"), d = arg("d", 128);
        auto* ctx = new FaCtx{Tensor({b, n, sq, d}, dt).t,
                              Tensor({b, n, skv, d}, dt).t,
                              Tensor({b, n, skv, d}, dt).t,
                              Tensor({b, n, sq, 8}, ACL_FLOAT).t,
                              Tensor({b, n, sq, 8}, ACL_FLOAT).t,
                              Tensor({b, n, sq, d}, dt).t,
                              n,
                              1.0 / 11.3137};
        return [ctx](aclrtStream s) {
            uint64_t ws_size = 0;
            aclOpExecutor* ex = nullptr;
            char layout[] = "BNSD";
            CHECK(aclnnFlashAttentionScoreGetWorkspaceSize(
                ctx->q, ctx->k, ctx->v, nullptr, nullptr, nullptr, nullptr, nullptr, ctx->scale, 1.0, 2147483647,
                2147483647, ctx->heads, layout, 0, 0, ctx->smax, ctx->ssum, nullptr, ctx->out, &ws_size, &ex));
            void* ws = nullptr;
            if (ws_size > 0) CHECK(aclrtMalloc(&ws, ws_size, ACL_MEM_MALLOC_HUGE_FIRST));
            CHECK(aclnnFlashAttentionScore(ws, ws_size, ex, s));
        };
    }
    if (op == "unary") {
        const int64_t n = arg("elements");
        auto* ctx = new UnaryCtx{Tensor({n}, dt).t, Tensor({n}, dt).t, nullptr, nullptr};
        return [ctx](aclrtStream s) {
            uint64_t ws_size = 0;
            aclOpExecutor* ex = nullptr;
            CHECK(aclnnReluGetWorkspaceSize(ctx->x, ctx->y, &ws_size, &ex));
            CHECK(aclnnRelu(nullptr, 0, ex, s));
        };
    }
    if (op == "rms_norm") {
        const int64_t rows = arg("rows"), cols = arg("cols");
        auto* ctx = new UnaryCtx{Tensor({rows, cols}, dt).t, Tensor({rows, cols}, dt).t, Tensor({cols}, dt).t,
                                 Tensor({rows, 1}, ACL_FLOAT).t};
        return [ctx](aclrtStream s) {
            uint64_t ws_size = 0;
            aclOpExecutor* ex = nullptr;
            CHECK(aclnnRmsNormGetWorkspaceSize(ctx->x, ctx->gamma, 1e-6, ctx->y, ctx->rstd, &ws_size, &ex));
            CHECK(aclnnRmsNorm(nullptr, 0, ex, s));
        };
    }
    if (op == "memcpy") {
        const size_t bytes = size_t(arg("bytes"));
        void *dev = nullptr, *host = nullptr;
        CHECK(aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
        CHECK(aclrtMallocHost(&host, bytes));
        const bool d2h = sarg("direction") == "d2h";
        return [=](aclrtStream s) {
            if (d2h) CHECK(aclrtMemcpyAsync(host, bytes, dev, bytes, ACL_MEMCPY_DEVICE_TO_HOST, s));
            else CHECK(aclrtMemcpyAsync(dev, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE, s));
        };
    }
    if (op == "launch_sync") {  // the launch of an empty kernel (method wall adds the synchronisation)
        static const char image[] = "calibrate-empty-kernel";
        aclrtBinHandle bin = nullptr;
        aclrtFuncHandle fn = nullptr;
        CHECK(aclrtBinaryLoadFromData(image, sizeof image, nullptr, &bin));
        CHECK(aclrtBinaryGetFunction(bin, "empty_kernel", &fn));
        return [fn](aclrtStream s) { CHECK(aclrtLaunchKernel(fn, 1, nullptr, 0, s)); };
    }
    fail(op.c_str(), -1);
}

HcclDataType hccl_dtype(const std::string& name) {
    if (name == "fp16") return HCCL_DATA_TYPE_FP16;
    if (name == "bf16") return HCCL_DATA_TYPE_BFP16;
    return HCCL_DATA_TYPE_FP32;
}

// Ranks as threads, one device each. The row's time is the smallest of the ranks' times: a rank's
// events also hold the wait for the ranks that arrive later, and the order in which the threads reach
// the call varies from run to run; the last to arrive waits for nobody, so its time is the operation's.
double run_collective(const std::string& op, const std::string& method, int iters) {
    const uint32_t p = uint32_t(arg("ranks", 2));
    const uint64_t bytes = uint64_t(arg("bytes"));
    const HcclDataType dt = hccl_dtype(sarg("dtype", "fp32"));
    const uint64_t es = dt == HCCL_DATA_TYPE_FP32 ? 4 : 2;
    HcclRootInfo info;
    CHECK(HcclGetRootInfo(&info));
    std::vector<double> result(p, 0);
    std::vector<std::thread> threads;
    for (uint32_t r = 0; r < p; ++r) {
        threads.emplace_back([&, r] {
            CHECK(aclrtSetDevice(int32_t(r)));
            aclrtStream stream = nullptr;
            CHECK(aclrtCreateStream(&stream));
            HcclComm comm = nullptr;
            CHECK(HcclCommInitRootInfo(p, &info, r, &comm));
            // allreduce: a buffer of `bytes`; allgather: an output of `bytes`; send: a message of `bytes`.
            const uint64_t in_bytes = op == "allgather" ? bytes / p : bytes;
            void *in = nullptr, *out = nullptr;
            CHECK(aclrtMalloc(&in, in_bytes, ACL_MEM_MALLOC_HUGE_FIRST));
            CHECK(aclrtMalloc(&out, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
            const Op one = [&](aclrtStream s) {
                if (op == "allreduce") CHECK(HcclAllReduce(in, out, bytes / es, dt, HCCL_REDUCE_SUM, comm, s));
                else if (op == "allgather") CHECK(HcclAllGather(in, out, in_bytes / es, dt, comm, s));
                else if (r == 0) CHECK(HcclSend(in, bytes / es, dt, 1, comm, s));
                else if (r == 1) CHECK(HcclRecv(out, bytes / es, dt, 0, comm, s));
            };
            result[r] = time_op(one, method, stream, iters);
            CHECK(HcclCommDestroy(comm));
            aclrtFree(in);
            aclrtFree(out);
            aclrtDestroyStream(stream);
        });
    }
    for (auto& t : threads) t.join();
    return *std::min_element(result.begin(), result.end());
}

// A loopback port nobody listens on now, for the receiving engine (public HIXL API only: the engine is
// named by the address it was initialised with).
int free_port() {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    const bool ok = fd >= 0 && bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
                    getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0;
    if (fd >= 0) close(fd);
    if (!ok) fail("no free loopback port", -1);
    return ntohs(addr.sin_port);
}

double run_hixl(bool read) {
    using namespace hixl;
    const size_t bytes = size_t(arg("bytes"));
    const size_t total = std::max(size_t(arg("total", int64_t(bytes))), bytes);
    const size_t blocks = total / bytes;
    const bool host_local = sarg("local", "device") == "host";
    const std::string path = sarg("path", "comm");
    if (bytes == 0 || (path != "cs" && path != "comm")) fail("HIXL row: bytes > 0 and path=cs|comm", -1);
    CHECK(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK(aclrtCreateStream(&stream));
    void *local = nullptr, *remote = nullptr;
    const size_t span = blocks * bytes;
    if (host_local) {
        CHECK(aclrtMallocHost(&local, span));
    } else {
        CHECK(aclrtMalloc(&local, span, ACL_MEM_MALLOC_HUGE_FIRST));
    }
    CHECK(aclrtMalloc(&remote, span, ACL_MEM_MALLOC_HUGE_FIRST));
    Hixl a, b;
    const std::string b_address = "127.0.0.1:" + std::to_string(free_port());
    const AscendString b_name(b_address.c_str());
    std::map<AscendString, AscendString> options;
    if (path == "cs")
        options[AscendString(OPTION_GLOBAL_RESOURCE_CONFIG)] =
            AscendString("{\"comm_resource_config.protocol_desc\": [\"hccs:device\"]}");
    MemDesc ma{}, mb{};
    ma.addr = reinterpret_cast<uintptr_t>(local);
    ma.len = span;
    mb.addr = reinterpret_cast<uintptr_t>(remote);
    mb.len = span;
    MemHandle ha = nullptr, hb = nullptr;
    if (a.Initialize("127.0.0.1:0", options) != SUCCESS || b.Initialize(b_name, options) != SUCCESS ||
        a.RegisterMem(ma, host_local ? MEM_HOST : MEM_DEVICE, ha) != SUCCESS ||
        b.RegisterMem(mb, MEM_DEVICE, hb) != SUCCESS || a.Connect(b_name) != SUCCESS)
        fail("HIXL setup", -1);
    std::vector<TransferOpDesc> descs;
    for (size_t i = 0; i < blocks; ++i) descs.push_back({ma.addr + i * bytes, mb.addr + i * bytes, bytes});
    const Op one = [&](aclrtStream) {
        if (a.TransferSync(b_name, read ? READ : WRITE, descs) != SUCCESS) fail("TransferSync", -1);
    };
    const double t = time_op(one, "sync", stream, 1) / double(blocks);
    a.Finalize();
    b.Finalize();
    return t;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s OP METHOD key=value...\n", argv[0]);
        return 64;
    }
    const std::string op = argv[1], method = argv[2];
    for (int i = 3; i < argc; ++i) {
        const char* eq = std::strchr(argv[i], '=');
        if (eq != nullptr) g_args[std::string(argv[i], size_t(eq - argv[i]))] = eq + 1;
    }
    const int iters = int(arg("iters", 4));
    CHECK(aclInit(nullptr));
    double ns = 0;
    if (op == "send" || op == "allreduce" || op == "allgather") {
        ns = run_collective(op, method, iters);
    } else if (op == "hixl_write" || op == "hixl_read") {
        ns = run_hixl(op == "hixl_read");
    } else {
        CHECK(aclrtSetDevice(0));
        aclrtStream stream = nullptr;
        CHECK(aclrtCreateStream(&stream));
        const Op one = kernel_op(op, stream);
        ns = time_op(one, method, stream, iters);
    }
    const char* soc = aclrtGetSocName();
    std::printf("soc=%s\nns=%.3f\n", soc != nullptr ? soc : "unknown", ns);
    std::fflush(stdout);
    std::_Exit(0);  // skip teardown: the row's buffers are many and large
}
