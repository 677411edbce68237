// aclnnLayerNorm (and aclnnFastLayerNorm, the same operator under the entry point torch_npu's
// compatible mode calls) and aclnnRmsNorm over the trailing dimensions. Statistics are
// accumulated in double; results are rounded to the output's type.
//   LayerNorm: out = (x - mean) * rstd * weight + bias, rstd = 1 / sqrt(var + eps)
//              (biased variance); meanOut / rstdOut (optional) have the input's
//              leading dimensions and 1 for each normalised one.
//   RmsNorm:   y = x * rstd * gamma, rstd = 1 / sqrt(mean(x^2) + epsilon); rstdOut
//              (optional) has x's shape with gamma's dimensions set to 1.
#include <cmath>
#include <memory>

#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "core/fault_plan.h"
#include "nnopbase/dtype.h"
#include "nnopbase/tensor.h"
#include "opapi/checks.h"
#include "opapi/math_library.h"
#include "opapi/op_launcher.h"
#include "opapi/registry.h"

namespace npusim::opapi {

namespace {

// Declared in the operator registry (hand-written: its own checks and compute).
[[maybe_unused]] const bool kRegistered =
    register_op({"aclnnLayerNorm", OpFamily::Normalization, kFloatTypes, Kernel::LayerNormV4}) &&
    register_op({"aclnnFastLayerNorm", OpFamily::Normalization, kFloatTypes, Kernel::LayerNormV4}) &&
    register_op({"aclnnRmsNorm", OpFamily::Normalization, kFloatTypes, Kernel::RmsNorm});

constexpr int64_t kRowsPerBlock = 16;

// Checks an optional statistics output (float type, the given shape).
aclnnStatus check_stat(const char* api, const char* what, const aclTensor* t, const Dims& dims) {
    if (t == nullptr) return ACLNN_SUCCESS;
    OPAPI_CHECK(check_tensor(api, what, t));
    const TensorView v = view_of(t);
    OPAPI_CHECK(check_float_type(api, what, v.dtype));
    return check_same_dims(api, what, v.dims, dims);
}

// Trailing dimensions of x equal to `tail`?
bool has_tail(const Dims& x, const Dims& tail) {
    if (tail.empty() || tail.size() > x.size()) return false;
    return std::equal(tail.begin(), tail.end(), x.end() - static_cast<long>(tail.size()));
}

Dims stat_dims(const Dims& x, size_t normalized) {
    Dims d = x;
    for (size_t i = x.size() - normalized; i < x.size(); ++i) d[i] = 1;
    return d;
}

// api: aclnnLayerNorm or aclnnFastLayerNorm (one LayerNormV4 kernel either way: no public capture
// names FastLayerNorm's own).
aclnnStatus prepare_layer_norm(const char* api, const aclTensor* input, const aclIntArray* normalizedShape,
                               const aclTensor* weight, const aclTensor* bias, double eps, aclTensor* out,
                               aclTensor* meanOut, aclTensor* rstdOut, uint64_t* workspaceSize,
                               aclOpExecutor** executor) {
    OPAPI_CHECK(check_not_null(api, {input, normalizedShape, out, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "input", input));
    OPAPI_CHECK(check_tensor(api, "out", out));
    if (!nn::valid(normalizedShape)) return invalid(api, "normalizedShape is not a live aclIntArray");
    const TensorView x = view_of(input), y = view_of(out);
    OPAPI_CHECK(check_float_type(api, "input", x.dtype));
    OPAPI_CHECK(check_float_type(api, "out", y.dtype));
    OPAPI_CHECK(check_rank(api, "input", x.dims, 1, nn::kMaxDims));
    OPAPI_CHECK(check_same_dims(api, "out", y.dims, x.dims));
    const Dims ns = normalizedShape->values;
    if (!has_tail(x.dims, ns))
        return invalid(api, "normalizedShape %s is not the tail of input %s", dims_text(ns).c_str(),
                       dims_text(x.dims).c_str());
    TensorView w, b;
    for (auto [t, what, view] : {std::tuple{weight, "weight", &w}, std::tuple{bias, "bias", &b}}) {
        if (t == nullptr) continue;
        OPAPI_CHECK(check_tensor(api, what, t));
        *view = view_of(t);
        OPAPI_CHECK(check_float_type(api, what, view->dtype));
        OPAPI_CHECK(check_same_dims(api, what, view->dims, ns));
    }
    const Dims sd = stat_dims(x.dims, ns.size());
    OPAPI_CHECK(check_stat(api, "meanOut", meanOut, sd));
    OPAPI_CHECK(check_stat(api, "rstdOut", rstdOut, sd));
    const TensorView mean = view_of(meanOut), rstd = view_of(rstdOut);
    const bool has_w = weight != nullptr, has_b = bias != nullptr, has_mean = meanOut != nullptr,
               has_rstd = rstdOut != nullptr;

    const int64_t len = numel(ns), rows = len == 0 ? 0 : x.numel() / len, n = x.numel();
    const double bytes = double(x.bytes() + y.bytes() + w.bytes() * has_w + b.bytes() * has_b +
                                mean.bytes() * has_mean + rstd.bytes() * has_rstd);
    std::vector<KernelLaunch> launches{
        {Kernel::LayerNormV4, x.dtype, vector_cost(8.0 * n, bytes, rows, kRowsPerBlock)}};
    auto compute = [=]() {
        const FloatInput v(x);
        const std::vector<float> gw = has_w ? read_floats(w) : std::vector<float>();
        const std::vector<float> gb = has_b ? read_floats(b) : std::vector<float>();
        FloatOutput r(y, {&x, &w, &b});
        std::vector<float> m(static_cast<size_t>(rows)), s(static_cast<size_t>(rows));
        // Rows are independent: split across the math threads, each computed as on one.
        auto part = [&](int64_t first, int64_t last) {
            for (int64_t row = first; row < last; ++row) {
                const float* in = v.data() + row * len;
                float* res = r.data() + row * len;
                double sum = 0, sq = 0;
                for (int64_t i = 0; i < len; ++i) sum += in[i];
                const double mu = sum / double(len);
                for (int64_t i = 0; i < len; ++i) sq += (in[i] - mu) * (in[i] - mu);
                const double inv = 1.0 / std::sqrt(sq / double(len) + eps);
                for (int64_t i = 0; i < len; ++i) {
                    double e = (in[i] - mu) * inv;
                    if (has_w) e *= gw[size_t(i)];
                    if (has_b) e += gb[size_t(i)];
                    res[i] = static_cast<float>(e);
                }
                m[size_t(row)] = static_cast<float>(mu);
                s[size_t(row)] = static_cast<float>(inv);
            }
        };
        if (n >= kParallelFrom) {
            parallel_parts(rows, part);
        } else {
            part(0, rows);
        }
        r.commit();
        if (has_mean) write_floats(mean, m);
        if (has_rstd) write_floats(rstd, s);
    };
    return hand_over(
        std::make_unique<OpExecutor>(api, 0, compute, std::move(launches),
                                     std::vector<void*>{x.data, w.data, b.data, y.data, mean.data, rstd.data}),
        workspaceSize, executor);
}

aclnnStatus prepare_rms_norm(const aclTensor* xt, const aclTensor* gamma, double epsilon, const aclTensor* yOut,
                             const aclTensor* rstdOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
    const char* api = "aclnnRmsNorm";
    OPAPI_CHECK(check_not_null(api, {xt, gamma, yOut, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "x", xt));
    OPAPI_CHECK(check_tensor(api, "gamma", gamma));
    OPAPI_CHECK(check_tensor(api, "yOut", yOut));
    const TensorView x = view_of(xt), g = view_of(gamma), y = view_of(yOut);
    OPAPI_CHECK(check_float_type(api, "x", x.dtype));
    OPAPI_CHECK(check_float_type(api, "gamma", g.dtype));
    OPAPI_CHECK(check_same_dtype(api, "yOut", y.dtype, x.dtype));
    OPAPI_CHECK(check_rank(api, "x", x.dims, 1, nn::kMaxDims));
    OPAPI_CHECK(check_same_dims(api, "yOut", y.dims, x.dims));
    if (!has_tail(x.dims, g.dims))
        return invalid(api, "gamma %s is not the tail of x %s", dims_text(g.dims).c_str(), dims_text(x.dims).c_str());
    OPAPI_CHECK(check_stat(api, "rstdOut", rstdOut, stat_dims(x.dims, g.rank())));
    const TensorView rstd = view_of(rstdOut);
    const bool has_rstd = rstdOut != nullptr;
    const int64_t len = g.numel(), rows = len == 0 ? 0 : x.numel() / len, n = x.numel();
    const double bytes = double(x.bytes() + g.bytes() + y.bytes() + rstd.bytes() * has_rstd);
    std::vector<KernelLaunch> launches{{Kernel::RmsNorm, x.dtype, vector_cost(4.0 * n, bytes, rows, kRowsPerBlock)}};
    auto compute = [=]() {
        const std::vector<float> v = read_floats(x), gw = read_floats(g);
        std::vector<float> r(v.size()), s(static_cast<size_t>(rows));
        for (int64_t row = 0; row < rows; ++row) {
            const float* in = v.data() + row * len;
            double sq = 0;
            for (int64_t i = 0; i < len; ++i) sq += double(in[i]) * in[i];
            const double inv = 1.0 / std::sqrt(sq / double(len) + epsilon);
            for (int64_t i = 0; i < len; ++i)
                r[size_t(row * len + i)] = static_cast<float>(in[i] * inv * gw[size_t(i)]);
            s[size_t(row)] = static_cast<float>(inv);
        }
        write_floats(y, r);
        if (has_rstd) write_floats(rstd, s);
    };
    return hand_over(std::make_unique<OpExecutor>(api, 0, compute, std::move(launches),
                                                  std::vector<void*>{x.data, g.data, y.data, rstd.data}),
                     workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnLayerNormGetWorkspaceSize(const aclTensor* input, const aclIntArray* normalizedShape,
                                                           const aclTensor* weightOptional,
                                                           const aclTensor* biasOptional, double eps, aclTensor* out,
                                                           aclTensor* meanOutOptional, aclTensor* rstdOutOptional,
                                                           uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnLayerNormGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_layer_norm("aclnnLayerNorm", input, normalizedShape, weightOptional, biasOptional,
                                             eps, out, meanOutOptional, rstdOutOptional, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnLayerNorm)

NPUSIM_C_EXPORT aclnnStatus aclnnFastLayerNormGetWorkspaceSize(
    const aclTensor* input, const aclIntArray* normalizedShape, const aclTensor* weightOptional,
    const aclTensor* biasOptional, double eps, aclTensor* out, aclTensor* meanOutOptional, aclTensor* rstdOutOptional,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnFastLayerNormGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_layer_norm("aclnnFastLayerNorm", input, normalizedShape, weightOptional, biasOptional,
                                             eps, out, meanOutOptional, rstdOutOptional, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnFastLayerNorm)

NPUSIM_C_EXPORT aclnnStatus aclnnRmsNormGetWorkspaceSize(const aclTensor* x, const aclTensor* gamma, double epsilon,
                                                         const aclTensor* yOut, const aclTensor* rstdOut,
                                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnRmsNormGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_rms_norm(x, gamma, epsilon, yOut, rstdOut, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnRmsNorm)
