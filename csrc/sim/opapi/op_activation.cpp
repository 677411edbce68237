// aclnnGelu, aclnnSilu, aclnnRelu: element-wise activations.
//   Gelu: the tanh approximation 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
//   Silu: x / (1 + exp(-x))
//   Relu: max(x, 0)
// The kernel runs in self's type; an output of another float type gets a Cast launch.
#include <cmath>
#include <memory>

#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_silu.h"
#include "core/fault_plan.h"
#include "nnopbase/dtype.h"
#include "nnopbase/tensor.h"
#include "opapi/checks.h"
#include "opapi/op_launcher.h"

namespace npusim::opapi {

namespace {

enum class Activation { Gelu, Silu, Relu };

float activate(Activation kind, float x) {
    switch (kind) {
        case Activation::Gelu: {
            const float inner = 0.7978845608028654f * (x + 0.044715f * x * x * x);
            return 0.5f * x * (1.0f + std::tanh(inner));
        }
        case Activation::Silu: return x / (1.0f + std::exp(-x));
        case Activation::Relu: return x > 0.0f ? x : 0.0f;
    }
    return x;
}

aclnnStatus prepare(const char* api, Activation kind, const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                    aclOpExecutor** executor) {
    OPAPI_CHECK(check_not_null(api, {self, out, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "out", out));
    const TensorView x = view_of(self), y = view_of(out);
    OPAPI_CHECK(check_float_type(api, "self", x.dtype));
    OPAPI_CHECK(check_float_type(api, "out", y.dtype));
    OPAPI_CHECK(check_rank(api, "self", x.dims, 0, nn::kMaxDims));
    OPAPI_CHECK(check_same_dims(api, "out", y.dims, x.dims));

    static const Kernel kKernels[] = {Kernel::Gelu, Kernel::Silu, Kernel::Relu};
    static const double kFlops[] = {8, 4, 1};
    const int64_t n = x.numel();
    const double elem = static_cast<double>(nn::dtype_size(x.dtype));
    std::vector<KernelLaunch> launches{
        {kKernels[static_cast<int>(kind)], x.dtype, vector_cost(kFlops[static_cast<int>(kind)] * n, 2 * elem * n, n, 4096)}};
    if (y.dtype != x.dtype) launches.push_back({Kernel::Cast, y.dtype, vector_cost(double(n), elem * n + double(y.bytes()), n, 4096)});

    auto compute = [kind, x, y]() {
        std::vector<float> v = read_floats(x);
        for (float& e : v) e = round_to(x.dtype, activate(kind, e));
        write_floats(y, v);
    };
    return hand_over(std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{x.data, y.data}),
                     workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

using npusim::opapi::Activation;

NPUSIM_C_EXPORT aclnnStatus aclnnGeluGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnGeluGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare("aclnnGelu", Activation::Gelu, self, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnGelu)

NPUSIM_C_EXPORT aclnnStatus aclnnSiluGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnSiluGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare("aclnnSilu", Activation::Silu, self, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnSilu)

NPUSIM_C_EXPORT aclnnStatus aclnnReluGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnReluGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare("aclnnRelu", Activation::Relu, self, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnRelu)
