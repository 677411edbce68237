// aclnnBatchNorm and aclnnBatchNormBackward over input [N, C, *] (rank 2 to 8), per channel c over
// the M = N * prod(*) elements of the channel, accumulated in double:
//   training   mean, var (biased) of the batch; saveMean = mean, saveInvstd = 1 / sqrt(var + eps);
//              runningMean = (1 - momentum) runningMean + momentum mean and runningVar the same with
//              the unbiased variance var * M / (M - 1), when they are given (torch's update);
//   eval       mean = runningMean, invstd = 1 / sqrt(runningVar + eps) (saveMean / saveInvstd get them);
//   output     (x - mean) * invstd * weight + bias (weight, bias NULL: 1, 0).
// Backward with xhat = (x - mean) * invstd and g the incoming gradient (training: the saved batch
// statistics; eval: the running ones):
//   gradBias = sum g; gradWeight = sum g * xhat;
//   gradInput = weight * invstd * (g - sum g / M - xhat * sum(g xhat) / M)   (training)
//             = weight * invstd * g                                          (eval)
// outputMask selects the gradients written (one not selected may be NULL). Data types: float32,
// float16, bfloat16; the statistics and parameters may be of another float type than input.
#include <cmath>
#include <memory>

#include "aclnnop/aclnn_batch_norm.h"
#include "aclnnop/aclnn_batch_norm_backward.h"
#include "core/fault_plan.h"
#include "nnopbase/dtype.h"
#include "nnopbase/tensor.h"
#include "opapi/checks.h"
#include "opapi/op_launcher.h"
#include "opapi/registry.h"

namespace npusim::opapi {

namespace {

[[maybe_unused]] const bool kRegistered =
    register_op({"aclnnBatchNorm", OpFamily::Normalization, kFloatTypes, Kernel::BatchNormV3}) &&
    register_op({"aclnnBatchNormBackward", OpFamily::Normalization, kFloatTypes, Kernel::BatchNormGradV3});

// input [N, C, *] as n x c x hw.
struct Layout {
    int64_t n = 0, c = 0, hw = 1;
    size_t at(int64_t b, int64_t ch, int64_t i) const { return static_cast<size_t>((b * c + ch) * hw + i); }
    int64_t per_channel() const { return n * hw; }
};

// A per-channel tensor [C] of a float type, or NULL when `optional`.
aclnnStatus check_channel(const char* api, const char* what, const aclTensor* t, int64_t c, bool optional,
                          TensorView& view) {
    if (t == nullptr) return optional ? ACLNN_SUCCESS : check_not_null(api, {t});
    OPAPI_CHECK(check_tensor(api, what, t));
    view = view_of(t);
    OPAPI_CHECK(check_float_type(api, what, view.dtype));
    return check_same_dims(api, what, view.dims, Dims{c});
}

aclnnStatus check_input(const char* api, const aclTensor* input, TensorView& x, Layout& l) {
    OPAPI_CHECK(check_tensor(api, "input", input));
    x = view_of(input);
    OPAPI_CHECK(check_float_type(api, "input", x.dtype));
    OPAPI_CHECK(check_rank(api, "input", x.dims, 2, nn::kMaxDims));
    l.n = x.dims[0];
    l.c = x.dims[1];
    for (size_t i = 2; i < x.rank(); ++i) l.hw *= x.dims[i];
    return ACLNN_SUCCESS;
}

std::vector<double> values_or(const TensorView& v, int64_t c, double fallback) {
    return v.data != nullptr ? read_doubles(v) : std::vector<double>(static_cast<size_t>(c), fallback);
}

aclnnStatus prepare_forward(const aclTensor* input, const aclTensor* weight, const aclTensor* bias,
                            aclTensor* runningMean, aclTensor* runningVar, bool training, double momentum, double eps,
                            aclTensor* output, aclTensor* saveMean, aclTensor* saveInvstd, uint64_t* workspaceSize,
                            aclOpExecutor** executor) {
    const char* api = "aclnnBatchNorm";
    OPAPI_CHECK(check_not_null(api, {input, output, saveMean, saveInvstd, workspaceSize, executor}));
    TensorView x, w, b, rm, rv, mean_out, invstd_out;
    Layout l;
    OPAPI_CHECK(check_input(api, input, x, l));
    OPAPI_CHECK(check_tensor(api, "output", output));
    const TensorView y = view_of(output);
    OPAPI_CHECK(check_same_dtype(api, "output", y.dtype, x.dtype));
    OPAPI_CHECK(check_same_dims(api, "output", y.dims, x.dims));
    OPAPI_CHECK(check_channel(api, "weight", weight, l.c, true, w));
    OPAPI_CHECK(check_channel(api, "bias", bias, l.c, true, b));
    OPAPI_CHECK(check_channel(api, "runningMean", runningMean, l.c, training, rm));
    OPAPI_CHECK(check_channel(api, "runningVar", runningVar, l.c, training, rv));
    OPAPI_CHECK(check_channel(api, "saveMean", saveMean, l.c, false, mean_out));
    OPAPI_CHECK(check_channel(api, "saveInvstd", saveInvstd, l.c, false, invstd_out));
    if ((runningMean == nullptr) != (runningVar == nullptr))
        return invalid(api, "runningMean and runningVar go together");
    if (training && l.per_channel() < 2 && runningVar != nullptr) {
        return invalid(api, "training needs more than one value per channel (input %s)", dims_text(x.dims).c_str());
    }
    if (!(eps >= 0)) return invalid(api, "eps is %g", eps);
    const int64_t n = x.numel();
    std::vector<KernelLaunch> launches{
        {Kernel::BatchNormV3, x.dtype, vector_cost(double(n) * (training ? 8.0 : 4.0), double(2 * x.bytes()), l.c, 1)}};
    auto compute = [=]() {
        const std::vector<double> v = read_doubles(x);
        const std::vector<double> gamma = values_or(w, l.c, 1.0), beta = values_or(b, l.c, 0.0);
        const double m = double(l.per_channel());
        std::vector<double> mean(static_cast<size_t>(l.c)), invstd(mean.size()), out(v.size());
        std::vector<double> run_mean, run_var;
        if (rm.data != nullptr) {
            run_mean = read_doubles(rm);
            run_var = read_doubles(rv);
        }
        for (int64_t ch = 0; ch < l.c; ++ch) {
            const size_t k = static_cast<size_t>(ch);
            if (training) {
                double sum = 0;
                for (int64_t bi = 0; bi < l.n; ++bi)
                    for (int64_t i = 0; i < l.hw; ++i) sum += v[l.at(bi, ch, i)];
                mean[k] = m > 0 ? sum / m : 0.0;
                double sq = 0;
                for (int64_t bi = 0; bi < l.n; ++bi)
                    for (int64_t i = 0; i < l.hw; ++i)
                        sq += (v[l.at(bi, ch, i)] - mean[k]) * (v[l.at(bi, ch, i)] - mean[k]);
                const double var = m > 0 ? sq / m : 0.0;
                invstd[k] = 1.0 / std::sqrt(var + eps);
                if (!run_mean.empty()) {
                    run_mean[k] = (1.0 - momentum) * run_mean[k] + momentum * mean[k];
                    run_var[k] = (1.0 - momentum) * run_var[k] + momentum * (m > 1 ? sq / (m - 1.0) : var);
                }
            } else {
                mean[k] = run_mean[k];
                invstd[k] = 1.0 / std::sqrt(run_var[k] + eps);
            }
            for (int64_t bi = 0; bi < l.n; ++bi)
                for (int64_t i = 0; i < l.hw; ++i) {
                    const size_t e = l.at(bi, ch, i);
                    out[e] = (v[e] - mean[k]) * invstd[k] * gamma[k] + beta[k];
                }
        }
        write_doubles(y, out);
        write_doubles(mean_out, mean);
        write_doubles(invstd_out, invstd);
        if (training && !run_mean.empty()) {
            write_doubles(rm, run_mean);
            write_doubles(rv, run_var);
        }
    };
    return hand_over(
        std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{x.data, y.data}),
        workspaceSize, executor);
}

aclnnStatus prepare_backward(const aclTensor* gradOut, const aclTensor* input, const aclTensor* weight,
                             const aclTensor* runningMean, const aclTensor* runningVar, const aclTensor* saveMean,
                             const aclTensor* saveInvstd, bool training, double eps, const aclBoolArray* outputMask,
                             aclTensor* gradInput, aclTensor* gradWeight, aclTensor* gradBias, uint64_t* workspaceSize,
                             aclOpExecutor** executor) {
    const char* api = "aclnnBatchNormBackward";
    OPAPI_CHECK(check_not_null(api, {gradOut, input, outputMask, workspaceSize, executor}));
    if (outputMask->magic != nn::kArrayMagic || outputMask->values.size() != 3) {
        return invalid(api, "outputMask is not a live aclBoolArray of 3 values");
    }
    const bool want_dx = outputMask->values[0], want_dw = outputMask->values[1], want_db = outputMask->values[2];
    TensorView x, w, mean_v, invstd_v, dx, dw, db;
    Layout l;
    OPAPI_CHECK(check_input(api, input, x, l));
    OPAPI_CHECK(check_tensor(api, "gradOut", gradOut));
    const TensorView g = view_of(gradOut);
    OPAPI_CHECK(check_same_dtype(api, "gradOut", g.dtype, x.dtype));
    OPAPI_CHECK(check_same_dims(api, "gradOut", g.dims, x.dims));
    OPAPI_CHECK(check_channel(api, "weight", weight, l.c, true, w));
    // The statistics: the saved batch ones in training, the running ones in eval.
    OPAPI_CHECK(check_channel(api, training ? "saveMean" : "runningMean", training ? saveMean : runningMean, l.c, false,
                              mean_v));
    OPAPI_CHECK(check_channel(api, training ? "saveInvstd" : "runningVar", training ? saveInvstd : runningVar, l.c,
                              false, invstd_v));
    if (want_dx) {
        OPAPI_CHECK(check_not_null(api, {gradInput}));
        OPAPI_CHECK(check_tensor(api, "gradInput", gradInput));
        dx = view_of(gradInput);
        OPAPI_CHECK(check_same_dtype(api, "gradInput", dx.dtype, x.dtype));
        OPAPI_CHECK(check_same_dims(api, "gradInput", dx.dims, x.dims));
    }
    if (want_dw) OPAPI_CHECK(check_channel(api, "gradWeight", gradWeight, l.c, false, dw));
    if (want_db) OPAPI_CHECK(check_channel(api, "gradBias", gradBias, l.c, false, db));
    const int64_t n = x.numel();
    std::vector<KernelLaunch> launches{
        {Kernel::BatchNormGradV3, x.dtype, vector_cost(double(n) * 10.0, double(3 * x.bytes()), l.c, 1)}};
    auto compute = [=]() {
        const std::vector<double> v = read_doubles(x), gv = read_doubles(g), stat_mean = read_doubles(mean_v);
        const std::vector<double> stat_second = read_doubles(invstd_v);
        const std::vector<double> gamma = values_or(w, l.c, 1.0);
        const double m = double(l.per_channel());
        std::vector<double> gx(want_dx ? v.size() : 0), gw(static_cast<size_t>(l.c)), gb(gw.size());
        for (int64_t ch = 0; ch < l.c; ++ch) {
            const size_t k = static_cast<size_t>(ch);
            const double invstd = training ? stat_second[k] : 1.0 / std::sqrt(stat_second[k] + eps);
            double sum_g = 0, sum_gx = 0;
            for (int64_t bi = 0; bi < l.n; ++bi)
                for (int64_t i = 0; i < l.hw; ++i) {
                    const size_t e = l.at(bi, ch, i);
                    sum_g += gv[e];
                    sum_gx += gv[e] * (v[e] - stat_mean[k]) * invstd;
                }
            gw[k] = sum_gx;
            gb[k] = sum_g;
            if (!want_dx) continue;
            for (int64_t bi = 0; bi < l.n; ++bi)
                for (int64_t i = 0; i < l.hw; ++i) {
                    const size_t e = l.at(bi, ch, i);
                    const double xhat = (v[e] - stat_mean[k]) * invstd;
                    gx[e] = training && m > 0 ? gamma[k] * invstd * (gv[e] - sum_g / m - xhat * sum_gx / m)
                                              : gamma[k] * invstd * gv[e];
                }
        }
        if (want_dx) write_doubles(dx, gx);
        if (want_dw) write_doubles(dw, gw);
        if (want_db) write_doubles(db, gb);
    };
    return hand_over(
        std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{x.data, g.data}),
        workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnBatchNormGetWorkspaceSize(const aclTensor* input, const aclTensor* weight,
                                                           const aclTensor* bias, aclTensor* runningMean,
                                                           aclTensor* runningVar, bool training, double momentum,
                                                           double eps, aclTensor* output, aclTensor* saveMean,
                                                           aclTensor* saveInvstd, uint64_t* workspaceSize,
                                                           aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnBatchNormGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_forward(input, weight, bias, runningMean, runningVar, training, momentum, eps, output,
                                          saveMean, saveInvstd, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnBatchNorm)

NPUSIM_C_EXPORT aclnnStatus aclnnBatchNormBackwardGetWorkspaceSize(
    const aclTensor* gradOut, const aclTensor* input, const aclTensor* weight, const aclTensor* runningMean,
    const aclTensor* runningVar, const aclTensor* saveMean, const aclTensor* saveInvstd, bool training, double eps,
    const aclBoolArray* outputMask, aclTensor* gradInput, aclTensor* gradWeight, aclTensor* gradBias,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnBatchNormBackwardGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_backward(gradOut, input, weight, runningMean, runningVar, saveMean, saveInvstd,
                                           training, eps, outputMask, gradInput, gradWeight, gradBias, workspaceSize,
                                           executor);
}
OPAPI_DEFINE_RUN(aclnnBatchNormBackward)
