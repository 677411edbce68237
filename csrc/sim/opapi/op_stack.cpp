// aclnnStack: tensors of one shape joined along a new dimension (torch.stack, e.g. of the
// per-parameter norms in clip_grad_norm_). dim is in [-(rank + 1), rank]; out has the tensors' shape
// with the list's length inserted at dim. The values are copied through doubles, so the types may
// differ (each converts to out's). One Pack kernel.
#include <algorithm>
#include <memory>

#include "aclnnop/aclnn_stack.h"
#include "core/fault_plan.h"
#include "nnopbase/dtype.h"
#include "nnopbase/tensor.h"
#include "opapi/checks.h"
#include "opapi/op_launcher.h"
#include "opapi/registry.h"

namespace npusim::opapi {

namespace {

[[maybe_unused]] const bool kRegistered = register_op({"aclnnStack", OpFamily::Layout, kAllTypes, Kernel::Pack});

aclnnStatus prepare(const aclTensorList* tensors, int64_t dim, const aclTensor* out, uint64_t* workspaceSize,
                    aclOpExecutor** executor) {
    const char* api = "aclnnStack";
    OPAPI_CHECK(check_not_null(api, {tensors, out, workspaceSize, executor}));
    if (tensors->magic != nn::kArrayMagic || tensors->tensors.empty()) {
        return invalid(api, "tensors is not a live, non-empty aclTensorList");
    }
    OPAPI_CHECK(check_tensor(api, "out", out));
    const TensorView y = view_of(out);
    if (!kAllTypes.has(y.dtype)) return invalid(api, "out has data type %s", nn::dtype_name(y.dtype));
    std::vector<TensorView> parts;
    double bytes = double(y.bytes());
    for (const aclTensor* t : tensors->tensors) {
        OPAPI_CHECK(check_tensor(api, "tensors", t));
        TensorView v = view_of(t);
        if (!kAllTypes.has(v.dtype)) return invalid(api, "a tensor of the list has data type %s", nn::dtype_name(v.dtype));
        if (!parts.empty()) OPAPI_CHECK(check_same_dims(api, "a tensor of the list", v.dims, parts.front().dims));
        bytes += double(v.bytes());
        parts.push_back(std::move(v));
    }
    const Dims& shape = parts.front().dims;
    OPAPI_CHECK(check_rank(api, "a tensor of the list", shape, 0, nn::kMaxDims - 1));
    size_t d = 0;
    if (!normalize_dim(dim, shape.size() + 1, d)) {
        return invalid(api, "dim %lld is out of range for %zu dimensions", (long long)dim, shape.size() + 1);
    }
    Dims expected = shape;
    expected.insert(expected.begin() + static_cast<std::ptrdiff_t>(d), static_cast<int64_t>(parts.size()));
    OPAPI_CHECK(check_same_dims(api, "out", y.dims, expected));
    std::vector<KernelLaunch> launches{{Kernel::Pack, y.dtype, vector_cost(0.0, bytes, y.numel(), 4096)}};
    std::vector<void*> args;
    for (const TensorView& v : parts) args.push_back(v.data);
    args.push_back(y.data);
    auto compute = [parts, y, d]() {
        if (y.numel() == 0) return;
        int64_t inner = 1;  // elements of one tensor after dim
        for (size_t i = d + 1; i < y.rank(); ++i) inner *= y.dims[i];
        const int64_t count = static_cast<int64_t>(parts.size()), outer = y.numel() / (count * inner);
        std::vector<double> r(static_cast<size_t>(y.numel()));
        for (int64_t k = 0; k < count; ++k) {
            const std::vector<double> src = read_doubles(parts[static_cast<size_t>(k)]);
            for (int64_t o = 0; o < outer; ++o) {
                std::copy_n(src.begin() + o * inner, inner, r.begin() + (o * count + k) * inner);
            }
        }
        write_doubles(y, r);
    };
    return hand_over(std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::move(args)), workspaceSize,
                     executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnStackGetWorkspaceSize(const aclTensorList* tensors, int64_t dim, aclTensor* out,
                                                       uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnStackGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare(tensors, dim, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnStack)
