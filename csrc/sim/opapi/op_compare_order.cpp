// Ordering comparisons, logical and/or, maximum/minimum and select on the element-wise primitive
// (opapi/elementwise.h):
//   aclnnGt/Lt/Ge/Le Scalar/Tensor (and in place)   self > other (...), compared in the promoted type,
//                                                   the truth value (0 / 1) written in out's type
//   aclnnLogicalAnd, aclnnLogicalOr (and in place)   both / either non-zero, as 0 / 1
//   aclnnMaximum, aclnnMinimum                       the larger / smaller (nan when either is nan)
//   aclnnSWhere                                      condition != 0 ? self : other (torch.where)
//   aclnnEqTensor (and in place)                     self == other
//   aclnnClamp* (scalar or tensor bounds)            min(max(self, min), max) as torch (the min bound wins
//                                                    when min > max; nan stays nan); a NULL bound of
//                                                    aclnnClamp is no bound
// every tensor broadcast, every data type (bool included).
#include <cmath>

#include "aclnnop/aclnn_gt_scalar.h"
#include "aclnnop/aclnn_gt_tensor.h"
#include "aclnnop/aclnn_lt_scalar.h"
#include "aclnnop/aclnn_lt_tensor.h"
#include "aclnnop/aclnn_clamp.h"
#include "aclnnop/aclnn_eq_tensor.h"
#include "aclnnop/aclnn_ge_scalar.h"
#include "aclnnop/aclnn_ge_tensor.h"
#include "aclnnop/aclnn_le_scalar.h"
#include "aclnnop/aclnn_le_tensor.h"
#include "aclnnop/aclnn_maximum.h"
#include "aclnnop/aclnn_minimum.h"
#include "aclnnop/aclnn_logical_and.h"
#include "aclnnop/aclnn_logical_or.h"
#include "aclnnop/aclnn_s_where.h"
#include "opapi/elementwise_entry.h"

namespace npusim::opapi {

namespace {

double gt(double a, double b, double, double) { return a > b ? 1.0 : 0.0; }
double lt(double a, double b, double, double) { return a < b ? 1.0 : 0.0; }
double ge(double a, double b, double, double) { return a >= b ? 1.0 : 0.0; }
double le(double a, double b, double, double) { return a <= b ? 1.0 : 0.0; }
double logical_and(double a, double b, double, double) { return a != 0.0 && b != 0.0 ? 1.0 : 0.0; }
double logical_or(double a, double b, double, double) { return a != 0.0 || b != 0.0 ? 1.0 : 0.0; }
double maximum(double a, double b, double, double) { return std::isnan(a) || std::isnan(b) ? NAN : std::fmax(a, b); }
double minimum(double a, double b, double, double) { return std::isnan(a) || std::isnan(b) ? NAN : std::fmin(a, b); }
double eq(double a, double b, double, double) { return a == b ? 1.0 : 0.0; }
double clamp(double x, double lo, double hi, double) { return std::isnan(x) ? x : std::fmin(std::fmax(x, lo), hi); }
double select(double condition, double a, double b, double) { return condition != 0.0 ? a : b; }

using P = Promotion;
using F = OpFamily;

OPAPI_ELEMENTWISE(kGtScalar, "aclnnGtScalar", F::Binary, {Kernel::Greater, 1}, kAllTypes, P::Predicate, gt);
OPAPI_ELEMENTWISE(kInplaceGtScalar, "aclnnInplaceGtScalar", F::Binary, {Kernel::Greater, 1}, kAllTypes, P::Predicate,
                  gt);
OPAPI_ELEMENTWISE(kGtTensor, "aclnnGtTensor", F::Binary, {Kernel::Greater, 1}, kAllTypes, P::Predicate, gt);
OPAPI_ELEMENTWISE(kInplaceGtTensor, "aclnnInplaceGtTensor", F::Binary, {Kernel::Greater, 1}, kAllTypes, P::Predicate,
                  gt);
OPAPI_ELEMENTWISE(kLtScalar, "aclnnLtScalar", F::Binary, {Kernel::Less, 1}, kAllTypes, P::Predicate, lt);
OPAPI_ELEMENTWISE(kInplaceLtScalar, "aclnnInplaceLtScalar", F::Binary, {Kernel::Less, 1}, kAllTypes, P::Predicate, lt);
OPAPI_ELEMENTWISE(kLtTensor, "aclnnLtTensor", F::Binary, {Kernel::Less, 1}, kAllTypes, P::Predicate, lt);
OPAPI_ELEMENTWISE(kInplaceLtTensor, "aclnnInplaceLtTensor", F::Binary, {Kernel::Less, 1}, kAllTypes, P::Predicate, lt);
OPAPI_ELEMENTWISE(kGeScalar, "aclnnGeScalar", F::Binary, {Kernel::GreaterEqual, 1}, kAllTypes, P::Predicate, ge);
OPAPI_ELEMENTWISE(kInplaceGeScalar, "aclnnInplaceGeScalar", F::Binary, {Kernel::GreaterEqual, 1}, kAllTypes,
                  P::Predicate, ge);
OPAPI_ELEMENTWISE(kGeTensor, "aclnnGeTensor", F::Binary, {Kernel::GreaterEqual, 1}, kAllTypes, P::Predicate, ge);
OPAPI_ELEMENTWISE(kInplaceGeTensor, "aclnnInplaceGeTensor", F::Binary, {Kernel::GreaterEqual, 1}, kAllTypes,
                  P::Predicate, ge);
OPAPI_ELEMENTWISE(kLeScalar, "aclnnLeScalar", F::Binary, {Kernel::LessEqual, 1}, kAllTypes, P::Predicate, le);
OPAPI_ELEMENTWISE(kInplaceLeScalar, "aclnnInplaceLeScalar", F::Binary, {Kernel::LessEqual, 1}, kAllTypes, P::Predicate,
                  le);
OPAPI_ELEMENTWISE(kLeTensor, "aclnnLeTensor", F::Binary, {Kernel::LessEqual, 1}, kAllTypes, P::Predicate, le);
OPAPI_ELEMENTWISE(kInplaceLeTensor, "aclnnInplaceLeTensor", F::Binary, {Kernel::LessEqual, 1}, kAllTypes, P::Predicate,
                  le);
OPAPI_ELEMENTWISE(kLogicalAnd, "aclnnLogicalAnd", F::Binary, {Kernel::LogicalAnd, 1}, kAllTypes, P::Predicate,
                  logical_and);
OPAPI_ELEMENTWISE(kInplaceLogicalAnd, "aclnnInplaceLogicalAnd", F::Binary, {Kernel::LogicalAnd, 1}, kAllTypes,
                  P::Predicate, logical_and);
OPAPI_ELEMENTWISE(kLogicalOr, "aclnnLogicalOr", F::Binary, {Kernel::LogicalOr, 1}, kAllTypes, P::Predicate, logical_or);
OPAPI_ELEMENTWISE(kInplaceLogicalOr, "aclnnInplaceLogicalOr", F::Binary, {Kernel::LogicalOr, 1}, kAllTypes,
                  P::Predicate, logical_or);
OPAPI_ELEMENTWISE(kMaximum, "aclnnMaximum", F::Binary, {Kernel::Maximum, 1}, kAllTypes, P::Common, maximum);
OPAPI_ELEMENTWISE(kMinimum, "aclnnMinimum", F::Binary, {Kernel::Minimum, 1}, kAllTypes, P::Common, minimum);
OPAPI_ELEMENTWISE(kSWhere, "aclnnSWhere", F::Ternary, {Kernel::SelectV2, 1}, kAllTypes, P::Common, select);
OPAPI_ELEMENTWISE(kEqTensor, "aclnnEqTensor", F::Binary, {Kernel::Equal, 1}, kAllTypes, P::Predicate, eq);
OPAPI_ELEMENTWISE(kInplaceEqTensor, "aclnnInplaceEqTensor", F::Binary, {Kernel::Equal, 1}, kAllTypes, P::Predicate, eq);
OPAPI_ELEMENTWISE(kClamp, "aclnnClamp", F::Ternary, {Kernel::ClipByValueV2, 2}, kNumericTypes, P::Common, clamp);
OPAPI_ELEMENTWISE(kClampMin, "aclnnClampMin", F::Ternary, {Kernel::ClipByValueV2, 2}, kNumericTypes, P::Common, clamp);
OPAPI_ELEMENTWISE(kClampMax, "aclnnClampMax", F::Ternary, {Kernel::ClipByValueV2, 2}, kNumericTypes, P::Common, clamp);
OPAPI_ELEMENTWISE(kInplaceClampMax, "aclnnInplaceClampMax", F::Ternary, {Kernel::ClipByValueV2, 2}, kNumericTypes,
                  P::Common, clamp);
OPAPI_ELEMENTWISE(kClampTensor, "aclnnClampTensor", F::Ternary, {Kernel::ClipByValueV2, 2}, kNumericTypes, P::Common,
                  clamp);
OPAPI_ELEMENTWISE(kClampMinTensor, "aclnnClampMinTensor", F::Ternary, {Kernel::ClipByValueV2, 2}, kNumericTypes,
                  P::Common, clamp);
OPAPI_ELEMENTWISE(kInplaceClampMinTensor, "aclnnInplaceClampMinTensor", F::Ternary, {Kernel::ClipByValueV2, 2},
                  kNumericTypes, P::Common, clamp);
OPAPI_ELEMENTWISE(kClampMaxTensor, "aclnnClampMaxTensor", F::Ternary, {Kernel::ClipByValueV2, 2}, kNumericTypes,
                  P::Common, clamp);
OPAPI_ELEMENTWISE(kInplaceClampMaxTensor, "aclnnInplaceClampMaxTensor", F::Ternary, {Kernel::ClipByValueV2, 2},
                  kNumericTypes, P::Common, clamp);

// A bound of aclnnClamp: the scalar, or no bound (an infinite constant) when it is NULL.
Operand bound_or(const char* name, const aclScalar* bound, double none) {
    return bound != nullptr ? attribute(name, bound) : constant(none);
}

}  // namespace

}  // namespace npusim::opapi

OPAPI_ELEMENTWISE_ENTRY(aclnnGtScalar,
                        (const aclTensor* self, const aclScalar* other, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kGtScalar, {tensor_in("self", self), scalar_in("other", other)}, out,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceGtScalar,
                        (aclTensor * selfRef, const aclScalar* other, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kInplaceGtScalar,
                                            {tensor_in("selfRef", selfRef), scalar_in("other", other)}, selfRef,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnGtTensor,
                        (const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kGtTensor, {tensor_in("self", self), tensor_in("other", other)}, out,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceGtTensor,
                        (const aclTensor* selfRef, const aclTensor* other, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kInplaceGtTensor,
                                            {tensor_in("selfRef", selfRef), tensor_in("other", other)}, selfRef,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnLtScalar,
                        (const aclTensor* self, const aclScalar* other, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kLtScalar, {tensor_in("self", self), scalar_in("other", other)}, out,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceLtScalar,
                        (const aclTensor* selfRef, const aclScalar* other, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kInplaceLtScalar,
                                            {tensor_in("selfRef", selfRef), scalar_in("other", other)}, selfRef,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnLtTensor,
                        (const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kLtTensor, {tensor_in("self", self), tensor_in("other", other)}, out,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceLtTensor,
                        (const aclTensor* selfRef, const aclTensor* other, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kInplaceLtTensor,
                                            {tensor_in("selfRef", selfRef), tensor_in("other", other)}, selfRef,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnGeScalar,
                        (const aclTensor* self, const aclScalar* other, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kGeScalar, {tensor_in("self", self), scalar_in("other", other)}, out,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceGeScalar,
                        (aclTensor * selfRef, const aclScalar* other, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kInplaceGeScalar,
                                            {tensor_in("selfRef", selfRef), scalar_in("other", other)}, selfRef,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnGeTensor,
                        (const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kGeTensor, {tensor_in("self", self), tensor_in("other", other)}, out,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceGeTensor,
                        (aclTensor * selfRef, const aclTensor* other, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kInplaceGeTensor,
                                            {tensor_in("selfRef", selfRef), tensor_in("other", other)}, selfRef,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnLeScalar,
                        (const aclTensor* self, const aclScalar* other, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kLeScalar, {tensor_in("self", self), scalar_in("other", other)}, out,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceLeScalar,
                        (aclTensor * selfRef, const aclScalar* other, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kInplaceLeScalar,
                                            {tensor_in("selfRef", selfRef), scalar_in("other", other)}, selfRef,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnLeTensor,
                        (const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kLeTensor, {tensor_in("self", self), tensor_in("other", other)}, out,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceLeTensor,
                        (aclTensor * selfRef, const aclTensor* other, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kInplaceLeTensor,
                                            {tensor_in("selfRef", selfRef), tensor_in("other", other)}, selfRef,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnMaximum,
                        (const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kMaximum, {tensor_in("self", self), tensor_in("other", other)}, out,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnMinimum,
                        (const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kMinimum, {tensor_in("self", self), tensor_in("other", other)}, out,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnLogicalAnd,
                        (const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kLogicalAnd, {tensor_in("self", self), tensor_in("other", other)}, out,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceLogicalAnd,
                        (aclTensor * selfRef, const aclTensor* other, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kInplaceLogicalAnd,
                                            {tensor_in("selfRef", selfRef), tensor_in("other", other)}, selfRef,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnLogicalOr,
                        (const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kLogicalOr, {tensor_in("self", self), tensor_in("other", other)}, out,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceLogicalOr,
                        (aclTensor * selfRef, const aclTensor* other, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kInplaceLogicalOr,
                                            {tensor_in("selfRef", selfRef), tensor_in("other", other)}, selfRef,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnSWhere,
                        (const aclTensor* condition, const aclTensor* self, const aclTensor* other, aclTensor* out,
                         uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kSWhere,
                                            {tensor_in("condition", condition), tensor_in("self", self),
                                             tensor_in("other", other)},
                                            out, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnEqTensor,
                        (const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kEqTensor, {tensor_in("self", self), tensor_in("other", other)}, out,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceEqTensor,
                        (const aclTensor* selfRef, const aclTensor* other, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kInplaceEqTensor,
                                            {tensor_in("selfRef", selfRef), tensor_in("other", other)}, selfRef,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnClamp,
                        (const aclTensor* self, const aclScalar* clipValueMin, const aclScalar* clipValueMax,
                         aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kClamp,
                                            {tensor_in("self", self), bound_or("clipValueMin", clipValueMin, -INFINITY),
                                             bound_or("clipValueMax", clipValueMax, INFINITY)},
                                            out, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnClampMin,
                        (const aclTensor* self, const aclScalar* clipValueMin, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kClampMin,
                                            {tensor_in("self", self), attribute("clipValueMin", clipValueMin),
                                             constant(INFINITY)},
                                            out, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnClampTensor,
                        (const aclTensor* self, const aclTensor* clipValueMin, const aclTensor* clipValueMax,
                         aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kClampTensor,
                                            {tensor_in("self", self), tensor_in("clipValueMin", clipValueMin),
                                             tensor_in("clipValueMax", clipValueMax)},
                                            out, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnClampMinTensor,
                        (const aclTensor* self, const aclTensor* clipValueMin, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kClampMinTensor,
                                            {tensor_in("self", self), tensor_in("clipValueMin", clipValueMin),
                                             constant(INFINITY)},
                                            out, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(
    aclnnInplaceClampMinTensor,
    (aclTensor * selfRef, const aclTensor* clipValueMin, uint64_t* workspaceSize, aclOpExecutor** executor),
    prepare_elementwise(kInplaceClampMinTensor,
                        {tensor_in("selfRef", selfRef), tensor_in("clipValueMin", clipValueMin), constant(INFINITY)},
                        selfRef, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnClampMax,
                        (const aclTensor* self, const aclScalar* clipValueMax, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kClampMax,
                                            {tensor_in("self", self), constant(-INFINITY),
                                             attribute("clipValueMax", clipValueMax)},
                                            out, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(
    aclnnInplaceClampMax,
    (const aclTensor* selfRef, const aclScalar* clipValueMax, uint64_t* workspaceSize, aclOpExecutor** executor),
    prepare_elementwise(kInplaceClampMax,
                        {tensor_in("selfRef", selfRef), constant(-INFINITY), attribute("clipValueMax", clipValueMax)},
                        selfRef, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnClampMaxTensor,
                        (const aclTensor* self, const aclTensor* max, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kClampMaxTensor,
                                            {tensor_in("self", self), constant(-INFINITY), tensor_in("max", max)}, out,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceClampMaxTensor,
                        (aclTensor * selfRef, const aclTensor* max, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kInplaceClampMaxTensor,
                                            {tensor_in("selfRef", selfRef), constant(-INFINITY), tensor_in("max", max)},
                                            selfRef, workspaceSize, executor))
