// A small decoder-style model for the performance breakdown: every step runs an embedding stage, N
// decoder layers (attention and MLP sub-modules built from aclnn operators), a final norm, an LM
// head and (when the simulated HCCL is available) one HcclAllReduce of the logits. Each layer, each
// sub-module and each operator is wrapped in an mstx range, so a capture declares the model's
// structure: layers are ranges of the "decoder_layers" domain, runtime work (synchronisation and
// the copy of the logits back to the host) is a range of the "runtime" domain.
//
//   decoder_breakdown [--layers N] [--steps N] [--tokens N] [--hidden N] [--no-hccl]
//
// Prints one summary line: "decoder_breakdown layers=N steps=N hccl=0|1 ops_per_step=N".
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_silu.h"
#include "aclnnop/aclnn_softmax.h"
#include "hccl/hccl_types.h"
#include "mstx/ms_tools_ext.h"

namespace {

#define CHECK(call)                                                                          \
    do {                                                                                     \
        const int rc_ = static_cast<int>(call);                                              \
        if (rc_ != 0) {                                                                      \
            std::fprintf(stderr, "%s:%d: %s returned %d\n", __FILE__, __LINE__, #call, rc_); \
            std::exit(1);                                                                    \
        }                                                                                    \
    } while (0)

struct Options {
    int layers = 4;
    int steps = 3;
    int64_t tokens = 8;
    int64_t hidden = 64;
    bool hccl = true;
};

// A device buffer with its tensor descriptor.
struct Tensor {
    void* device = nullptr;
    aclTensor* tensor = nullptr;
    size_t bytes = 0;
};

Tensor make_tensor(const std::vector<int64_t>& shape) {
    Tensor t;
    size_t elements = 1;
    for (int64_t d : shape) elements *= static_cast<size_t>(d);
    t.bytes = elements * sizeof(float);
    CHECK(aclrtMalloc(&t.device, t.bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    std::vector<float> host(elements);
    for (size_t i = 0; i < elements; ++i) host[i] = 0.01f * static_cast<float>(i % 97);
    CHECK(aclrtMemcpy(t.device, t.bytes, host.data(), t.bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    std::vector<int64_t> strides(shape.size(), 1);
    for (size_t i = shape.size(); i-- > 1;) strides[i - 1] = strides[i] * shape[i];
    t.tensor = aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND, shape.data(),
                               shape.size(), t.device);
    if (t.tensor == nullptr) {
        std::fprintf(stderr, "aclCreateTensor failed\n");
        std::exit(1);
    }
    return t;
}

void free_tensor(Tensor& t) {
    aclDestroyTensor(t.tensor);
    CHECK(aclrtFree(t.device));
}

// Runs aclnn operators on one stream with one shared workspace.
class Runner {
public:
    explicit Runner(aclrtStream stream) : stream_(stream) {}
    ~Runner() {
        if (workspace_ != nullptr) aclrtFree(workspace_);
    }

    template <typename Phase1, typename Phase2>
    void run(Phase1 phase1, Phase2 phase2) {
        uint64_t size = 0;
        aclOpExecutor* executor = nullptr;
        CHECK(phase1(&size, &executor));
        if (size > capacity_) {
            if (workspace_ != nullptr) CHECK(aclrtFree(workspace_));
            CHECK(aclrtMalloc(&workspace_, size, ACL_MEM_MALLOC_HUGE_FIRST));
            capacity_ = size;
        }
        CHECK(phase2(size > 0 ? workspace_ : nullptr, size, executor, stream_));
        ++ops_;
    }

    void matmul(const Tensor& a, const Tensor& b, Tensor& out) {
        run([&](uint64_t* ws,
                aclOpExecutor** ex) { return aclnnMatmulGetWorkspaceSize(a.tensor, b.tensor, out.tensor, 0, ws, ex); },
            aclnnMatmul);
    }
    void add(const Tensor& a, const Tensor& b, Tensor& out) {
        run([&](uint64_t* ws,
                aclOpExecutor** ex) { return aclnnAddGetWorkspaceSize(a.tensor, b.tensor, one_, out.tensor, ws, ex); },
            aclnnAdd);
    }
    void mul(const Tensor& a, const Tensor& b, Tensor& out) {
        run([&](uint64_t* ws,
                aclOpExecutor** ex) { return aclnnMulGetWorkspaceSize(a.tensor, b.tensor, out.tensor, ws, ex); },
            aclnnMul);
    }
    void silu(const Tensor& a, Tensor& out) {
        run([&](uint64_t* ws, aclOpExecutor** ex) { return aclnnSiluGetWorkspaceSize(a.tensor, out.tensor, ws, ex); },
            aclnnSilu);
    }
    void softmax(const Tensor& a, Tensor& out) {
        run([&](uint64_t* ws,
                aclOpExecutor** ex) { return aclnnSoftmaxGetWorkspaceSize(a.tensor, -1, out.tensor, ws, ex); },
            aclnnSoftmax);
    }
    void rms_norm(const Tensor& x, const Tensor& gamma, Tensor& out, Tensor& rstd) {
        run(
            [&](uint64_t* ws, aclOpExecutor** ex) {
                return aclnnRmsNormGetWorkspaceSize(x.tensor, gamma.tensor, 1e-6, out.tensor, rstd.tensor, ws, ex);
            },
            aclnnRmsNorm);
    }

    void set_alpha(aclScalar* one) { one_ = one; }
    int ops() const { return ops_; }

private:
    aclrtStream stream_;
    void* workspace_ = nullptr;
    uint64_t capacity_ = 0;
    aclScalar* one_ = nullptr;
    int ops_ = 0;
};

// An mstx range for the lifetime of the object (host-only: no stream).
class Range {
public:
    explicit Range(const char* name) : id_(mstxRangeStartA(name, nullptr)) {}
    Range(mstxDomainHandle_t domain, const char* name)
        : domain_(domain), id_(mstxDomainRangeStartA(domain, name, nullptr)) {}
    ~Range() {
        if (domain_ != nullptr) {
            mstxDomainRangeEnd(domain_, id_);
        } else {
            mstxRangeEnd(id_);
        }
    }
    Range(const Range&) = delete;
    Range& operator=(const Range&) = delete;

private:
    mstxDomainHandle_t domain_ = nullptr;
    mstxRangeId id_;
};

struct Layer {
    Tensor wq, wk, wv, wo, k_cache, w_gate, w_up, w_down, norm1, norm2;
};

struct Activations {
    Tensor x, h, rstd, q, k, v, scores, probs, ctx, attn, gate, up, act, gated, mlp;
};

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const auto value = [&]() -> long {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "%s needs a value\n", arg.c_str());
                std::exit(2);
            }
            return std::strtol(argv[++i], nullptr, 10);
        };
        if (arg == "--layers") o.layers = static_cast<int>(value());
        else if (arg == "--steps") o.steps = static_cast<int>(value());
        else if (arg == "--tokens") o.tokens = value();
        else if (arg == "--hidden") o.hidden = value();
        else if (arg == "--no-hccl") o.hccl = false;
        else {
            std::fprintf(stderr,
                         "usage: decoder_breakdown [--layers N] [--steps N] [--tokens N] [--hidden N] [--no-hccl]\n");
            std::exit(2);
        }
    }
    if (o.layers < 1 || o.steps < 1 || o.tokens < 1 || o.hidden < 1) {
        std::fprintf(stderr, "every size must be positive\n");
        std::exit(2);
    }
    return o;
}

// HCCL is optional: its functions are looked up at run time, and where libhccl.so does not provide
// them (or cannot make a communicator) the all-reduce is skipped.
struct Hccl {
    using InitAll = HcclResult (*)(uint32_t, int32_t*, HcclComm*);
    using AllReduce = HcclResult (*)(void*, void*, uint64_t, HcclDataType, HcclReduceOp, HcclComm, aclrtStream);
    using Destroy = HcclResult (*)(HcclComm);
    InitAll init_all = nullptr;
    AllReduce all_reduce = nullptr;
    Destroy destroy = nullptr;
    HcclComm comm = nullptr;
};

Hccl open_hccl(bool wanted) {
    Hccl hccl;
    if (!wanted) return hccl;
    void* library = dlopen("libhccl.so", RTLD_NOW | RTLD_GLOBAL);
    if (library != nullptr) {
        hccl.init_all = reinterpret_cast<Hccl::InitAll>(dlsym(library, "HcclCommInitAll"));
        hccl.all_reduce = reinterpret_cast<Hccl::AllReduce>(dlsym(library, "HcclAllReduce"));
        hccl.destroy = reinterpret_cast<Hccl::Destroy>(dlsym(library, "HcclCommDestroy"));
    }
    int32_t devices[1] = {0};
    if (hccl.init_all == nullptr || hccl.all_reduce == nullptr || hccl.destroy == nullptr) {
        std::fprintf(stderr,
                     "decoder_breakdown: libhccl.so lacks HcclCommInitAll/HcclAllReduce, skipping the all-reduce\n");
    } else if (const HcclResult rc = hccl.init_all(1, devices, &hccl.comm); rc != HCCL_SUCCESS) {
        std::fprintf(stderr, "decoder_breakdown: HcclCommInitAll returned %d, skipping the all-reduce\n",
                     static_cast<int>(rc));
        hccl.comm = nullptr;
    }
    return hccl;
}

void decoder_layer(Runner& run, mstxDomainHandle_t layers, const Layer& w, Activations& a) {
    Range layer(layers, "layer");
    {
        Range r("input_norm");
        run.rms_norm(a.x, w.norm1, a.h, a.rstd);
    }
    {
        Range attention("attention");
        {
            Range r("q_proj");
            run.matmul(a.h, w.wq, a.q);
        }
        {
            Range r("k_proj");
            run.matmul(a.h, w.wk, a.k);
        }
        {
            Range r("v_proj");
            run.matmul(a.h, w.wv, a.v);
        }
        {
            Range r("scores");
            run.matmul(a.q, w.k_cache, a.scores);
        }
        {
            Range r("softmax");
            run.softmax(a.scores, a.probs);
        }
        {
            Range r("context");
            run.matmul(a.probs, a.v, a.ctx);
        }
        {
            Range r("o_proj");
            run.matmul(a.ctx, w.wo, a.attn);
        }
    }
    {
        Range r("attention_residual");
        run.add(a.x, a.attn, a.x);
    }
    {
        Range r("post_norm");
        run.rms_norm(a.x, w.norm2, a.h, a.rstd);
    }
    {
        Range mlp("mlp");
        {
            Range r("gate_proj");
            run.matmul(a.h, w.w_gate, a.gate);
        }
        {
            Range r("up_proj");
            run.matmul(a.h, w.w_up, a.up);
        }
        {
            Range r("act");
            run.silu(a.gate, a.act);
        }
        {
            Range r("gate_mul");
            run.mul(a.act, a.up, a.gated);
        }
        {
            Range r("down_proj");
            run.matmul(a.gated, w.w_down, a.mlp);
        }
    }
    {
        Range r("mlp_residual");
        run.add(a.x, a.mlp, a.x);
    }
}

}  // namespace

int main(int argc, char** argv) {
    const Options o = parse(argc, argv);
    const int64_t T = o.tokens, H = o.hidden, F = 2 * o.hidden, V = 4 * o.hidden;

    CHECK(aclInit(nullptr));
    CHECK(aclrtSetDevice(0));
    aclrtContext context = nullptr;
    CHECK(aclrtCreateContext(&context, 0));
    aclrtStream stream = nullptr;
    CHECK(aclrtCreateStream(&stream));
    mstxDomainHandle_t layers_domain = mstxDomainCreateA("decoder_layers");
    mstxDomainHandle_t runtime_domain = mstxDomainCreateA("runtime");
    Hccl hccl = open_hccl(o.hccl);

    float one_value = 1.0f;
    aclScalar* one = aclCreateScalar(&one_value, ACL_FLOAT);
    Runner run(stream);
    run.set_alpha(one);

    std::vector<Layer> weights(static_cast<size_t>(o.layers));
    for (Layer& w : weights) {
        w = Layer{make_tensor({H, H}), make_tensor({H, H}), make_tensor({H, H}), make_tensor({H, H}),
                  make_tensor({H, T}), make_tensor({H, F}), make_tensor({H, F}), make_tensor({F, H}),
                  make_tensor({H}),    make_tensor({H})};
    }
    Tensor positions = make_tensor({T, H}), final_gamma = make_tensor({H}), lm_head = make_tensor({H, V});
    Tensor logits = make_tensor({T, V});
    Activations a{make_tensor({T, H}), make_tensor({T, H}), make_tensor({T, 1}), make_tensor({T, H}),
                  make_tensor({T, H}), make_tensor({T, H}), make_tensor({T, T}), make_tensor({T, T}),
                  make_tensor({T, H}), make_tensor({T, H}), make_tensor({T, F}), make_tensor({T, F}),
                  make_tensor({T, F}), make_tensor({T, F}), make_tensor({T, H})};
    std::vector<float> host_logits(static_cast<size_t>(T * V));

    int ops_per_step = 0;
    for (int step = 0; step < o.steps; ++step) {
        const int ops_before = run.ops();
        Range step_range("step");
        {
            Range r("embedding");
            run.add(a.x, positions, a.x);
        }
        for (const Layer& w : weights) decoder_layer(run, layers_domain, w, a);
        {
            Range r("final_norm");
            run.rms_norm(a.x, final_gamma, a.h, a.rstd);
        }
        {
            Range r("lm_head");
            run.matmul(a.h, lm_head, logits);
        }
        if (hccl.comm != nullptr) {
            Range r("logits_allreduce");
            CHECK(hccl.all_reduce(logits.device, logits.device, static_cast<uint64_t>(T * V), HCCL_DATA_TYPE_FP32,
                                  HCCL_REDUCE_SUM, hccl.comm, stream));
        }
        {
            Range r(runtime_domain, "fetch_logits");
            CHECK(aclrtSynchronizeStream(stream));
            CHECK(aclrtMemcpy(host_logits.data(), host_logits.size() * sizeof(float), logits.device, logits.bytes,
                              ACL_MEMCPY_DEVICE_TO_HOST));
        }
        ops_per_step = run.ops() - ops_before;
    }

    std::printf("decoder_breakdown layers=%d steps=%d hccl=%d ops_per_step=%d\n", o.layers, o.steps,
                hccl.comm != nullptr ? 1 : 0, ops_per_step);

    if (hccl.comm != nullptr) CHECK(hccl.destroy(hccl.comm));
    for (Layer& w : weights) {
        for (Tensor* t : {&w.wq, &w.wk, &w.wv, &w.wo, &w.k_cache, &w.w_gate, &w.w_up, &w.w_down, &w.norm1, &w.norm2})
            free_tensor(*t);
    }
    for (Tensor* t : {&positions, &final_gamma, &lm_head, &logits, &a.x, &a.h, &a.rstd, &a.q, &a.k, &a.v, &a.scores,
                      &a.probs, &a.ctx, &a.attn, &a.gate, &a.up, &a.act, &a.gated, &a.mlp}) {
        free_tensor(*t);
    }
    aclDestroyScalar(one);
    mstxDomainDestroy(layers_domain);
    mstxDomainDestroy(runtime_domain);
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtDestroyContext(context));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    return 0;
}
