// Piecewise and parametrised activations and their backward on the element-wise primitive
// (opapi/elementwise.h), float types, one kernel each:
//   aclnnHardswish x * min(max(x + 3, 0), 6) / 6     backward: 0 below -3, x / 3 + 0.5 up to 3, 1 above
//   aclnnHardsigmoid min(max(x / 6 + 0.5, 0), 1)      backward: 1 / 6 strictly inside (-3, 3), else 0
//   aclnnLeakyRelu x > 0 ? x : slope * x              backward: 1 or slope (by the sign of self or result)
//   aclnnElu scale * (x > 0 ? x : alpha * (exp(inputScale * x) - 1))  (torch's elu / selu)
//   aclnnCelu max(0, x) + min(0, alpha * (exp(x / alpha) - 1))
//   aclnnHardswishBackwardV2: the same derivative as aclnnHardswishBackward (torch_npu prefers V2)
//   aclnnHardtanh clamp(x, min, max)                  backward: 1 strictly inside (min, max), else 0
//   aclnnGeluV2 (approximate 0: the erf form, 1: the tanh form) and aclnnGeluBackwardV2 ("none" / "tanh"):
//   torch's formulas (opapi/gelu_forms.h); another approximation is ACLNN_ERR_PARAM_INVALID.
// The derivatives at the kinks are torch's CPU kernels' choices.
#include <cmath>
#include <cstring>

#include "aclnnop/aclnn_hardswish.h"
#include "aclnnop/aclnn_hardswish_backward.h"
#include "aclnnop/aclnn_hardswish_backward_v2.h"
#include "aclnnop/aclnn_celu.h"
#include "aclnnop/aclnn_hardsigmoid.h"
#include "aclnnop/aclnn_hardsigmoid_backward.h"
#include "aclnnop/aclnn_leaky_relu.h"
#include "aclnnop/aclnn_leaky_relu_backward.h"
#include "aclnnop/aclnn_elu.h"
#include "aclnnop/aclnn_hardtanh.h"
#include "aclnnop/aclnn_hardtanh_backward.h"
#include "aclnnop/aclnn_gelu_v2.h"
#include "aclnnop/aclnn_gelu_backward_v2.h"
#include "opapi/checks.h"
#include "opapi/elementwise_entry.h"
#include "opapi/gelu_forms.h"

namespace npusim::opapi {

namespace {

double hardswish(double x, double, double, double) { return x * std::fmin(std::fmax(x + 3.0, 0.0), 6.0) / 6.0; }
double hardswish_grad(double g, double x, double, double) {
    return x < -3.0 ? 0.0 : x <= 3.0 ? g * (x / 3.0 + 0.5) : g;
}
double hardsigmoid(double x, double, double, double) { return std::fmin(std::fmax(x / 6.0 + 0.5, 0.0), 1.0); }
double hardsigmoid_grad(double g, double x, double, double) { return x > -3.0 && x < 3.0 ? g / 6.0 : 0.0; }
double leaky_relu(double x, double slope, double, double) { return x > 0.0 ? x : x * slope; }
double leaky_relu_grad(double g, double x, double slope, double) { return x > 0.0 ? g : g * slope; }
double elu(double x, double alpha, double scale, double input_scale) {
    return x > 0.0 ? scale * x : scale * alpha * std::expm1(x * input_scale);
}
double celu(double x, double alpha, double, double) { return x > 0.0 ? x : alpha * std::expm1(x / alpha); }
double hardtanh(double x, double lo, double hi, double) { return std::fmin(std::fmax(x, lo), hi); }
double hardtanh_grad(double g, double x, double lo, double hi) { return x <= lo || x >= hi ? 0.0 : g; }
double gelu_erf(double x, double, double, double) { return gelu_erf_value(x); }
double gelu_tanh(double x, double, double, double) { return gelu_tanh_value(x); }
double gelu_erf_grad(double g, double x, double, double) { return g * gelu_erf_derivative(x); }
double gelu_tanh_grad(double g, double x, double, double) { return g * gelu_tanh_derivative(x); }

using P = Promotion;
using F = OpFamily;

OPAPI_ELEMENTWISE(kHardswish, "aclnnHardswish", F::Unary, {Kernel::HardSwish, 4}, kFloatTypes, P::Common, hardswish);
OPAPI_ELEMENTWISE(kInplaceHardswish, "aclnnInplaceHardswish", F::Unary, {Kernel::HardSwish, 4}, kFloatTypes, P::Common,
                  hardswish);
OPAPI_ELEMENTWISE(kHardswishBackward, "aclnnHardswishBackward", F::Binary, {Kernel::HardSwishGrad, 3}, kFloatTypes,
                  P::Common, hardswish_grad);
OPAPI_ELEMENTWISE(kHardswishBackwardV2, "aclnnHardswishBackwardV2", F::Binary, {Kernel::HardSwishGrad, 3}, kFloatTypes,
                  P::Common, hardswish_grad);
OPAPI_ELEMENTWISE(kCelu, "aclnnCelu", F::Unary, {Kernel::CeluV2, 5}, kFloatTypes, P::Common, celu);
OPAPI_ELEMENTWISE(kInplaceCelu, "aclnnInplaceCelu", F::Unary, {Kernel::CeluV2, 5}, kFloatTypes, P::Common, celu);
OPAPI_ELEMENTWISE(kHardsigmoid, "aclnnHardsigmoid", F::Unary, {Kernel::HardSigmoid, 3}, kFloatTypes, P::Common,
                  hardsigmoid);
OPAPI_ELEMENTWISE(kInplaceHardsigmoid, "aclnnInplaceHardsigmoid", F::Unary, {Kernel::HardSigmoid, 3}, kFloatTypes,
                  P::Common, hardsigmoid);
OPAPI_ELEMENTWISE(kHardsigmoidBackward, "aclnnHardsigmoidBackward", F::Binary, {Kernel::HardSigmoidGrad, 2},
                  kFloatTypes, P::Common, hardsigmoid_grad);
OPAPI_ELEMENTWISE(kLeakyRelu, "aclnnLeakyRelu", F::Unary, {Kernel::LeakyRelu, 2}, kFloatTypes, P::Common, leaky_relu);
OPAPI_ELEMENTWISE(kInplaceLeakyRelu, "aclnnInplaceLeakyRelu", F::Unary, {Kernel::LeakyRelu, 2}, kFloatTypes, P::Common,
                  leaky_relu);
OPAPI_ELEMENTWISE(kLeakyReluBackward, "aclnnLeakyReluBackward", F::Binary, {Kernel::LeakyReluGrad, 2}, kFloatTypes,
                  P::Common, leaky_relu_grad);
OPAPI_ELEMENTWISE(kElu, "aclnnElu", F::Unary, {Kernel::Elu, 5}, kFloatTypes, P::Common, elu);
OPAPI_ELEMENTWISE(kInplaceElu, "aclnnInplaceElu", F::Unary, {Kernel::Elu, 5}, kFloatTypes, P::Common, elu);
OPAPI_ELEMENTWISE(kHardtanh, "aclnnHardtanh", F::Unary, {Kernel::ClipByValueV2, 2}, kFloatTypes, P::Common, hardtanh);
OPAPI_ELEMENTWISE(kInplaceHardtanh, "aclnnInplaceHardtanh", F::Unary, {Kernel::ClipByValueV2, 2}, kFloatTypes,
                  P::Common, hardtanh);
OPAPI_ELEMENTWISE(kHardtanhBackward, "aclnnHardtanhBackward", F::Binary, {Kernel::HardtanhGrad, 2}, kFloatTypes,
                  P::Common, hardtanh_grad);
OPAPI_ELEMENTWISE(kGeluV2, "aclnnGeluV2", F::Unary, {Kernel::GeluV2, 8}, kFloatTypes, P::Common, gelu_erf);
const ElementwiseOp kGeluV2Tanh{"aclnnGeluV2", F::Unary, {Kernel::GeluV2, 10}, kFloatTypes, P::Common, gelu_tanh};
OPAPI_ELEMENTWISE(kGeluBackwardV2, "aclnnGeluBackwardV2", F::Binary, {Kernel::GeluGradV2, 12}, kFloatTypes, P::Common,
                  gelu_erf_grad);
const ElementwiseOp kGeluBackwardV2Tanh{"aclnnGeluBackwardV2", F::Binary, {Kernel::GeluGradV2, 14},
                                        kFloatTypes,           P::Common, gelu_tanh_grad};

}  // namespace

}  // namespace npusim::opapi

OPAPI_ELEMENTWISE_ENTRY(aclnnHardswish,
                        (const aclTensor* self, const aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kHardswish, {tensor_in("self", self)}, out, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceHardswish,
                        (const aclTensor* self, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kInplaceHardswish, {tensor_in("self", self)}, self, workspaceSize,
                                            executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnHardswishBackward,
                        (const aclTensor* gradOutput, const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kHardswishBackward,
                                            {tensor_in("gradOutput", gradOutput), tensor_in("self", self)}, out,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnHardsigmoid,
                        (const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kHardsigmoid, {tensor_in("self", self)}, out, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceHardsigmoid,
                        (const aclTensor* self, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kInplaceHardsigmoid, {tensor_in("self", self)}, self, workspaceSize,
                                            executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnHardsigmoidBackward,
                        (const aclTensor* gradOutput, const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kHardsigmoidBackward,
                                            {tensor_in("gradOutput", gradOutput), tensor_in("self", self)}, out,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnLeakyRelu,
                        (const aclTensor* self, const aclScalar* negativeSlope, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kLeakyRelu,
                                            {tensor_in("self", self), attribute("negativeSlope", negativeSlope)}, out,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceLeakyRelu,
                        (aclTensor * selfRef, const aclScalar* negativeSlope, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kInplaceLeakyRelu,
                                            {tensor_in("selfRef", selfRef), attribute("negativeSlope", negativeSlope)},
                                            selfRef, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnLeakyReluBackward,
                        (const aclTensor* gradOutput, const aclTensor* self, const aclScalar* negativeSlope,
                         bool selfIsResult, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kLeakyReluBackward,
                                            {tensor_in("gradOutput", gradOutput), tensor_in("self", self),
                                             attribute("negativeSlope", negativeSlope)},
                                            out, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnElu,
                        (const aclTensor* self, const aclScalar* alpha, const aclScalar* scale,
                         const aclScalar* inputScale, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kElu,
                                            {tensor_in("self", self), attribute("alpha", alpha),
                                             attribute("scale", scale), attribute("inputScale", inputScale)},
                                            out, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceElu,
                        (aclTensor * selfRef, const aclScalar* alpha, const aclScalar* scale,
                         const aclScalar* inputScale, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kInplaceElu,
                                            {tensor_in("selfRef", selfRef), attribute("alpha", alpha),
                                             attribute("scale", scale), attribute("inputScale", inputScale)},
                                            selfRef, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnHardtanh,
                        (const aclTensor* self, const aclScalar* clipValueMin, const aclScalar* clipValueMax,
                         aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kHardtanh,
                                            {tensor_in("self", self), attribute("clipValueMin", clipValueMin),
                                             attribute("clipValueMax", clipValueMax)},
                                            out, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceHardtanh,
                        (aclTensor * selfRef, const aclScalar* clipValueMin, const aclScalar* clipValueMax,
                         uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kInplaceHardtanh,
                                            {tensor_in("selfRef", selfRef), attribute("clipValueMin", clipValueMin),
                                             attribute("clipValueMax", clipValueMax)},
                                            selfRef, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnHardtanhBackward,
                        (const aclTensor* gradOutput, const aclTensor* self, const aclScalar* min, const aclScalar* max,
                         aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kHardtanhBackward,
                                            {tensor_in("gradOutput", gradOutput), tensor_in("self", self),
                                             attribute("min", min), attribute("max", max)},
                                            out, workspaceSize, executor))

OPAPI_ELEMENTWISE_ENTRY(aclnnHardswishBackwardV2,
                        (const aclTensor* gradOutput, const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kHardswishBackwardV2,
                                            {tensor_in("gradOutput", gradOutput), tensor_in("self", self)}, out,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnCelu,
                        (const aclTensor* self, const aclScalar* alpha, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kCelu, {tensor_in("self", self), attribute("alpha", alpha)}, out,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceCelu,
                        (aclTensor * selfRef, const aclScalar* alpha, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kInplaceCelu, {tensor_in("selfRef", selfRef), attribute("alpha", alpha)},
                                            selfRef, workspaceSize, executor))

OPAPI_ELEMENTWISE_ENTRY(aclnnGeluV2,
                        (const aclTensor* x, int64_t approximate, aclTensor* y, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        approximate != 0 && approximate != 1
                            ? invalid("aclnnGeluV2", "approximate is %lld; 0 (none) or 1 (tanh) expected",
                                      static_cast<long long>(approximate))
                            : prepare_elementwise(approximate == 1 ? kGeluV2Tanh : kGeluV2, {tensor_in("x", x)}, y,
                                                  workspaceSize, executor))

namespace {
// The form aclnnGeluBackwardV2's `approximate` names: 0 none, 1 tanh, -1 neither (NULL is none).
int gelu_mode(const char* approximate) {
    if (approximate == nullptr || std::strcmp(approximate, "none") == 0) return 0;
    return std::strcmp(approximate, "tanh") == 0 ? 1 : -1;
}
}  // namespace

OPAPI_ELEMENTWISE_ENTRY(aclnnGeluBackwardV2,
                        (const aclTensor* gradOutput, const aclTensor* self, char* approximate, aclTensor* gradInput,
                         uint64_t* workspaceSize, aclOpExecutor** executor),
                        gelu_mode(approximate) < 0
                            ? invalid("aclnnGeluBackwardV2", "approximate is \"%s\"; \"none\" or \"tanh\" expected",
                                      approximate)
                            : prepare_elementwise(gelu_mode(approximate) == 1 ? kGeluBackwardV2Tanh : kGeluBackwardV2,
                                                  {tensor_in("gradOutput", gradOutput), tensor_in("self", self)},
                                                  gradInput, workspaceSize, executor))
