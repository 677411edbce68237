// Shrinkage activations and the sigmoid's backward on the element-wise primitive
// (opapi/elementwise.h), float types:
//   aclnnSoftshrink: x - l where x > l, x + l where x < -l, else 0 (kernel SoftShrink);
//   aclnnHardshrink: x where |x| > l, else 0 (kernel HardShrink);
//   aclnnSoftshrinkBackward / aclnnHardshrinkBackward: the gradient where |x| > l, else 0;
//   aclnnSigmoidBackward: gradOutput * (1 - y) * y from the sigmoid's output y (kernel SigmoidGrad).
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "aclnnop/aclnn_hardshrink.h"
#include "aclnnop/aclnn_hardshrink_backward.h"
#include "aclnnop/aclnn_sigmoid_backward.h"
#include "aclnnop/aclnn_softshrink.h"
#include "aclnnop/aclnn_softshrink_backward.h"
#include "opapi/elementwise_entry.h"

namespace npusim::opapi {

namespace {

double sigmoid_grad(double a, double b, double, double) { return a * (1.0 - b) * b; }
double softshrink(double a, double b, double, double) { return a > b ? a - b : a < -b ? a + b : 0.0; }
double shrink_grad(double a, double b, double c, double) { return b >= -c && b <= c ? 0.0 : a; }
double hardshrink(double a, double b, double, double) { return a >= -b && a <= b ? 0.0 : a; }

using P = Promotion;
using F = OpFamily;

OPAPI_ELEMENTWISE(kSigmoidBackward, "aclnnSigmoidBackward", F::Binary, {Kernel::SigmoidGrad, 3}, kFloatTypes, P::Common,
                  sigmoid_grad);
OPAPI_ELEMENTWISE(kSoftshrink, "aclnnSoftshrink", F::Binary, {Kernel::SoftShrink, 2}, kFloatTypes, P::Common,
                  softshrink);
OPAPI_ELEMENTWISE(kSoftshrinkBackward, "aclnnSoftshrinkBackward", F::Ternary, {Kernel::SoftShrinkGrad, 1}, kFloatTypes,
                  P::Common, shrink_grad);
OPAPI_ELEMENTWISE(kHardshrink, "aclnnHardshrink", F::Binary, {Kernel::HardShrink, 1}, kFloatTypes, P::Common,
                  hardshrink);
OPAPI_ELEMENTWISE(kHardshrinkBackward, "aclnnHardshrinkBackward", F::Ternary, {Kernel::HardShrinkGrad, 1}, kFloatTypes,
                  P::Common, shrink_grad);

}  // namespace

}  // namespace npusim::opapi

OPAPI_ELEMENTWISE_ENTRY(aclnnSigmoidBackward,
                        (const aclTensor* gradOutput, const aclTensor* output, aclTensor* gradInput,
                         uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kSigmoidBackward,
                                            {tensor_in("gradOutput", gradOutput), tensor_in("output", output)},
                                            gradInput, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnSoftshrink,
                        (const aclTensor* self, const aclScalar* lambd, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kSoftshrink, {tensor_in("self", self), attribute("lambd", lambd)}, out,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnSoftshrinkBackward,
                        (const aclTensor* gradOutput, const aclTensor* self, const aclScalar* lambda,
                         aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kSoftshrinkBackward,
                                            {tensor_in("gradOutput", gradOutput), tensor_in("self", self),
                                             attribute("lambda", lambda)},
                                            gradInput, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnHardshrink,
                        (const aclTensor* self, const aclScalar* lambd, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kHardshrink, {tensor_in("self", self), attribute("lambd", lambd)}, out,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnHardshrinkBackward,
                        (const aclTensor* gradOutput, const aclTensor* self, const aclScalar* lambd,
                         aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kHardshrinkBackward,
                                            {tensor_in("gradOutput", gradOutput), tensor_in("self", self),
                                             attribute("lambd", lambd)},
                                            gradInput, workspaceSize, executor))
