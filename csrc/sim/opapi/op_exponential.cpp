// Exponentials on the element-wise primitive (opapi/elementwise.h): aclnnExp2 (2 ** x; integer
// and bool tensors as float32; kernel Pow), aclnnPowTensorTensor (self ** exponent, broadcast,
// torch's result type; kernel Pow), aclnnLogAddExp and aclnnLogAddExp2 (log(e^a + e^b) and
// log2(2^a + 2^b) from the larger argument, so that neither overflows; equal infinities give
// themselves; kernel LogAddExp).
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "aclnnop/aclnn_exp2.h"
#include "aclnnop/aclnn_logaddexp.h"
#include "aclnnop/aclnn_logaddexp2.h"
#include "aclnnop/aclnn_pow_tensor_tensor.h"
#include "opapi/elementwise_entry.h"

namespace npusim::opapi {

namespace {

double exp2_(double a, double, double, double) { return std::exp2(a); }
double logaddexp_(double a, double b, double, double) {
    if (a == b && std::isinf(a)) return a;
    return std::max(a, b) + std::log1p(std::exp(-std::fabs(a - b)));
}
double logaddexp2_(double a, double b, double, double) {
    if (a == b && std::isinf(a)) return a;
    return std::max(a, b) + std::log1p(std::exp2(-std::fabs(a - b))) / std::log(2.0);
}
double pow_(double a, double b, double, double) { return std::pow(a, b); }

using P = Promotion;
using F = OpFamily;

OPAPI_ELEMENTWISE(kExp2, "aclnnExp2", F::Unary, {Kernel::Pow, 4}, kAllTypes, P::ToFloat, exp2_);
OPAPI_ELEMENTWISE(kInplaceExp2, "aclnnInplaceExp2", F::Unary, {Kernel::Pow, 4}, kFloatTypes, P::Common, exp2_);
OPAPI_ELEMENTWISE(kLogAddExp, "aclnnLogAddExp", F::Binary, {Kernel::LogAddExp, 6}, kFloatTypes, P::Common, logaddexp_);
OPAPI_ELEMENTWISE(kLogAddExp2, "aclnnLogAddExp2", F::Binary, {Kernel::LogAddExp, 6}, kFloatTypes, P::Common,
                  logaddexp2_);
OPAPI_ELEMENTWISE(kPowTensorTensor, "aclnnPowTensorTensor", F::Binary, {Kernel::Pow, 4}, kNumericTypes, P::Common,
                  pow_);
OPAPI_ELEMENTWISE(kInplacePowTensorTensor, "aclnnInplacePowTensorTensor", F::Binary, {Kernel::Pow, 4}, kNumericTypes,
                  P::Common, pow_);

}  // namespace

}  // namespace npusim::opapi

OPAPI_ELEMENTWISE_ENTRY(aclnnExp2,
                        (const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kExp2, {tensor_in("self", self)}, out, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceExp2, (aclTensor * selfRef, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kInplaceExp2, {tensor_in("selfRef", selfRef)}, selfRef, workspaceSize,
                                            executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnLogAddExp,
                        (const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kLogAddExp, {tensor_in("self", self), tensor_in("other", other)}, out,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnLogAddExp2,
                        (const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kLogAddExp2, {tensor_in("self", self), tensor_in("other", other)}, out,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnPowTensorTensor,
                        (const aclTensor* self, const aclTensor* exponent, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kPowTensorTensor,
                                            {tensor_in("self", self), tensor_in("exponent", exponent)}, out,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplacePowTensorTensor,
                        (const aclTensor* self, const aclTensor* exponent, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kInplacePowTensorTensor,
                                            {tensor_in("self", self), tensor_in("exponent", exponent)}, self,
                                            workspaceSize, executor))
