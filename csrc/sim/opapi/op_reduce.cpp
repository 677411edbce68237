// aclnnReduceSum and aclnnMean over a set of dimensions (all of them when the set
// is empty), accumulated in double and rounded to the output type `dtype`. An input
// of another type than dtype is cast first (a Cast launch), as CANN does. aclnnReduceSum also
// sums integer and bool tensors (torch sums them into int64: cross-entropy's count of targets
// that are not ignore_index); an integer sum is exact while it stays below 2^53.
// aclnnAll (torch.all with dims): whether every element of a reduced set is non-zero, over input
// of any type, written as 1 or 0 to a bool or uint8 out; kernel ReduceAll.
// aclnnAny (torch.any with dims): whether any element of a reduced set is non-zero, the same way;
// kernel ReduceAny.
#include <memory>

#include "aclnnop/aclnn_all.h"
#include "aclnnop/aclnn_any.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "core/fault_plan.h"
#include "nnopbase/dtype.h"
#include "nnopbase/tensor.h"
#include "opapi/checks.h"
#include "opapi/index_walk.h"
#include "opapi/math_library.h"
#include "opapi/op_launcher.h"
#include "opapi/registry.h"

namespace npusim::opapi {

namespace {

// Declared in the operator registry (hand-written: its own checks and compute).
[[maybe_unused]] const bool kRegistered =
    register_op({"aclnnReduceSum", OpFamily::Reduction, kAllTypes, Kernel::ReduceSum}) &&
    register_op({"aclnnMean", OpFamily::Reduction, kFloatTypes, Kernel::ReduceMean}) &&
    register_op({"aclnnAll", OpFamily::Reduction, kAllTypes, Kernel::ReduceAll}) &&
    register_op({"aclnnAny", OpFamily::Reduction, kAllTypes, Kernel::ReduceAny});

enum class Reduce : uint8_t { Sum, Mean, All, Any };

// The sums of a float32 view over the reduced dimensions, read in place: each output sums its
// elements in double, in row-major order (the order of the general path, so the same bits), and the
// outputs are divided among the math threads, each walking only its own.
std::vector<double> sum_floats(const TensorView& x, const std::vector<bool>& reduced) {
    const ReductionWalk w = reduction_walk(x.dims, reduced);
    std::vector<double> acc(static_cast<size_t>(w.outputs), 0.0);
    if (x.numel() == 0) return acc;
    const float* src = static_cast<const float*>(x.data);
    double* out = acc.data();
    auto part = [&](int64_t first, int64_t last) {
        walk_reduction_runs(x.dims, x.strides, x.offset, w, first, last,
                            [&](int64_t pos, int64_t stride, int64_t slot, int64_t slot_stride, int64_t count) {
                                if (slot_stride == 0) {  // a reduced last dimension: one output
                                    double a = out[slot];
                                    for (int64_t j = 0; j < count; ++j) a += double(src[pos + j * stride]);
                                    out[slot] = a;
                                } else {
                                    for (int64_t j = 0; j < count; ++j) {
                                        out[slot + j * slot_stride] += double(src[pos + j * stride]);
                                    }
                                }
                            });
    };
    if (w.split < 0) {
        part(0, 1);
    } else if (x.numel() >= kParallelFrom) {
        parallel_parts(x.dims[size_t(w.split)], part);
    } else {
        part(0, x.dims[size_t(w.split)]);
    }
    return acc;
}

aclnnStatus prepare(const char* api, Reduce kind, const aclTensor* self, const aclIntArray* dim, bool keepDim,
                    aclDataType dtype, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPAPI_CHECK(check_not_null(api, {self, dim, out, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "out", out));
    if (!nn::valid(dim)) return invalid(api, "dim is not a live aclIntArray");
    const TensorView x = view_of(self), y = view_of(out);
    const bool mean = kind == Reduce::Mean, all = kind == Reduce::All, any = kind == Reduce::Any;
    if (all || any) {
        if (!kAllTypes.has(x.dtype)) return invalid(api, "self has data type %s", nn::dtype_name(x.dtype));
        if (y.dtype != ACL_BOOL && y.dtype != ACL_UINT8) return invalid(api, "out must be bool or uint8");
        dtype = x.dtype;  // no Cast: the truth values are read in self's type
    } else if (!mean) {
        if (!kAllTypes.has(x.dtype)) return invalid(api, "self has data type %s", nn::dtype_name(x.dtype));
        if (!kNumericTypes.has(dtype)) return invalid(api, "dtype is %s", nn::dtype_name(dtype));
        OPAPI_CHECK(check_same_dtype(api, "out", y.dtype, dtype));
    } else {
        OPAPI_CHECK(check_float_type(api, "self", x.dtype));
        OPAPI_CHECK(check_float_type(api, "dtype", dtype));
        OPAPI_CHECK(check_same_dtype(api, "out", y.dtype, dtype));
    }
    OPAPI_CHECK(check_rank(api, "self", x.dims, 0, nn::kMaxDims));
    std::vector<bool> reduced;
    OPAPI_CHECK(reduced_dims(api, dim->values, x.rank(), reduced));
    Dims expected;
    for (size_t i = 0; i < x.rank(); ++i) {
        if (!reduced[i] || keepDim) expected.push_back(reduced[i] ? 1 : x.dims[i]);
    }
    OPAPI_CHECK(check_same_dims(api, "out", y.dims, expected));
    const int64_t n = x.numel(), outputs = y.numel();
    std::vector<KernelLaunch> launches;
    if (x.dtype != dtype) {
        launches.push_back({Kernel::Cast, dtype,
                            vector_cost(double(n), double(x.bytes()) + double(n * nn::dtype_size(dtype)), n, 4096)});
    }
    const Kernel kernel = all    ? Kernel::ReduceAll
                          : any  ? Kernel::ReduceAny
                          : mean ? Kernel::ReduceMean
                                 : Kernel::ReduceSum;
    launches.push_back(
        {kernel, dtype,
         vector_cost(double(n + (mean ? outputs : 0)), double(n * nn::dtype_size(dtype) + y.bytes()), outputs, 1)});
    auto compute = [x, y, reduced, mean, all, any]() {
        if (!all && !any && x.dtype == ACL_FLOAT && x.data != nullptr) {
            std::vector<double> acc = sum_floats(x, reduced);
            if (mean && !acc.empty()) {
                const double group = double(x.numel() / static_cast<int64_t>(acc.size()));
                for (double& a : acc) a /= group;
            }
            write_doubles(y, acc);
            return;
        }
        const std::vector<double> v = read_doubles(x);
        const ReductionLayout layout = reduction_layout(x.dims, reduced);
        std::vector<double> acc(static_cast<size_t>(layout.outputs), all ? 1.0 : 0.0);
        for (size_t e = 0; e < v.size(); ++e) {
            double& a = acc[static_cast<size_t>(layout.slot[e])];
            a = all ? double(a != 0.0 && v[e] != 0.0) : any ? double(a != 0.0 || v[e] != 0.0) : a + v[e];
        }
        if (mean && !acc.empty()) {
            for (double& a : acc) a /= double(layout.group);
        }
        write_doubles(y, acc);
    };
    return hand_over(
        std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{x.data, y.data}),
        workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnReduceSumGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim,
                                                           aclDataType dtype, aclTensor* out, uint64_t* workspaceSize,
                                                           aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnReduceSumGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare("aclnnReduceSum", npusim::opapi::Reduce::Sum, self, dim, keepDim, dtype, out,
                                  workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnReduceSum)

NPUSIM_C_EXPORT aclnnStatus aclnnMeanGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim,
                                                      aclDataType dtype, aclTensor* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnMeanGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare("aclnnMean", npusim::opapi::Reduce::Mean, self, dim, keepDim, dtype, out,
                                  workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnMean)

NPUSIM_C_EXPORT aclnnStatus aclnnAllGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepdim,
                                                     aclTensor* out, uint64_t* workspaceSize,
                                                     aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnAllGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare("aclnnAll", npusim::opapi::Reduce::All, self, dim, keepdim, ACL_BOOL, out,
                                  workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnAll)

NPUSIM_C_EXPORT aclnnStatus aclnnAnyGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepdim,
                                                     aclTensor* out, uint64_t* workspaceSize,
                                                     aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnAnyGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare("aclnnAny", npusim::opapi::Reduce::Any, self, dim, keepdim, ACL_BOOL, out,
                                  workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnAny)
