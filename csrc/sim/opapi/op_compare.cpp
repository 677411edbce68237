// Comparisons and masks on the element-wise primitive (opapi/elementwise.h):
//   aclnnNeScalar, aclnnNeTensor   out = (self != other)   aclnnEqScalar   out = (self == other)
//   aclnnLogicalNot                out = (self == 0)   aclnnInplaceLogicalNot   selfRef = (selfRef == 0)
//   aclnnBitwiseNot                out = ~self: -self - 1 for integers (two's complement), (self == 0) for bool
// compared in the inputs' promoted type (Promotion::Predicate), the truth value written to an out of
// any type; and aclnnThresholdBackward: out = gradOutput where self > threshold, else 0 (the
// backward of ReLU).
#include "aclnnop/aclnn_bitwise_not.h"
#include "aclnnop/aclnn_eq_scalar.h"
#include "aclnnop/aclnn_logical_not.h"
#include "aclnnop/aclnn_ne_scalar.h"
#include "aclnnop/aclnn_ne_tensor.h"
#include "aclnnop/aclnn_threshold_backward.h"
#include "core/fault_plan.h"
#include "nnopbase/tensor.h"
#include "opapi/elementwise.h"
#include "opapi/elementwise_entry.h"
#include "opapi/op_launcher.h"

namespace npusim::opapi {

namespace {

double ne(double a, double b, double, double) { return a != b ? 1.0 : 0.0; }
double eq(double a, double b, double, double) { return a == b ? 1.0 : 0.0; }
double logical_not(double a, double, double, double) { return a == 0.0 ? 1.0 : 0.0; }
double bitwise_not(double a, double, double, double) { return -a - 1.0; }
double threshold_backward(double grad, double self, double threshold, double) { return self > threshold ? grad : 0.0; }

using P = Promotion;
using F = OpFamily;

OPAPI_ELEMENTWISE(kNeScalar, "aclnnNeScalar", F::Binary, {Kernel::NotEqual, 1}, kAllTypes, P::Predicate, ne);
OPAPI_ELEMENTWISE(kNeTensor, "aclnnNeTensor", F::Binary, {Kernel::NotEqual, 1}, kAllTypes, P::Predicate, ne);
OPAPI_ELEMENTWISE(kEqScalar, "aclnnEqScalar", F::Binary, {Kernel::Equal, 1}, kAllTypes, P::Predicate, eq);
OPAPI_ELEMENTWISE(kLogicalNot, "aclnnLogicalNot", F::Unary, {Kernel::LogicalNot, 1}, kAllTypes, P::Predicate,
                  logical_not);
constexpr DTypeSet kBitwiseTypes = kIntegerTypes | DTypeSet{ACL_BOOL};
OPAPI_ELEMENTWISE(kBitwiseNot, "aclnnBitwiseNot", F::Unary, {Kernel::Invert, 1}, kBitwiseTypes, P::Common, bitwise_not);
// The same operator on bool: its negation (not registered again).
const ElementwiseOp kBitwiseNotBool{"aclnnBitwiseNot", F::Unary,  {Kernel::Invert, 1},
                                    kBitwiseTypes,     P::Common, logical_not};
OPAPI_ELEMENTWISE(kInplaceLogicalNot, "aclnnInplaceLogicalNot", F::Unary, {Kernel::LogicalNot, 1}, kAllTypes,
                  P::Predicate, logical_not);
OPAPI_ELEMENTWISE(kThresholdBackward, "aclnnThresholdBackward", F::Binary, {Kernel::ThresholdGradV2D, 1}, kNumericTypes,
                  P::Common, threshold_backward);

}  // namespace

}  // namespace npusim::opapi

using namespace npusim::opapi;

OPAPI_ELEMENTWISE_ENTRY(aclnnNeScalar,
                        (const aclTensor* self, const aclScalar* other, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kNeScalar, {tensor_in("self", self), scalar_in("other", other)}, out,
                                            workspaceSize, executor))

OPAPI_ELEMENTWISE_ENTRY(aclnnNeTensor,
                        (const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kNeTensor, {tensor_in("self", self), tensor_in("other", other)}, out,
                                            workspaceSize, executor))

OPAPI_ELEMENTWISE_ENTRY(aclnnEqScalar,
                        (const aclTensor* self, const aclScalar* other, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kEqScalar, {tensor_in("self", self), scalar_in("other", other)}, out,
                                            workspaceSize, executor))

OPAPI_ELEMENTWISE_ENTRY(aclnnLogicalNot,
                        (const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kLogicalNot, {tensor_in("self", self)}, out, workspaceSize, executor))

OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceLogicalNot,
                        (aclTensor * selfRef, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kInplaceLogicalNot, {tensor_in("selfRef", selfRef)}, selfRef, workspaceSize,
                                            executor))

// bool is negated logically (~True is False), integers bit by bit.
OPAPI_ELEMENTWISE_ENTRY(aclnnBitwiseNot,
                        (const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(::npusim::nn::valid(self) && self->dtype == ACL_BOOL ? kBitwiseNotBool
                                                                                                 : kBitwiseNot,
                                            {tensor_in("self", self)}, out, workspaceSize, executor))

OPAPI_ELEMENTWISE_ENTRY(aclnnThresholdBackward,
                        (const aclTensor* gradOutput, const aclTensor* self, const aclScalar* threshold, aclTensor* out,
                         uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kThresholdBackward,
                                            {tensor_in("gradOutput", gradOutput), tensor_in("self", self),
                                             attribute("threshold", threshold)},
                                            out, workspaceSize, executor))
