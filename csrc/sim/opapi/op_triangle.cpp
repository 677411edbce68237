// aclnnTriu / aclnnInplaceTriu and aclnnTril / aclnnInplaceTril: the upper (j - i >= diagonal) or
// lower (j - i <= diagonal) triangle of the last two dimensions, zeros elsewhere (torch's triu / tril,
// e.g. the causal mask torch_npu builds for scaled_dot_product_attention). Every data type; out has
// self's shape and type; one Triu / Tril kernel.
#include <memory>

#include "aclnnop/aclnn_tril.h"
#include "aclnnop/aclnn_triu.h"
#include "core/fault_plan.h"
#include "nnopbase/dtype.h"
#include "nnopbase/tensor.h"
#include "opapi/checks.h"
#include "opapi/op_launcher.h"
#include "opapi/registry.h"

namespace npusim::opapi {

namespace {

[[maybe_unused]] const bool kRegistered = register_op({"aclnnTriu", OpFamily::Index, kAllTypes, Kernel::Triu}) &&
                                          register_op({"aclnnInplaceTriu", OpFamily::Index, kAllTypes, Kernel::Triu}) &&
                                          register_op({"aclnnTril", OpFamily::Index, kAllTypes, Kernel::Tril}) &&
                                          register_op({"aclnnInplaceTril", OpFamily::Index, kAllTypes, Kernel::Tril});

aclnnStatus prepare(const char* api, bool upper, const aclTensor* self, int64_t diagonal, const aclTensor* out,
                    uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPAPI_CHECK(check_not_null(api, {self, out, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "out", out));
    const TensorView x = view_of(self), y = view_of(out);
    if (!kAllTypes.has(x.dtype)) {
        return invalid(api, "self has data type %s; %s expected", nn::dtype_name(x.dtype), kAllTypes.text().c_str());
    }
    OPAPI_CHECK(check_same_dtype(api, "out", y.dtype, x.dtype));
    OPAPI_CHECK(check_rank(api, "self", x.dims, 2, nn::kMaxDims));
    OPAPI_CHECK(check_same_dims(api, "out", y.dims, x.dims));
    const int64_t n = x.numel();
    std::vector<KernelLaunch> launches{
        {upper ? Kernel::Triu : Kernel::Tril, x.dtype, vector_cost(double(n), double(x.bytes() + y.bytes()), n, 4096)}};
    auto compute = [x, y, upper, diagonal]() {
        std::vector<double> v = read_doubles(x);
        const int64_t rows = x.dims[x.rank() - 2], cols = x.dims[x.rank() - 1];
        for (size_t k = 0; k < v.size(); ++k) {
            const int64_t j = static_cast<int64_t>(k) % cols, i = static_cast<int64_t>(k) / cols % rows;
            const bool keep = upper ? j - i >= diagonal : j - i <= diagonal;
            if (!keep) v[k] = 0.0;
        }
        write_doubles(y, v);
    };
    return hand_over(
        std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{x.data, y.data}),
        workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

using npusim::opapi::prepare;

NPUSIM_C_EXPORT aclnnStatus aclnnTriuGetWorkspaceSize(const aclTensor* self, int64_t diagonal, aclTensor* out,
                                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnTriuGetWorkspaceSize", aclnnStatus);
    return prepare("aclnnTriu", true, self, diagonal, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnTriu)

NPUSIM_C_EXPORT aclnnStatus aclnnInplaceTriuGetWorkspaceSize(aclTensor* selfRef, int64_t diagonal,
                                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnInplaceTriuGetWorkspaceSize", aclnnStatus);
    return prepare("aclnnInplaceTriu", true, selfRef, diagonal, selfRef, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnInplaceTriu)

NPUSIM_C_EXPORT aclnnStatus aclnnTrilGetWorkspaceSize(const aclTensor* self, int64_t diagonal, aclTensor* out,
                                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnTrilGetWorkspaceSize", aclnnStatus);
    return prepare("aclnnTril", false, self, diagonal, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnTril)

// CANN declares selfRef const (a handle of device memory the operator writes).
NPUSIM_C_EXPORT aclnnStatus aclnnInplaceTrilGetWorkspaceSize(const aclTensor* selfRef, int64_t diagonal,
                                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnInplaceTrilGetWorkspaceSize", aclnnStatus);
    return prepare("aclnnInplaceTril", false, selfRef, diagonal, selfRef, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnInplaceTril)
