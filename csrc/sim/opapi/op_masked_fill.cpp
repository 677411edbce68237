// aclnnInplaceMaskedFillScalar and aclnnInplaceMaskedFillTensor (Tensor.masked_fill_, and the
// padding masks torch builds for attention) on the element-wise primitive (opapi/elementwise.h):
// selfRef = value where mask is non-zero, the mask broadcast to selfRef (a mask that widens selfRef
// is ACLNN_ERR_PARAM_INVALID, as the result must keep selfRef's shape). The value does not take part
// in type promotion; it is rounded to selfRef's type. One MaskedFill kernel.
#include "aclnnop/aclnn_masked_fill_scalar.h"
#include "aclnnop/aclnn_masked_fill_tensor.h"
#include "core/fault_plan.h"
#include "opapi/elementwise.h"
#include "opapi/elementwise_entry.h"
#include "opapi/op_launcher.h"

namespace npusim::opapi {

namespace {

double masked_fill(double self, double mask, double value, double) { return mask != 0.0 ? value : self; }

OPAPI_ELEMENTWISE(kMaskedFillScalar, "aclnnInplaceMaskedFillScalar", OpFamily::Ternary, {Kernel::MaskedFill, 1},
                  kAllTypes, Promotion::Common, masked_fill);
OPAPI_ELEMENTWISE(kMaskedFillTensor, "aclnnInplaceMaskedFillTensor", OpFamily::Ternary, {Kernel::MaskedFill, 1},
                  kAllTypes, Promotion::Common, masked_fill);

}  // namespace

}  // namespace npusim::opapi

using namespace npusim::opapi;

OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceMaskedFillScalar,
                        (aclTensor * selfRef, const aclTensor* mask, const aclScalar* value, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kMaskedFillScalar,
                                            {tensor_in("selfRef", selfRef), tensor_in("mask", mask),
                                             attribute("value", value)},
                                            selfRef, workspaceSize, executor))

OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceMaskedFillTensor,
                        (aclTensor * selfRef, const aclTensor* mask, const aclTensor* value, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kMaskedFillTensor,
                                            {tensor_in("selfRef", selfRef), tensor_in("mask", mask),
                                             tensor_value("value", value)},
                                            selfRef, workspaceSize, executor))
