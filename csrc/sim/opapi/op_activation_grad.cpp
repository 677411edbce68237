// The element-wise activation gradients: gradInput = gradOutput * f'(self), computed in double
// and rounded once to gradInput's type; gradOutput, self and gradInput have one shape. One kernel.
//   aclnnGeluBackward  the derivative of the tanh form aclnnGelu computes, as CANN's GeluGrad
//                      (opapi/gelu_forms.h); kernel GeluGrad.
//   aclnnSiluBackward  f'(x) = s(x) (1 + x (1 - s(x))), s the sigmoid; kernel SiluGrad.
#include <cmath>
#include <memory>

#include "aclnnop/aclnn_gelu_backward.h"
#include "aclnnop/aclnn_silu_backward.h"
#include "core/fault_plan.h"
#include "nnopbase/dtype.h"
#include "nnopbase/tensor.h"
#include "opapi/checks.h"
#include "opapi/gelu_forms.h"
#include "opapi/op_launcher.h"
#include "opapi/registry.h"

namespace npusim::opapi {

namespace {

// Declared in the operator registry (hand-written: its own checks and compute).
[[maybe_unused]] const bool kRegistered =
    register_op({"aclnnGeluBackward", OpFamily::Unary, kFloatTypes, Kernel::GeluGrad}) &&
    register_op({"aclnnSiluBackward", OpFamily::Unary, kFloatTypes, Kernel::SiluGrad});

double silu_derivative(double x) {
    const double s = 1.0 / (1.0 + std::exp(-x));
    return s * (1.0 + x * (1.0 - s));
}

// What distinguishes one activation gradient from another.
struct PointwiseGrad {
    const char* api;
    Kernel kernel;
    double flops_per_element;  // op_costs.h
    double (*derivative)(double);
};

constexpr PointwiseGrad kGeluGrad{"aclnnGeluBackward", Kernel::GeluGrad, 12.0, gelu_tanh_derivative};
constexpr PointwiseGrad kSiluGrad{"aclnnSiluBackward", Kernel::SiluGrad, 8.0, silu_derivative};

aclnnStatus prepare(const PointwiseGrad& op, const aclTensor* gradOutput, const aclTensor* self, aclTensor* gradInput,
                    uint64_t* workspaceSize, aclOpExecutor** executor) {
    const char* api = op.api;
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
        {op.kernel, y.dtype,
         vector_cost(op.flops_per_element * double(n), double(g.bytes() + x.bytes() + y.bytes()), n, 4096)}};
    auto compute = [g, x, y, derivative = op.derivative]() {
        const std::vector<double> d = read_doubles(g), v = read_doubles(x);
        std::vector<double> r(v.size());
        for (size_t i = 0; i < v.size(); ++i) r[i] = d[i] * derivative(v[i]);
        write_doubles(y, r);
    };
    return hand_over(
        std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{g.data, x.data, y.data}),
        workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnGeluBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                              const aclTensor* gradInput, uint64_t* workspaceSize,
                                                              aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnGeluBackwardGetWorkspaceSize", aclnnStatus);
    // CANN declares the output const (a handle of device memory the operator writes).
    return npusim::opapi::prepare(npusim::opapi::kGeluGrad, gradOutput, self, const_cast<aclTensor*>(gradInput),
                                  workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnGeluBackward)

NPUSIM_C_EXPORT aclnnStatus aclnnSiluBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                              aclTensor* gradInput, uint64_t* workspaceSize,
                                                              aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnSiluBackwardGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare(npusim::opapi::kSiluGrad, gradOutput, self, gradInput, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnSiluBackward)
