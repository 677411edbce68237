// Division remainders and quotients on the element-wise primitive (opapi/elementwise.h), as torch's
// CPU kernels compute them (torch's result type; a tensor or a scalar divisor):
//   aclnnFmod*: fmod(a, b), the sign of a (kernel Mod);
//   aclnnRemainder*: fmod(a, b) + b where that is non-zero and its sign differs from b's, the sign
//     of b (python's %; kernel FloorMod);
//   aclnnFloorDivide(s): (a - fmod(a, b)) / b, one less where the remainder's sign differs from b's,
//     floored and rounded to the nearer integer (torch's div_floor; kernel FloorDiv);
//   aclnnFrac: a - trunc(a).
// An integer division by 0 stores 0 (the primitive stores a non-finite result in an integer type
// as 0; torch's CPU kernel raises instead).
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "aclnnop/aclnn_floor_divide.h"
#include "aclnnop/aclnn_fmod_scalar.h"
#include "aclnnop/aclnn_fmod_tensor.h"
#include "aclnnop/aclnn_frac.h"
#include "aclnnop/aclnn_remainder.h"
#include "opapi/elementwise_entry.h"

namespace npusim::opapi {

namespace {

double frac_(double a, double, double, double) { return a - std::trunc(a); }
double fmod_(double a, double b, double, double) { return std::fmod(a, b); }
double remainder_(double a, double b, double, double) {
    double r = std::fmod(a, b);
    if (r != 0.0 && (r < 0.0) != (b < 0.0)) r += b;
    return r;
}
double floor_divide(double a, double b, double, double) {
    if (b == 0.0) return a / b;
    const double r = std::fmod(a, b);
    double q = (a - r) / b;
    if (r != 0.0 && (b < 0.0) != (r < 0.0)) q -= 1.0;
    if (q == 0.0) return std::copysign(0.0, a / b);
    const double f = std::floor(q);
    return q - f > 0.5 ? f + 1.0 : f;
}

using P = Promotion;
using F = OpFamily;

OPAPI_ELEMENTWISE(kFrac, "aclnnFrac", F::Unary, {Kernel::Sub, 2}, kNumericTypes, P::Common, frac_);
OPAPI_ELEMENTWISE(kInplaceFrac, "aclnnInplaceFrac", F::Unary, {Kernel::Sub, 2}, kNumericTypes, P::Common, frac_);
OPAPI_ELEMENTWISE(kFmodScalar, "aclnnFmodScalar", F::Binary, {Kernel::Mod, 2}, kNumericTypes, P::Common, fmod_);
OPAPI_ELEMENTWISE(kInplaceFmodScalar, "aclnnInplaceFmodScalar", F::Binary, {Kernel::Mod, 2}, kNumericTypes, P::Common,
                  fmod_);
OPAPI_ELEMENTWISE(kFmodTensor, "aclnnFmodTensor", F::Binary, {Kernel::Mod, 2}, kNumericTypes, P::Common, fmod_);
OPAPI_ELEMENTWISE(kInplaceFmodTensor, "aclnnInplaceFmodTensor", F::Binary, {Kernel::Mod, 2}, kNumericTypes, P::Common,
                  fmod_);
OPAPI_ELEMENTWISE(kRemainderTensorTensor, "aclnnRemainderTensorTensor", F::Binary, {Kernel::FloorMod, 3}, kNumericTypes,
                  P::Common, remainder_);
OPAPI_ELEMENTWISE(kRemainderTensorScalar, "aclnnRemainderTensorScalar", F::Binary, {Kernel::FloorMod, 3}, kNumericTypes,
                  P::Common, remainder_);
OPAPI_ELEMENTWISE(kRemainderScalarTensor, "aclnnRemainderScalarTensor", F::Binary, {Kernel::FloorMod, 3}, kNumericTypes,
                  P::Common, remainder_);
OPAPI_ELEMENTWISE(kInplaceRemainderTensorTensor, "aclnnInplaceRemainderTensorTensor", F::Binary, {Kernel::FloorMod, 3},
                  kNumericTypes, P::Common, remainder_);
OPAPI_ELEMENTWISE(kInplaceRemainderTensorScalar, "aclnnInplaceRemainderTensorScalar", F::Binary, {Kernel::FloorMod, 3},
                  kNumericTypes, P::Common, remainder_);
OPAPI_ELEMENTWISE(kFloorDivide, "aclnnFloorDivide", F::Binary, {Kernel::FloorDiv, 2}, kNumericTypes, P::Common,
                  floor_divide);
OPAPI_ELEMENTWISE(kFloorDivides, "aclnnFloorDivides", F::Binary, {Kernel::FloorDiv, 2}, kNumericTypes, P::Common,
                  floor_divide);
OPAPI_ELEMENTWISE(kInplaceFloorDivide, "aclnnInplaceFloorDivide", F::Binary, {Kernel::FloorDiv, 2}, kNumericTypes,
                  P::Common, floor_divide);
OPAPI_ELEMENTWISE(kInplaceFloorDivides, "aclnnInplaceFloorDivides", F::Binary, {Kernel::FloorDiv, 2}, kNumericTypes,
                  P::Common, floor_divide);

}  // namespace

}  // namespace npusim::opapi

OPAPI_ELEMENTWISE_ENTRY(aclnnFrac,
                        (const aclTensor* input, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kFrac, {tensor_in("input", input)}, out, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceFrac, (aclTensor * inputRef, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kInplaceFrac, {tensor_in("inputRef", inputRef)}, inputRef, workspaceSize,
                                            executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnFmodScalar,
                        (const aclTensor* self, const aclScalar* other, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kFmodScalar, {tensor_in("self", self), scalar_in("other", other)}, out,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceFmodScalar,
                        (aclTensor * selfRef, const aclScalar* other, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kInplaceFmodScalar,
                                            {tensor_in("selfRef", selfRef), scalar_in("other", other)}, selfRef,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnFmodTensor,
                        (const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kFmodTensor, {tensor_in("self", self), tensor_in("other", other)}, out,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceFmodTensor,
                        (aclTensor * selfRef, const aclTensor* other, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kInplaceFmodTensor,
                                            {tensor_in("selfRef", selfRef), tensor_in("other", other)}, selfRef,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnRemainderTensorTensor,
                        (const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kRemainderTensorTensor,
                                            {tensor_in("self", self), tensor_in("other", other)}, out, workspaceSize,
                                            executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnRemainderTensorScalar,
                        (const aclTensor* self, const aclScalar* other, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kRemainderTensorScalar,
                                            {tensor_in("self", self), scalar_in("other", other)}, out, workspaceSize,
                                            executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnRemainderScalarTensor,
                        (const aclScalar* self, const aclTensor* other, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kRemainderScalarTensor,
                                            {scalar_in("self", self), tensor_in("other", other)}, out, workspaceSize,
                                            executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceRemainderTensorTensor,
                        (aclTensor * selfRef, const aclTensor* other, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kInplaceRemainderTensorTensor,
                                            {tensor_in("selfRef", selfRef), tensor_in("other", other)}, selfRef,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceRemainderTensorScalar,
                        (aclTensor * selfRef, const aclScalar* other, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kInplaceRemainderTensorScalar,
                                            {tensor_in("selfRef", selfRef), scalar_in("other", other)}, selfRef,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnFloorDivide,
                        (const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kFloorDivide, {tensor_in("self", self), tensor_in("other", other)}, out,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnFloorDivides,
                        (const aclTensor* self, const aclScalar* other, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kFloorDivides, {tensor_in("self", self), scalar_in("other", other)}, out,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceFloorDivide,
                        (aclTensor * selfRef, const aclTensor* other, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kInplaceFloorDivide,
                                            {tensor_in("selfRef", selfRef), tensor_in("other", other)}, selfRef,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceFloorDivides,
                        (aclTensor * selfRef, const aclScalar* other, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kInplaceFloorDivides,
                                            {tensor_in("selfRef", selfRef), scalar_in("other", other)}, selfRef,
                                            workspaceSize, executor))
