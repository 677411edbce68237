// aclnnInplaceZero: one ZerosLike kernel that writes zeros over the tensor.
#include <memory>

#include "aclnnop/aclnn_zero.h"
#include "core/fault_plan.h"
#include "nnopbase/dtype.h"
#include "nnopbase/tensor.h"
#include "opapi/checks.h"
#include "opapi/op_launcher.h"

namespace npusim::opapi {

namespace {

aclnnStatus prepare_zero(const char* api, aclTensor* self, uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPAPI_CHECK(check_not_null(api, {self, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "selfRef", self));
    const TensorView y = view_of(self);
    OPAPI_CHECK(check_float_type(api, "selfRef", y.dtype));
    OPAPI_CHECK(check_rank(api, "selfRef", y.dims, 0, nn::kMaxDims));
    const int64_t n = y.numel();
    std::vector<KernelLaunch> launches;
    launches.push_back({Kernel::ZerosLike, y.dtype, vector_cost(0.0, double(y.bytes()), n, 4096)});
    auto compute = [y, n]() { write_floats(y, std::vector<float>(static_cast<size_t>(n), 0.0f)); };
    return hand_over(std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{y.data}),
                     workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnInplaceZeroGetWorkspaceSize(aclTensor* selfRef, uint64_t* workspaceSize,
                                                             aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnInplaceZeroGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_zero("aclnnInplaceZero", selfRef, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnInplaceZero)
