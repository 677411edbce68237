// aclnnPermute (out.dim(i) = self.dim(dims[i])) and aclnnTranspose (this
// simulator's convenience: a permute swapping two dimensions). Any supported data
// type; values are copied exactly. Both launch the Transpose kernel.
#include <memory>

#include "aclnnop/aclnn_permute.h"
#include "aclnnop/aclnn_transpose.h"
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
    register_op({"aclnnPermute", OpFamily::Layout, kAllTypes | DTypeSet{ACL_DOUBLE, ACL_UINT16, ACL_UINT32, ACL_UINT64},
                 Kernel::Transpose}) &&
    register_op({"aclnnTranspose", OpFamily::Layout,
                 kAllTypes | DTypeSet{ACL_DOUBLE, ACL_UINT16, ACL_UINT32, ACL_UINT64}, Kernel::Transpose});

aclnnStatus prepare(const char* api, const aclTensor* self, const Dims& order, aclTensor* out, uint64_t* workspaceSize,
                    aclOpExecutor** executor) {
    const TensorView x = view_of(self), y = view_of(out);
    if (nn::dtype_size(x.dtype) == 0) return invalid(api, "self has an unsupported data type");
    OPAPI_CHECK(check_same_dtype(api, "out", y.dtype, x.dtype));
    OPAPI_CHECK(check_rank(api, "self", x.dims, 0, nn::kMaxDims));
    if (order.size() != x.rank()) return invalid(api, "%zu dims given for %zu dimensions", order.size(), x.rank());
    std::vector<size_t> perm(order.size());
    std::vector<bool> seen(order.size(), false);
    for (size_t i = 0; i < order.size(); ++i) {
        if (!normalize_dim(order[i], x.rank(), perm[i]) || seen[perm[i]])
            return invalid(api, "dims %s is not a permutation", dims_text(order).c_str());
        seen[perm[i]] = true;
    }
    // The input seen through the permutation: dims and strides reordered.
    TensorView permuted = x;
    for (size_t i = 0; i < perm.size(); ++i) {
        permuted.dims[i] = x.dims[perm[i]];
        permuted.strides[i] = x.strides[perm[i]];
    }
    OPAPI_CHECK(check_same_dims(api, "out", y.dims, permuted.dims));
    const int64_t n = x.numel();
    std::vector<KernelLaunch> launches{
        {Kernel::Transpose, x.dtype, vector_cost(0, double(x.bytes() + y.bytes()), n, 4096)}};
    auto compute = [permuted, y]() { write_doubles(y, read_doubles(permuted)); };
    return hand_over(
        std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{x.data, y.data}),
        workspaceSize, executor);
}

aclnnStatus prepare_permute(const aclTensor* self, const aclIntArray* dims, aclTensor* out, uint64_t* workspaceSize,
                            aclOpExecutor** executor) {
    const char* api = "aclnnPermute";
    OPAPI_CHECK(check_not_null(api, {self, dims, out, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "out", out));
    if (!nn::valid(dims)) return invalid(api, "dims is not a live aclIntArray");
    return prepare(api, self, dims->values, out, workspaceSize, executor);
}

aclnnStatus prepare_transpose(const aclTensor* self, int64_t dim0, int64_t dim1, aclTensor* out,
                              uint64_t* workspaceSize, aclOpExecutor** executor) {
    const char* api = "aclnnTranspose";
    OPAPI_CHECK(check_not_null(api, {self, out, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "out", out));
    const size_t rank = self->view.size();
    size_t a = 0, b = 0;
    if (!normalize_dim(dim0, rank, a) || !normalize_dim(dim1, rank, b)) {
        return invalid(api, "dims %lld, %lld are out of range for %zu dimensions", (long long)dim0, (long long)dim1,
                       rank);
    }
    Dims order(rank);
    for (size_t i = 0; i < rank; ++i) order[i] = static_cast<int64_t>(i);
    std::swap(order[a], order[b]);
    return prepare(api, self, order, out, workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnPermuteGetWorkspaceSize(const aclTensor* self, const aclIntArray* dims, aclTensor* out,
                                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnPermuteGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_permute(self, dims, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnPermute)

NPUSIM_C_EXPORT aclnnStatus aclnnTransposeGetWorkspaceSize(const aclTensor* self, int64_t dim0, int64_t dim1,
                                                           aclTensor* out, uint64_t* workspaceSize,
                                                           aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnTransposeGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_transpose(self, dim0, dim1, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnTranspose)
