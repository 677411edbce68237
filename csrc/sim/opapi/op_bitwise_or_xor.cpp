// aclnnBitwiseOr/Xor Scalar/Tensor (and in place): self | other, self ^ other on the element-wise
// primitive (opapi/elementwise.h), bitwise for integers, logical for bool, torch's result type;
// kernels BitwiseOr, BitwiseXor. aclnnLogicalXor: (self != 0) xor (other != 0), the truth value
// to an out of any type (kernel NotEqual, as CANN's).
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "aclnnop/aclnn_bitwise_or_scalar.h"
#include "aclnnop/aclnn_bitwise_or_tensor.h"
#include "aclnnop/aclnn_bitwise_xor_scalar.h"
#include "aclnnop/aclnn_bitwise_xor_tensor.h"
#include "aclnnop/aclnn_logical_xor.h"
#include "opapi/elementwise_entry.h"

namespace npusim::opapi {

namespace {

double bitwise_or(double a, double b, double, double) {
    return static_cast<double>(static_cast<int64_t>(a) | static_cast<int64_t>(b));
}
double bitwise_xor(double a, double b, double, double) {
    return static_cast<double>(static_cast<int64_t>(a) ^ static_cast<int64_t>(b));
}
double logical_xor(double a, double b, double, double) { return double((a != 0.0) != (b != 0.0)); }

using P = Promotion;
using F = OpFamily;
constexpr DTypeSet kBitwiseTypes = kIntegerTypes | DTypeSet{ACL_BOOL};

OPAPI_ELEMENTWISE(kBitwiseOrScalar, "aclnnBitwiseOrScalar", F::Binary, {Kernel::BitwiseOr, 1}, kBitwiseTypes, P::Common,
                  bitwise_or);
OPAPI_ELEMENTWISE(kInplaceBitwiseOrScalar, "aclnnInplaceBitwiseOrScalar", F::Binary, {Kernel::BitwiseOr, 1},
                  kBitwiseTypes, P::Common, bitwise_or);
OPAPI_ELEMENTWISE(kBitwiseOrTensor, "aclnnBitwiseOrTensor", F::Binary, {Kernel::BitwiseOr, 1}, kBitwiseTypes, P::Common,
                  bitwise_or);
OPAPI_ELEMENTWISE(kInplaceBitwiseOrTensor, "aclnnInplaceBitwiseOrTensor", F::Binary, {Kernel::BitwiseOr, 1},
                  kBitwiseTypes, P::Common, bitwise_or);
OPAPI_ELEMENTWISE(kBitwiseXorScalar, "aclnnBitwiseXorScalar", F::Binary, {Kernel::BitwiseXor, 1}, kBitwiseTypes,
                  P::Common, bitwise_xor);
OPAPI_ELEMENTWISE(kInplaceBitwiseXorScalar, "aclnnInplaceBitwiseXorScalar", F::Binary, {Kernel::BitwiseXor, 1},
                  kBitwiseTypes, P::Common, bitwise_xor);
OPAPI_ELEMENTWISE(kBitwiseXorTensor, "aclnnBitwiseXorTensor", F::Binary, {Kernel::BitwiseXor, 1}, kBitwiseTypes,
                  P::Common, bitwise_xor);
OPAPI_ELEMENTWISE(kInplaceBitwiseXorTensor, "aclnnInplaceBitwiseXorTensor", F::Binary, {Kernel::BitwiseXor, 1},
                  kBitwiseTypes, P::Common, bitwise_xor);
OPAPI_ELEMENTWISE(kLogicalXor, "aclnnLogicalXor", F::Binary, {Kernel::NotEqual, 1}, kAllTypes, P::Predicate,
                  logical_xor);

}  // namespace

}  // namespace npusim::opapi

OPAPI_ELEMENTWISE_ENTRY(aclnnBitwiseOrScalar,
                        (const aclTensor* self, const aclScalar* other, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kBitwiseOrScalar, {tensor_in("self", self), scalar_in("other", other)}, out,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceBitwiseOrScalar,
                        (aclTensor * selfRef, const aclScalar* other, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kInplaceBitwiseOrScalar,
                                            {tensor_in("selfRef", selfRef), scalar_in("other", other)}, selfRef,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnBitwiseOrTensor,
                        (const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kBitwiseOrTensor, {tensor_in("self", self), tensor_in("other", other)}, out,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceBitwiseOrTensor,
                        (aclTensor * selfRef, const aclTensor* other, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kInplaceBitwiseOrTensor,
                                            {tensor_in("selfRef", selfRef), tensor_in("other", other)}, selfRef,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnBitwiseXorScalar,
                        (const aclTensor* self, const aclScalar* other, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kBitwiseXorScalar, {tensor_in("self", self), scalar_in("other", other)},
                                            out, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceBitwiseXorScalar,
                        (aclTensor * selfRef, const aclScalar* other, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kInplaceBitwiseXorScalar,
                                            {tensor_in("selfRef", selfRef), scalar_in("other", other)}, selfRef,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnBitwiseXorTensor,
                        (const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kBitwiseXorTensor, {tensor_in("self", self), tensor_in("other", other)},
                                            out, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceBitwiseXorTensor,
                        (aclTensor * selfRef, const aclTensor* other, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kInplaceBitwiseXorTensor,
                                            {tensor_in("selfRef", selfRef), tensor_in("other", other)}, selfRef,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnLogicalXor,
                        (const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kLogicalXor, {tensor_in("self", self), tensor_in("other", other)}, out,
                                            workspaceSize, executor))
