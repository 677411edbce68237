// aclnnTanhBackward: gradInput = gradOutput * (1 - output^2), the backward of tanh from its output
// (e.g. GPT-2's gelu_new), on the element-wise primitive (opapi/elementwise.h); float types; one
// TanhGrad kernel.
#include "aclnnop/aclnn_tanh_backward.h"
#include "opapi/elementwise_entry.h"

namespace npusim::opapi {

namespace {

double tanh_grad(double grad, double output, double, double) { return grad * (1.0 - output * output); }

OPAPI_ELEMENTWISE(kTanhBackward, "aclnnTanhBackward", OpFamily::Binary, {Kernel::TanhGrad, 3}, kFloatTypes,
                  Promotion::Common, tanh_grad);

}  // namespace

}  // namespace npusim::opapi

OPAPI_ELEMENTWISE_ENTRY(aclnnTanhBackward,
                        (const aclTensor* gradOutput, const aclTensor* output, aclTensor* gradInput,
                         uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kTanhBackward,
                                            {tensor_in("gradOutput", gradOutput), tensor_in("output", output)},
                                            gradInput, workspaceSize, executor))
