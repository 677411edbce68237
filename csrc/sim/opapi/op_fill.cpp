// aclnnInplaceZero: one ZerosLike kernel that writes zeros over the tensor.
// aclnnInplaceFillScalar: one Fill kernel that writes a scalar value over the tensor.
// aclnnInplaceOne: the same with the value 1 (torch's ones_like / fill_(1), e.g. a loss's seed
// gradient, or the bool mask torch builds for causal attention).
// Fills of the element-wise primitive (opapi/elementwise.h) without tensor inputs: every data type,
// the value rounded to selfRef's type (a float value into an integer tensor truncates toward zero).
#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_zero.h"
#include "core/fault_plan.h"
#include "opapi/elementwise.h"
#include "opapi/elementwise_entry.h"
#include "opapi/op_launcher.h"

namespace npusim::opapi {

namespace {

double value_of(double value, double, double, double) { return value; }

using P = Promotion;
using F = OpFamily;

OPAPI_ELEMENTWISE(kZero, "aclnnInplaceZero", F::Fill, {Kernel::ZerosLike, 0}, kAllTypes, P::Common, value_of);
OPAPI_ELEMENTWISE(kOne, "aclnnInplaceOne", F::Fill, {Kernel::Fill, 0}, kAllTypes, P::Common, value_of);
OPAPI_ELEMENTWISE(kFillScalar, "aclnnInplaceFillScalar", F::Fill, {Kernel::Fill, 0}, kAllTypes, P::Common, value_of);

}  // namespace

}  // namespace npusim::opapi

using namespace npusim::opapi;

OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceZero, (aclTensor * selfRef, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kZero, {constant(0.0)}, selfRef, workspaceSize, executor))

OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceFillScalar,
                        (aclTensor * selfRef, const aclScalar* value, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kFillScalar, {attribute("value", value)}, selfRef, workspaceSize, executor))

OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceOne, (aclTensor * selfRef, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kOne, {constant(1.0)}, selfRef, workspaceSize, executor))
