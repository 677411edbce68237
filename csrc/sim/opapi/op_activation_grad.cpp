// aclnnGeluBackward: gradInput = gradOutput * d/dx [x Phi(x)] = gradOutput * (Phi(x) + x phi(x)),
// the derivative of the erf form aclnnGelu computes (torch's approximate="none"), in double,
// rounded once to gradInput's type. gradOutput and self have one shape. One GeluGrad kernel.
#include <cmath>
#include <memory>

#include "aclnnop/aclnn_gelu_backward.h"
#include "core/fault_plan.h"
#include "nnopbase/dtype.h"
#include "nnopbase/tensor.h"
#include "opapi/checks.h"
#include "opapi/op_launcher.h"

namespace npusim::opapi {

namespace {

double gelu_derivative(double x) {
    constexpr double kInvSqrt2 = 0.7071067811865476, kInvSqrt2Pi = 0.3989422804014327;
    const double cdf = 0.5 * (1.0 + std::erf(x * kInvSqrt2));
    return cdf + x * kInvSqrt2Pi * std::exp(-0.5 * x * x);
}

aclnnStatus prepare(const aclTensor* gradOutput, const aclTensor* self, aclTensor* gradInput, uint64_t* workspaceSize,
                    aclOpExecutor** executor) {
    const char* api = "aclnnGeluBackward";
    OPAPI_CHECK(check_not_null(api, {gradOutput, self, gradInput, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "gradOutput", gradOutput));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "gradInput", gradInput));
    const TensorView g = view_of(gradOutput), x = view_of(self), y = view_of(gradInput);
    OPAPI_CHECK(check_float_type(api, "gradOutput", g.dtype));
    OPAPI_CHECK(check_float_type(api, "self", x.dtype));
    OPAPI_CHECK(check_float_type(api, "gradInput", y.dtype));
    OPAPI_CHECK(check_rank(api, "self", x.dims, 0, nn::kMaxDims));
    OPAPI_CHECK(check_same_dims(api, "gradOutput", g.dims, x.dims));
    OPAPI_CHECK(check_same_dims(api, "gradInput", y.dims, x.dims));
    const int64_t n = x.numel();
    std::vector<KernelLaunch> launches{
        {Kernel::GeluGrad, y.dtype, vector_cost(12.0 * n, double(g.bytes() + x.bytes() + y.bytes()), n, 4096)}};
    auto compute = [g, x, y]() {
        const std::vector<double> d = read_doubles(g), v = read_doubles(x);
        std::vector<double> r(v.size());
        for (size_t i = 0; i < v.size(); ++i) r[i] = d[i] * gelu_derivative(v[i]);
        write_doubles(y, r);
    };
    return hand_over(std::make_unique<OpExecutor>(api, 0, compute, std::move(launches),
                                                  std::vector<void*>{g.data, x.data, y.data}),
                     workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnGeluBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                              aclTensor* gradInput, uint64_t* workspaceSize,
                                                              aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnGeluBackwardGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare(gradOutput, self, gradInput, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnGeluBackward)
