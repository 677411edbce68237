// aclnnLayerNormBackward: the gradients of aclnnLayerNorm over the trailing normalizedShape
// dimensions, from the forward pass's mean and rstd (input's leading dimensions, 1 for each
// normalised one). With xhat = (x - mean) * rstd and g = gradOut * weight (weight 1 when absent):
//   gradInput  = rstd * (g - mean(g) - xhat * mean(g * xhat))   per row
//   gradWeight = sum over rows of gradOut * xhat;  gradBias = sum over rows of gradOut
// outputMask selects which of the three are written (an output may be NULL when not selected).
// Accumulated in double, rounded once to each output's type. One LayerNormGradV3 kernel.
#include <algorithm>
#include <memory>

#include "aclnnop/aclnn_layer_norm_backward.h"
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
    register_op({"aclnnLayerNormBackward", OpFamily::Normalization, kFloatTypes, Kernel::LayerNormGradV3});

constexpr int64_t kRowsPerBlock = 16;

struct NormGradPlan {
    TensorView dy, x, mean, rstd, w, dx, dw, db;
    bool has_w = false, want_dx = false, want_dw = false, want_db = false;
    int64_t rows = 0, len = 0;
};

void compute(const NormGradPlan& p) {
    const FloatInput dy(p.dy), x(p.x);
    const std::vector<double> mean = read_doubles(p.mean), rstd = read_doubles(p.rstd);
    const std::vector<double> w = p.has_w ? read_doubles(p.w) : std::vector<double>(size_t(p.len), 1.0);
    const double n = double(p.len);
    const bool split = p.rows * p.len >= kParallelFrom;
    // gradInput: rows are independent, split across the math threads.
    if (p.want_dx) {
        FloatOutput dx(p.dx, {&p.dy, &p.x, &p.mean, &p.rstd, &p.w});
        auto rows = [&](int64_t first, int64_t last) {
            std::vector<double> xhat(size_t(p.len));
            for (int64_t r = first; r < last; ++r) {
                const float* xr = x.data() + r * p.len;
                const float* gr = dy.data() + r * p.len;
                double sum_g = 0, sum_gx = 0;
                for (int64_t i = 0; i < p.len; ++i) {
                    xhat[size_t(i)] = (xr[i] - mean[size_t(r)]) * rstd[size_t(r)];
                    const double g = gr[i] * w[size_t(i)];
                    sum_g += g;
                    sum_gx += g * xhat[size_t(i)];
                }
                float* out = dx.data() + r * p.len;
                for (int64_t i = 0; i < p.len; ++i) {
                    const double g = gr[i] * w[size_t(i)];
                    out[i] = static_cast<float>(rstd[size_t(r)] * (g - sum_g / n - xhat[size_t(i)] * sum_gx / n));
                }
            }
        };
        split ? parallel_parts(p.rows, rows) : rows(0, p.rows);
        dx.commit();
    }
    // gradWeight and gradBias: sums over the rows in row order, the columns split across the threads.
    if (p.want_dw || p.want_db) {
        std::vector<double> dw(size_t(p.len), 0.0), db(size_t(p.len), 0.0);
        auto columns = [&](int64_t first, int64_t last) {
            for (int64_t r = 0; r < p.rows; ++r) {
                const float* xr = x.data() + r * p.len;
                const float* gr = dy.data() + r * p.len;
                for (int64_t i = first; i < last; ++i) {
                    const double xhat = (xr[i] - mean[size_t(r)]) * rstd[size_t(r)];
                    dw[size_t(i)] += gr[i] * xhat;
                    db[size_t(i)] += gr[i];
                }
            }
        };
        split ? parallel_parts(p.len, columns) : columns(0, p.len);
        if (p.want_dw) write_doubles(p.dw, dw);
        if (p.want_db) write_doubles(p.db, db);
    }
}

aclnnStatus check_operand(const char* api, const char* what, const aclTensor* t, const Dims& dims, TensorView& view) {
    OPAPI_CHECK(check_tensor(api, what, t));
    view = view_of(t);
    OPAPI_CHECK(check_float_type(api, what, view.dtype));
    return check_same_dims(api, what, view.dims, dims);
}

aclnnStatus prepare(const aclTensor* gradOut, const aclTensor* input, const aclIntArray* normalizedShape,
                    const aclTensor* mean, const aclTensor* rstd, const aclTensor* weight, const aclTensor* bias,
                    const aclBoolArray* outputMask, aclTensor* gradInput, aclTensor* gradWeight, aclTensor* gradBias,
                    uint64_t* workspaceSize, aclOpExecutor** executor) {
    const char* api = "aclnnLayerNormBackward";
    (void)bias;  // the gradients do not depend on the bias
    OPAPI_CHECK(
        check_not_null(api, {gradOut, input, normalizedShape, mean, rstd, outputMask, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "input", input));
    if (!nn::valid(normalizedShape)) return invalid(api, "normalizedShape is not a live aclIntArray");
    if (outputMask->magic != nn::kArrayMagic || outputMask->values.size() != 3) {
        return invalid(api, "outputMask is not a live aclBoolArray of 3 values");
    }
    NormGradPlan p;
    p.x = view_of(input);
    OPAPI_CHECK(check_float_type(api, "input", p.x.dtype));
    OPAPI_CHECK(check_rank(api, "input", p.x.dims, 1, nn::kMaxDims));
    const Dims ns = normalizedShape->values;
    if (ns.empty() || ns.size() > p.x.rank() || !std::equal(ns.begin(), ns.end(), p.x.dims.end() - long(ns.size()))) {
        return invalid(api, "normalizedShape %s is not the tail of input %s", dims_text(ns).c_str(),
                       dims_text(p.x.dims).c_str());
    }
    Dims stat = p.x.dims;
    for (size_t i = p.x.rank() - ns.size(); i < p.x.rank(); ++i) stat[i] = 1;
    OPAPI_CHECK(check_operand(api, "gradOut", gradOut, p.x.dims, p.dy));
    OPAPI_CHECK(check_operand(api, "mean", mean, stat, p.mean));
    OPAPI_CHECK(check_operand(api, "rstd", rstd, stat, p.rstd));
    p.has_w = weight != nullptr;
    if (p.has_w) OPAPI_CHECK(check_operand(api, "weightOptional", weight, ns, p.w));
    p.want_dx = outputMask->values[0];
    p.want_dw = outputMask->values[1];
    p.want_db = outputMask->values[2];
    if (p.want_dx) OPAPI_CHECK(check_operand(api, "gradInputOut", gradInput, p.x.dims, p.dx));
    if (p.want_dw) OPAPI_CHECK(check_operand(api, "gradWeightOut", gradWeight, ns, p.dw));
    if (p.want_db) OPAPI_CHECK(check_operand(api, "gradBiasOut", gradBias, ns, p.db));
    p.len = numel(ns);
    p.rows = p.len == 0 ? 0 : p.x.numel() / p.len;
    const double bytes = double(p.dy.bytes() + p.x.bytes() + p.mean.bytes() + p.rstd.bytes() + p.w.bytes() * p.has_w +
                                p.dx.bytes() * p.want_dx + p.dw.bytes() * p.want_dw + p.db.bytes() * p.want_db);
    std::vector<KernelLaunch> launches{
        {Kernel::LayerNormGradV3, p.x.dtype, vector_cost(12.0 * double(p.x.numel()), bytes, p.rows, kRowsPerBlock)}};
    std::vector<void*> args{p.dy.data, p.x.data, p.mean.data, p.rstd.data, p.w.data, p.dx.data, p.dw.data, p.db.data};
    auto run = [p]() { compute(p); };
    return hand_over(std::make_unique<OpExecutor>(api, 0, run, std::move(launches), std::move(args)), workspaceSize,
                     executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnLayerNormBackwardGetWorkspaceSize(
    const aclTensor* gradOut, const aclTensor* input, const aclIntArray* normalizedShape, const aclTensor* mean,
    const aclTensor* rstd, const aclTensor* weightOptional, const aclTensor* biasOptional,
    const aclBoolArray* outputMask, aclTensor* gradInputOut, aclTensor* gradWeightOut, aclTensor* gradBiasOut,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnLayerNormBackwardGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare(gradOut, input, normalizedShape, mean, rstd, weightOptional, biasOptional, outputMask,
                                  gradInputOut, gradWeightOut, gradBiasOut, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnLayerNormBackward)
