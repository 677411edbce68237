// aclnnInplaceZero: one ZerosLike kernel that writes zeros over the tensor.
// aclnnInplaceFillScalar: one Fill kernel that writes a scalar value over the tensor.
// aclnnInplaceOne: the same with the value 1 (torch's ones_like / fill_(1), e.g. a loss's seed gradient).
#include <memory>

#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_zero.h"
#include "core/fault_plan.h"
#include "nnopbase/dtype.h"
#include "nnopbase/tensor.h"
#include "opapi/checks.h"
#include "opapi/op_launcher.h"

namespace npusim::opapi {

namespace {

// value == nullptr: `constant` (0 for aclnnInplaceZero, 1 for aclnnInplaceOne); otherwise value's
// number (aclnnInplaceFillScalar).
aclnnStatus prepare_fill(const char* api, aclTensor* self, const aclScalar* value, uint64_t* workspaceSize,
                         aclOpExecutor** executor, float constant = 0.0f) {
    OPAPI_CHECK(check_not_null(api, {self, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "selfRef", self));
    if (value != nullptr && !nn::valid(value)) return invalid(api, "value is not a live aclScalar");
    const TensorView y = view_of(self);
    OPAPI_CHECK(check_float_type(api, "selfRef", y.dtype));
    OPAPI_CHECK(check_rank(api, "selfRef", y.dims, 0, nn::kMaxDims));
    const int64_t n = y.numel();
    std::vector<KernelLaunch> launches;
    const Kernel kernel = value == nullptr && constant == 0.0f ? Kernel::ZerosLike : Kernel::Fill;
    launches.push_back({kernel, y.dtype, vector_cost(0.0, double(y.bytes()), n, 4096)});
    const float fill = value == nullptr ? constant : round_to(y.dtype, static_cast<float>(value->value));
    auto compute = [y, n, fill]() { write_floats(y, std::vector<float>(static_cast<size_t>(n), fill)); };
    return hand_over(std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{y.data}),
                     workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnInplaceZeroGetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize,
                                                             aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnInplaceZeroGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_fill("aclnnInplaceZero", selfRef, nullptr, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnInplaceZero)

NPUSIM_C_EXPORT aclnnStatus aclnnInplaceFillScalarGetWorkspaceSize(aclTensor* selfRef, const aclScalar* value,
                                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnInplaceFillScalarGetWorkspaceSize", aclnnStatus);
    if (value == nullptr) return npusim::opapi::check_not_null("aclnnInplaceFillScalar", {value});
    return npusim::opapi::prepare_fill("aclnnInplaceFillScalar", selfRef, value, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnInplaceFillScalar)

NPUSIM_C_EXPORT aclnnStatus aclnnInplaceOneGetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize,
                                                            aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnInplaceOneGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_fill("aclnnInplaceOne", selfRef, nullptr, workspaceSize, executor, 1.0f);
}
OPAPI_DEFINE_RUN(aclnnInplaceOne)
