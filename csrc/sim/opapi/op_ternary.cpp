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
#include "opapi/elementwise_entry.h"
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

OPAPI_ELEMENTWISE_ENTRY(
    aclnnLerp,
    (const aclTensor* self, const aclTensor* end, const aclTensor* weight, aclTensor* out, uint64_t* workspaceSize,
     aclOpExecutor** executor),
    prepare_elementwise(kLerp, {tensor_in("self", self), tensor_in("end", end), tensor_in("weight", weight)}, out,
                        workspaceSize, executor))

OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceLerp,
                        (aclTensor * selfRef, const aclTensor* end, const aclTensor* weight, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kInplaceLerp,
                                            {tensor_in("selfRef", selfRef), tensor_in("end", end),
                                             tensor_in("weight", weight)},
                                            selfRef, workspaceSize, executor))

OPAPI_ELEMENTWISE_ENTRY(
    aclnnLerps,
    (const aclTensor* self, const aclTensor* end, const aclScalar* weight, aclTensor* out, uint64_t* workspaceSize,
     aclOpExecutor** executor),
    prepare_elementwise(kLerps, {tensor_in("self", self), tensor_in("end", end), attribute("weight", weight)}, out,
                        workspaceSize, executor))

OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceLerps,
                        (aclTensor * selfRef, const aclTensor* end, const aclScalar* weight, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kInplaceLerps,
                                            {tensor_in("selfRef", selfRef), tensor_in("end", end),
                                             attribute("weight", weight)},
                                            selfRef, workspaceSize, executor))

OPAPI_ELEMENTWISE_ENTRY(aclnnAddcmul,
                        (const aclTensor* self, const aclTensor* tensor1, const aclTensor* tensor2,
                         const aclScalar* value, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kAddcmul,
                                            {tensor_in("self", self), tensor_in("tensor1", tensor1),
                                             tensor_in("tensor2", tensor2), attribute("value", value)},
                                            out, workspaceSize, executor))

// CANN declares selfRef const (a handle of device memory the operator writes).
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceAddcmul,
                        (const aclTensor* selfRef, const aclTensor* tensor1, const aclTensor* tensor2,
                         const aclScalar* value, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kInplaceAddcmul,
                                            {tensor_in("selfRef", selfRef), tensor_in("tensor1", tensor1),
                                             tensor_in("tensor2", tensor2), attribute("value", value)},
                                            selfRef, workspaceSize, executor))

// CANN declares out const (a handle of device memory the operator writes).
OPAPI_ELEMENTWISE_ENTRY(aclnnAddcdiv,
                        (const aclTensor* self, const aclTensor* tensor1, const aclTensor* tensor2,
                         const aclScalar* value, const aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kAddcdiv,
                                            {tensor_in("self", self), tensor_in("tensor1", tensor1),
                                             tensor_in("tensor2", tensor2), attribute("value", value)},
                                            out, workspaceSize, executor))

OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceAddcdiv,
                        (const aclTensor* selfRef, const aclTensor* tensor1, const aclTensor* tensor2,
                         const aclScalar* value, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kInplaceAddcdiv,
                                            {tensor_in("selfRef", selfRef), tensor_in("tensor1", tensor1),
                                             tensor_in("tensor2", tensor2), attribute("value", value)},
                                            selfRef, workspaceSize, executor))
