// aclnnCat: the tensors of a list joined along one dimension (torch.cat, and the backward pass of
// split / chunk). Every tensor has out's rank and out's sizes except along dim; the values are
// copied through doubles, so the types may differ (each converts to out's). One ConcatD kernel.
#include <algorithm>
#include <memory>

#include "aclnnop/aclnn_cat.h"
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
    register_op({"aclnnCat", OpFamily::Layout, kAllTypes | DTypeSet{ACL_DOUBLE, ACL_UINT16, ACL_UINT32, ACL_UINT64},
                 Kernel::ConcatD});

aclnnStatus prepare(const aclTensorList* tensors, int64_t dim, aclTensor* out, uint64_t* workspaceSize,
                    aclOpExecutor** executor) {
    const char* api = "aclnnCat";
    OPAPI_CHECK(check_not_null(api, {tensors, out, workspaceSize, executor}));
    if (tensors->magic != nn::kArrayMagic || tensors->tensors.empty()) {
        return invalid(api, "tensors is not a live, non-empty aclTensorList");
    }
    OPAPI_CHECK(check_tensor(api, "out", out));
    const TensorView y = view_of(out);
    OPAPI_CHECK(check_rank(api, "out", y.dims, 1, nn::kMaxDims));
    if (nn::dtype_size(y.dtype) == 0) return invalid(api, "out has an unsupported data type (%d)", int(y.dtype));
    size_t d = 0;
    if (!normalize_dim(dim, y.rank(), d))
        return invalid(api, "dim %lld is out of range for %zu dimensions", (long long)dim, y.rank());
    std::vector<TensorView> parts;
    int64_t along = 0;
    double bytes = double(y.bytes());
    for (const aclTensor* t : tensors->tensors) {
        OPAPI_CHECK(check_tensor(api, "tensors", t));
        TensorView v = view_of(t);
        if (nn::dtype_size(v.dtype) == 0)
            return invalid(api, "a tensor has an unsupported data type (%d)", int(v.dtype));
        Dims expected = y.dims;
        if (v.rank() == y.rank()) expected[d] = v.dims[d];
        OPAPI_CHECK(check_same_dims(api, "a tensor of the list", v.dims, expected));
        along += v.dims[d];
        bytes += double(v.bytes());
        parts.push_back(std::move(v));
    }
    if (along != y.dims[d])
        return invalid(api, "the tensors add up to %lld along dim %zu; out has %lld", (long long)along, d,
                       (long long)y.dims[d]);
    const int64_t n = y.numel();
    std::vector<KernelLaunch> launches{{Kernel::ConcatD, y.dtype, vector_cost(0.0, bytes, n, 4096)}};
    std::vector<void*> args;
    for (const TensorView& v : parts) args.push_back(v.data);
    args.push_back(y.data);
    auto compute = [parts, y, d]() {
        int64_t outer = 1, inner = 1;
        for (size_t i = 0; i < d; ++i) outer *= y.dims[i];
        for (size_t i = d + 1; i < y.rank(); ++i) inner *= y.dims[i];
        const int64_t row = y.dims[d] * inner;  // elements of out per outer index
        std::vector<double> r(size_t(outer * row));
        int64_t at = 0;  // offset of the current part inside a row of out
        for (const TensorView& v : parts) {
            const std::vector<double> src = read_doubles(v);
            const int64_t chunk = v.dims[d] * inner;
            for (int64_t o = 0; o < outer; ++o) {
                std::copy_n(src.begin() + o * chunk, chunk, r.begin() + o * row + at);
            }
            at += chunk;
        }
        write_doubles(y, r);
    };
    return hand_over(std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::move(args)), workspaceSize,
                     executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnCatGetWorkspaceSize(const aclTensorList* tensors, int64_t dim, aclTensor* out,
                                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnCatGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare(tensors, dim, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnCat)
