// The operators that pick, add to or fill slices along one dimension `dim` named by an index
// vector, and the roll of dimensions:
// - aclnnIndexSelect (torch.index_select, embedding-like lookups): out = self with dimension dim
//   replaced by the slices index names (index int32 / int64, 0-D or 1-D); kernel GatherV2;
// - aclnnIndexAdd (torch.index_add): out = self, plus alpha * source's slice i added to self's
//   slice index[i] (repeated indices accumulate); kernel InplaceIndexAdd;
// - aclnnIndexFillTensor / aclnnInplaceIndexFillTensor (torch.index_fill): the slices index names
//   (an aclIntArray) set to value; kernel IndexFillD;
// - aclnnRoll (torch.roll): each dimension of dims rolled by its shift (the flattened tensor by
//   shifts[0] when dims is empty); kernel Roll.
// - aclnnOneHot (F.one_hot): out has self's shape with a dimension of numClasses inserted at axis
//   (-1: last); an element is onValue where self's value equals its position along that dimension,
//   offValue elsewhere (onValue / offValue: tensors of one element, read when the kernel runs); self
//   int32, int64 or uint8; kernel OneHot.
// self, source and out: every type, out of self's type; values pass through double (integers
// beyond 2^53 round). An index outside [-n, n) of the dimension is skipped when the kernel runs
// (the element keeps self's value, or 0 for index_select); the shapes, types and the dimension
// are checked in the first phase (ACLNN_ERR_PARAM_INVALID; NULL: ACLNN_ERR_PARAM_NULLPTR).
#include <cstddef>
#include <memory>

#include "aclnnop/aclnn_index_add.h"
#include "aclnnop/aclnn_index_fill_tensor.h"
#include "aclnnop/aclnn_index_select.h"
#include "aclnnop/aclnn_one_hot.h"
#include "aclnnop/aclnn_roll.h"
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
    register_op({"aclnnIndexSelect", OpFamily::Index, kAllTypes, Kernel::GatherV2}) &&
    register_op({"aclnnIndexAdd", OpFamily::Index, kAllTypes, Kernel::InplaceIndexAdd}) &&
    register_op({"aclnnIndexFillTensor", OpFamily::Index, kAllTypes, Kernel::IndexFillD}) &&
    register_op({"aclnnInplaceIndexFillTensor", OpFamily::Index, kAllTypes, Kernel::IndexFillD}) &&
    register_op({"aclnnRoll", OpFamily::Layout, kAllTypes, Kernel::Roll}) &&
    register_op({"aclnnOneHot", OpFamily::Index, kNumericTypes, Kernel::OneHot});

// self's dimension `dim` (0 for a 0-dimensional self, which takes dim 0 or -1).
aclnnStatus axis_of(const char* api, int64_t dim, const TensorView& self, size_t& axis) {
    if (self.rank() == 0 && (dim == 0 || dim == -1)) {
        axis = 0;
        return ACLNN_SUCCESS;
    }
    if (!normalize_dim(dim, self.rank(), axis)) {
        return invalid(api, "dim %lld is out of range for self of rank %zu", static_cast<long long>(dim), self.rank());
    }
    return ACLNN_SUCCESS;
}

// self's shape with dimension axis of size n (a 0-dimensional self stays 0-dimensional when n is 1).
Dims with_axis(const TensorView& self, size_t axis, int64_t n) {
    Dims dims = self.dims;
    if (!dims.empty()) dims[axis] = n;
    return dims;
}

// An index value made non-negative; false when out of [-n, n).
bool in_range(double value, int64_t n, int64_t& k) {
    k = static_cast<int64_t>(value);
    if (k < 0) k += n;
    return k >= 0 && k < n;
}

aclnnStatus check_index_tensor(const char* api, const TensorView& index) {
    if (index.dtype != ACL_INT32 && index.dtype != ACL_INT64) {
        return invalid(api, "index has data type %s; int32 or int64 expected", nn::dtype_name(index.dtype));
    }
    return check_rank(api, "index", index.dims, 0, 1);
}

aclnnStatus prepare_index_select(const aclTensor* self, int64_t dim, const aclTensor* index, aclTensor* out,
                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
    const char* api = "aclnnIndexSelect";
    OPAPI_CHECK(check_not_null(api, {self, index, out, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "index", index));
    OPAPI_CHECK(check_tensor(api, "out", out));
    const TensorView x = view_of(self), ix = view_of(index), y = view_of(out);
    if (!kAllTypes.has(x.dtype)) return invalid(api, "self has data type %s", nn::dtype_name(x.dtype));
    OPAPI_CHECK(check_same_dtype(api, "out", y.dtype, x.dtype));
    OPAPI_CHECK(check_rank(api, "self", x.dims, 0, nn::kMaxDims));
    OPAPI_CHECK(check_index_tensor(api, ix));
    size_t axis = 0;
    OPAPI_CHECK(axis_of(api, dim, x, axis));
    const Dims shape = with_axis(x, axis, ix.numel());
    OPAPI_CHECK(check_same_dims(api, "out", y.dims, shape));
    std::vector<KernelLaunch> launches{
        {Kernel::GatherV2, x.dtype, vector_cost(0.0, double(2 * y.bytes() + ix.bytes()), y.numel(), 4096)}};
    auto compute = [x, ix, y, axis, shape]() {
        const std::vector<double> v = read_doubles(x), picks = read_doubles(ix);
        const Dims strides = row_major_strides(x.dims);
        const int64_t n = x.dims.empty() ? 1 : x.dims[axis];
        std::vector<double> r(static_cast<size_t>(numel(shape)), 0.0);
        walk_indices(shape, [&](int64_t e, const Dims& at) {
            int64_t k = 0;
            if (!in_range(picks[static_cast<size_t>(at.empty() ? 0 : at[axis])], n, k)) return;
            int64_t pos = 0;
            for (size_t i = 0; i < at.size(); ++i) pos += (i == axis ? k : at[i]) * strides[i];
            r[static_cast<size_t>(e)] = v[static_cast<size_t>(pos)];
        });
        write_doubles(y, r);
    };
    return hand_over(
        std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{x.data, ix.data, y.data}),
        workspaceSize, executor);
}

aclnnStatus prepare_index_add(const aclTensor* self, int64_t dim, const aclTensor* index, const aclTensor* source,
                              const aclScalar* alpha, aclTensor* out, uint64_t* workspaceSize,
                              aclOpExecutor** executor) {
    const char* api = "aclnnIndexAdd";
    OPAPI_CHECK(check_not_null(api, {self, index, source, alpha, out, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "index", index));
    OPAPI_CHECK(check_tensor(api, "source", source));
    OPAPI_CHECK(check_tensor(api, "out", out));
    if (!nn::valid(alpha)) return invalid(api, "alpha is not a live aclScalar");
    const TensorView x = view_of(self), ix = view_of(index), s = view_of(source), y = view_of(out);
    if (!kAllTypes.has(x.dtype)) return invalid(api, "self has data type %s", nn::dtype_name(x.dtype));
    OPAPI_CHECK(check_same_dtype(api, "source", s.dtype, x.dtype));
    OPAPI_CHECK(check_same_dtype(api, "out", y.dtype, x.dtype));
    OPAPI_CHECK(check_rank(api, "self", x.dims, 0, nn::kMaxDims));
    OPAPI_CHECK(check_index_tensor(api, ix));
    size_t axis = 0;
    OPAPI_CHECK(axis_of(api, dim, x, axis));
    OPAPI_CHECK(check_same_dims(api, "source", s.dims, with_axis(x, axis, ix.numel())));
    OPAPI_CHECK(check_same_dims(api, "out", y.dims, x.dims));
    std::vector<KernelLaunch> launches{
        {Kernel::InplaceIndexAdd, x.dtype,
         vector_cost(2.0 * double(s.numel()), double(x.bytes() + s.bytes() + ix.bytes() + y.bytes()), y.numel(),
                     4096)}};
    auto compute = [x, ix, s, y, axis, a = alpha->value]() {
        std::vector<double> r = read_doubles(x);
        const std::vector<double> add = read_doubles(s), picks = read_doubles(ix);
        const Dims strides = row_major_strides(x.dims);
        const int64_t n = x.dims.empty() ? 1 : x.dims[axis];
        walk_indices(s.dims, [&](int64_t e, const Dims& at) {
            int64_t k = 0;
            if (!in_range(picks[static_cast<size_t>(at.empty() ? 0 : at[axis])], n, k)) return;
            int64_t pos = 0;
            for (size_t i = 0; i < at.size(); ++i) pos += (i == axis ? k : at[i]) * strides[i];
            r[static_cast<size_t>(pos)] += a * add[static_cast<size_t>(e)];
        });
        write_doubles(y, r);
    };
    return hand_over(std::make_unique<OpExecutor>(api, 0, compute, std::move(launches),
                                                  std::vector<void*>{x.data, ix.data, s.data, y.data}),
                     workspaceSize, executor);
}

aclnnStatus prepare_index_fill(const char* api, const aclTensor* self, int64_t dim, const aclIntArray* index,
                               const aclScalar* value, const aclTensor* out, uint64_t* workspaceSize,
                               aclOpExecutor** executor) {
    OPAPI_CHECK(check_not_null(api, {self, index, value, out, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "out", out));
    if (!nn::valid(index)) return invalid(api, "index is not a live aclIntArray");
    if (!nn::valid(value)) return invalid(api, "value is not a live aclScalar");
    const TensorView x = view_of(self), y = view_of(out);
    if (!kAllTypes.has(x.dtype)) return invalid(api, "self has data type %s", nn::dtype_name(x.dtype));
    OPAPI_CHECK(check_same_dtype(api, "out", y.dtype, x.dtype));
    OPAPI_CHECK(check_rank(api, "self", x.dims, 0, nn::kMaxDims));
    OPAPI_CHECK(check_same_dims(api, "out", y.dims, x.dims));
    size_t axis = 0;
    OPAPI_CHECK(axis_of(api, dim, x, axis));
    const int64_t n = x.dims.empty() ? 1 : x.dims[axis];
    std::vector<bool> filled(static_cast<size_t>(n), false);
    for (int64_t i : index->values) {
        int64_t k = 0;
        if (!in_range(double(i), n, k))
            return invalid(api, "index %lld is out of range for a dimension of %lld", static_cast<long long>(i),
                           static_cast<long long>(n));
        filled[static_cast<size_t>(k)] = true;
    }
    std::vector<KernelLaunch> launches{
        {Kernel::IndexFillD, x.dtype, vector_cost(0.0, double(x.bytes() + y.bytes()), y.numel(), 4096)}};
    auto compute = [x, y, axis, filled, fill = value->value]() {
        std::vector<double> r = read_doubles(x);
        walk_indices(x.dims, [&](int64_t e, const Dims& at) {
            if (filled[static_cast<size_t>(at.empty() ? 0 : at[axis])]) r[static_cast<size_t>(e)] = fill;
        });
        write_doubles(y, r);
    };
    return hand_over(
        std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{x.data, y.data}),
        workspaceSize, executor);
}

aclnnStatus prepare_roll(const aclTensor* self, const aclIntArray* shifts, const aclIntArray* dims, aclTensor* out,
                         uint64_t* workspaceSize, aclOpExecutor** executor) {
    const char* api = "aclnnRoll";
    OPAPI_CHECK(check_not_null(api, {self, shifts, dims, out, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "x", self));
    OPAPI_CHECK(check_tensor(api, "out", out));
    if (!nn::valid(shifts) || !nn::valid(dims)) return invalid(api, "shifts or dims is not a live aclIntArray");
    const TensorView x = view_of(self), y = view_of(out);
    if (!kAllTypes.has(x.dtype)) return invalid(api, "x has data type %s", nn::dtype_name(x.dtype));
    OPAPI_CHECK(check_same_dtype(api, "out", y.dtype, x.dtype));
    OPAPI_CHECK(check_rank(api, "x", x.dims, 0, nn::kMaxDims));
    OPAPI_CHECK(check_same_dims(api, "out", y.dims, x.dims));
    const bool flat = dims->values.empty();
    if (flat ? shifts->values.size() != 1 : shifts->values.size() != dims->values.size()) {
        return invalid(api, "%zu shifts for %zu dims", shifts->values.size(), dims->values.size());
    }
    // The shift of each dimension of the rolled shape (the flattened tensor: one dimension).
    const Dims shape = flat ? Dims{x.numel()} : x.dims;
    Dims shift(shape.size(), 0);
    for (size_t i = 0; i < shifts->values.size(); ++i) {
        size_t axis = 0;
        if (!flat && !normalize_dim(dims->values[i], x.rank(), axis)) {
            return invalid(api, "dim %lld is out of range", static_cast<long long>(dims->values[i]));
        }
        shift[axis] += shifts->values[i];
    }
    std::vector<KernelLaunch> launches{
        {Kernel::Roll, x.dtype, vector_cost(0.0, double(x.bytes() + y.bytes()), y.numel(), 4096)}};
    auto compute = [x, y, shape, shift]() {
        const std::vector<double> v = read_doubles(x);
        std::vector<double> r(v.size());
        const Dims strides = row_major_strides(shape);
        walk_indices(shape, [&](int64_t e, const Dims& at) {
            int64_t pos = 0;
            for (size_t i = 0; i < at.size(); ++i) {
                const int64_t n = shape[i];
                pos += (((at[i] + shift[i]) % n + n) % n) * strides[i];
            }
            r[static_cast<size_t>(pos)] = v[static_cast<size_t>(e)];
        });
        write_doubles(y, r);
    };
    return hand_over(
        std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{x.data, y.data}),
        workspaceSize, executor);
}

aclnnStatus prepare_one_hot(const aclTensor* self, int numClasses, const aclTensor* onValue, const aclTensor* offValue,
                            int64_t axis, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    const char* api = "aclnnOneHot";
    OPAPI_CHECK(check_not_null(api, {self, onValue, offValue, out, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "onValue", onValue));
    OPAPI_CHECK(check_tensor(api, "offValue", offValue));
    OPAPI_CHECK(check_tensor(api, "out", out));
    const TensorView x = view_of(self), on = view_of(onValue), off = view_of(offValue), y = view_of(out);
    if (x.dtype != ACL_INT32 && x.dtype != ACL_INT64 && x.dtype != ACL_UINT8) {
        return invalid(api, "self has data type %s; int32, int64 or uint8 expected", nn::dtype_name(x.dtype));
    }
    if (!kNumericTypes.has(y.dtype)) return invalid(api, "out has data type %s", nn::dtype_name(y.dtype));
    if (on.numel() != 1 || off.numel() != 1) return invalid(api, "onValue and offValue must hold one element each");
    if (numClasses < 0) return invalid(api, "numClasses %d is negative", numClasses);
    OPAPI_CHECK(check_rank(api, "self", x.dims, 0, nn::kMaxDims - 1));
    const auto rank = static_cast<int64_t>(x.rank());
    if (axis < -1 || axis > rank) return invalid(api, "axis %lld is out of range", static_cast<long long>(axis));
    const auto at_axis = static_cast<size_t>(axis == -1 ? rank : axis);
    Dims shape = x.dims;
    shape.insert(shape.begin() + static_cast<std::ptrdiff_t>(at_axis), numClasses);
    OPAPI_CHECK(check_same_dims(api, "out", y.dims, shape));
    std::vector<KernelLaunch> launches{
        {Kernel::OneHot, y.dtype, vector_cost(double(y.numel()), double(x.bytes() + y.bytes()), y.numel(), 4096)}};
    auto compute = [x, on, off, y, shape, at_axis]() {
        const std::vector<double> v = read_doubles(x), hot = read_doubles(on), cold = read_doubles(off);
        const Dims strides = row_major_strides(x.dims);
        std::vector<double> r(static_cast<size_t>(numel(shape)));
        walk_indices(shape, [&](int64_t e, const Dims& at) {
            int64_t pos = 0;
            for (size_t i = 0, k = 0; i < at.size(); ++i) {
                if (i != at_axis) pos += at[i] * strides[k++];
            }
            r[static_cast<size_t>(e)] = v[static_cast<size_t>(pos)] == double(at[at_axis]) ? hot[0] : cold[0];
        });
        write_doubles(y, r);
    };
    return hand_over(std::make_unique<OpExecutor>(api, 0, compute, std::move(launches),
                                                  std::vector<void*>{x.data, on.data, off.data, y.data}),
                     workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnIndexSelectGetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* index,
                                                             aclTensor* out, uint64_t* workspaceSize,
                                                             aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnIndexSelectGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_index_select(self, dim, index, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnIndexSelect)

NPUSIM_C_EXPORT aclnnStatus aclnnIndexAddGetWorkspaceSize(const aclTensor* self, const int64_t dim,
                                                          const aclTensor* index, const aclTensor* source,
                                                          const aclScalar* alpha, aclTensor* out,
                                                          uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnIndexAddGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_index_add(self, dim, index, source, alpha, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnIndexAdd)

NPUSIM_C_EXPORT aclnnStatus aclnnIndexFillTensorGetWorkspaceSize(const aclTensor* self, int64_t dim,
                                                                 const aclIntArray* index, const aclScalar* value,
                                                                 aclTensor* out, uint64_t* workspaceSize,
                                                                 aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnIndexFillTensorGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_index_fill("aclnnIndexFillTensor", self, dim, index, value, out, workspaceSize,
                                             executor);
}
OPAPI_DEFINE_RUN(aclnnIndexFillTensor)

NPUSIM_C_EXPORT aclnnStatus aclnnInplaceIndexFillTensorGetWorkspaceSize(aclTensor* selfRef, int64_t dim,
                                                                        const aclIntArray* index,
                                                                        const aclScalar* value, uint64_t* workspaceSize,
                                                                        aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnInplaceIndexFillTensorGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_index_fill("aclnnInplaceIndexFillTensor", selfRef, dim, index, value, selfRef,
                                             workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnInplaceIndexFillTensor)

NPUSIM_C_EXPORT aclnnStatus aclnnRollGetWorkspaceSize(const aclTensor* x, const aclIntArray* shifts,
                                                      const aclIntArray* dims, aclTensor* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnRollGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_roll(x, shifts, dims, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnRoll)

NPUSIM_C_EXPORT aclnnStatus aclnnOneHotGetWorkspaceSize(const aclTensor* self, int numClasses, const aclTensor* onValue,
                                                        const aclTensor* offValue, int64_t axis, aclTensor* out,
                                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnOneHotGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_one_hot(self, numClasses, onValue, offValue, axis, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnOneHot)
