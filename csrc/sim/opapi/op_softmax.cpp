// aclnnSoftmax: exp(x - max) / sum(exp(x - max)) along one dimension, computed in
// float and rounded to self's type (the kernel's); another output type adds a Cast.
#include <cmath>
#include <memory>

#include "aclnnop/aclnn_softmax.h"
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
    register_op({"aclnnSoftmax", OpFamily::Softmax, kFloatTypes, Kernel::SoftmaxV2});

constexpr int64_t kRowsPerBlock = 64;

aclnnStatus prepare(const aclTensor* self, int64_t dim, aclTensor* out, uint64_t* workspaceSize,
                    aclOpExecutor** executor) {
    const char* api = "aclnnSoftmax";
    OPAPI_CHECK(check_not_null(api, {self, out, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "out", out));
    const TensorView x = view_of(self), y = view_of(out);
    OPAPI_CHECK(check_float_type(api, "self", x.dtype));
    OPAPI_CHECK(check_float_type(api, "out", y.dtype));
    OPAPI_CHECK(check_rank(api, "self", x.dims, 1, nn::kMaxDims));
    OPAPI_CHECK(check_same_dims(api, "out", y.dims, x.dims));
    size_t d = 0;
    if (!normalize_dim(dim, x.rank(), d))
        return invalid(api, "dim %lld is out of range for %zu dimensions", (long long)dim, x.rank());
    int64_t outer = 1, inner = 1;
    for (size_t i = 0; i < d; ++i) outer *= x.dims[i];
    for (size_t i = d + 1; i < x.rank(); ++i) inner *= x.dims[i];
    const int64_t len = x.dims[d];
    const int64_t n = x.numel();
    const double elem = static_cast<double>(nn::dtype_size(x.dtype));
    std::vector<KernelLaunch> launches{
        {Kernel::SoftmaxV2, x.dtype, vector_cost(5.0 * n, 2 * elem * n, outer * inner, kRowsPerBlock)}};
    if (y.dtype != x.dtype)
        launches.push_back({Kernel::Cast, y.dtype, vector_cost(double(n), elem * n + double(y.bytes()), n, 4096)});
    auto compute = [x, y, outer, inner, len]() {
        std::vector<float> v = read_floats(x);
        for (int64_t o = 0; o < outer; ++o) {
            for (int64_t i = 0; i < inner; ++i) {
                float* base = v.data() + o * len * inner + i;
                float peak = -INFINITY;
                for (int64_t j = 0; j < len; ++j) peak = std::max(peak, base[j * inner]);
                float sum = 0;
                for (int64_t j = 0; j < len; ++j) {
                    base[j * inner] = std::exp(base[j * inner] - peak);
                    sum += base[j * inner];
                }
                for (int64_t j = 0; j < len; ++j) base[j * inner] = round_to(x.dtype, base[j * inner] / sum);
            }
        }
        write_floats(y, v);
    };
    return hand_over(
        std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{x.data, y.data}),
        workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnSoftmaxGetWorkspaceSize(const aclTensor* self, int64_t dim, aclTensor* out,
                                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnSoftmaxGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare(self, dim, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnSoftmax)
