// Ternary element-wise operators on the element-wise primitive (opapi/elementwise.h), with
// broadcasting and torch's type promotion (value is an attribute: it never changes the type):
//   aclnnLerp / aclnnInplaceLerp     out = self + weight * (end - self), weight a tensor
//   aclnnLerps / aclnnInplaceLerps   the same with a scalar weight (torch's lerp_, Adam's first moment)
//   aclnnAddcmul / aclnnInplaceAddcmul   out = self + value * tensor1 * tensor2
//   aclnnAddcdiv / aclnnInplaceAddcdiv   out = self + value * tensor1 / tensor2 (integers as float32)
// Lerp is evaluated as torch's CPU kernel does: from self when |weight| < 0.5, from end otherwise.
#include <cmath>

#include "aclnnop/aclnn_addcdiv.h"
#include "aclnnop/aclnn_addcmul.h"
#include "aclnnop/aclnn_lerp_scalar.h"
#include "aclnnop/aclnn_lerp_tensor.h"
#include "core/fault_plan.h"
#include "opapi/elementwise.h"
#include "opapi/op_launcher.h"

namespace npusim::opapi {

namespace {

double lerp_(double self, double end, double weight, double) { return lerp(self, end, weight); }
double addcmul(double self, double t1, double t2, double value) { return self + value * t1 * t2; }
double addcdiv(double self, double t1, double t2, double value) { return self + value * t1 / t2; }

using P = Promotion;
using F = OpFamily;

OPAPI_ELEMENTWISE(kLerp, "aclnnLerp", F::Ternary, {Kernel::Lerp, 3}, kFloatTypes, P::Common, lerp_);
OPAPI_ELEMENTWISE(kInplaceLerp, "aclnnInplaceLerp", F::Ternary, {Kernel::Lerp, 3}, kFloatTypes, P::Common, lerp_);
OPAPI_ELEMENTWISE(kLerps, "aclnnLerps", F::Ternary, {Kernel::Lerp, 3}, kFloatTypes, P::Common, lerp_);
OPAPI_ELEMENTWISE(kInplaceLerps, "aclnnInplaceLerps", F::Ternary, {Kernel::Lerp, 3}, kFloatTypes, P::Common, lerp_);
OPAPI_ELEMENTWISE(kAddcmul, "aclnnAddcmul", F::Ternary, {Kernel::Addcmul, 3}, kNumericTypes, P::Common, addcmul);
OPAPI_ELEMENTWISE(kInplaceAddcmul, "aclnnInplaceAddcmul", F::Ternary, {Kernel::Addcmul, 3}, kNumericTypes, P::Common,
                  addcmul);
OPAPI_ELEMENTWISE(kAddcdiv, "aclnnAddcdiv", F::Ternary, {Kernel::Addcdiv, 3}, kNumericTypes, P::ToFloat, addcdiv);
OPAPI_ELEMENTWISE(kInplaceAddcdiv, "aclnnInplaceAddcdiv", F::Ternary, {Kernel::Addcdiv, 3}, kNumericTypes, P::ToFloat,
                  addcdiv);

}  // namespace

}  // namespace npusim::opapi

using namespace npusim::opapi;

NPUSIM_C_EXPORT aclnnStatus aclnnLerpGetWorkspaceSize(const aclTensor* self, const aclTensor* end, const aclTensor* weight,
                                                      aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnLerpGetWorkspaceSize", aclnnStatus);
    return prepare_elementwise(kLerp, {tensor_in("self", self), tensor_in("end", end), tensor_in("weight", weight)}, out,
                               workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnLerp)

NPUSIM_C_EXPORT aclnnStatus aclnnInplaceLerpGetWorkspaceSize(aclTensor* selfRef, const aclTensor* end,
                                                             const aclTensor* weight, uint64_t* workspaceSize,
                                                             aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnInplaceLerpGetWorkspaceSize", aclnnStatus);
    return prepare_elementwise(kInplaceLerp,
                               {tensor_in("selfRef", selfRef), tensor_in("end", end), tensor_in("weight", weight)},
                               selfRef, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnInplaceLerp)

NPUSIM_C_EXPORT aclnnStatus aclnnLerpsGetWorkspaceSize(const aclTensor* self, const aclTensor* end,
                                                       const aclScalar* weight, aclTensor* out, uint64_t* workspaceSize,
                                                       aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnLerpsGetWorkspaceSize", aclnnStatus);
    return prepare_elementwise(kLerps, {tensor_in("self", self), tensor_in("end", end), attribute("weight", weight)},
                               out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnLerps)

NPUSIM_C_EXPORT aclnnStatus aclnnInplaceLerpsGetWorkspaceSize(aclTensor* selfRef, const aclTensor* end,
                                                              const aclScalar* weight, uint64_t* workspaceSize,
                                                              aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnInplaceLerpsGetWorkspaceSize", aclnnStatus);
    return prepare_elementwise(kInplaceLerps,
                               {tensor_in("selfRef", selfRef), tensor_in("end", end), attribute("weight", weight)},
                               selfRef, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnInplaceLerps)

NPUSIM_C_EXPORT aclnnStatus aclnnAddcmulGetWorkspaceSize(const aclTensor* self, const aclTensor* tensor1,
                                                         const aclTensor* tensor2, const aclScalar* value, aclTensor* out,
                                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnAddcmulGetWorkspaceSize", aclnnStatus);
    return prepare_elementwise(kAddcmul,
                               {tensor_in("self", self), tensor_in("tensor1", tensor1), tensor_in("tensor2", tensor2),
                                attribute("value", value)},
                               out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnAddcmul)

// CANN declares selfRef const (a handle of device memory the operator writes).
NPUSIM_C_EXPORT aclnnStatus aclnnInplaceAddcmulGetWorkspaceSize(const aclTensor* selfRef, const aclTensor* tensor1,
                                                                const aclTensor* tensor2, const aclScalar* value,
                                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnInplaceAddcmulGetWorkspaceSize", aclnnStatus);
    return prepare_elementwise(kInplaceAddcmul,
                               {tensor_in("selfRef", selfRef), tensor_in("tensor1", tensor1),
                                tensor_in("tensor2", tensor2), attribute("value", value)},
                               selfRef, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnInplaceAddcmul)

// CANN declares out const (a handle of device memory the operator writes).
NPUSIM_C_EXPORT aclnnStatus aclnnAddcdivGetWorkspaceSize(const aclTensor* self, const aclTensor* tensor1,
                                                         const aclTensor* tensor2, const aclScalar* value,
                                                         const aclTensor* out, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnAddcdivGetWorkspaceSize", aclnnStatus);
    return prepare_elementwise(kAddcdiv,
                               {tensor_in("self", self), tensor_in("tensor1", tensor1), tensor_in("tensor2", tensor2),
                                attribute("value", value)},
                               out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnAddcdiv)

NPUSIM_C_EXPORT aclnnStatus aclnnInplaceAddcdivGetWorkspaceSize(const aclTensor* selfRef, const aclTensor* tensor1,
                                                                const aclTensor* tensor2, const aclScalar* value,
                                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnInplaceAddcdivGetWorkspaceSize", aclnnStatus);
    return prepare_elementwise(kInplaceAddcdiv,
                               {tensor_in("selfRef", selfRef), tensor_in("tensor1", tensor1),
                                tensor_in("tensor2", tensor2), attribute("value", value)},
                               selfRef, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnInplaceAddcdiv)
