#include "opapi/aclop.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <string>

#include "aclnn/acl_meta.h"
#include "core/log.h"
#include "nnopbase/dtype.h"
#include "opapi/checks.h"
#include "opapi/device_rng.h"
#include "opapi/elementwise.h"
#include "opapi/op_launcher.h"

namespace npusim::opapi {

namespace {

constexpr int64_t kMaskAlign = 128;  // elements per 16 mask bytes (CANN's alignment of the bit mask)

double value_of(double value, double, double, double) { return value; }

const ElementwiseOp kFill{"Fill", OpFamily::Fill, {Kernel::Fill, 0}, kAllTypes, Promotion::Common, value_of};

aclError bad(const char* type, const char* fmt, const std::string& detail = {}) {
    log_message(LogLevel::Error, "aclopCompileAndExecute(\"%s\"): %s%s", type, fmt, detail.c_str());
    return ACL_ERROR_INVALID_PARAM;
}

bool is_int(aclDataType t) { return t == ACL_INT32 || t == ACL_INT64; }

// The elements of a small host-readable integer or float tensor.
std::vector<double> values(const AclopOperand& o) {
    std::vector<double> v(static_cast<size_t>(numel(o.dims)));
    const size_t size = nn::dtype_size(o.dtype);
    if (o.data == nullptr || size == 0 || v.size() * size > o.bytes) return {};
    for (size_t i = 0; i < v.size(); ++i) v[i] = nn::load_element(static_cast<const char*>(o.data) + i * size, o.dtype);
    return v;
}

TensorView contiguous_view(const AclopOperand& o) {
    TensorView v;
    v.dtype = o.dtype;
    v.dims = o.dims;
    v.strides.assign(o.dims.size(), 1);
    for (size_t i = o.dims.size(); i-- > 1;) v.strides[i - 1] = v.strides[i] * o.dims[i];
    v.data = o.data;
    return v;
}

bool fits(const AclopOperand& o) {
    return o.data != nullptr && static_cast<size_t>(numel(o.dims)) * nn::dtype_size(o.dtype) <= o.bytes;
}

// Runs a prepared operator at once (the aclop call is both phases).
aclError launch(const char* type, std::unique_ptr<OpExecutor> op, aclrtStream stream) {
    uint64_t ws = 0;
    aclOpExecutor* executor = nullptr;
    if (hand_over(std::move(op), &ws, &executor) != ACLNN_SUCCESS) return ACL_ERROR_INVALID_PARAM;
    const aclnnStatus rc = run_op(type, nullptr, 0, executor, stream);
    return rc == ACLNN_SUCCESS ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM;
}

aclError fill(const std::vector<AclopOperand>& in, const std::vector<AclopOperand>& out, aclrtStream stream) {
    const char* type = "Fill";
    if (in.size() != 2 || out.size() != 1) return bad(type, "2 inputs (dims, value) and 1 output expected");
    if (!is_int(in[0].dtype)) return bad(type, "dims must be int32 or int64");
    const std::vector<double> dims = values(in[0]);
    const std::vector<double> value = values(in[1]);
    if (dims.size() != static_cast<size_t>(numel(in[0].dims)) || value.size() != 1) {
        return bad(type, "dims must be readable and value hold one element");
    }
    Dims shape(dims.begin(), dims.end());
    if (shape != out[0].dims) return bad(type, "y's shape is not dims: ", dims_text(out[0].dims));
    const TensorView y = contiguous_view(out[0]);
    const Dims storage{std::max<int64_t>(numel(y.dims), 1)};
    std::unique_ptr<aclTensor, aclnnStatus (*)(const aclTensor*)> tensor(
        aclCreateTensor(y.dims.data(), y.dims.size(), y.dtype, y.strides.data(), 0, ACL_FORMAT_ND, storage.data(), 1,
                        y.data),
        aclDestroyTensor);
    double number = value.front();
    std::unique_ptr<aclScalar, aclnnStatus (*)(const aclScalar*)> scalar(aclCreateScalar(&number, ACL_DOUBLE),
                                                                         aclDestroyScalar);
    if (!tensor || !scalar) return bad(type, "y or value cannot be described");
    uint64_t ws = 0;
    aclOpExecutor* executor = nullptr;
    if (prepare_elementwise(kFill, {attribute("value", scalar.get())}, tensor.get(), &ws, &executor) != ACLNN_SUCCESS) {
        return ACL_ERROR_INVALID_PARAM;
    }
    return run_op(type, nullptr, 0, executor, stream) == ACLNN_SUCCESS ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM;
}

aclError gen_mask(const std::vector<AclopOperand>& in, const std::vector<AclopOperand>& out, aclrtStream stream) {
    const char* type = "StatelessDropOutGenMask";
    if (in.size() != 5 || out.size() != 1) {
        return bad(type, "5 inputs (shape, prob, seed, seed1, offset) and 1 output expected");
    }
    if (!is_int(in[0].dtype) || !is_int(in[2].dtype) || !is_int(in[3].dtype) || in[4].dtype != ACL_INT64) {
        return bad(type, "shape, seed and seed1 must be int32 or int64, offset int64");
    }
    if (!is_float_type(in[1].dtype)) return bad(type, "prob must be float32, float16 or bfloat16");
    const std::vector<double> shape = values(in[0]), prob = values(in[1]), seed = values(in[2]), seed1 = values(in[3]);
    const std::vector<double> offset = values(in[4]);
    if (prob.size() != 1 || seed.size() != 1 || seed1.size() != 1 || offset.size() != 2 ||
        shape.size() != static_cast<size_t>(numel(in[0].dims))) {
        return bad(type, "prob, seed and seed1 must hold one element, offset two");
    }
    if (!(prob[0] >= 0.0 && prob[0] <= 1.0)) return bad(type, "prob is outside [0, 1]");
    int64_t n = 1;
    for (double d : shape) {
        if (d < 0) return bad(type, "shape has a negative dimension");
        n *= static_cast<int64_t>(d);
    }
    const int64_t bytes = (n + kMaskAlign - 1) / kMaskAlign * kMaskAlign / 8;
    const AclopOperand& mask = out[0];
    if (mask.dtype != ACL_UINT8 || numel(mask.dims) < bytes || !fits(mask)) {
        return bad(type, "mask must be uint8 with at least ceil(numel / 128) * 16 elements, has ",
                   dims_text(mask.dims));
    }
    RngStream rng;
    // The key is seed mixed with seed1 (torch_npu passes seed1 0, which leaves seed as it is).
    rng.seed = static_cast<uint64_t>(static_cast<int64_t>(seed[0])) ^
               (static_cast<uint64_t>(static_cast<int64_t>(seed1[0])) * 0x9E3779B97F4A7C15ULL);
    rng.offset_low = static_cast<uint64_t>(static_cast<int64_t>(offset[1]));
    rng.offset_high = static_cast<uint64_t>(static_cast<int64_t>(offset[0]));
    const auto keep = static_cast<float>(prob[0]);
    auto* data = static_cast<uint8_t*>(mask.data);
    auto compute = [rng, keep, data, n, bytes]() {
        std::memset(data, 0, static_cast<size_t>(bytes));
        for (int64_t base = 0; base < n; base += 4) {
            const std::array<uint32_t, 4> words = rng_block(rng, static_cast<uint64_t>(base / 4));
            for (int64_t k = base; k < std::min(base + 4, n); ++k) {
                if (rng_to_uniform(words[size_t(k - base)]) < keep) data[k >> 3] |= static_cast<uint8_t>(1u << (k & 7));
            }
        }
    };
    std::vector<KernelLaunch> launches{
        {Kernel::StatelessDropOutGenMask, in[1].dtype, vector_cost(10.0 * double(n), double(bytes), n, 4096)}};
    return launch(type, std::make_unique<OpExecutor>(type, 0, compute, std::move(launches), std::vector<void*>{data}),
                  stream);
}

aclError do_mask(const std::vector<AclopOperand>& in, const std::vector<AclopOperand>& out, aclrtStream stream) {
    const char* type = "DropOutDoMask";
    if (in.size() != 3 || out.size() != 1) return bad(type, "3 inputs (x, mask, keep_prob) and 1 output expected");
    if (!is_float_type(in[0].dtype) || out[0].dtype != in[0].dtype)
        return bad(type, "x and y must be of one float type");
    if (in[0].dims != out[0].dims || !fits(in[0]) || !fits(out[0])) return bad(type, "y must have x's shape");
    const int64_t n = numel(in[0].dims);
    if (in[1].dtype != ACL_UINT8 || numel(in[1].dims) * 8 < n || !fits(in[1])) {
        return bad(type, "mask must be uint8 with a bit per element of x");
    }
    const std::vector<double> prob = values(in[2]);
    if (prob.size() != 1 || !(prob[0] > 0.0 && prob[0] <= 1.0))
        return bad(type, "keep_prob must be one value in (0, 1]");
    const TensorView x = contiguous_view(in[0]), y = contiguous_view(out[0]);
    const auto* bits = static_cast<const uint8_t*>(in[1].data);
    const float scale = static_cast<float>(1.0 / prob[0]);
    auto compute = [x, y, bits, scale]() {
        std::vector<float> v = read_floats(x);
        for (size_t k = 0; k < v.size(); ++k) {
            v[k] = ((bits[k >> 3] >> (k & 7)) & 1u) != 0 ? round_to(x.dtype, v[k] * scale) : 0.0f;
        }
        write_floats(y, v);
    };
    const double bytes = double(x.bytes() + y.bytes() + in[1].bytes);
    std::vector<KernelLaunch> launches{{Kernel::DropOutDoMask, x.dtype, vector_cost(2.0 * double(n), bytes, n, 4096)}};
    return launch(type,
                  std::make_unique<OpExecutor>(type, 0, compute, std::move(launches),
                                               std::vector<void*>{x.data, in[1].data, y.data}),
                  stream);
}

using Handler = aclError (*)(const std::vector<AclopOperand>&, const std::vector<AclopOperand>&, aclrtStream);

struct AclopType {
    OpInfo info;
    Handler run;
};

// The aclop types: each registered from this table, and found in it (no lock) when a call comes.
const AclopType kTypes[] = {
    {{"Fill", OpFamily::Fill, kAllTypes, Kernel::Fill, true}, fill},
    {{"StatelessDropOutGenMask", OpFamily::Random, kFloatTypes, Kernel::StatelessDropOutGenMask, true}, gen_mask},
    {{"DropOutDoMask", OpFamily::Random, kFloatTypes, Kernel::DropOutDoMask, true}, do_mask},
};

[[maybe_unused]] const bool kRegistered = [] {
    for (const AclopType& t : kTypes) register_op(t.info);
    return true;
}();

const AclopType* find_type(const char* type) {
    if (type == nullptr) return nullptr;
    for (const AclopType& t : kTypes) {
        if (std::strcmp(t.info.api, type) == 0) return &t;
    }
    return nullptr;
}

}  // namespace

bool is_aclop_type(const char* type) { return find_type(type) != nullptr; }

aclError run_aclop(const char* type, const std::vector<AclopOperand>& inputs, const std::vector<AclopOperand>& outputs,
                   aclrtStream stream) {
    const AclopType* t = find_type(type);
    return t == nullptr ? ACL_ERROR_FEATURE_UNSUPPORTED : t->run(inputs, outputs, stream);
}

}  // namespace npusim::opapi
