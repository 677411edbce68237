// aclnnBitwiseAndScalar / aclnnInplaceBitwiseAndScalar and aclnnBitwiseAndTensor /
// aclnnInplaceBitwiseAndTensor: self & other (a scalar or a tensor, broadcast) on the element-wise
// primitive (opapi/elementwise.h): bitwise for integers, logical for bool (torch's `mask & True` and
// `mask & mask`, e.g. the attention masks Hugging Face models combine). Integer and bool types,
// torch's result type of the operands; one BitwiseAnd kernel.
#include <cstdint>

#include "aclnnop/aclnn_bitwise_and_scalar.h"
#include "aclnnop/aclnn_bitwise_and_tensor.h"
#include "opapi/elementwise_entry.h"

namespace npusim::opapi {

namespace {

double bitwise_and(double a, double b, double, double) {
    return static_cast<double>(static_cast<int64_t>(a) & static_cast<int64_t>(b));
}

constexpr DTypeSet kBitwiseTypes = kIntegerTypes | DTypeSet{ACL_BOOL};
OPAPI_ELEMENTWISE(kAndScalar, "aclnnBitwiseAndScalar", OpFamily::Binary, {Kernel::BitwiseAnd, 1}, kBitwiseTypes,
                  Promotion::Common, bitwise_and);
OPAPI_ELEMENTWISE(kInplaceAndScalar, "aclnnInplaceBitwiseAndScalar", OpFamily::Binary, {Kernel::BitwiseAnd, 1},
                  kBitwiseTypes, Promotion::Common, bitwise_and);
OPAPI_ELEMENTWISE(kAndTensor, "aclnnBitwiseAndTensor", OpFamily::Binary, {Kernel::BitwiseAnd, 1}, kBitwiseTypes,
                  Promotion::Common, bitwise_and);
OPAPI_ELEMENTWISE(kInplaceAndTensor, "aclnnInplaceBitwiseAndTensor", OpFamily::Binary, {Kernel::BitwiseAnd, 1},
                  kBitwiseTypes, Promotion::Common, bitwise_and);

}  // namespace

}  // namespace npusim::opapi

OPAPI_ELEMENTWISE_ENTRY(aclnnBitwiseAndScalar,
                        (const aclTensor* self, const aclScalar* other, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kAndScalar, {tensor_in("self", self), scalar_in("other", other)}, out,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceBitwiseAndScalar,
                        (const aclTensor* selfRef, const aclScalar* other, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kInplaceAndScalar,
                                            {tensor_in("selfRef", selfRef), scalar_in("other", other)}, selfRef,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnBitwiseAndTensor,
                        (const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kAndTensor, {tensor_in("self", self), tensor_in("other", other)}, out,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceBitwiseAndTensor,
                        (const aclTensor* selfRef, const aclTensor* other, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kInplaceAndTensor,
                                            {tensor_in("selfRef", selfRef), tensor_in("other", other)}, selfRef,
                                            workspaceSize, executor))
