// aclnnCast (convert to a data type) and aclnnInplaceCopy (copy src into selfRef,
// broadcasting src and converting its type). Both go through doubles, so integer
// values up to 2^53 convert exactly; floats round to the target type.
#include <memory>

#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_copy.h"
#include "core/fault_plan.h"
#include "nnopbase/dtype.h"
#include "nnopbase/tensor.h"
#include "opapi/checks.h"
#include "opapi/op_launcher.h"
#include "opapi/registry.h"

namespace npusim::opapi {

namespace {

// Declared in the operator registry (hand-written: its own checks and compute).
[[maybe_unused]] const bool kRegistered =
    register_op({"aclnnCast", OpFamily::Layout, kAllTypes | DTypeSet{ACL_DOUBLE, ACL_UINT16, ACL_UINT32, ACL_UINT64},
                 Kernel::Cast}) &&
    register_op({"aclnnInplaceCopy", OpFamily::Layout,
                 kAllTypes | DTypeSet{ACL_DOUBLE, ACL_UINT16, ACL_UINT32, ACL_UINT64}, Kernel::ViewCopy});

aclnnStatus check_supported(const char* api, const char* what, aclDataType type) {
    if (nn::dtype_size(type) != 0) return ACLNN_SUCCESS;
    return invalid(api, "%s has an unsupported data type (%d)", what, static_cast<int>(type));
}

aclnnStatus prepare_cast(const aclTensor* self, aclDataType dtype, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor) {
    const char* api = "aclnnCast";
    OPAPI_CHECK(check_not_null(api, {self, out, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "out", out));
    const TensorView x = view_of(self), y = view_of(out);
    OPAPI_CHECK(check_supported(api, "self", x.dtype));
    OPAPI_CHECK(check_supported(api, "dtype", dtype));
    OPAPI_CHECK(check_same_dtype(api, "out", y.dtype, dtype));
    OPAPI_CHECK(check_rank(api, "self", x.dims, 0, nn::kMaxDims));
    OPAPI_CHECK(check_same_dims(api, "out", y.dims, x.dims));
    const int64_t n = x.numel();
    std::vector<KernelLaunch> launches{
        {Kernel::Cast, dtype, vector_cost(double(n), double(x.bytes() + y.bytes()), n, 4096)}};
    auto compute = [x, y]() { write_doubles(y, read_doubles(x)); };
    return hand_over(
        std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{x.data, y.data}),
        workspaceSize, executor);
}

aclnnStatus prepare_copy(aclTensor* selfRef, const aclTensor* src, uint64_t* workspaceSize, aclOpExecutor** executor) {
    const char* api = "aclnnInplaceCopy";
    OPAPI_CHECK(check_not_null(api, {selfRef, src, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "selfRef", selfRef));
    OPAPI_CHECK(check_tensor(api, "src", src));
    const TensorView dst = view_of(selfRef), s = view_of(src);
    OPAPI_CHECK(check_supported(api, "selfRef", dst.dtype));
    OPAPI_CHECK(check_supported(api, "src", s.dtype));
    OPAPI_CHECK(check_rank(api, "selfRef", dst.dims, 0, nn::kMaxDims));
    Dims shape;
    if (!broadcast_dims(s.dims, dst.dims, shape) || shape != dst.dims) {
        return invalid(api, "src %s does not broadcast to selfRef %s", dims_text(s.dims).c_str(),
                       dims_text(dst.dims).c_str());
    }
    const int64_t n = dst.numel();
    std::vector<KernelLaunch> launches;
    if (s.dtype != dst.dtype) {
        launches.push_back(
            {Kernel::Cast, dst.dtype,
             vector_cost(double(s.numel()), double(s.bytes()) + double(s.numel()) * double(nn::dtype_size(dst.dtype)),
                         s.numel(), 4096)});
    }
    launches.push_back({Kernel::ViewCopy, dst.dtype, vector_cost(double(n), 2.0 * double(dst.bytes()), n, 4096)});
    auto compute = [dst, s]() {
        if (!copy_same_type(s, dst)) write_doubles(dst, read_doubles(s, dst.dims));
    };
    return hand_over(
        std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{s.data, dst.data}),
        workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnCastGetWorkspaceSize(const aclTensor* self, const aclDataType dtype, aclTensor* out,
                                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnCastGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_cast(self, dtype, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnCast)

NPUSIM_C_EXPORT aclnnStatus aclnnInplaceCopyGetWorkspaceSize(aclTensor* selfRef, const aclTensor* src,
                                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnInplaceCopyGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_copy(selfRef, src, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnInplaceCopy)
