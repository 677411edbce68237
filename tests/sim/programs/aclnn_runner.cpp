// Runs one aclnn operator described by a spec file and writes its output tensors.
//
// Spec lines (whitespace-separated):
//   op NAME                        the operator (Add, Sub, Mul, Div, Cast, Matmul, ...)
//   tensor NAME DTYPE RANK DIMS... STRIDES... OFFSET STORAGE IN OUT
//                                  a device tensor: DTYPE is the aclDataType value, STORAGE the
//                                  storage size in elements, IN a file with its initial storage
//                                  bytes (or -), OUT the file that receives the storage after the
//                                  run (or -)
//   scalar NAME DTYPE VALUE        an aclScalar
//   int NAME VALUE | float NAME VALUE | str NAME VALUE | ints NAME COUNT VALUES...
//   bools NAME COUNT VALUES...     an aclBoolArray (0 / 1)
//   list NAME COUNT TENSORS...     an aclTensorList of tensors declared before it (its own handles of
//                                  their views: a tensor may be in several lists, as torch_npu's are)
//   wsdelta N                      pass the requested workspace size + N to the second phase
//   runs N                         make the executor repeatable and run it N times
// Prints "phase1 STATUS WORKSPACE", one "phase2 STATUS" per run and "view NAME DIMS..." per output
// tensor (its view shape after the run); exits 0 when every call succeeded.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_all.h"
#include "aclnnop/aclnn_any.h"
#include "aclnnop/aclnn_tanh_backward.h"
#include "aclnnop/aclnn_bitwise_not.h"
#include "aclnnop/aclnn_addmm.h"
#include "aclnnop/aclnn_addbmm.h"
#include "aclnnop/aclnn_baddbmm.h"
#include "aclnnop/aclnn_cat.h"
#include "aclnnop/aclnn_amp_update_scale.h"
#include "aclnnop/aclnn_bitwise_and_scalar.h"
#include "aclnnop/aclnn_bitwise_and_tensor.h"
#include "aclnnop/aclnn_constant_pad_nd.h"
#include "aclnnop/aclnn_foreach_non_finite_check_and_unscale.h"
#include "aclnnop/aclnn_foreach_norm.h"
#include "aclnnop/aclnn_linalg_vector_norm.h"
#include "aclnnop/aclnn_foreach_add_list.h"
#include "aclnnop/aclnn_embedding_dense_backward.h"
#include "aclnnop/aclnn_gelu_backward.h"
#include "aclnnop/aclnn_layer_norm_backward.h"
#include "aclnnop/aclnn_log_softmax.h"
#include "aclnnop/aclnn_max.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_mse_loss.h"
#include "aclnnop/aclnn_mse_loss_backward.h"
#include "aclnnop/aclnn_nll_loss.h"
#include "aclnnop/aclnn_nll_loss_backward.h"
#include "aclnnop/aclnn_pow.h"
#include "aclnnop/aclnn_softmax_backward.h"
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_convolution.h"
#include "aclnnop/aclnn_convolution_backward.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_embedding.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_flash_attention_score.h"
#include "aclnnop/aclnn_flash_attention_score_grad.h"
#include "aclnnop/aclnn_masked_fill_scalar.h"
#include "aclnnop/aclnn_masked_fill_tensor.h"
#include "aclnnop/aclnn_group_norm.h"
#include "aclnnop/aclnn_group_norm_backward.h"
#include "aclnnop/aclnn_mish.h"
#include "aclnnop/aclnn_rsqrt.h"
#include "aclnnop/aclnn_mish_backward.h"
#include "aclnnop/aclnn_softplus.h"
#include "aclnnop/aclnn_softplus_backward.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_neg.h"
#include "aclnnop/aclnn_permute.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_silu.h"
#include "aclnnop/aclnn_silu_backward.h"
#include "aclnnop/aclnn_softmax.h"
#include "aclnnop/aclnn_sub.h"
#include "aclnnop/aclnn_tanh.h"
#include "aclnnop/aclnn_transpose.h"
#include "aclnnop/aclnn_zero.h"
#include "aclnnop/aclnn_addcdiv.h"
#include "aclnnop/aclnn_addcmul.h"
#include "aclnnop/aclnn_foreach_add_scalar_v2.h"
#include "aclnnop/aclnn_foreach_addcdiv_scalar_v2.h"
#include "aclnnop/aclnn_foreach_addcmul_scalar_v2.h"
#include "aclnnop/aclnn_foreach_div_scalar_v2.h"
#include "aclnnop/aclnn_foreach_lerp_scalar.h"
#include "aclnnop/aclnn_foreach_mul_scalar_v2.h"
#include "aclnnop/aclnn_foreach_sqrt.h"
#include "aclnnop/aclnn_lerp_scalar.h"
#include "aclnnop/aclnn_lerp_tensor.h"
#include "aclnnop/aclnn_sqrt.h"
#include "aclnnop/aclnn_tril.h"
#include "aclnnop/aclnn_eq_scalar.h"
#include "aclnnop/aclnn_logical_not.h"
#include "aclnnop/aclnn_ne_scalar.h"
#include "aclnnop/aclnn_ne_tensor.h"
#include "aclnnop/aclnn_threshold_backward.h"
#include "aclnnop/aclnn_triu.h"

namespace {

size_t esize(int dtype) {
    switch (dtype) {
        case ACL_FLOAT:
        case ACL_INT32:
        case ACL_UINT32: return 4;
        case ACL_FLOAT16:
        case ACL_BF16:
        case ACL_INT16:
        case ACL_UINT16: return 2;
        case ACL_INT64:
        case ACL_UINT64:
        case ACL_DOUBLE: return 8;
        default: return 1;
    }
}

struct DeviceTensor {
    aclTensor* tensor = nullptr;
    void* device = nullptr;
    size_t bytes = 0;
    std::string out_file;
    // How the tensor was made, so that a list can hold its own handle of the same view.
    std::vector<int64_t> dims, strides;
    int64_t offset = 0, storage = 0;
    int dtype = 0;

    aclTensor* another_handle() const {
        const int64_t storage_dims[1] = {storage};
        return aclCreateTensor(dims.data(), dims.size(), static_cast<aclDataType>(dtype), strides.data(), offset,
                               ACL_FORMAT_ND, storage_dims, 1, device);
    }
};

struct Spec {
    std::string op;
    std::map<std::string, DeviceTensor> tensors;
    std::map<std::string, aclScalar*> scalars;
    std::map<std::string, double> numbers;
    std::map<std::string, std::string> strings;
    std::map<std::string, aclIntArray*> arrays;
    std::map<std::string, aclBoolArray*> bools;
    std::map<std::string, aclTensorList*> lists;
    long long wsdelta = 0;
    int runs = 1;

    aclTensor* t(const std::string& name) const {
        auto it = tensors.find(name);
        return it == tensors.end() ? nullptr : it->second.tensor;
    }
    aclScalar* s(const std::string& name) const {
        auto it = scalars.find(name);
        return it == scalars.end() ? nullptr : it->second;
    }
    aclIntArray* a(const std::string& name) const {
        auto it = arrays.find(name);
        return it == arrays.end() ? nullptr : it->second;
    }
    aclBoolArray* b(const std::string& name) const {
        auto it = bools.find(name);
        return it == bools.end() ? nullptr : it->second;
    }
    aclTensorList* l(const std::string& name) const {
        auto it = lists.find(name);
        return it == lists.end() ? nullptr : it->second;
    }
    double n(const std::string& name, double fallback = 0) const {
        auto it = numbers.find(name);
        return it == numbers.end() ? fallback : it->second;
    }
};

bool check(aclError rc, const char* what) {
    if (rc != ACL_SUCCESS) std::fprintf(stderr, "%s failed: %d\n", what, rc);
    return rc == ACL_SUCCESS;
}

bool load_tensor(std::istringstream& in, Spec& spec) {
    std::string name, in_file, out_file;
    int dtype = 0;
    size_t rank = 0;
    in >> name >> dtype >> rank;
    std::vector<int64_t> dims(rank), strides(rank);
    for (auto& d : dims) in >> d;
    for (auto& s : strides) in >> s;
    int64_t offset = 0, storage = 0;
    in >> offset >> storage >> in_file >> out_file;
    DeviceTensor dt;
    dt.bytes = static_cast<size_t>(storage) * esize(dtype);
    dt.out_file = out_file == "-" ? "" : out_file;
    if (!check(aclrtMalloc(&dt.device, dt.bytes ? dt.bytes : 1, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc"))
        return false;
    std::vector<char> host(dt.bytes, 0);
    if (in_file != "-") {
        std::ifstream f(in_file, std::ios::binary);
        f.read(host.data(), static_cast<std::streamsize>(host.size()));
        if (static_cast<size_t>(f.gcount()) != host.size()) {
            std::fprintf(stderr, "%s: %zu bytes expected\n", in_file.c_str(), host.size());
            return false;
        }
    }
    if (dt.bytes &&
        !check(aclrtMemcpy(dt.device, dt.bytes, host.data(), dt.bytes, ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy")) {
        return false;
    }
    const int64_t storage_dims[1] = {storage};
    dt.tensor = aclCreateTensor(dims.data(), rank, static_cast<aclDataType>(dtype), strides.data(), offset,
                                ACL_FORMAT_ND, storage_dims, 1, dt.device);
    if (dt.tensor == nullptr) {
        std::fprintf(stderr, "aclCreateTensor(%s) failed\n", name.c_str());
        return false;
    }
    dt.dims = dims;
    dt.strides = strides;
    dt.offset = offset;
    dt.storage = storage;
    dt.dtype = dtype;
    spec.tensors[name] = dt;
    return true;
}

bool parse(const char* path, Spec& spec) {
    std::ifstream file(path);
    std::string line;
    while (std::getline(file, line)) {
        std::istringstream in(line);
        std::string kind;
        if (!(in >> kind)) continue;
        if (kind == "op") {
            in >> spec.op;
        } else if (kind == "tensor") {
            if (!load_tensor(in, spec)) return false;
        } else if (kind == "scalar") {
            std::string name;
            int dtype = 0;
            std::string text;  // through strtod, which reads inf and nan as well
            in >> name >> dtype >> text;
            const double value = std::strtod(text.c_str(), nullptr);
            unsigned char raw[8] = {};
            if (dtype == ACL_FLOAT) {
                float v = static_cast<float>(value);
                std::memcpy(raw, &v, 4);
            } else if (dtype == ACL_DOUBLE) {
                std::memcpy(raw, &value, 8);
            } else {
                int64_t v = static_cast<int64_t>(value);
                std::memcpy(raw, &v, 8);
            }
            spec.scalars[name] = aclCreateScalar(raw, static_cast<aclDataType>(dtype));
        } else if (kind == "int" || kind == "float") {
            std::string name;
            double value = 0;
            in >> name >> value;
            spec.numbers[name] = value;
        } else if (kind == "str") {
            std::string name, value;
            in >> name >> value;
            spec.strings[name] = value;
        } else if (kind == "ints") {
            std::string name;
            size_t count = 0;
            in >> name >> count;
            std::vector<int64_t> values(count);
            for (auto& v : values) in >> v;
            spec.arrays[name] = aclCreateIntArray(values.data(), count);
        } else if (kind == "bools") {
            std::string name;
            size_t count = 0;
            in >> name >> count;
            std::unique_ptr<bool[]> values(new bool[count ? count : 1]);
            for (size_t i = 0; i < count; ++i) {
                int v = 0;
                in >> v;
                values[i] = v != 0;
            }
            spec.bools[name] = aclCreateBoolArray(values.get(), count);
        } else if (kind == "list") {
            std::string name;
            size_t count = 0;
            in >> name >> count;
            std::vector<const aclTensor*> members;
            for (size_t i = 0; i < count; ++i) {
                std::string member;
                in >> member;
                auto it = spec.tensors.find(member);
                if (it == spec.tensors.end()) {
                    std::fprintf(stderr, "list %s: unknown tensor %s\n", name.c_str(), member.c_str());
                    return false;
                }
                members.push_back(it->second.another_handle());
            }
            spec.lists[name] = aclCreateTensorList(members.data(), count);
        } else if (kind == "wsdelta") {
            in >> spec.wsdelta;
        } else if (kind == "runs") {
            in >> spec.runs;
        }
    }
    return !spec.op.empty();
}

using Phase1 = std::function<aclnnStatus(uint64_t*, aclOpExecutor**)>;
using Phase2 = aclnnStatus (*)(void*, uint64_t, aclOpExecutor*, aclrtStream);

}  // namespace

#include "aclnn_runner_by_name.h"
#include "aclnn_runner_reductions.h"
#include "aclnn_runner_elementwise_more.h"
#include "aclnn_runner_breadth.h"
#include "aclnn_runner_counting.h"
#include "aclnn_runner_image.h"

namespace {

bool select(const Spec& p, Phase1& first, Phase2& second) {
    const std::string& op = p.op;
    const auto dt = [&](const char* name) { return static_cast<aclDataType>(static_cast<int>(p.n(name))); };
    if (op == "Add") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnAddGetWorkspaceSize(p.t("self"), p.t("other"), p.s("alpha"), p.t("out"), w, e);
        };
        second = aclnnAdd;
    } else if (op == "Sub") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnSubGetWorkspaceSize(p.t("self"), p.t("other"), p.s("alpha"), p.t("out"), w, e);
        };
        second = aclnnSub;
    } else if (op == "Mul") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnMulGetWorkspaceSize(p.t("self"), p.t("other"), p.t("out"), w, e);
        };
        second = aclnnMul;
    } else if (op == "Adds") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnAddsGetWorkspaceSize(p.t("self"), p.s("other"), p.s("alpha"), p.t("out"), w, e);
        };
        second = aclnnAdds;
    } else if (op == "Subs") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnSubsGetWorkspaceSize(p.t("self"), p.s("other"), p.s("alpha"), p.t("out"), w, e);
        };
        second = aclnnSubs;
    } else if (op == "Muls") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnMulsGetWorkspaceSize(p.t("self"), p.s("other"), p.t("out"), w, e);
        };
        second = aclnnMuls;
    } else if (op == "Divs") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnDivsGetWorkspaceSize(p.t("self"), p.s("other"), p.t("out"), w, e);
        };
        second = aclnnDivs;
    } else if (op == "InplaceFillScalar") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceFillScalarGetWorkspaceSize(p.t("selfRef"), p.s("value"), w, e);
        };
        second = aclnnInplaceFillScalar;
    } else if (op == "InplaceZero") {
        first = [&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceZeroGetWorkspaceSize(p.t("selfRef"), w, e); };
        second = aclnnInplaceZero;
    } else if (op == "Div") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnDivGetWorkspaceSize(p.t("self"), p.t("other"), p.t("out"), w, e);
        };
        second = aclnnDiv;
    } else if (op == "Cast") {
        first = [&, dt](uint64_t* w, aclOpExecutor** e) {
            return aclnnCastGetWorkspaceSize(p.t("self"), dt("dtype"), p.t("out"), w, e);
        };
        second = aclnnCast;
    } else if (op == "Matmul") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnMatmulGetWorkspaceSize(p.t("self"), p.t("mat2"), p.t("out"), 1, w, e);
        };
        second = aclnnMatmul;
    } else if (op == "BatchMatMul") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnBatchMatMulGetWorkspaceSize(p.t("self"), p.t("mat2"), p.t("out"), 1, w, e);
        };
        second = aclnnBatchMatMul;
    } else if (op == "Softmax") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnSoftmaxGetWorkspaceSize(p.t("self"), static_cast<int64_t>(p.n("dim")), p.t("out"), w, e);
        };
        second = aclnnSoftmax;
    } else if (op == "LayerNorm") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnLayerNormGetWorkspaceSize(p.t("input"), p.a("normalizedShape"), p.t("weight"), p.t("bias"),
                                                  p.n("eps", 1e-5), p.t("out"), p.t("mean"), p.t("rstd"), w, e);
        };
        second = aclnnLayerNorm;
    } else if (op == "RmsNorm") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnRmsNormGetWorkspaceSize(p.t("x"), p.t("gamma"), p.n("eps", 1e-6), p.t("y"), p.t("rstd"), w, e);
        };
        second = aclnnRmsNorm;
    } else if (op == "Gelu") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnGeluGetWorkspaceSize(p.t("self"), p.t("out"), w, e);
        };
        second = aclnnGelu;
    } else if (op == "Silu") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnSiluGetWorkspaceSize(p.t("self"), p.t("out"), w, e);
        };
        second = aclnnSilu;
    } else if (op == "Relu") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnReluGetWorkspaceSize(p.t("self"), p.t("out"), w, e);
        };
        second = aclnnRelu;
    } else if (op == "Exp") {
        first = [&](uint64_t* w, aclOpExecutor** e) { return aclnnExpGetWorkspaceSize(p.t("self"), p.t("out"), w, e); };
        second = aclnnExp;
    } else if (op == "Neg") {
        first = [&](uint64_t* w, aclOpExecutor** e) { return aclnnNegGetWorkspaceSize(p.t("self"), p.t("out"), w, e); };
        second = aclnnNeg;
    } else if (op == "Sigmoid") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnSigmoidGetWorkspaceSize(p.t("self"), p.t("out"), w, e);
        };
        second = aclnnSigmoid;
    } else if (op == "Tanh") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnTanhGetWorkspaceSize(p.t("self"), p.t("out"), w, e);
        };
        second = aclnnTanh;
    } else if (op == "Embedding") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnEmbeddingGetWorkspaceSize(p.t("weight"), p.t("indices"), p.t("out"), w, e);
        };
        second = aclnnEmbedding;
    } else if (op == "Permute") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnPermuteGetWorkspaceSize(p.t("self"), p.a("dims"), p.t("out"), w, e);
        };
        second = aclnnPermute;
    } else if (op == "Transpose") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnTransposeGetWorkspaceSize(p.t("self"), static_cast<int64_t>(p.n("dim0")),
                                                  static_cast<int64_t>(p.n("dim1")), p.t("out"), w, e);
        };
        second = aclnnTranspose;
    } else if (op == "ReduceSum") {
        first = [&, dt](uint64_t* w, aclOpExecutor** e) {
            return aclnnReduceSumGetWorkspaceSize(p.t("self"), p.a("dim"), p.n("keepDim") != 0, dt("dtype"), p.t("out"),
                                                  w, e);
        };
        second = aclnnReduceSum;
    } else if (op == "Mean") {
        first = [&, dt](uint64_t* w, aclOpExecutor** e) {
            return aclnnMeanGetWorkspaceSize(p.t("self"), p.a("dim"), p.n("keepDim") != 0, dt("dtype"), p.t("out"), w,
                                             e);
        };
        second = aclnnMean;
    } else if (op == "InplaceCopy") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceCopyGetWorkspaceSize(p.t("selfRef"), p.t("src"), w, e);
        };
        second = aclnnInplaceCopy;
    } else if (op == "FlashAttentionScore") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            auto it = p.strings.find("layout");
            std::string layout = it == p.strings.end() ? "BSH" : it->second;
            return aclnnFlashAttentionScoreGetWorkspaceSize(
                p.t("query"), p.t("key"), p.t("value"), p.t("realShift"), p.t("dropMask"), nullptr, p.t("mask"),
                nullptr, p.n("scale", 1.0), p.n("keepProb", 1.0), static_cast<int64_t>(p.n("preTokens", 2147483647)),
                static_cast<int64_t>(p.n("nextTokens", 2147483647)), static_cast<int64_t>(p.n("headNum", 1)),
                layout.data(), 0, static_cast<int64_t>(p.n("sparseMode", 0)), p.t("softmaxMax"), p.t("softmaxSum"),
                nullptr, p.t("out"), w, e);
        };
        second = aclnnFlashAttentionScore;
    } else if (op == "InplaceMaskedFillScalar") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceMaskedFillScalarGetWorkspaceSize(p.t("selfRef"), p.t("mask"), p.s("value"), w, e);
        };
        second = aclnnInplaceMaskedFillScalar;
    } else if (op == "InplaceMaskedFillTensor") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceMaskedFillTensorGetWorkspaceSize(p.t("selfRef"), p.t("mask"), p.t("value"), w, e);
        };
        second = aclnnInplaceMaskedFillTensor;
    } else if (op == "Rsqrt") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnRsqrtGetWorkspaceSize(p.t("self"), p.t("out"), w, e);
        };
        second = aclnnRsqrt;
    } else if (op == "InplaceRsqrt") {
        first = [&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceRsqrtGetWorkspaceSize(p.t("selfRef"), w, e); };
        second = aclnnInplaceRsqrt;
    } else if (op == "All") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnAllGetWorkspaceSize(p.t("self"), p.a("dim"), p.n("keepDim") != 0, p.t("out"), w, e);
        };
        second = aclnnAll;
    } else if (op == "TanhBackward") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnTanhBackwardGetWorkspaceSize(p.t("gradOutput"), p.t("output"), p.t("gradInput"), w, e);
        };
        second = aclnnTanhBackward;
    } else if (op == "Any") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnAnyGetWorkspaceSize(p.t("self"), p.a("dim"), p.n("keepDim") != 0, p.t("out"), w, e);
        };
        second = aclnnAny;
    } else if (op == "InplaceLogicalNot") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceLogicalNotGetWorkspaceSize(p.t("selfRef"), w, e);
        };
        second = aclnnInplaceLogicalNot;
    } else if (op == "GroupNorm") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnGroupNormGetWorkspaceSize(p.t("self"), p.t("gamma"), p.t("beta"),
                                                  static_cast<int64_t>(p.n("N")), static_cast<int64_t>(p.n("C")),
                                                  static_cast<int64_t>(p.n("HxW")), static_cast<int64_t>(p.n("group")),
                                                  p.n("eps", 1e-5), p.t("out"), p.t("meanOut"), p.t("rstdOut"), w, e);
        };
        second = aclnnGroupNorm;
    } else if (op == "GroupNormBackward") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnGroupNormBackwardGetWorkspaceSize(
                p.t("gradOut"), p.t("input"), p.t("mean"), p.t("rstd"), p.t("gamma"), static_cast<int64_t>(p.n("N")),
                static_cast<int64_t>(p.n("C")), static_cast<int64_t>(p.n("HxW")), static_cast<int64_t>(p.n("group")),
                p.b("outputMask"), p.t("gradInput"), p.t("gradGamma"), p.t("gradBeta"), w, e);
        };
        second = aclnnGroupNormBackward;
    } else if (op == "BitwiseNot") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnBitwiseNotGetWorkspaceSize(p.t("self"), p.t("out"), w, e);
        };
        second = aclnnBitwiseNot;
    } else if (op == "Mish") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnMishGetWorkspaceSize(p.t("self"), p.t("out"), w, e);
        };
        second = aclnnMish;
    } else if (op == "InplaceMish") {
        first = [&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceMishGetWorkspaceSize(p.t("selfRef"), w, e); };
        second = aclnnInplaceMish;
    } else if (op == "MishBackward") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnMishBackwardGetWorkspaceSize(p.t("gradOutput"), p.t("self"), p.t("gradInput"), w, e);
        };
        second = aclnnMishBackward;
    } else if (op == "Softplus") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnSoftplusGetWorkspaceSize(p.t("self"), p.s("beta"), p.s("threshold"), p.t("out"), w, e);
        };
        second = aclnnSoftplus;
    } else if (op == "SoftplusBackward") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnSoftplusBackwardGetWorkspaceSize(p.t("gradOutput"), p.t("self"), p.s("beta"), p.s("threshold"),
                                                         p.t("gradInput"), w, e);
        };
        second = aclnnSoftplusBackward;
    } else if (op == "FlashAttentionScoreGrad") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            auto it = p.strings.find("layout");
            std::string layout = it == p.strings.end() ? "BSH" : it->second;
            return aclnnFlashAttentionScoreGradGetWorkspaceSize(
                p.t("query"), p.t("key"), p.t("value"), p.t("dy"), p.t("realShift"), p.t("dropMask"), nullptr,
                p.t("mask"), nullptr, nullptr, nullptr, nullptr, nullptr, p.n("scale", 1.0), p.n("keepProb", 1.0),
                static_cast<int64_t>(p.n("preTokens", 2147483647)), static_cast<int64_t>(p.n("nextTokens", 2147483647)),
                static_cast<int64_t>(p.n("headNum", 1)), layout.data(), 0, static_cast<int64_t>(p.n("sparseMode", 0)),
                p.t("dq"), p.t("dk"), p.t("dv"), p.t("dpse"), w, e);
        };
        second = aclnnFlashAttentionScoreGrad;
    } else if (op == "Addmm") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnAddmmGetWorkspaceSize(p.t("self"), p.t("mat1"), p.t("mat2"), p.s("beta"), p.s("alpha"),
                                              p.t("out"), 1, w, e);
        };
        second = aclnnAddmm;
    } else if (op == "Baddbmm" || op == "Addbmm") {
        const bool sum = op == "Addbmm";
        first = [&, sum](uint64_t* w, aclOpExecutor** e) {
            return (sum ? aclnnAddbmmGetWorkspaceSize : aclnnBaddbmmGetWorkspaceSize)(
                p.t("self"), p.t("batch1"), p.t("batch2"), p.s("beta"), p.s("alpha"), p.t("out"), 1, w, e);
        };
        second = sum ? aclnnAddbmm : aclnnBaddbmm;
    } else if (op == "InplaceBaddbmm" || op == "InplaceAddbmm") {
        const bool sum = op == "InplaceAddbmm";
        first = [&, sum](uint64_t* w, aclOpExecutor** e) {
            return sum ? aclnnInplaceAddbmmGetWorkspaceSize(p.t("selfRef"), p.t("batch1"), p.t("batch2"), p.s("beta"),
                                                            p.s("alpha"), 1, w, e)
                       : aclnnInplaceBaddbmmGetWorkspaceSize(p.t("selfRef"), p.t("batch1"), p.t("batch2"), p.s("beta"),
                                                             p.s("alpha"), 1, w, e);
        };
        second = sum ? aclnnInplaceAddbmm : aclnnInplaceBaddbmm;
    } else if (op == "Mm") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnMmGetWorkspaceSize(p.t("self"), p.t("mat2"), p.t("out"), 1, w, e);
        };
        second = aclnnMm;
    } else if (op == "GeluBackward") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnGeluBackwardGetWorkspaceSize(p.t("gradOutput"), p.t("self"), p.t("gradInput"), w, e);
        };
        second = aclnnGeluBackward;
    } else if (op == "SiluBackward") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnSiluBackwardGetWorkspaceSize(p.t("gradOutput"), p.t("self"), p.t("gradInput"), w, e);
        };
        second = aclnnSiluBackward;
    } else if (op == "EmbeddingDenseBackward") {
        // paddingIdx as torch passes it: a signed index (-1: none) reinterpreted as uint64_t.
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnEmbeddingDenseBackwardGetWorkspaceSize(
                p.t("grad"), p.t("indices"), static_cast<uint64_t>(static_cast<int64_t>(p.n("numWeights"))),
                static_cast<uint64_t>(static_cast<int64_t>(p.n("paddingIdx", -1))), p.n("scaleGradByFreq") != 0,
                p.t("out"), w, e);
        };
        second = aclnnEmbeddingDenseBackward;
    } else if (op == "MseLoss") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnMseLossGetWorkspaceSize(p.t("self"), p.t("target"), static_cast<int64_t>(p.n("reduction", 1)),
                                                p.t("out"), w, e);
        };
        second = aclnnMseLoss;
    } else if (op == "MseLossBackward") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnMseLossBackwardGetWorkspaceSize(p.t("gradOutput"), p.t("self"), p.t("target"),
                                                        static_cast<int64_t>(p.n("reduction", 1)), p.t("gradInput"), w,
                                                        e);
        };
        second = aclnnMseLossBackward;
    } else if (op == "InplaceAdd") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceAddGetWorkspaceSize(p.t("selfRef"), p.t("other"), p.s("alpha"), w, e);
        };
        second = aclnnInplaceAdd;
    } else if (op == "InplaceMuls") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceMulsGetWorkspaceSize(p.t("selfRef"), p.s("other"), w, e);
        };
        second = aclnnInplaceMuls;
    } else if (op == "InplaceOne") {
        first = [&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceOneGetWorkspaceSize(p.t("selfRef"), w, e); };
        second = aclnnInplaceOne;
    } else if (op == "SoftmaxBackward") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnSoftmaxBackwardGetWorkspaceSize(p.t("gradOutput"), p.t("output"),
                                                        static_cast<int64_t>(p.n("dim")), p.t("out"), w, e);
        };
        second = aclnnSoftmaxBackward;
    } else if (op == "Convolution") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnConvolutionGetWorkspaceSize(p.t("input"), p.t("weight"), p.t("bias"), p.a("stride"),
                                                    p.a("padding"), p.a("dilation"), p.n("transposed") != 0,
                                                    p.a("outputPadding"), static_cast<int64_t>(p.n("groups", 1)),
                                                    p.t("output"), 0, w, e);
        };
        second = aclnnConvolution;
    } else if (op == "ConvolutionBackward") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnConvolutionBackwardGetWorkspaceSize(
                p.t("gradOutput"), p.t("input"), p.t("weight"), p.a("biasSizes"), p.a("stride"), p.a("padding"),
                p.a("dilation"), p.n("transposed") != 0, p.a("outputPadding"), static_cast<int>(p.n("groups", 1)),
                p.b("outputMask"), 0, p.t("gradInput"), p.t("gradWeight"), p.t("gradBias"), w, e);
        };
        second = aclnnConvolutionBackward;
    } else if (op == "LayerNormBackward") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnLayerNormBackwardGetWorkspaceSize(
                p.t("gradOut"), p.t("input"), p.a("normalizedShape"), p.t("mean"), p.t("rstd"), p.t("weight"),
                p.t("bias"), p.b("outputMask"), p.t("gradInput"), p.t("gradWeight"), p.t("gradBias"), w, e);
        };
        second = aclnnLayerNormBackward;
    } else if (op == "LogSoftmax") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnLogSoftmaxGetWorkspaceSize(p.t("self"), static_cast<int64_t>(p.n("dim")), p.t("out"), w, e);
        };
        second = aclnnLogSoftmax;
    } else if (op == "LogSoftmaxBackward") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnLogSoftmaxBackwardGetWorkspaceSize(p.t("gradOutput"), p.t("output"),
                                                           static_cast<int64_t>(p.n("dim")), p.t("out"), w, e);
        };
        second = aclnnLogSoftmaxBackward;
    } else if (op == "NLLLoss") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnNLLLossGetWorkspaceSize(
                p.t("self"), p.t("target"), p.t("weight"), static_cast<int64_t>(p.n("reduction", 1)),
                static_cast<int64_t>(p.n("ignoreIndex", -100)), p.t("out"), p.t("totalWeight"), w, e);
        };
        second = aclnnNLLLoss;
    } else if (op == "NLLLossBackward") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnNLLLossBackwardGetWorkspaceSize(
                p.t("gradOutput"), p.t("self"), p.t("target"), p.t("weight"), static_cast<int64_t>(p.n("reduction", 1)),
                static_cast<int64_t>(p.n("ignoreIndex", -100)), p.t("totalWeight"), p.t("out"), w, e);
        };
        second = aclnnNLLLossBackward;
    } else if (op == "PowTensorScalar") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnPowTensorScalarGetWorkspaceSize(p.t("self"), p.s("exponent"), p.t("out"), w, e);
        };
        second = aclnnPowTensorScalar;
    } else if (op == "Max") {
        first = [&](uint64_t* w, aclOpExecutor** e) { return aclnnMaxGetWorkspaceSize(p.t("self"), p.t("out"), w, e); };
        second = aclnnMax;
    } else if (op == "Cat") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnCatGetWorkspaceSize(p.l("tensors"), static_cast<int64_t>(p.n("dim")), p.t("out"), w, e);
        };
        second = aclnnCat;
    } else if (op == "ForeachAddList") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnForeachAddListGetWorkspaceSize(p.l("x1"), p.l("x2"), p.t("alpha"), p.l("out"), w, e);
        };
        second = aclnnForeachAddList;
    } else if (op == "ForeachAddListV2") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnForeachAddListV2GetWorkspaceSize(p.l("x1"), p.l("x2"), p.s("alpha"), p.l("out"), w, e);
        };
        second = aclnnForeachAddListV2;
    } else if (op == "Lerp") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnLerpGetWorkspaceSize(p.t("self"), p.t("end"), p.t("weight"), p.t("out"), w, e);
        };
        second = aclnnLerp;
    } else if (op == "InplaceLerp") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceLerpGetWorkspaceSize(p.t("selfRef"), p.t("end"), p.t("weight"), w, e);
        };
        second = aclnnInplaceLerp;
    } else if (op == "Lerps") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnLerpsGetWorkspaceSize(p.t("self"), p.t("end"), p.s("weight"), p.t("out"), w, e);
        };
        second = aclnnLerps;
    } else if (op == "InplaceLerps") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceLerpsGetWorkspaceSize(p.t("selfRef"), p.t("end"), p.s("weight"), w, e);
        };
        second = aclnnInplaceLerps;
    } else if (op == "Addcmul") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnAddcmulGetWorkspaceSize(p.t("self"), p.t("tensor1"), p.t("tensor2"), p.s("value"), p.t("out"),
                                                w, e);
        };
        second = aclnnAddcmul;
    } else if (op == "InplaceAddcmul") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceAddcmulGetWorkspaceSize(p.t("selfRef"), p.t("tensor1"), p.t("tensor2"), p.s("value"), w,
                                                       e);
        };
        second = aclnnInplaceAddcmul;
    } else if (op == "Addcdiv") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnAddcdivGetWorkspaceSize(p.t("self"), p.t("tensor1"), p.t("tensor2"), p.s("value"), p.t("out"),
                                                w, e);
        };
        second = aclnnAddcdiv;
    } else if (op == "InplaceAddcdiv") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceAddcdivGetWorkspaceSize(p.t("selfRef"), p.t("tensor1"), p.t("tensor2"), p.s("value"), w,
                                                       e);
        };
        second = aclnnInplaceAddcdiv;
    } else if (op == "Sqrt") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnSqrtGetWorkspaceSize(p.t("self"), p.t("out"), w, e);
        };
        second = aclnnSqrt;
    } else if (op == "InplaceSqrt") {
        first = [&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceSqrtGetWorkspaceSize(p.t("selfRef"), w, e); };
        second = aclnnInplaceSqrt;
    } else if (op == "InplaceAdds") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceAddsGetWorkspaceSize(p.t("selfRef"), p.s("other"), p.s("alpha"), w, e);
        };
        second = aclnnInplaceAdds;
    } else if (op == "InplaceDiv") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceDivGetWorkspaceSize(p.t("selfRef"), p.t("other"), w, e);
        };
        second = aclnnInplaceDiv;
    } else if (op == "InplaceDivs") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceDivsGetWorkspaceSize(p.t("selfRef"), p.s("other"), w, e);
        };
        second = aclnnInplaceDivs;
    } else if (op == "InplaceSub") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceSubGetWorkspaceSize(p.t("selfRef"), p.t("other"), p.s("alpha"), w, e);
        };
        second = aclnnInplaceSub;
    } else if (op == "InplaceSubs") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceSubsGetWorkspaceSize(p.t("selfRef"), p.s("other"), p.s("alpha"), w, e);
        };
        second = aclnnInplaceSubs;
    } else if (op == "LinalgVectorNorm") {
        first = [&, dt](uint64_t* w, aclOpExecutor** e) {
            return aclnnLinalgVectorNormGetWorkspaceSize(p.t("self"), p.s("ord"), p.a("dims"), p.n("keepDims") != 0,
                                                         dt("dtype"), p.t("out"), w, e);
        };
        second = aclnnLinalgVectorNorm;
    } else if (op == "ForeachNorm") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnForeachNormGetWorkspaceSize(p.l("x"), p.s("scalar"), p.l("out"), w, e);
        };
        second = aclnnForeachNorm;
    } else if (op == "ForeachNonFiniteCheckAndUnscale") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnForeachNonFiniteCheckAndUnscaleGetWorkspaceSize(p.l("scaledGrads"), p.t("foundInf"),
                                                                        p.t("invScale"), w, e);
        };
        second = aclnnForeachNonFiniteCheckAndUnscale;
    } else if (op == "AmpUpdateScale") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnAmpUpdateScaleGetWorkspaceSize(
                p.t("currentScale"), p.t("growthTracker"), p.t("foundInf"), p.n("growthFactor"), p.n("backoffFactor"),
                static_cast<int64_t>(p.n("growthInterval")), p.t("updatedScale"), p.t("updatedGrowthTracker"), w, e);
        };
        second = aclnnAmpUpdateScale;
    } else if (op == "BitwiseAndScalar") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnBitwiseAndScalarGetWorkspaceSize(p.t("self"), p.s("other"), p.t("out"), w, e);
        };
        second = aclnnBitwiseAndScalar;
    } else if (op == "InplaceBitwiseAndScalar") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceBitwiseAndScalarGetWorkspaceSize(p.t("selfRef"), p.s("other"), w, e);
        };
        second = aclnnInplaceBitwiseAndScalar;
    } else if (op == "BitwiseAndTensor") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnBitwiseAndTensorGetWorkspaceSize(p.t("self"), p.t("other"), p.t("out"), w, e);
        };
        second = aclnnBitwiseAndTensor;
    } else if (op == "InplaceBitwiseAndTensor") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceBitwiseAndTensorGetWorkspaceSize(p.t("selfRef"), p.t("other"), w, e);
        };
        second = aclnnInplaceBitwiseAndTensor;
    } else if (op == "ConstantPadNd") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnConstantPadNdGetWorkspaceSize(p.t("self"), p.a("pad"), p.s("value"), p.t("out"), w, e);
        };
        second = aclnnConstantPadNd;
    } else if (op == "Triu" || op == "Tril") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            const auto diagonal = static_cast<int64_t>(p.n("diagonal", 0));
            return op == "Triu" ? aclnnTriuGetWorkspaceSize(p.t("self"), diagonal, p.t("out"), w, e)
                                : aclnnTrilGetWorkspaceSize(p.t("self"), diagonal, p.t("out"), w, e);
        };
        second = op == "Triu" ? aclnnTriu : aclnnTril;
    } else if (op == "NeScalar") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnNeScalarGetWorkspaceSize(p.t("self"), p.s("other"), p.t("out"), w, e);
        };
        second = aclnnNeScalar;
    } else if (op == "NeTensor") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnNeTensorGetWorkspaceSize(p.t("self"), p.t("other"), p.t("out"), w, e);
        };
        second = aclnnNeTensor;
    } else if (op == "EqScalar") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnEqScalarGetWorkspaceSize(p.t("self"), p.s("other"), p.t("out"), w, e);
        };
        second = aclnnEqScalar;
    } else if (op == "LogicalNot") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnLogicalNotGetWorkspaceSize(p.t("self"), p.t("out"), w, e);
        };
        second = aclnnLogicalNot;
    } else if (op == "ThresholdBackward") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnThresholdBackwardGetWorkspaceSize(p.t("gradOutput"), p.t("self"), p.s("threshold"), p.t("out"),
                                                          w, e);
        };
        second = aclnnThresholdBackward;
    } else if (op == "ForeachAddScalarV2") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnForeachAddScalarV2GetWorkspaceSize(p.l("x"), p.s("scalar"), p.l("out"), w, e);
        };
        second = aclnnForeachAddScalarV2;
    } else if (op == "ForeachMulScalarV2") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnForeachMulScalarV2GetWorkspaceSize(p.l("x"), p.s("scalar"), p.l("out"), w, e);
        };
        second = aclnnForeachMulScalarV2;
    } else if (op == "ForeachDivScalarV2") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnForeachDivScalarV2GetWorkspaceSize(p.l("x"), p.s("scalar"), p.l("out"), w, e);
        };
        second = aclnnForeachDivScalarV2;
    } else if (op == "ForeachSqrt") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnForeachSqrtGetWorkspaceSize(p.l("x"), p.l("out"), w, e);
        };
        second = aclnnForeachSqrt;
    } else if (op == "ForeachLerpScalar") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnForeachLerpScalarGetWorkspaceSize(p.l("x1"), p.l("x2"), p.s("weight"), p.l("out"), w, e);
        };
        second = aclnnForeachLerpScalar;
    } else if (op == "ForeachAddcmulScalarV2") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnForeachAddcmulScalarV2GetWorkspaceSize(p.l("x1"), p.l("x2"), p.l("x3"), p.s("scalar"),
                                                               p.l("out"), w, e);
        };
        second = aclnnForeachAddcmulScalarV2;
    } else if (op == "ForeachAddcdivScalarV2") {
        first = [&](uint64_t* w, aclOpExecutor** e) {
            return aclnnForeachAddcdivScalarV2GetWorkspaceSize(p.l("x1"), p.l("x2"), p.l("x3"), p.s("scalar"),
                                                               p.l("out"), w, e);
        };
        second = aclnnForeachAddcdivScalarV2;
    } else {
        return select_by_name(p, first, second) || select_reductions(p, first, second) ||
               select_elementwise_more(p, first, second) || select_breadth(p, first, second) ||
               select_image(p, first, second) || select_counting(p, first, second);
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s SPEC\n", argv[0]);
        return 2;
    }
    aclrtStream stream = nullptr;
    if (!check(aclInit(nullptr), "aclInit") || !check(aclrtSetDevice(0), "aclrtSetDevice") ||
        !check(aclrtCreateStream(&stream), "aclrtCreateStream")) {
        return 3;
    }
    Spec spec;
    if (!parse(argv[1], spec)) return 4;
    Phase1 first;
    Phase2 second = nullptr;
    if (!select(spec, first, second)) {
        std::fprintf(stderr, "unknown op %s\n", spec.op.c_str());
        return 5;
    }
    uint64_t ws = 0;
    aclOpExecutor* executor = nullptr;
    const aclnnStatus s1 = first(&ws, &executor);
    std::printf("phase1 %d %llu\n", s1, static_cast<unsigned long long>(ws));
    if (s1 != ACLNN_SUCCESS) return 1;
    if (spec.runs > 1) aclSetAclOpExecutorRepeatable(executor);
    const long long given = static_cast<long long>(ws) + spec.wsdelta;
    void* workspace = nullptr;
    if (ws > 0 && !check(aclrtMalloc(&workspace, ws, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc")) return 3;
    bool ok = true;
    for (int i = 0; i < spec.runs; ++i) {
        const aclnnStatus s2 = second(workspace, static_cast<uint64_t>(given < 0 ? 0 : given), executor, stream);
        std::printf("phase2 %d\n", s2);
        ok = ok && s2 == ACLNN_SUCCESS;
    }
    if (spec.runs > 1) aclDestroyAclOpExecutor(executor);
    if (!check(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream")) return 3;
    for (auto& [name, dt] : spec.tensors) {
        if (!dt.out_file.empty()) {
            // The view shape after the run (operators with data-dependent output shapes set it).
            int64_t* view = nullptr;
            uint64_t rank = 0;
            if (aclGetViewShape(dt.tensor, &view, &rank) == ACLNN_SUCCESS) {
                std::printf("view %s", name.c_str());
                for (uint64_t i = 0; i < rank; ++i) std::printf(" %lld", static_cast<long long>(view[i]));
                std::printf("\n");
                delete[] view;  // CANN's contract: the caller releases with delete[]
            }
            std::vector<char> host(dt.bytes);
            if (dt.bytes && !check(aclrtMemcpy(host.data(), dt.bytes, dt.device, dt.bytes, ACL_MEMCPY_DEVICE_TO_HOST),
                                   "aclrtMemcpy"))
                return 3;
            std::ofstream(dt.out_file, std::ios::binary).write(host.data(), static_cast<std::streamsize>(host.size()));
        }
        aclDestroyTensor(dt.tensor);
        aclrtFree(dt.device);
    }
    for (auto& [name, s] : spec.scalars) aclDestroyScalar(s);
    for (auto& [name, a] : spec.arrays) aclDestroyIntArray(a);
    for (auto& [name, a] : spec.bools) aclDestroyBoolArray(a);
    for (auto& [name, a] : spec.lists) aclDestroyTensorList(a);
    if (workspace) aclrtFree(workspace);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return ok ? 0 : 1;
}
