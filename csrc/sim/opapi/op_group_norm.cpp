// aclnnGroupNorm and aclnnGroupNormBackward (nn.GroupNorm): input [N, C, *] with HxW the product of
// the trailing dimensions, its C channels in `group` groups of C / group; per (n, group), over the
// group's channels and positions (M = C / group * HxW elements, biased variance):
//   mean, rstd = 1 / sqrt(var + eps);  xhat = (x - mean) * rstd;  out = xhat * gamma[c] + beta[c]
// meanOut and rstdOut are [N, group] in the input's type; gamma and beta ([C]) are optional.
// Backward, from the forward's mean and rstd, with g = gradOut * gamma[c]:
//   gradInput = rstd * (g - sum(g) / M - xhat * sum(g * xhat) / M)   per (n, group)
//   gradGamma[c] = sum over n and positions of gradOut * xhat;  gradBeta[c] = sum of gradOut
// outputMask selects the outputs written (an output not selected may be NULL). Accumulated in
// double, rounded once to each output's type. Kernels GroupNorm and GroupNormGrad.
#include <cmath>
#include <memory>

#include "aclnnop/aclnn_group_norm.h"
#include "aclnnop/aclnn_group_norm_backward.h"
#include "core/fault_plan.h"
#include "nnopbase/tensor.h"
#include "opapi/checks.h"
#include "opapi/op_launcher.h"
#include "opapi/registry.h"

namespace npusim::opapi {

namespace {

[[maybe_unused]] const bool kRegistered =
    register_op({"aclnnGroupNorm", OpFamily::Normalization, kFloatTypes, Kernel::GroupNorm}) &&
    register_op({"aclnnGroupNormBackward", OpFamily::Normalization, kFloatTypes, Kernel::GroupNormGrad});

// The shape arguments both operators take, checked against the input.
struct GroupShape {
    int64_t n = 0, c = 0, hw = 0, group = 0;
    int64_t per_group() const { return c / group * hw; }  // M
    size_t index(int64_t ni, int64_t ci, int64_t p) const { return size_t((ni * c + ci) * hw + p); }
};

aclnnStatus check_shape(const char* api, const TensorView& x, int64_t n, int64_t c, int64_t hw, int64_t group,
                        GroupShape& s) {
    OPAPI_CHECK(check_float_type(api, "input", x.dtype));
    OPAPI_CHECK(check_rank(api, "input", x.dims, 2, nn::kMaxDims));
    if (group <= 0 || c <= 0 || c % group != 0) {
        return invalid(api, "group %lld must be positive and divide C %lld", (long long)group, (long long)c);
    }
    if (x.dims[0] != n || x.dims[1] != c || n * c * hw != x.numel()) {
        return invalid(api, "input %s is not [N=%lld, C=%lld, HxW=%lld]", dims_text(x.dims).c_str(), (long long)n,
                       (long long)c, (long long)hw);
    }
    s = {n, c, hw, group};
    return ACLNN_SUCCESS;
}

aclnnStatus check_operand(const char* api, const char* what, const aclTensor* t, const Dims& dims, aclDataType dtype,
                          TensorView& view) {
    OPAPI_CHECK(check_tensor(api, what, t));
    view = view_of(t);
    OPAPI_CHECK(check_same_dtype(api, what, view.dtype, dtype));
    return check_same_dims(api, what, view.dims, dims);
}

struct ForwardPlan {
    GroupShape s;
    TensorView x, gamma, beta, out, mean, rstd;
    bool has_gamma = false, has_beta = false;
    double eps = 0;
};

void forward(const ForwardPlan& p) {
    const GroupShape& s = p.s;
    const std::vector<double> x = read_doubles(p.x);
    const std::vector<double> gamma = p.has_gamma ? read_doubles(p.gamma) : std::vector<double>(size_t(s.c), 1.0);
    const std::vector<double> beta = p.has_beta ? read_doubles(p.beta) : std::vector<double>(size_t(s.c), 0.0);
    std::vector<double> out(x.size()), mean(size_t(s.n * s.group)), rstd(size_t(s.n * s.group));
    const int64_t channels = s.c / s.group;
    const double m = double(s.per_group());
    for (int64_t n = 0; n < s.n; ++n) {
        for (int64_t g = 0; g < s.group; ++g) {
            double sum = 0, sq = 0;
            for (int64_t c = g * channels; c < (g + 1) * channels; ++c) {
                for (int64_t q = 0; q < s.hw; ++q) sum += x[s.index(n, c, q)];
            }
            const double mu = sum / m;
            for (int64_t c = g * channels; c < (g + 1) * channels; ++c) {
                for (int64_t q = 0; q < s.hw; ++q) sq += (x[s.index(n, c, q)] - mu) * (x[s.index(n, c, q)] - mu);
            }
            const double r = 1.0 / std::sqrt(sq / m + p.eps);
            for (int64_t c = g * channels; c < (g + 1) * channels; ++c) {
                for (int64_t q = 0; q < s.hw; ++q) {
                    out[s.index(n, c, q)] = (x[s.index(n, c, q)] - mu) * r * gamma[size_t(c)] + beta[size_t(c)];
                }
            }
            mean[size_t(n * s.group + g)] = mu;
            rstd[size_t(n * s.group + g)] = r;
        }
    }
    write_doubles(p.out, out);
    write_doubles(p.mean, mean);
    write_doubles(p.rstd, rstd);
}

struct BackwardPlan {
    GroupShape s;
    TensorView dy, x, mean, rstd, gamma, dx, dgamma, dbeta;
    bool has_gamma = false, want_dx = false, want_dgamma = false, want_dbeta = false;
};

void backward(const BackwardPlan& p) {
    const GroupShape& s = p.s;
    const std::vector<double> dy = read_doubles(p.dy), x = read_doubles(p.x);
    const std::vector<double> mean = read_doubles(p.mean), rstd = read_doubles(p.rstd);
    const std::vector<double> gamma = p.has_gamma ? read_doubles(p.gamma) : std::vector<double>(size_t(s.c), 1.0);
    std::vector<double> dx(x.size()), dgamma(size_t(s.c), 0.0), dbeta(size_t(s.c), 0.0);
    const int64_t channels = s.c / s.group;
    const double m = double(s.per_group());
    for (int64_t n = 0; n < s.n; ++n) {
        for (int64_t g = 0; g < s.group; ++g) {
            const double mu = mean[size_t(n * s.group + g)], r = rstd[size_t(n * s.group + g)];
            double sum_g = 0, sum_gx = 0;
            for (int64_t c = g * channels; c < (g + 1) * channels; ++c) {
                for (int64_t q = 0; q < s.hw; ++q) {
                    const size_t e = s.index(n, c, q);
                    const double xhat = (x[e] - mu) * r, gy = dy[e] * gamma[size_t(c)];
                    sum_g += gy;
                    sum_gx += gy * xhat;
                    dgamma[size_t(c)] += dy[e] * xhat;
                    dbeta[size_t(c)] += dy[e];
                }
            }
            for (int64_t c = g * channels; c < (g + 1) * channels; ++c) {
                for (int64_t q = 0; q < s.hw; ++q) {
                    const size_t e = s.index(n, c, q);
                    const double xhat = (x[e] - mu) * r, gy = dy[e] * gamma[size_t(c)];
                    dx[e] = r * (gy - sum_g / m - xhat * sum_gx / m);
                }
            }
        }
    }
    if (p.want_dx) write_doubles(p.dx, dx);
    if (p.want_dgamma) write_doubles(p.dgamma, dgamma);
    if (p.want_dbeta) write_doubles(p.dbeta, dbeta);
}

aclnnStatus prepare_forward(const aclTensor* self, const aclTensor* gamma, const aclTensor* beta, int64_t n, int64_t c,
                            int64_t hw, int64_t group, double eps, aclTensor* out, aclTensor* meanOut,
                            aclTensor* rstdOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
    const char* api = "aclnnGroupNorm";
    OPAPI_CHECK(check_not_null(api, {self, out, meanOut, rstdOut, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "self", self));
    ForwardPlan p;
    p.x = view_of(self);
    OPAPI_CHECK(check_shape(api, p.x, n, c, hw, group, p.s));
    const Dims channels{c}, stat{n, group};
    p.has_gamma = gamma != nullptr, p.has_beta = beta != nullptr;
    if (p.has_gamma) OPAPI_CHECK(check_operand(api, "gamma", gamma, channels, p.x.dtype, p.gamma));
    if (p.has_beta) OPAPI_CHECK(check_operand(api, "beta", beta, channels, p.x.dtype, p.beta));
    OPAPI_CHECK(check_operand(api, "out", out, p.x.dims, p.x.dtype, p.out));
    OPAPI_CHECK(check_operand(api, "meanOut", meanOut, stat, p.x.dtype, p.mean));
    OPAPI_CHECK(check_operand(api, "rstdOut", rstdOut, stat, p.x.dtype, p.rstd));
    p.eps = eps;
    const double bytes = double(p.x.bytes() + p.out.bytes() + p.mean.bytes() + p.rstd.bytes() +
                                p.gamma.bytes() * p.has_gamma + p.beta.bytes() * p.has_beta);
    std::vector<KernelLaunch> launches{
        {Kernel::GroupNorm, p.x.dtype, vector_cost(8.0 * double(p.x.numel()), bytes, n * group, 1)}};
    std::vector<void*> args{p.x.data, p.gamma.data, p.beta.data, p.out.data, p.mean.data, p.rstd.data};
    auto run = [p]() { forward(p); };
    return hand_over(std::make_unique<OpExecutor>(api, 0, run, std::move(launches), std::move(args)), workspaceSize,
                     executor);
}

aclnnStatus prepare_backward(const aclTensor* gradOut, const aclTensor* input, const aclTensor* mean,
                             const aclTensor* rstd, const aclTensor* gamma, int64_t n, int64_t c, int64_t hw,
                             int64_t group, const aclBoolArray* outputMask, aclTensor* gradInput,
                             aclTensor* gradGammaOut, aclTensor* gradBetaOut, uint64_t* workspaceSize,
                             aclOpExecutor** executor) {
    const char* api = "aclnnGroupNormBackward";
    OPAPI_CHECK(check_not_null(api, {gradOut, input, mean, rstd, outputMask, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "input", input));
    if (outputMask->magic != nn::kArrayMagic || outputMask->values.size() != 3) {
        return invalid(api, "outputMask is not a live aclBoolArray of 3 values");
    }
    BackwardPlan p;
    p.x = view_of(input);
    OPAPI_CHECK(check_shape(api, p.x, n, c, hw, group, p.s));
    const Dims channels{c}, stat{n, group};
    OPAPI_CHECK(check_operand(api, "gradOut", gradOut, p.x.dims, p.x.dtype, p.dy));
    OPAPI_CHECK(check_operand(api, "mean", mean, stat, p.x.dtype, p.mean));
    OPAPI_CHECK(check_operand(api, "rstd", rstd, stat, p.x.dtype, p.rstd));
    p.has_gamma = gamma != nullptr;
    if (p.has_gamma) OPAPI_CHECK(check_operand(api, "gamma", gamma, channels, p.x.dtype, p.gamma));
    p.want_dx = outputMask->values[0], p.want_dgamma = outputMask->values[1], p.want_dbeta = outputMask->values[2];
    if (p.want_dx) OPAPI_CHECK(check_operand(api, "gradInput", gradInput, p.x.dims, p.x.dtype, p.dx));
    if (p.want_dgamma) OPAPI_CHECK(check_operand(api, "gradGammaOut", gradGammaOut, channels, p.x.dtype, p.dgamma));
    if (p.want_dbeta) OPAPI_CHECK(check_operand(api, "gradBetaOut", gradBetaOut, channels, p.x.dtype, p.dbeta));
    const double bytes =
        double(p.dy.bytes() + p.x.bytes() + p.mean.bytes() + p.rstd.bytes() + p.gamma.bytes() * p.has_gamma +
               p.dx.bytes() * p.want_dx + p.dgamma.bytes() * p.want_dgamma + p.dbeta.bytes() * p.want_dbeta);
    std::vector<KernelLaunch> launches{
        {Kernel::GroupNormGrad, p.x.dtype, vector_cost(12.0 * double(p.x.numel()), bytes, n * group, 1)}};
    std::vector<void*> args{p.dy.data,    p.x.data,  p.mean.data,   p.rstd.data,
                            p.gamma.data, p.dx.data, p.dgamma.data, p.dbeta.data};
    auto run = [p]() { backward(p); };
    return hand_over(std::make_unique<OpExecutor>(api, 0, run, std::move(launches), std::move(args)), workspaceSize,
                     executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnGroupNormGetWorkspaceSize(const aclTensor* self, const aclTensor* gamma,
                                                           const aclTensor* beta, int64_t N, int64_t C, int64_t HxW,
                                                           int64_t group, double eps, aclTensor* out,
                                                           aclTensor* meanOut, aclTensor* rstdOut,
                                                           uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnGroupNormGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_forward(self, gamma, beta, N, C, HxW, group, eps, out, meanOut, rstdOut,
                                          workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnGroupNorm)

NPUSIM_C_EXPORT aclnnStatus aclnnGroupNormBackwardGetWorkspaceSize(const aclTensor* gradOut, const aclTensor* input,
                                                                   const aclTensor* mean, const aclTensor* rstd,
                                                                   const aclTensor* gamma, int64_t N, int64_t C,
                                                                   int64_t HxW, int64_t group,
                                                                   const aclBoolArray* outputMask, aclTensor* gradInput,
                                                                   aclTensor* gradGammaOut, aclTensor* gradBetaOut,
                                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnGroupNormBackwardGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_backward(gradOut, input, mean, rstd, gamma, N, C, HxW, group, outputMask, gradInput,
                                           gradGammaOut, gradBetaOut, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnGroupNormBackward)
