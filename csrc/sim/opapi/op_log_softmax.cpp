// aclnnLogSoftmax and aclnnLogSoftmaxBackward along one dimension (torch's log_softmax, the first
// half of cross-entropy), in double, rounded once to out's type:
//   forward:  out = x - max - log(sum(exp(x - max)))
//   backward: out = gradOutput - exp(output) * sum_dim(gradOutput), output the forward's result
// One LogSoftmaxV2 / LogSoftmaxGrad kernel.
#include <cmath>
#include <memory>

#include "aclnnop/aclnn_log_softmax.h"
#include "core/fault_plan.h"
#include "nnopbase/dtype.h"
#include "nnopbase/tensor.h"
#include "opapi/checks.h"
#include "opapi/op_launcher.h"
#include "opapi/registry.h"

namespace npusim::opapi {

namespace {

// Declared in the operator registry (hand-written: its own checks and compute).
[[maybe_unused]] const bool kRegistered =
    register_op({"aclnnLogSoftmax", OpFamily::Softmax, kFloatTypes, Kernel::LogSoftmaxV2}) &&
    register_op({"aclnnLogSoftmaxBackward", OpFamily::Softmax, kFloatTypes, Kernel::LogSoftmaxGrad});

constexpr int64_t kRowsPerBlock = 64;

// Calls fn(base, stride, len) for every line along the reduced dimension.
template <typename Fn>
void for_each_line(int64_t outer, int64_t inner, int64_t len, Fn&& fn) {
    for (int64_t o = 0; o < outer; ++o) {
        for (int64_t i = 0; i < inner; ++i) fn(size_t(o * len * inner + i), size_t(inner), len);
    }
}

// grad == nullptr: the forward (self -> out); otherwise the backward (grad, output -> out).
aclnnStatus prepare(const char* api, const aclTensor* grad, const aclTensor* self, int64_t dim, aclTensor* out,
                    uint64_t* workspaceSize, aclOpExecutor** executor) {
    const bool backward = grad != nullptr;
    OPAPI_CHECK(check_not_null(api, {self, out, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, backward ? "output" : "self", self));
    OPAPI_CHECK(check_tensor(api, "out", out));
    const TensorView x = view_of(self), y = view_of(out);
    TensorView g;
    if (backward) {
        OPAPI_CHECK(check_tensor(api, "gradOutput", grad));
        g = view_of(grad);
        OPAPI_CHECK(check_float_type(api, "gradOutput", g.dtype));
        OPAPI_CHECK(check_same_dims(api, "gradOutput", g.dims, x.dims));
    }
    OPAPI_CHECK(check_float_type(api, backward ? "output" : "self", x.dtype));
    OPAPI_CHECK(check_float_type(api, "out", y.dtype));
    OPAPI_CHECK(check_rank(api, backward ? "output" : "self", x.dims, 1, nn::kMaxDims));
    OPAPI_CHECK(check_same_dims(api, "out", y.dims, x.dims));
    size_t d = 0;
    if (!normalize_dim(dim, x.rank(), d))
        return invalid(api, "dim %lld is out of range for %zu dimensions", (long long)dim, x.rank());
    int64_t outer = 1, inner = 1;
    for (size_t i = 0; i < d; ++i) outer *= x.dims[i];
    for (size_t i = d + 1; i < x.rank(); ++i) inner *= x.dims[i];
    const int64_t len = x.dims[d], n = x.numel();
    const double bytes = double(x.bytes() + y.bytes() + (backward ? g.bytes() : 0));
    std::vector<KernelLaunch> launches{{backward ? Kernel::LogSoftmaxGrad : Kernel::LogSoftmaxV2, y.dtype,
                                        vector_cost((backward ? 4.0 : 5.0) * n, bytes, outer * inner, kRowsPerBlock)}};
    std::vector<void*> args{x.data, y.data};
    if (backward) args.insert(args.begin(), g.data);
    auto compute = [backward, g, x, y, outer, inner, len]() {
        const std::vector<double> v = read_doubles(x);
        const std::vector<double> dy = backward ? read_doubles(g) : std::vector<double>();
        std::vector<double> r(v.size());
        for_each_line(outer, inner, len, [&](size_t base, size_t stride, int64_t count) {
            if (backward) {
                double sum = 0;
                for (int64_t j = 0; j < count; ++j) sum += dy[base + size_t(j) * stride];
                for (int64_t j = 0; j < count; ++j) {
                    const size_t e = base + size_t(j) * stride;
                    r[e] = dy[e] - std::exp(v[e]) * sum;
                }
                return;
            }
            double peak = -INFINITY, sum = 0;
            for (int64_t j = 0; j < count; ++j) peak = std::max(peak, v[base + size_t(j) * stride]);
            for (int64_t j = 0; j < count; ++j) sum += std::exp(v[base + size_t(j) * stride] - peak);
            const double shift = peak + std::log(sum);
            for (int64_t j = 0; j < count; ++j) r[base + size_t(j) * stride] = v[base + size_t(j) * stride] - shift;
        });
        write_doubles(y, r);
    };
    return hand_over(std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::move(args)), workspaceSize,
                     executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnLogSoftmaxGetWorkspaceSize(const aclTensor* self, int64_t dim, aclTensor* out,
                                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnLogSoftmaxGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare("aclnnLogSoftmax", nullptr, self, dim, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnLogSoftmax)

NPUSIM_C_EXPORT aclnnStatus aclnnLogSoftmaxBackwardGetWorkspaceSize(const aclTensor* gradOutput,
                                                                    const aclTensor* output, int64_t dim,
                                                                    aclTensor* out, uint64_t* workspaceSize,
                                                                    aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnLogSoftmaxBackwardGetWorkspaceSize", aclnnStatus);
    if (gradOutput == nullptr) return npusim::opapi::check_not_null("aclnnLogSoftmaxBackward", {gradOutput});
    return npusim::opapi::prepare("aclnnLogSoftmaxBackward", gradOutput, output, dim, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnLogSoftmaxBackward)
