// aclnnAdd, aclnnSub, aclnnMul, aclnnDiv: element-wise with broadcasting; aclnnAdds, aclnnSubs,
// aclnnMuls, aclnnDivs: a tensor and a scalar; the in-place forms write through selfRef's view (so
// other must broadcast to it; an in-place division needs a float selfRef). Declared on the element-wise primitive (opapi/elementwise.h): types
// promote as torch's, a Cast launch per input of another type, the kernel in the working type, a
// Cast to the output's type.
//   Add / Adds: self + alpha * other (an Add kernel, Axpy when alpha is not 1)
//   Sub / Subs: self - alpha * other (Sub, Axpy; Subs: Add, Axpy, as the negated scalar is added)
//   Mul / Muls: self * other (Mul, Muls);  Div / Divs: self / other (RealDiv; true division, so
//   integers divide as float32; a zero divisor gives inf or nan, as torch's CPU division does)
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_sub.h"
#include "core/fault_plan.h"
#include "nnopbase/tensor.h"
#include "opapi/elementwise.h"
#include "opapi/elementwise_entry.h"
#include "opapi/op_launcher.h"

namespace npusim::opapi {

namespace {

double add(double a, double b, double alpha, double) { return a + alpha * b; }
double sub(double a, double b, double alpha, double) { return a - alpha * b; }
double mul(double a, double b, double, double) { return a * b; }
double divide(double a, double b, double, double) { return a / b; }

constexpr KernelChoice kAxpy{Kernel::Axpy, 2};
using P = Promotion;
using F = OpFamily;

OPAPI_ELEMENTWISE(kAdd, "aclnnAdd", F::Binary, {Kernel::Add, 1}, kAllTypes, P::Common, add);
OPAPI_ELEMENTWISE(kAdds, "aclnnAdds", F::Binary, {Kernel::Add, 1}, kAllTypes, P::Common, add);
OPAPI_ELEMENTWISE(kInplaceAdd, "aclnnInplaceAdd", F::Binary, {Kernel::Add, 1}, kAllTypes, P::Common, add);
OPAPI_ELEMENTWISE(kInplaceAdds, "aclnnInplaceAdds", F::Binary, {Kernel::Add, 1}, kAllTypes, P::Common, add);
OPAPI_ELEMENTWISE(kSub, "aclnnSub", F::Binary, {Kernel::Sub, 1}, kNumericTypes, P::Common, sub);
OPAPI_ELEMENTWISE(kSubs, "aclnnSubs", F::Binary, {Kernel::Add, 1}, kNumericTypes, P::Common, sub);
OPAPI_ELEMENTWISE(kMul, "aclnnMul", F::Binary, {Kernel::Mul, 1}, kAllTypes, P::Common, mul);
OPAPI_ELEMENTWISE(kMuls, "aclnnMuls", F::Binary, {Kernel::Muls, 1}, kAllTypes, P::Common, mul);
OPAPI_ELEMENTWISE(kInplaceMul, "aclnnInplaceMul", F::Binary, {Kernel::Mul, 1}, kAllTypes, P::Common, mul);
OPAPI_ELEMENTWISE(kInplaceMuls, "aclnnInplaceMuls", F::Binary, {Kernel::Muls, 1}, kAllTypes, P::Common, mul);
OPAPI_ELEMENTWISE(kDiv, "aclnnDiv", F::Binary, {Kernel::RealDiv, 1}, kAllTypes, P::ToFloat, divide);
OPAPI_ELEMENTWISE(kDivs, "aclnnDivs", F::Binary, {Kernel::RealDiv, 1}, kAllTypes, P::ToFloat, divide);
OPAPI_ELEMENTWISE(kInplaceDiv, "aclnnInplaceDiv", F::Binary, {Kernel::RealDiv, 1}, kFloatTypes, P::ToFloat, divide);
OPAPI_ELEMENTWISE(kInplaceDivs, "aclnnInplaceDivs", F::Binary, {Kernel::RealDiv, 1}, kFloatTypes, P::ToFloat, divide);
OPAPI_ELEMENTWISE(kInplaceSub, "aclnnInplaceSub", F::Binary, {Kernel::Sub, 1}, kNumericTypes, P::Common, sub);
OPAPI_ELEMENTWISE(kInplaceSubs, "aclnnInplaceSubs", F::Binary, {Kernel::Add, 1}, kNumericTypes, P::Common, sub);

// The Axpy kernel when alpha is not 1 (alpha NULL is left to the primitive's null check).
std::optional<KernelChoice> scaled(const aclScalar* alpha) {
    if (nn::valid(alpha) && alpha->value != 1.0) return kAxpy;
    return std::nullopt;
}

aclnnStatus with_alpha(const ElementwiseOp& op, const aclTensor* self, Operand other, const aclScalar* alpha,
                       const aclTensor* out, uint64_t* ws, aclOpExecutor** ex) {
    return prepare_elementwise(op, {tensor_in("self", self), other, attribute("alpha", alpha)}, out, ws, ex,
                               scaled(alpha));
}

}  // namespace

}  // namespace npusim::opapi

using namespace npusim::opapi;

OPAPI_ELEMENTWISE_ENTRY(aclnnAdd,
                        (const aclTensor* self, const aclTensor* other, const aclScalar* alpha, aclTensor* out,
                         uint64_t* workspaceSize, aclOpExecutor** executor),
                        with_alpha(kAdd, self, tensor_in("other", other), alpha, out, workspaceSize, executor))

OPAPI_ELEMENTWISE_ENTRY(aclnnAdds,
                        (const aclTensor* self, const aclScalar* other, const aclScalar* alpha, aclTensor* out,
                         uint64_t* workspaceSize, aclOpExecutor** executor),
                        with_alpha(kAdds, self, scalar_in("other", other), alpha, out, workspaceSize, executor))

// CANN declares selfRef const (a handle of device memory the operator writes).
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceAdd,
                        (const aclTensor* selfRef, const aclTensor* other, const aclScalar* alpha,
                         uint64_t* workspaceSize, aclOpExecutor** executor),
                        with_alpha(kInplaceAdd, selfRef, tensor_in("other", other), alpha, selfRef, workspaceSize,
                                   executor))

OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceAdds,
                        (const aclTensor* selfRef, const aclScalar* other, const aclScalar* alpha,
                         uint64_t* workspaceSize, aclOpExecutor** executor),
                        with_alpha(kInplaceAdds, selfRef, scalar_in("other", other), alpha, selfRef, workspaceSize,
                                   executor))

OPAPI_ELEMENTWISE_ENTRY(aclnnSub,
                        (const aclTensor* self, const aclTensor* other, const aclScalar* alpha, aclTensor* out,
                         uint64_t* workspaceSize, aclOpExecutor** executor),
                        with_alpha(kSub, self, tensor_in("other", other), alpha, out, workspaceSize, executor))

OPAPI_ELEMENTWISE_ENTRY(aclnnSubs,
                        (const aclTensor* self, const aclScalar* other, const aclScalar* alpha, aclTensor* out,
                         uint64_t* workspaceSize, aclOpExecutor** executor),
                        with_alpha(kSubs, self, scalar_in("other", other), alpha, out, workspaceSize, executor))

OPAPI_ELEMENTWISE_ENTRY(aclnnMul,
                        (const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kMul, {tensor_in("self", self), tensor_in("other", other)}, out,
                                            workspaceSize, executor))

OPAPI_ELEMENTWISE_ENTRY(aclnnMuls,
                        (const aclTensor* self, const aclScalar* other, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kMuls, {tensor_in("self", self), scalar_in("other", other)}, out,
                                            workspaceSize, executor))

OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceMul,
                        (aclTensor * selfRef, const aclTensor* other, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kInplaceMul, {tensor_in("selfRef", selfRef), tensor_in("other", other)},
                                            selfRef, workspaceSize, executor))

OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceMuls,
                        (aclTensor * selfRef, const aclScalar* other, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kInplaceMuls, {tensor_in("selfRef", selfRef), scalar_in("other", other)},
                                            selfRef, workspaceSize, executor))

OPAPI_ELEMENTWISE_ENTRY(aclnnDiv,
                        (const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kDiv, {tensor_in("self", self), tensor_in("other", other)}, out,
                                            workspaceSize, executor))

OPAPI_ELEMENTWISE_ENTRY(aclnnDivs,
                        (const aclTensor* self, const aclScalar* other, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kDivs, {tensor_in("self", self), scalar_in("other", other)}, out,
                                            workspaceSize, executor))

OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceDiv,
                        (aclTensor * selfRef, const aclTensor* other, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kInplaceDiv, {tensor_in("selfRef", selfRef), tensor_in("other", other)},
                                            selfRef, workspaceSize, executor))

OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceDivs,
                        (aclTensor * selfRef, const aclScalar* other, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kInplaceDivs, {tensor_in("selfRef", selfRef), scalar_in("other", other)},
                                            selfRef, workspaceSize, executor))

OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceSub,
                        (aclTensor * selfRef, const aclTensor* other, const aclScalar* alpha, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        with_alpha(kInplaceSub, selfRef, tensor_in("other", other), alpha, selfRef, workspaceSize,
                                   executor))

OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceSubs,
                        (aclTensor * selfRef, const aclScalar* other, const aclScalar* alpha, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        with_alpha(kInplaceSubs, selfRef, scalar_in("other", other), alpha, selfRef, workspaceSize,
                                   executor))
