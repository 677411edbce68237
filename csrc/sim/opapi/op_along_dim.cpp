// Operators along one dimension of a tensor, seen as [outer, length, inner] (row-major):
//   aclnnCumsum (out in `dtype`, self cast to it first), aclnnCumsumV2 (exclusive, reverse; self's
//   type): running sums, accumulated in double and rounded once per element; aclnnCumprod (dim an
//   aclScalar, out in `dtype`): running products, the same scan;
//   aclnnGlu: out = a * sigmoid(b), a and b the two halves of self along dim (torch's glu; CANN
//   composes it of SplitV, Sigmoid and Mul); aclnnGluBackward: the gradient of self, the halves
//   g * sigmoid(b) and g * a * sigmoid(b) * (1 - sigmoid(b)) (one GluGrad kernel);
//   aclnnArgMax, aclnnArgMin: the int64 index of the largest / smallest element (the first of
//   equal ones; nan wins, as in torch), dim removed or kept as 1 (keepdim);
//   aclnnFlip: the elements in reverse order along each dimension of dims (torch.flip; the backward
//   of cumsum).
// A 0-d tensor is one element along dim 0 or -1.
#include <cmath>
#include <memory>

#include "aclnnop/aclnn_argmax.h"
#include "aclnnop/aclnn_argmin.h"
#include "aclnnop/aclnn_cumprod.h"
#include "aclnnop/aclnn_cumsum.h"
#include "aclnnop/aclnn_flip.h"
#include "aclnnop/aclnn_glu.h"
#include "aclnnop/aclnn_glu_backward.h"
#include "core/fault_plan.h"
#include "nnopbase/dtype.h"
#include "nnopbase/tensor.h"
#include "opapi/checks.h"
#include "opapi/index_walk.h"
#include "opapi/op_launcher.h"
#include "opapi/registry.h"

namespace npusim::opapi {

namespace {

[[maybe_unused]] const bool kRegistered =
    register_op({"aclnnCumsum", OpFamily::Reduction, kNumericTypes, Kernel::Cumsum}) &&
    register_op({"aclnnCumsumV2", OpFamily::Reduction, kNumericTypes, Kernel::Cumsum}) &&
    register_op({"aclnnCumprod", OpFamily::Reduction, kNumericTypes, Kernel::Cumprod}) &&
    register_op({"aclnnGlu", OpFamily::Unary, kFloatTypes, Kernel::Sigmoid}) &&
    register_op({"aclnnGluBackward", OpFamily::Unary, kFloatTypes, Kernel::GluGrad}) &&
    register_op({"aclnnArgMax", OpFamily::Reduction, kNumericTypes, Kernel::ArgMaxV2}) &&
    register_op({"aclnnArgMin", OpFamily::Reduction, kNumericTypes, Kernel::ArgMin}) &&
    register_op({"aclnnFlip", OpFamily::Layout, kAllTypes, Kernel::ReverseV2});

// [outer, length, inner] of dims around dimension `axis`.
struct Split {
    int64_t outer = 1, length = 1, inner = 1;
};

Split split_at(const Dims& dims, size_t axis) {
    Split s;
    for (size_t i = 0; i < dims.size(); ++i) {
        if (i < axis) s.outer *= dims[i];
        else if (i == axis) s.length = dims[i];
        else s.inner *= dims[i];
    }
    return s;
}

// The dimension index of `dim` in a tensor of `rank` (a 0-d tensor takes 0 or -1).
bool axis_of(int64_t dim, size_t rank, size_t& axis) {
    if (rank == 0) {
        axis = 0;
        return dim == 0 || dim == -1;
    }
    return normalize_dim(dim, rank, axis);
}

// A running scan: sums (Cumsum) or products (Cumprod).
struct ScanMode {
    bool exclusive = false, reverse = false, product = false;
};

aclnnStatus prepare_scan(const char* api, const aclTensor* self, int64_t dim, aclDataType dtype, ScanMode mode,
                         const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPAPI_CHECK(check_not_null(api, {self, out, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "out", out));
    const TensorView x = view_of(self), y = view_of(out);
    if (!kNumericTypes.has(x.dtype)) return invalid(api, "self has data type %s", nn::dtype_name(x.dtype));
    if (!kNumericTypes.has(dtype)) return invalid(api, "dtype is %s", nn::dtype_name(dtype));
    OPAPI_CHECK(check_same_dtype(api, "out", y.dtype, dtype));
    OPAPI_CHECK(check_rank(api, "self", x.dims, 0, nn::kMaxDims));
    OPAPI_CHECK(check_same_dims(api, "out", y.dims, x.dims));
    size_t axis = 0;
    if (!axis_of(dim, x.rank(), axis)) return invalid(api, "dim %lld is out of range", static_cast<long long>(dim));
    const Split s = split_at(x.dims, axis);
    const int64_t n = x.numel();
    std::vector<KernelLaunch> launches;
    if (x.dtype != dtype) {
        launches.push_back({Kernel::Cast, dtype, vector_cost(double(n), double(x.bytes() + y.bytes()), n, 4096)});
    }
    launches.push_back({mode.product ? Kernel::Cumprod : Kernel::Cumsum, dtype,
                        vector_cost(double(n), double(2 * y.bytes()), s.outer * s.inner, 1)});
    auto compute = [x, y, s, mode]() {
        const std::vector<double> v = read_doubles(x);
        std::vector<double> r(v.size());
        for (int64_t o = 0; o < s.outer; ++o) {
            for (int64_t i = 0; i < s.inner; ++i) {
                double acc = mode.product ? 1.0 : 0.0;
                for (int64_t k = 0; k < s.length; ++k) {
                    const int64_t j = mode.reverse ? s.length - 1 - k : k;
                    const size_t e = static_cast<size_t>((o * s.length + j) * s.inner + i);
                    if (mode.exclusive) r[e] = acc;
                    acc = mode.product ? acc * v[e] : acc + v[e];
                    if (!mode.exclusive) r[e] = acc;
                }
            }
        }
        write_doubles(y, r);
    };
    return hand_over(
        std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{x.data, y.data}),
        workspaceSize, executor);
}

aclnnStatus prepare_arg(const char* api, bool largest, const aclTensor* self, int64_t dim, bool keepdim,
                        const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPAPI_CHECK(check_not_null(api, {self, out, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "out", out));
    const TensorView x = view_of(self), y = view_of(out);
    if (!kNumericTypes.has(x.dtype)) return invalid(api, "self has data type %s", nn::dtype_name(x.dtype));
    if (y.dtype != ACL_INT64 && y.dtype != ACL_INT32) return invalid(api, "out must be int64 or int32");
    OPAPI_CHECK(check_rank(api, "self", x.dims, 0, nn::kMaxDims));
    size_t axis = 0;
    if (!axis_of(dim, x.rank(), axis)) return invalid(api, "dim %lld is out of range", static_cast<long long>(dim));
    if (x.numel() == 0) return invalid(api, "self is empty");
    Dims expected;
    for (size_t i = 0; i < x.rank(); ++i) {
        if (i != axis) expected.push_back(x.dims[i]);
        else if (keepdim) expected.push_back(1);
    }
    OPAPI_CHECK(check_same_dims(api, "out", y.dims, expected));
    const Split s = split_at(x.dims, axis);
    const int64_t n = x.numel();
    std::vector<KernelLaunch> launches{{largest ? Kernel::ArgMaxV2 : Kernel::ArgMin, x.dtype,
                                        vector_cost(double(n), double(x.bytes() + y.bytes()), s.outer * s.inner, 1)}};
    auto compute = [x, y, s, largest]() {
        const std::vector<double> v = read_doubles(x);
        std::vector<double> r(static_cast<size_t>(s.outer * s.inner));
        for (int64_t o = 0; o < s.outer; ++o) {
            for (int64_t i = 0; i < s.inner; ++i) {
                int64_t best = 0;
                double best_value = v[static_cast<size_t>(o * s.length * s.inner + i)];
                for (int64_t k = 1; k < s.length && !std::isnan(best_value); ++k) {
                    const double value = v[static_cast<size_t>((o * s.length + k) * s.inner + i)];
                    if (std::isnan(value) || (largest ? value > best_value : value < best_value)) {
                        best = k;
                        best_value = value;
                    }
                }
                r[static_cast<size_t>(o * s.inner + i)] = double(best);
            }
        }
        write_doubles(y, r);
    };
    return hand_over(
        std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{x.data, y.data}),
        workspaceSize, executor);
}

aclnnStatus prepare_flip(const aclTensor* self, const aclIntArray* dims, const aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor) {
    const char* api = "aclnnFlip";
    OPAPI_CHECK(check_not_null(api, {self, dims, out, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "out", out));
    if (!nn::valid(dims)) return invalid(api, "dims is not a live aclIntArray");
    const TensorView x = view_of(self), y = view_of(out);
    if (!kAllTypes.has(x.dtype)) return invalid(api, "self has data type %s", nn::dtype_name(x.dtype));
    OPAPI_CHECK(check_same_dtype(api, "out", y.dtype, x.dtype));
    OPAPI_CHECK(check_rank(api, "self", x.dims, 0, nn::kMaxDims));
    OPAPI_CHECK(check_same_dims(api, "out", y.dims, x.dims));
    std::vector<bool> flipped(x.rank(), false);
    for (int64_t d : dims->values) {
        size_t axis = 0;
        if (!axis_of(d, x.rank(), axis) || (x.rank() > 0 && flipped[axis])) {
            return invalid(api, "dims %s are out of range or repeated", dims_text(dims->values).c_str());
        }
        if (x.rank() > 0) flipped[axis] = true;
    }
    const int64_t n = x.numel();
    std::vector<KernelLaunch> launches{{Kernel::ReverseV2, x.dtype, vector_cost(0.0, double(2 * x.bytes()), n, 4096)}};
    auto compute = [x, y, flipped]() {
        const std::vector<double> v = read_doubles(x);
        std::vector<double> r(v.size());
        std::vector<int64_t> index(x.rank(), 0);
        for (size_t e = 0; e < v.size(); ++e) {
            int64_t source = 0;
            for (size_t i = 0; i < index.size(); ++i) {
                source = source * x.dims[i] + (flipped[i] ? x.dims[i] - 1 - index[i] : index[i]);
            }
            r[e] = v[static_cast<size_t>(source)];
            next_index(index, x.dims);
        }
        write_doubles(y, r);
    };
    return hand_over(
        std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{x.data, y.data}),
        workspaceSize, executor);
}

// aclnnGlu (grad == nullptr) and aclnnGluBackward: self's halves a and b along dim.
aclnnStatus prepare_glu(const char* api, const aclTensor* gradOut, const aclTensor* self, int64_t dim,
                        const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    const bool backward = gradOut != nullptr;
    OPAPI_CHECK(check_not_null(api, {self, out, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "out", out));
    const TensorView x = view_of(self), y = view_of(out);
    TensorView g;
    OPAPI_CHECK(check_float_type(api, "self", x.dtype));
    OPAPI_CHECK(check_same_dtype(api, "out", y.dtype, x.dtype));
    OPAPI_CHECK(check_rank(api, "self", x.dims, 1, nn::kMaxDims));
    size_t axis = 0;
    if (!normalize_dim(dim, x.rank(), axis)) return invalid(api, "dim %lld is out of range", (long long)dim);
    if (x.dims[axis] % 2 != 0) {
        return invalid(api, "self's dimension %zu has odd size %lld; glu halves it", axis, (long long)x.dims[axis]);
    }
    Dims half = x.dims;
    half[axis] /= 2;
    if (backward) {
        OPAPI_CHECK(check_tensor(api, "gradOut", gradOut));
        g = view_of(gradOut);
        OPAPI_CHECK(check_same_dtype(api, "gradOut", g.dtype, x.dtype));
        OPAPI_CHECK(check_same_dims(api, "gradOut", g.dims, half));
    }
    OPAPI_CHECK(check_same_dims(api, "out", y.dims, backward ? x.dims : half));
    const int64_t n = numel(half);
    const double bytes = double(x.bytes() + y.bytes() + (backward ? g.bytes() : 0));
    std::vector<KernelLaunch> launches;
    if (backward) {
        launches.push_back({Kernel::GluGrad, x.dtype, vector_cost(8.0 * double(n), bytes, n, 4096)});
    } else {
        launches.push_back({Kernel::Sigmoid, x.dtype, vector_cost(4.0 * double(n), double(x.bytes()), n, 4096)});
        launches.push_back({Kernel::Mul, x.dtype, vector_cost(double(n), bytes, n, 4096)});
    }
    Split s = split_at(x.dims, axis);
    s.length /= 2;  // the half's length
    std::vector<void*> args{x.data, y.data};
    if (backward) args.push_back(g.data);
    auto compute = [x, y, g, s, backward]() {
        const std::vector<double> v = read_doubles(x);
        const std::vector<double> gv = backward ? read_doubles(g) : std::vector<double>{};
        std::vector<double> r(backward ? v.size() : v.size() / 2);
        for (int64_t o = 0; o < s.outer; ++o) {
            for (int64_t k = 0; k < s.length; ++k) {
                for (int64_t i = 0; i < s.inner; ++i) {
                    const auto at = [&](int64_t half_index, int64_t length) {
                        return static_cast<size_t>((o * length + half_index) * s.inner + i);
                    };
                    const double a = v[at(k, 2 * s.length)], b = v[at(k + s.length, 2 * s.length)];
                    const double sig = 1.0 / (1.0 + std::exp(-b));
                    if (!backward) {
                        r[at(k, s.length)] = a * sig;
                        continue;
                    }
                    const double grad = gv[at(k, s.length)];
                    r[at(k, 2 * s.length)] = grad * sig;
                    r[at(k + s.length, 2 * s.length)] = grad * a * sig * (1.0 - sig);
                }
            }
        }
        write_doubles(y, r);
    };
    return hand_over(std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::move(args)), workspaceSize,
                     executor);
}

}  // namespace

}  // namespace npusim::opapi

using npusim::opapi::ScanMode;

NPUSIM_C_EXPORT aclnnStatus aclnnCumsumGetWorkspaceSize(const aclTensor* self, int64_t dim, aclDataType dtype,
                                                        aclTensor* out, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnCumsumGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_scan("aclnnCumsum", self, dim, dtype, ScanMode{}, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnCumsum)

NPUSIM_C_EXPORT aclnnStatus aclnnCumsumV2GetWorkspaceSize(const aclTensor* self, int64_t dim, bool exclusive,
                                                          bool reverse, aclTensor* out, uint64_t* workspaceSize,
                                                          aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnCumsumV2GetWorkspaceSize", aclnnStatus);
    const aclDataType dtype = npusim::nn::valid(self) ? self->dtype : ACL_FLOAT;
    return npusim::opapi::prepare_scan("aclnnCumsumV2", self, dim, dtype, ScanMode{exclusive, reverse, false}, out,
                                       workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnCumsumV2)

NPUSIM_C_EXPORT aclnnStatus aclnnArgMaxGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepdim,
                                                        aclTensor* out, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnArgMaxGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_arg("aclnnArgMax", true, self, dim, keepdim, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnArgMax)

NPUSIM_C_EXPORT aclnnStatus aclnnArgMinGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepdim,
                                                        aclTensor* out, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnArgMinGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_arg("aclnnArgMin", false, self, dim, keepdim, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnArgMin)

NPUSIM_C_EXPORT aclnnStatus aclnnFlipGetWorkspaceSize(const aclTensor* self, const aclIntArray* dims, aclTensor* out,
                                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnFlipGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_flip(self, dims, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnFlip)

NPUSIM_C_EXPORT aclnnStatus aclnnCumprodGetWorkspaceSize(const aclTensor* input, const aclScalar* dim,
                                                         const aclDataType dtype, aclTensor* out,
                                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnCumprodGetWorkspaceSize", aclnnStatus);
    if (dim == nullptr) return ACLNN_ERR_PARAM_NULLPTR;
    if (!npusim::nn::valid(dim)) return npusim::opapi::invalid("aclnnCumprod", "dim is not a live aclScalar");
    return npusim::opapi::prepare_scan("aclnnCumprod", input, static_cast<int64_t>(dim->value), dtype,
                                       ScanMode{false, false, true}, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnCumprod)

NPUSIM_C_EXPORT aclnnStatus aclnnGluGetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* out,
                                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnGluGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_glu("aclnnGlu", nullptr, self, dim, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnGlu)

NPUSIM_C_EXPORT aclnnStatus aclnnGluBackwardGetWorkspaceSize(const aclTensor* gradOut, const aclTensor* self,
                                                             int64_t dim, const aclTensor* out, uint64_t* workspaceSize,
                                                             aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnGluBackwardGetWorkspaceSize", aclnnStatus);
    if (gradOut == nullptr) return ACLNN_ERR_PARAM_NULLPTR;
    return npusim::opapi::prepare_glu("aclnnGluBackward", gradOut, self, dim, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnGluBackward)
