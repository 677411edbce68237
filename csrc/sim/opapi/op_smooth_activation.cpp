// aclnnMish, aclnnInplaceMish, aclnnMishBackward, aclnnSoftplus, aclnnSoftplusBackward: smooth
// activations and their gradients on the element-wise primitive (opapi/elementwise.h), computed in
// double as torch's CPU kernels write them and rounded once:
//   Mish:     x tanh(sp(x)), sp(x) = ln(1 + e^x);
//   MishGrad: g (tanh(sp(x)) + x sigmoid(x) (1 - tanh(sp(x))^2));
//   Softplus: x when beta x > threshold, else ln(1 + e^(beta x)) / beta;
//   SoftplusGrad: g when beta x > threshold, else g e^(beta x) / (e^(beta x) + 1).
// Kernels Mish, MishGrad, SoftplusV2, SoftplusV2Grad (CANN's operator types), one each.
#include <cmath>

#include "aclnnop/aclnn_mish.h"
#include "aclnnop/aclnn_mish_backward.h"
#include "aclnnop/aclnn_softplus.h"
#include "aclnnop/aclnn_softplus_backward.h"
#include "core/fault_plan.h"
#include "opapi/elementwise.h"
#include "opapi/elementwise_entry.h"
#include "opapi/op_launcher.h"

namespace npusim::opapi {

namespace {

double mish(double x, double, double, double) { return x * std::tanh(std::log1p(std::exp(x))); }
double mish_grad(double g, double x, double, double) {
    const double t = std::tanh(std::log1p(std::exp(x)));
    const double s = 1.0 / (1.0 + std::exp(-x));
    return g * (t + x * s * (1.0 - t * t));
}
double softplus(double x, double beta, double threshold, double) {
    return x * beta > threshold ? x : std::log1p(std::exp(x * beta)) / beta;
}
double softplus_grad(double g, double x, double beta, double threshold) {
    if (x * beta > threshold) return g;
    const double z = std::exp(x * beta);
    return g * z / (z + 1.0);
}

using P = Promotion;
using F = OpFamily;

OPAPI_ELEMENTWISE(kMish, "aclnnMish", F::Unary, {Kernel::Mish, 10}, kFloatTypes, P::Common, mish);
OPAPI_ELEMENTWISE(kInplaceMish, "aclnnInplaceMish", F::Unary, {Kernel::Mish, 10}, kFloatTypes, P::Common, mish);
OPAPI_ELEMENTWISE(kMishBackward, "aclnnMishBackward", F::Binary, {Kernel::MishGrad, 16}, kFloatTypes, P::Common,
                  mish_grad);
OPAPI_ELEMENTWISE(kSoftplus, "aclnnSoftplus", F::Unary, {Kernel::SoftplusV2, 6}, kFloatTypes, P::Common, softplus);
OPAPI_ELEMENTWISE(kSoftplusBackward, "aclnnSoftplusBackward", F::Binary, {Kernel::SoftplusV2Grad, 8}, kFloatTypes,
                  P::Common, softplus_grad);

}  // namespace

}  // namespace npusim::opapi

using namespace npusim::opapi;

OPAPI_ELEMENTWISE_ENTRY(aclnnMish,
                        (const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kMish, {tensor_in("self", self)}, out, workspaceSize, executor))

OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceMish, (aclTensor * selfRef, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kInplaceMish, {tensor_in("selfRef", selfRef)}, selfRef, workspaceSize,
                                            executor))

OPAPI_ELEMENTWISE_ENTRY(aclnnMishBackward,
                        (const aclTensor* gradOutput, const aclTensor* self, aclTensor* gradInput,
                         uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kMishBackward,
                                            {tensor_in("gradOutput", gradOutput), tensor_in("self", self)}, gradInput,
                                            workspaceSize, executor))

OPAPI_ELEMENTWISE_ENTRY(aclnnSoftplus,
                        (const aclTensor* self, const aclScalar* beta, const aclScalar* threshold, aclTensor* out,
                         uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kSoftplus,
                                            {tensor_in("self", self), attribute("beta", beta),
                                             attribute("threshold", threshold)},
                                            out, workspaceSize, executor))

OPAPI_ELEMENTWISE_ENTRY(aclnnSoftplusBackward,
                        (const aclTensor* gradOutput, const aclTensor* self, const aclScalar* beta,
                         const aclScalar* threshold, aclTensor* gradInput, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kSoftplusBackward,
                                            {tensor_in("gradOutput", gradOutput), tensor_in("self", self),
                                             attribute("beta", beta), attribute("threshold", threshold)},
                                            gradInput, workspaceSize, executor))
