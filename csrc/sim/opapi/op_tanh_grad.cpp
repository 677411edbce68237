// aclnnTanhBackward: gradInput = gradOutput * (1 - output^2), the backward of tanh from its output
// (e.g. GPT-2's gelu_new), on the element-wise primitive (opapi/elementwise.h); float types; one
// TanhGrad kernel.
#include "aclnnop/aclnn_tanh_backward.h"
#include "core/fault_plan.h"
#include "opapi/elementwise.h"
#include "opapi/op_launcher.h"

namespace npusim::opapi {

namespace {

double tanh_grad(double grad, double output, double, double) { return grad * (1.0 - output * output); }

OPAPI_ELEMENTWISE(kTanhBackward, "aclnnTanhBackward", OpFamily::Binary, {Kernel::TanhGrad, 3}, kFloatTypes,
                  Promotion::Common, tanh_grad);

}  // namespace

}  // namespace npusim::opapi

using namespace npusim::opapi;

NPUSIM_C_EXPORT aclnnStatus aclnnTanhBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* output,
                                                              aclTensor* gradInput, uint64_t* workspaceSize,
                                                              aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnTanhBackwardGetWorkspaceSize", aclnnStatus);
    return prepare_elementwise(kTanhBackward, {tensor_in("gradOutput", gradOutput), tensor_in("output", output)},
                               gradInput, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnTanhBackward)
