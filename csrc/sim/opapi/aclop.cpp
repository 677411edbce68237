#include "opapi/aclop.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>

#include "aclnn/acl_meta.h"
#include "core/log.h"
#include "nnopbase/dtype.h"
#include "opapi/checks.h"
#include "opapi/device_rng.h"
#include "opapi/aclop_operands.h"
#include "opapi/elementwise.h"
#include "opapi/op_launcher.h"

namespace npusim::opapi {

namespace {

constexpr int64_t kMaskAlign = 128;  // elements per 16 mask bytes (CANN's alignment of the bit mask)

double value_of(double value, double, double, double) { return value; }
double finite_of(double x, double, double, double) { return std::isfinite(x) ? 1.0 : 0.0; }

const ElementwiseOp kFill{"Fill", OpFamily::Fill, {Kernel::Fill, 0}, kAllTypes, Promotion::Common, value_of};
const ElementwiseOp kIsFinite{
    "IsFinite",           OpFamily::Unary, {Kernel::IsFinite, 1}, kFloatTypes | DTypeSet{ACL_BOOL},
    Promotion::Predicate, finite_of};

bool is_int(aclDataType t) { return t == ACL_INT32 || t == ACL_INT64; }

aclError fill(const std::vector<AclopOperand>& in, const std::vector<AclopOperand>& out, const AclopAttrs*,
              aclrtStream stream) {
    const char* type = "Fill";
    if (in.size() != 2 || out.size() != 1) return aclop_bad(type, "2 inputs (dims, value) and 1 output expected");
    if (!is_int(in[0].dtype)) return aclop_bad(type, "dims must be int32 or int64");
    const std::vector<double> dims = operand_values(in[0]);
    const std::vector<double> value = operand_values(in[1]);
    if (dims.size() != static_cast<size_t>(numel(in[0].dims)) || value.size() != 1) {
        return aclop_bad(type, "dims must be readable and value hold one element");
    }
    Dims shape(dims.begin(), dims.end());
    if (shape != out[0].dims) return aclop_bad(type, "y's shape is not dims: ", dims_text(out[0].dims));
    const AclTensorPtr tensor = tensor_of(out[0]);
    double number = value.front();
    std::unique_ptr<aclScalar, aclnnStatus (*)(const aclScalar*)> scalar(aclCreateScalar(&number, ACL_DOUBLE),
                                                                         aclDestroyScalar);
    if (!tensor || !scalar) return aclop_bad(type, "y or value cannot be described");
    uint64_t ws = 0;
    aclOpExecutor* executor = nullptr;
    const aclnnStatus status =
        prepare_elementwise(kFill, {attribute("value", scalar.get())}, tensor.get(), &ws, &executor);
    return run_prepared(type, status, executor, stream);
}

// IsFinite (x: float32, float16 or bfloat16) -> y: bool of x's shape: whether each element is finite.
aclError is_finite(const std::vector<AclopOperand>& in, const std::vector<AclopOperand>& out, const AclopAttrs*,
                   aclrtStream stream) {
    const char* type = "IsFinite";
    if (in.size() != 1 || out.size() != 1) return aclop_bad(type, "1 input (x) and 1 output (y) expected");
    if (!is_float_type(in[0].dtype)) return aclop_bad(type, "x must be float32, float16 or bfloat16");
    if (out[0].dtype != ACL_BOOL) return aclop_bad(type, "y must be bool");
    if (out[0].dims != in[0].dims) return aclop_bad(type, "y's shape is not x's: ", dims_text(out[0].dims));
    if (!fits(in[0]) || !fits(out[0])) return aclop_bad(type, "x or y has no buffer of its size");
    const AclTensorPtr x = tensor_of(in[0]), y = tensor_of(out[0]);
    if (!x || !y) return aclop_bad(type, "x or y cannot be described");
    uint64_t ws = 0;
    aclOpExecutor* executor = nullptr;
    const aclnnStatus status = prepare_elementwise(kIsFinite, {tensor_in("x", x.get())}, y.get(), &ws, &executor);
    return run_prepared(type, status, executor, stream);
}

aclError gen_mask(const std::vector<AclopOperand>& in, const std::vector<AclopOperand>& out, const AclopAttrs*,
                  aclrtStream stream) {
    const char* type = "StatelessDropOutGenMask";
    if (in.size() != 5 || out.size() != 1) {
        return aclop_bad(type, "5 inputs (shape, prob, seed, seed1, offset) and 1 output expected");
    }
    if (!is_int(in[0].dtype) || !is_int(in[2].dtype) || !is_int(in[3].dtype) || in[4].dtype != ACL_INT64) {
        return aclop_bad(type, "shape, seed and seed1 must be int32 or int64, offset int64");
    }
    if (!is_float_type(in[1].dtype)) return aclop_bad(type, "prob must be float32, float16 or bfloat16");
    const std::vector<double> shape = operand_values(in[0]), prob = operand_values(in[1]), seed = operand_values(in[2]),
                              seed1 = operand_values(in[3]);
    const std::vector<double> offset = operand_values(in[4]);
    if (prob.size() != 1 || seed.size() != 1 || seed1.size() != 1 || offset.size() != 2 ||
        shape.size() != static_cast<size_t>(numel(in[0].dims))) {
        return aclop_bad(type, "prob, seed and seed1 must hold one element, offset two");
    }
    if (!(prob[0] >= 0.0 && prob[0] <= 1.0)) return aclop_bad(type, "prob is outside [0, 1]");
    int64_t n = 1;
    for (double d : shape) {
        if (d < 0) return aclop_bad(type, "shape has a negative dimension");
        n *= static_cast<int64_t>(d);
    }
    const int64_t bytes = (n + kMaskAlign - 1) / kMaskAlign * kMaskAlign / 8;
    const AclopOperand& mask = out[0];
    if (mask.dtype != ACL_UINT8 || numel(mask.dims) < bytes || !fits(mask)) {
        return aclop_bad(type, "mask must be uint8 with at least ceil(numel / 128) * 16 elements, has ",
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
    return launch_now(
        type, std::make_unique<OpExecutor>(type, 0, compute, std::move(launches), std::vector<void*>{data}), stream);
}

aclError do_mask(const std::vector<AclopOperand>& in, const std::vector<AclopOperand>& out, const AclopAttrs*,
                 aclrtStream stream) {
    const char* type = "DropOutDoMask";
    if (in.size() != 3 || out.size() != 1)
        return aclop_bad(type, "3 inputs (x, mask, keep_prob) and 1 output expected");
    if (!is_float_type(in[0].dtype) || out[0].dtype != in[0].dtype)
        return aclop_bad(type, "x and y must be of one float type");
    if (in[0].dims != out[0].dims || !fits(in[0]) || !fits(out[0])) return aclop_bad(type, "y must have x's shape");
    const int64_t n = numel(in[0].dims);
    if (in[1].dtype != ACL_UINT8 || numel(in[1].dims) * 8 < n || !fits(in[1])) {
        return aclop_bad(type, "mask must be uint8 with a bit per element of x");
    }
    const std::vector<double> prob = operand_values(in[2]);
    if (prob.size() != 1 || !(prob[0] > 0.0 && prob[0] <= 1.0))
        return aclop_bad(type, "keep_prob must be one value in (0, 1]");
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
    return launch_now(type,
                      std::make_unique<OpExecutor>(type, 0, compute, std::move(launches),
                                                   std::vector<void*>{x.data, in[1].data, y.data}),
                      stream);
}

struct AclopType {
    OpInfo info;
    AclopHandler run;
};

// The aclop types: each registered from this table, and found in it (no lock) when a call comes.
const AclopType kTypes[] = {
    {{"Fill", OpFamily::Fill, kAllTypes, Kernel::Fill, true}, fill},
    {{"StatelessDropOutGenMask", OpFamily::Random, kFloatTypes, Kernel::StatelessDropOutGenMask, true}, gen_mask},
    {{"DropOutDoMask", OpFamily::Random, kFloatTypes, Kernel::DropOutDoMask, true}, do_mask},
    {{"IsFinite", OpFamily::Unary, kFloatTypes, Kernel::IsFinite, true}, is_finite},
    {{"PadV3Grad", OpFamily::Layout, kNumericTypes, Kernel::PadV3Grad, true}, pad_v3_grad},
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
                   const AclopAttrs* attrs, aclrtStream stream) {
    const AclopType* t = find_type(type);
    return t == nullptr ? ACL_ERROR_FEATURE_UNSUPPORTED : t->run(inputs, outputs, attrs, stream);
}

}  // namespace npusim::opapi
