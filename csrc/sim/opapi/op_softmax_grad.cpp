// aclnnSoftmaxBackward: the gradient of aclnnSoftmax along one dimension from the forward's
// output y: gradInput = y * (gradOutput - sum_dim(gradOutput * y)), accumulated in double and
// rounded once to out's type. One SoftmaxGrad kernel.
#include <memory>

#include "aclnnop/aclnn_softmax_backward.h"
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
    register_op({"aclnnSoftmaxBackward", OpFamily::Softmax, kFloatTypes, Kernel::SoftmaxGrad});

constexpr int64_t kRowsPerBlock = 64;

aclnnStatus prepare(const aclTensor* gradOutput, const aclTensor* output, int64_t dim, aclTensor* out,
                    uint64_t* workspaceSize, aclOpExecutor** executor) {
    const char* api = "aclnnSoftmaxBackward";
    OPAPI_CHECK(check_not_null(api, {gradOutput, output, out, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "gradOutput", gradOutput));
    OPAPI_CHECK(check_tensor(api, "output", output));
    OPAPI_CHECK(check_tensor(api, "out", out));
    const TensorView g = view_of(gradOutput), y = view_of(output), r = view_of(out);
    OPAPI_CHECK(check_float_type(api, "gradOutput", g.dtype));
    OPAPI_CHECK(check_float_type(api, "output", y.dtype));
    OPAPI_CHECK(check_float_type(api, "out", r.dtype));
    OPAPI_CHECK(check_rank(api, "output", y.dims, 1, nn::kMaxDims));
    OPAPI_CHECK(check_same_dims(api, "gradOutput", g.dims, y.dims));
    OPAPI_CHECK(check_same_dims(api, "out", r.dims, y.dims));
    size_t d = 0;
    if (!normalize_dim(dim, y.rank(), d))
        return invalid(api, "dim %lld is out of range for %zu dimensions", (long long)dim, y.rank());
    int64_t outer = 1, inner = 1;
    for (size_t i = 0; i < d; ++i) outer *= y.dims[i];
    for (size_t i = d + 1; i < y.rank(); ++i) inner *= y.dims[i];
    const int64_t len = y.dims[d], n = y.numel();
    std::vector<KernelLaunch> launches{
        {Kernel::SoftmaxGrad, r.dtype,
         vector_cost(4.0 * n, double(g.bytes() + y.bytes() + r.bytes()), outer * inner, kRowsPerBlock)}};
    auto compute = [g, y, r, outer, inner, len]() {
        const std::vector<double> dy = read_doubles(g), v = read_doubles(y);
        std::vector<double> res(v.size());
        for (int64_t o = 0; o < outer; ++o) {
            for (int64_t i = 0; i < inner; ++i) {
                const size_t base = size_t(o * len * inner + i);
                double dot = 0;
                for (int64_t j = 0; j < len; ++j) dot += dy[base + size_t(j * inner)] * v[base + size_t(j * inner)];
                for (int64_t j = 0; j < len; ++j) {
                    const size_t e = base + size_t(j * inner);
                    res[e] = v[e] * (dy[e] - dot);
                }
            }
        }
        write_doubles(r, res);
    };
    return hand_over(
        std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{g.data, y.data, r.data}),
        workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnSoftmaxBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* output,
                                                                 int64_t dim, aclTensor* out, uint64_t* workspaceSize,
                                                                 aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnSoftmaxBackwardGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare(gradOutput, output, dim, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnSoftmaxBackward)
