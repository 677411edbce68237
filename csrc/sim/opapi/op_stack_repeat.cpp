// Copies that build a larger tensor: aclnnStack (the tensors of a list, one shape and type, along a
// new dimension dim) and aclnnRepeat (torch's Tensor.repeat: self tiled repeats[i] times along each
// dimension, self first given leading dimensions of 1 up to the rank of repeats).
#include <memory>

#include "aclnnop/aclnn_repeat.h"
#include "aclnnop/aclnn_stack.h"
#include "core/fault_plan.h"
#include "nnopbase/dtype.h"
#include "nnopbase/tensor.h"
#include "opapi/checks.h"
#include "opapi/index_walk.h"
#include "opapi/op_launcher.h"
#include "opapi/registry.h"

namespace npusim::opapi {

namespace {

[[maybe_unused]] const bool kRegistered = register_op({"aclnnStack", OpFamily::Layout, kAllTypes, Kernel::Pack}) &&
                                          register_op({"aclnnRepeat", OpFamily::Layout, kAllTypes, Kernel::Tile});

aclnnStatus prepare_stack(const aclTensorList* tensors, int64_t dim, const aclTensor* out, uint64_t* workspaceSize,
                          aclOpExecutor** executor) {
    const char* api = "aclnnStack";
    OPAPI_CHECK(check_not_null(api, {tensors, out, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "out", out));
    if (tensors->magic != nn::kArrayMagic || tensors->tensors.empty())
        return invalid(api, "tensors is not a live, non-empty list");
    std::vector<TensorView> items;
    for (const aclTensor* t : tensors->tensors) {
        OPAPI_CHECK(check_tensor(api, "tensors[i]", t));
        items.push_back(view_of(t));
        if (!kAllTypes.has(items.back().dtype)) return invalid(api, "tensors[i] has an unsupported data type");
        OPAPI_CHECK(check_same_dtype(api, "tensors[i]", items.back().dtype, items[0].dtype));
        OPAPI_CHECK(check_same_dims(api, "tensors[i]", items.back().dims, items[0].dims));
    }
    const TensorView y = view_of(out);
    OPAPI_CHECK(check_same_dtype(api, "out", y.dtype, items[0].dtype));
    OPAPI_CHECK(check_rank(api, "tensors[0]", items[0].dims, 0, nn::kMaxDims - 1));
    size_t axis = 0;
    if (!normalize_dim(dim, items[0].rank() + 1, axis))
        return invalid(api, "dim %lld is out of range", static_cast<long long>(dim));
    Dims expected = items[0].dims;
    expected.insert(expected.begin() + static_cast<std::ptrdiff_t>(axis), static_cast<int64_t>(items.size()));
    OPAPI_CHECK(check_same_dims(api, "out", y.dims, expected));
    int64_t outer = 1;
    for (size_t i = 0; i < axis; ++i) outer *= items[0].dims[i];
    const int64_t inner = outer > 0 ? items[0].numel() / std::max<int64_t>(outer, 1) : 0;
    std::vector<KernelLaunch> launches{
        {Kernel::Pack, y.dtype, vector_cost(0.0, double(2 * y.bytes()), y.numel(), 4096)}};
    auto compute = [items, y, outer, inner]() {
        std::vector<double> r(static_cast<size_t>(y.numel()));
        const int64_t count = static_cast<int64_t>(items.size());
        for (int64_t k = 0; k < count; ++k) {
            const std::vector<double> v = read_doubles(items[static_cast<size_t>(k)]);
            for (int64_t o = 0; o < outer; ++o)
                for (int64_t i = 0; i < inner; ++i)
                    r[static_cast<size_t>((o * count + k) * inner + i)] = v[static_cast<size_t>(o * inner + i)];
        }
        write_doubles(y, r);
    };
    return hand_over(std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{y.data}),
                     workspaceSize, executor);
}

aclnnStatus prepare_repeat(const aclTensor* self, const aclIntArray* repeats, const aclTensor* out,
                           uint64_t* workspaceSize, aclOpExecutor** executor) {
    const char* api = "aclnnRepeat";
    OPAPI_CHECK(check_not_null(api, {self, repeats, out, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "out", out));
    if (!nn::valid(repeats)) return invalid(api, "repeats is not a live aclIntArray");
    const TensorView x = view_of(self), y = view_of(out);
    if (!kAllTypes.has(x.dtype)) return invalid(api, "self has data type %s", nn::dtype_name(x.dtype));
    OPAPI_CHECK(check_same_dtype(api, "out", y.dtype, x.dtype));
    const Dims& reps = repeats->values;
    if (reps.size() < x.rank() || reps.size() > nn::kMaxDims) {
        return invalid(api, "repeats %s must have at least self's %zu dimensions", dims_text(reps).c_str(), x.rank());
    }
    Dims in(reps.size() - x.rank(), 1);
    in.insert(in.end(), x.dims.begin(), x.dims.end());
    Dims expected(reps.size());
    for (size_t i = 0; i < reps.size(); ++i) {
        if (reps[i] < 0) return invalid(api, "repeats %s has a negative value", dims_text(reps).c_str());
        expected[i] = in[i] * reps[i];
    }
    OPAPI_CHECK(check_same_dims(api, "out", y.dims, expected));
    std::vector<KernelLaunch> launches{
        {Kernel::Tile, y.dtype, vector_cost(0.0, double(x.bytes() + y.bytes()), y.numel(), 4096)}};
    auto compute = [x, y, in, expected]() {
        const std::vector<double> v = read_doubles(x);
        std::vector<double> r(static_cast<size_t>(numel(expected)));
        std::vector<int64_t> at(expected.size(), 0);
        for (size_t e = 0; e < r.size(); ++e) {
            int64_t source = 0;
            for (size_t i = 0; i < at.size(); ++i) source = source * in[i] + at[i] % in[i];
            r[e] = v[static_cast<size_t>(source)];
            next_index(at, expected);
        }
        write_doubles(y, r);
    };
    return hand_over(
        std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{x.data, y.data}),
        workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnStackGetWorkspaceSize(const aclTensorList* tensors, int64_t dim, aclTensor* out,
                                                       uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnStackGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_stack(tensors, dim, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnStack)

NPUSIM_C_EXPORT aclnnStatus aclnnRepeatGetWorkspaceSize(const aclTensor* self, const aclIntArray* repeats,
                                                        aclTensor* out, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnRepeatGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_repeat(self, repeats, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnRepeat)
