// The operators whose output shape depends on the data: the result is written to the front of an
// output the caller allocates at its largest, and the run sets that aclTensor's view shape to the
// result's, which the caller reads back with aclGetViewShape after synchronising (torch_npu's
// nonzero and masked_select: EXEC_NPU_CMD_SYNC, then aclGetViewShape and a resize). The out
// aclTensor must therefore live until the second phase has run.
// - aclnnNonzero: the indices of the non-zero elements of self in row-major order, as an int64
//   (N, D) tensor (N non-zero elements, D = self's rank); out is 2-D int64, contiguous, of shape
//   (M, D) with M >= self's element count. aclnnNonzeroV2: the same as (D, N) (out (D, M)).
//   Kernel NonZero.
// - aclnnMaskedSelect: the elements of self where mask (bool or uint8) is non-zero, self and mask
//   broadcast to one shape, in row-major order; out is 1-D, self's type, contiguous, with at least
//   the broadcast element count. Kernel MaskedSelectV3.
// - aclnnInplaceMaskedScatter (masked_scatter_, the backward of masked_select): selfRef's elements
//   where mask (bool or uint8, broadcast to selfRef) is non-zero take source's elements in
//   row-major order; source has selfRef's type and is read from its front (a source with fewer
//   elements than the mask selects leaves the rest unchanged). Kernel MaskedScatter.
// Every other argument error is ACLNN_ERR_PARAM_INVALID (NULL: ACLNN_ERR_PARAM_NULLPTR).
#include <algorithm>
#include <memory>

#include "aclnnop/aclnn_masked_scatter.h"
#include "aclnnop/aclnn_masked_select.h"
#include "aclnnop/aclnn_nonzero.h"
#include "aclnnop/aclnn_nonzero_v2.h"
#include "core/fault_plan.h"
#include "nnopbase/dtype.h"
#include "nnopbase/tensor.h"
#include "opapi/checks.h"
#include "opapi/index_walk.h"
#include "opapi/op_launcher.h"
#include "opapi/registry.h"

namespace npusim::opapi {

namespace {

// Declared in the operator registry (hand-written: its own checks and compute).
[[maybe_unused]] const bool kRegistered =
    register_op({"aclnnNonzero", OpFamily::Index, kAllTypes, Kernel::NonZero}) &&
    register_op({"aclnnNonzeroV2", OpFamily::Index, kAllTypes, Kernel::NonZero}) &&
    register_op({"aclnnMaskedSelect", OpFamily::Index, kAllTypes, Kernel::MaskedSelectV3}) &&
    register_op({"aclnnInplaceMaskedScatter", OpFamily::Index, kAllTypes, Kernel::MaskedScatter});

aclnnStatus prepare_nonzero(const char* api, bool transposed, const aclTensor* self, aclTensor* out,
                            uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPAPI_CHECK(check_not_null(api, {self, out, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "out", out));
    const TensorView x = view_of(self), y = view_of(out);
    if (!kAllTypes.has(x.dtype)) return invalid(api, "self has data type %s", nn::dtype_name(x.dtype));
    OPAPI_CHECK(check_same_dtype(api, "out", y.dtype, ACL_INT64));
    OPAPI_CHECK(check_rank(api, "self", x.dims, 0, nn::kMaxDims));
    OPAPI_CHECK(check_rank(api, "out", y.dims, 2, 2));
    const auto rank = static_cast<int64_t>(x.rank());
    const int64_t rows = transposed ? y.dims[1] : y.dims[0], width = transposed ? y.dims[0] : y.dims[1];
    if (width != rank || rows < x.numel() || !is_contiguous(y)) {
        return invalid(api, "out has shape %s; it must be contiguous with %s %lld and %s at least %lld",
                       dims_text(y.dims).c_str(), transposed ? "dimension 0" : "dimension 1",
                       static_cast<long long>(rank), transposed ? "dimension 1" : "dimension 0",
                       static_cast<long long>(x.numel()));
    }
    const int64_t n = x.numel();
    std::vector<KernelLaunch> launches{
        {Kernel::NonZero, x.dtype, vector_cost(double(n), double(x.bytes() + y.bytes()), n, 4096)}};
    auto compute = [x, y, out, transposed, rank]() {
        const std::vector<double> v = read_doubles(x);
        std::vector<double> coords;  // (N, D) row-major
        walk_indices(x.dims, [&](int64_t e, const Dims& index) {
            if (v[static_cast<size_t>(e)] != 0.0) coords.insert(coords.end(), index.begin(), index.end());
        });
        const int64_t count = rank == 0 ? (v.empty() || v[0] == 0.0 ? 0 : 1) : int64_t(coords.size()) / rank;
        TensorView result = y;
        result.dims = transposed ? Dims{rank, count} : Dims{count, rank};
        std::vector<double> values(coords.size());
        for (int64_t i = 0; i < count; ++i) {
            for (int64_t d = 0; d < rank; ++d) {
                values[static_cast<size_t>(transposed ? d * count + i : i * rank + d)] =
                    coords[static_cast<size_t>(i * rank + d)];
            }
        }
        set_result_view(out, result.dims);
        result.strides = out->strides;
        write_doubles(result, values);
    };
    return hand_over(
        std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{x.data, y.data}),
        workspaceSize, executor);
}

// The tensor a mask selects from (any type) and the mask (bool or uint8), up to 8 dimensions each.
aclnnStatus check_masked(const char* api, const char* what, const TensorView& x, const TensorView& m) {
    if (!kAllTypes.has(x.dtype)) return invalid(api, "%s has data type %s", what, nn::dtype_name(x.dtype));
    if (m.dtype != ACL_BOOL && m.dtype != ACL_UINT8) {
        return invalid(api, "mask must be bool or uint8, not %s", nn::dtype_name(m.dtype));
    }
    OPAPI_CHECK(check_rank(api, what, x.dims, 0, nn::kMaxDims));
    return check_rank(api, "mask", m.dims, 0, nn::kMaxDims);
}

aclnnStatus prepare_masked_select(const aclTensor* self, const aclTensor* mask, aclTensor* out, uint64_t* workspaceSize,
                                  aclOpExecutor** executor) {
    const char* api = "aclnnMaskedSelect";
    OPAPI_CHECK(check_not_null(api, {self, mask, out, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "mask", mask));
    OPAPI_CHECK(check_tensor(api, "out", out));
    const TensorView x = view_of(self), m = view_of(mask), y = view_of(out);
    OPAPI_CHECK(check_masked(api, "self", x, m));
    OPAPI_CHECK(check_same_dtype(api, "out", y.dtype, x.dtype));
    OPAPI_CHECK(check_rank(api, "out", y.dims, 1, 1));
    Dims shape;
    if (!broadcast_dims(x.dims, m.dims, shape)) {
        return invalid(api, "self %s and mask %s do not broadcast", dims_text(x.dims).c_str(),
                       dims_text(m.dims).c_str());
    }
    const int64_t n = numel(shape);
    if (y.dims[0] < n || !is_contiguous(y)) {
        return invalid(api, "out has shape %s; it must be contiguous with at least %lld elements",
                       dims_text(y.dims).c_str(), static_cast<long long>(n));
    }
    std::vector<KernelLaunch> launches{
        {Kernel::MaskedSelectV3, x.dtype, vector_cost(double(n), double(x.bytes() + m.bytes() + y.bytes()), n, 4096)}};
    auto compute = [x, m, y, out, shape]() {
        const std::vector<double> v = read_doubles(x, shape), keep = read_doubles(m, shape);
        std::vector<double> picked;
        for (size_t e = 0; e < v.size(); ++e) {
            if (keep[e] != 0.0) picked.push_back(v[e]);
        }
        TensorView result = y;
        result.dims = {int64_t(picked.size())};
        set_result_view(out, result.dims);
        write_doubles(result, picked);
    };
    return hand_over(
        std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{x.data, m.data, y.data}),
        workspaceSize, executor);
}

aclnnStatus prepare_masked_scatter(aclTensor* selfRef, const aclTensor* mask, const aclTensor* source,
                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
    const char* api = "aclnnInplaceMaskedScatter";
    OPAPI_CHECK(check_not_null(api, {selfRef, mask, source, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "selfRef", selfRef));
    OPAPI_CHECK(check_tensor(api, "mask", mask));
    OPAPI_CHECK(check_tensor(api, "source", source));
    const TensorView x = view_of(selfRef), m = view_of(mask), s = view_of(source);
    OPAPI_CHECK(check_masked(api, "selfRef", x, m));
    OPAPI_CHECK(check_same_dtype(api, "source", s.dtype, x.dtype));
    OPAPI_CHECK(check_rank(api, "source", s.dims, 0, nn::kMaxDims));
    Dims shape;
    if (!broadcast_dims(x.dims, m.dims, shape) || shape != x.dims) {
        return invalid(api, "mask %s does not broadcast to selfRef %s", dims_text(m.dims).c_str(),
                       dims_text(x.dims).c_str());
    }
    const int64_t n = x.numel();
    std::vector<KernelLaunch> launches{
        {Kernel::MaskedScatter, x.dtype,
         vector_cost(double(n), double(2 * x.bytes() + m.bytes() + s.bytes()), n, 4096)}};
    auto compute = [x, m, s]() {
        std::vector<double> r = read_doubles(x);
        const std::vector<double> keep = read_doubles(m, x.dims), from = read_doubles(s);
        size_t next = 0;
        for (size_t e = 0; e < r.size() && next < from.size(); ++e) {
            if (keep[e] != 0.0) r[e] = from[next++];
        }
        write_doubles(x, r);
    };
    return hand_over(
        std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{x.data, m.data, s.data}),
        workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnNonzeroGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnNonzeroGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_nonzero("aclnnNonzero", false, self, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnNonzero)

NPUSIM_C_EXPORT aclnnStatus aclnnNonzeroV2GetWorkspaceSize(const aclTensor* self, aclTensor* out,
                                                           uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnNonzeroV2GetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_nonzero("aclnnNonzeroV2", true, self, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnNonzeroV2)

NPUSIM_C_EXPORT aclnnStatus aclnnMaskedSelectGetWorkspaceSize(const aclTensor* self, const aclTensor* mask,
                                                              aclTensor* out, uint64_t* workspaceSize,
                                                              aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnMaskedSelectGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_masked_select(self, mask, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnMaskedSelect)

NPUSIM_C_EXPORT aclnnStatus aclnnInplaceMaskedScatterGetWorkspaceSize(aclTensor* selfRef, const aclTensor* mask,
                                                                      const aclTensor* source, uint64_t* workspaceSize,
                                                                      aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnInplaceMaskedScatterGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_masked_scatter(selfRef, mask, source, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnInplaceMaskedScatter)
