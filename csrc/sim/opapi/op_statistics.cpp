// The reductions beyond sum and mean (op_reduce.cpp), over a set of dimensions (all of them when
// the set is empty; a 0-dimensional self takes dim 0 or -1 and reduces nothing):
// - aclnnAmax / aclnnAmin (torch.amax / amin, max / min with several dims): the largest / smallest
//   element, NaN when a NaN takes part, in self's type (every type); a dimension of size 0 has no
//   extremum (ACLNN_ERR_PARAM_INVALID); kernels ReduceMax / ReduceMin;
// - aclnnProd, aclnnProdDim (torch.prod): the product in `dtype` (the out's type), kernel ReduceProd;
// - aclnnVar (unbiased: N - 1 or N), aclnnVarCorrection, aclnnVarMean (torch.var, var_mean),
//   aclnnStd, aclnnStdMeanCorrection (torch.std, std_mean): the sum of squared deviations from the
//   mean divided by max(0, N - correction) (its square root for std), float types only, out of
//   self's type; kernels ReduceVar and ReduceStdV2 (the mean is their second output);
// - aclnnLogSumExp (torch.logsumexp): max + log(sum(exp(x - max))) (the max taken as 0 when it is
//   infinite), self of any type, out a float type; kernel ReduceLogSumExp.
// - aclnnAminmax (torch.aminmax; torch_npu's searchsorted checks its sequence with it): aclnnAmin's
//   and aclnnAmax's results over the same dimensions into minOut and maxOut (both self's type); kernels
//   ReduceMin and ReduceMax;
// - aclnnMaxDim / aclnnMinDim (torch.max / min with a dim): the extremum over one dimension (out,
//   self's type) and its position along it (indices, int32 or int64): the first one, or the first
//   NaN; kernels ArgMaxWithValue / ArgMinWithValue.
// Every value is accumulated in double and rounded once to the output's type.
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>

#include "aclnnop/aclnn_amax.h"
#include "aclnnop/aclnn_amin.h"
#include "aclnnop/aclnn_aminmax.h"
#include "aclnnop/aclnn_logsumexp.h"
#include "aclnnop/aclnn_max_dim.h"
#include "aclnnop/aclnn_min_dim.h"
#include "aclnnop/aclnn_prod.h"
#include "aclnnop/aclnn_std.h"
#include "aclnnop/aclnn_std_mean_correction.h"
#include "aclnnop/aclnn_var.h"
#include "aclnnop/aclnn_var_mean.h"
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
    register_op({"aclnnAmax", OpFamily::Reduction, kAllTypes, Kernel::ReduceMax}) &&
    register_op({"aclnnAmin", OpFamily::Reduction, kAllTypes, Kernel::ReduceMin}) &&
    register_op({"aclnnAminmax", OpFamily::Reduction, kAllTypes, Kernel::ReduceMin}) &&
    register_op({"aclnnProd", OpFamily::Reduction, kAllTypes, Kernel::ReduceProd}) &&
    register_op({"aclnnProdDim", OpFamily::Reduction, kAllTypes, Kernel::ReduceProd}) &&
    register_op({"aclnnVar", OpFamily::Reduction, kFloatTypes, Kernel::ReduceVar}) &&
    register_op({"aclnnVarCorrection", OpFamily::Reduction, kFloatTypes, Kernel::ReduceVar}) &&
    register_op({"aclnnVarMean", OpFamily::Reduction, kFloatTypes, Kernel::ReduceVar}) &&
    register_op({"aclnnStd", OpFamily::Reduction, kFloatTypes, Kernel::ReduceStdV2}) &&
    register_op({"aclnnStdMeanCorrection", OpFamily::Reduction, kFloatTypes, Kernel::ReduceStdV2}) &&
    register_op({"aclnnLogSumExp", OpFamily::Reduction, kAllTypes, Kernel::ReduceLogSumExp}) &&
    register_op({"aclnnMaxDim", OpFamily::Reduction, kAllTypes, Kernel::ArgMaxWithValue}) &&
    register_op({"aclnnMinDim", OpFamily::Reduction, kAllTypes, Kernel::ArgMinWithValue});

enum class Stat : uint8_t { Max, Min, MinMax, Prod, Var, Std, LogSumExp };

struct StatArgs {
    const char* api;
    Stat stat;
    const aclTensor* self;
    const Dims* dim;  // nullptr: every dimension (aclnnProd)
    bool keep;
    int64_t correction;   // Var, Std
    aclDataType dtype;    // Prod: the type computed and written
    aclTensor* out;
    aclTensor* mean_out;  // VarMean, StdMeanCorrection: the mean; MinMax: the maximum; else nullptr
};

Kernel kernel_of(Stat stat) {
    switch (stat) {
        case Stat::Max: return Kernel::ReduceMax;
        case Stat::Min:
        case Stat::MinMax: return Kernel::ReduceMin;
        case Stat::Prod: return Kernel::ReduceProd;
        case Stat::Var: return Kernel::ReduceVar;
        case Stat::Std: return Kernel::ReduceStdV2;
        case Stat::LogSumExp: return Kernel::ReduceLogSumExp;
    }
    return Kernel::ReduceMax;
}

// The values of one output from the elements `v` reduced into each slot.
std::vector<double> reduce_slots(Stat stat, const std::vector<double>& v, const ReductionLayout& layout,
                                 int64_t correction, std::vector<double>* means) {
    const auto outputs = static_cast<size_t>(layout.outputs);
    std::vector<double> r(outputs);
    switch (stat) {
        case Stat::Max:
        case Stat::Min:
        case Stat::MinMax: {  // MinMax: the minimum (its maximum is a second Max reduction)
            const bool max = stat == Stat::Max;
            r.assign(outputs, max ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity());
            for (size_t e = 0; e < v.size(); ++e) {
                double& a = r[static_cast<size_t>(layout.slot[e])];
                if (std::isnan(a)) continue;
                if (std::isnan(v[e]) || (max ? v[e] > a : v[e] < a)) a = v[e];
            }
            break;
        }
        case Stat::Prod:
            r.assign(outputs, 1.0);
            for (size_t e = 0; e < v.size(); ++e) r[static_cast<size_t>(layout.slot[e])] *= v[e];
            break;
        case Stat::Var:
        case Stat::Std: {
            std::vector<double> mean(outputs, 0.0);
            const double count = double(layout.group);
            for (size_t e = 0; e < v.size(); ++e) mean[static_cast<size_t>(layout.slot[e])] += v[e];
            for (double& m : mean) m /= count;
            r.assign(outputs, 0.0);
            for (size_t e = 0; e < v.size(); ++e) {
                const double d = v[e] - mean[static_cast<size_t>(layout.slot[e])];
                r[static_cast<size_t>(layout.slot[e])] += d * d;
            }
            const double divisor = std::max(0.0, count - double(correction));
            for (double& a : r) a = stat == Stat::Std ? std::sqrt(a / divisor) : a / divisor;
            if (means) *means = std::move(mean);
            break;
        }
        case Stat::LogSumExp: {
            std::vector<double> shift = reduce_slots(Stat::Max, v, layout, 0, nullptr);
            for (double& s : shift) {
                if (std::isinf(s)) s = 0.0;
            }
            r.assign(outputs, 0.0);
            for (size_t e = 0; e < v.size(); ++e) {
                const auto s = static_cast<size_t>(layout.slot[e]);
                r[s] += std::exp(v[e] - shift[s]);
            }
            for (size_t s = 0; s < outputs; ++s) r[s] = shift[s] + std::log(r[s]);
            break;
        }
    }
    return r;
}

aclnnStatus prepare(const StatArgs& a, uint64_t* workspaceSize, aclOpExecutor** executor) {
    const char* api = a.api;
    OPAPI_CHECK(check_not_null(api, {a.self, a.out, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "self", a.self));
    OPAPI_CHECK(check_tensor(api, "out", a.out));
    const bool min_max = a.stat == Stat::MinMax;
    const bool with_mean = a.stat == Stat::Var || a.stat == Stat::Std || min_max;
    const char* second = min_max ? "maxOut" : "meanOut";
    if (min_max) OPAPI_CHECK(check_not_null(api, {a.mean_out}));
    if (a.mean_out) OPAPI_CHECK(check_tensor(api, second, a.mean_out));
    const TensorView x = view_of(a.self), y = view_of(a.out);
    aclDataType work = x.dtype;  // the type the kernel computes in
    if (!kAllTypes.has(x.dtype)) return invalid(api, "self has data type %s", nn::dtype_name(x.dtype));
    switch (a.stat) {
        case Stat::Max:
        case Stat::Min:
        case Stat::MinMax: OPAPI_CHECK(check_same_dtype(api, min_max ? "minOut" : "out", y.dtype, x.dtype)); break;
        case Stat::Prod:
            if (!kNumericTypes.has(a.dtype)) return invalid(api, "dtype is %s", nn::dtype_name(a.dtype));
            OPAPI_CHECK(check_same_dtype(api, "out", y.dtype, a.dtype));
            work = a.dtype;
            break;
        case Stat::Var:
        case Stat::Std:
            OPAPI_CHECK(check_float_type(api, "self", x.dtype));
            OPAPI_CHECK(check_same_dtype(api, "out", y.dtype, x.dtype));
            break;
        case Stat::LogSumExp:
            OPAPI_CHECK(check_float_type(api, "out", y.dtype));
            work = y.dtype;
            break;
    }
    OPAPI_CHECK(check_rank(api, "self", x.dims, 0, nn::kMaxDims));
    std::vector<bool> reduced(x.rank(), true);
    if (a.dim && x.rank() == 0) {
        for (int64_t d : *a.dim) {
            if (d != 0 && d != -1)
                return invalid(api, "dim %s is out of range for a 0-dimensional self", dims_text(*a.dim).c_str());
        }
    } else if (a.dim) {
        OPAPI_CHECK(reduced_dims(api, *a.dim, x.rank(), reduced));
    }
    Dims expected;
    for (size_t i = 0; i < x.rank(); ++i) {
        if (!reduced[i] || a.keep) expected.push_back(reduced[i] ? 1 : x.dims[i]);
        if (reduced[i] && x.dims[i] == 0 && (a.stat == Stat::Max || a.stat == Stat::Min || min_max)) {
            return invalid(api, "dimension %zu of self has size 0: it has no %s", i,
                           a.stat == Stat::Max ? "maximum" : "minimum");
        }
    }
    OPAPI_CHECK(check_same_dims(api, "out", y.dims, expected));
    std::optional<TensorView> m;
    if (with_mean && a.mean_out) {
        m = view_of(a.mean_out);
        OPAPI_CHECK(check_same_dtype(api, second, m->dtype, x.dtype));
        OPAPI_CHECK(check_same_dims(api, second, m->dims, expected));
    }
    const int64_t n = x.numel(), outputs = y.numel();
    const double flops = a.stat == Stat::Var || a.stat == Stat::Std ? 4.0 * double(n)
                         : a.stat == Stat::LogSumExp                ? 6.0 * double(n)
                                                                    : double(n);
    const double bytes = double(x.bytes() + y.bytes() + (m ? m->bytes() : 0));
    std::vector<KernelLaunch> launches{{kernel_of(a.stat), work, vector_cost(flops, bytes, outputs, 1)}};
    if (min_max) launches.push_back({Kernel::ReduceMax, work, vector_cost(flops, bytes, outputs, 1)});
    std::vector<void*> args{x.data, y.data};
    if (m) args.push_back(m->data);
    auto compute = [x, y, m, reduced, stat = a.stat, correction = a.correction]() {
        const ReductionLayout layout = reduction_layout(x.dims, reduced);
        const std::vector<double> v = read_doubles(x);
        std::vector<double> means;
        write_doubles(y, reduce_slots(stat, v, layout, correction, m ? &means : nullptr));
        if (stat == Stat::MinMax) means = reduce_slots(Stat::Max, v, layout, 0, nullptr);
        if (m) write_doubles(*m, means);
    };
    return hand_over(std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::move(args)), workspaceSize,
                     executor);
}

// The dimensions of an aclIntArray argument (checked live), or the status of a bad one.
aclnnStatus dims_of(const char* api, const aclIntArray* dim, const Dims*& out) {
    OPAPI_CHECK(check_not_null(api, {dim}));
    if (!nn::valid(dim)) return invalid(api, "dim is not a live aclIntArray");
    out = &dim->values;
    return ACLNN_SUCCESS;
}

aclnnStatus prepare_dims(StatArgs a, const aclIntArray* dim, uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPAPI_CHECK(dims_of(a.api, dim, a.dim));
    return prepare(a, workspaceSize, executor);
}

aclnnStatus prepare_extremum_dim(const char* api, bool max, const aclTensor* self, int64_t dim, bool keepdim,
                                 aclTensor* out, aclTensor* indices, uint64_t* workspaceSize,
                                 aclOpExecutor** executor) {
    OPAPI_CHECK(check_not_null(api, {self, out, indices, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "out", out));
    OPAPI_CHECK(check_tensor(api, "indices", indices));
    const TensorView x = view_of(self), y = view_of(out), ix = view_of(indices);
    if (!kAllTypes.has(x.dtype)) return invalid(api, "self has data type %s", nn::dtype_name(x.dtype));
    OPAPI_CHECK(check_same_dtype(api, "out", y.dtype, x.dtype));
    if (ix.dtype != ACL_INT64 && ix.dtype != ACL_INT32) return invalid(api, "indices must be int32 or int64");
    OPAPI_CHECK(check_rank(api, "self", x.dims, 0, nn::kMaxDims));
    size_t axis = 0;
    if (x.rank() > 0 && !normalize_dim(dim, x.rank(), axis)) {
        return invalid(api, "dim %lld is out of range for self of rank %zu", static_cast<long long>(dim), x.rank());
    }
    if (x.rank() == 0 && dim != 0 && dim != -1)
        return invalid(api, "dim %lld is out of range for a 0-dimensional self", static_cast<long long>(dim));
    std::vector<bool> reduced(x.rank(), false);
    Dims expected;
    for (size_t i = 0; i < x.rank(); ++i) {
        reduced[i] = i == axis;
        if (i != axis || keepdim) expected.push_back(i == axis ? 1 : x.dims[i]);
    }
    if (x.rank() > 0 && x.dims[axis] == 0)
        return invalid(api, "dimension %zu of self has size 0: it has no extremum", axis);
    OPAPI_CHECK(check_same_dims(api, "out", y.dims, expected));
    OPAPI_CHECK(check_same_dims(api, "indices", ix.dims, expected));
    const int64_t n = x.numel();
    std::vector<KernelLaunch> launches{
        {max ? Kernel::ArgMaxWithValue : Kernel::ArgMinWithValue, x.dtype,
         vector_cost(double(n), double(x.bytes() + y.bytes() + ix.bytes()), y.numel(), 1)}};
    auto compute = [x, y, ix, reduced, axis, max]() {
        const std::vector<double> v = read_doubles(x);
        const ReductionLayout layout = reduction_layout(x.dims, reduced);
        int64_t inner = 1;  // elements between two steps along the axis
        for (size_t i = axis + 1; i < x.rank(); ++i) inner *= x.dims[i];
        const int64_t len = x.rank() > 0 ? x.dims[axis] : 1;
        std::vector<double> best(static_cast<size_t>(layout.outputs), 0.0), where(best.size(), -1.0);
        for (size_t e = 0; e < v.size(); ++e) {
            const auto s = static_cast<size_t>(layout.slot[e]);
            const bool take =
                where[s] < 0 || (!std::isnan(best[s]) && (std::isnan(v[e]) || (max ? v[e] > best[s] : v[e] < best[s])));
            if (take) {
                best[s] = v[e];
                where[s] = double((int64_t(e) / inner) % len);
            }
        }
        write_doubles(y, best);
        write_doubles(ix, where);
    };
    return hand_over(
        std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{x.data, y.data, ix.data}),
        workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

using npusim::opapi::Stat;
using npusim::opapi::StatArgs;

NPUSIM_C_EXPORT aclnnStatus aclnnAmaxGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim,
                                                      aclTensor* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnAmaxGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_dims({"aclnnAmax", Stat::Max, self, nullptr, keepDim, 0, ACL_FLOAT, out, nullptr},
                                       dim, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnAmax)

NPUSIM_C_EXPORT aclnnStatus aclnnAminGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim,
                                                      aclTensor* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnAminGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_dims({"aclnnAmin", Stat::Min, self, nullptr, keepDim, 0, ACL_FLOAT, out, nullptr},
                                       dim, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnAmin)

NPUSIM_C_EXPORT aclnnStatus aclnnAminmaxGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim,
                                                         aclTensor* minOut, aclTensor* maxOut, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnAminmaxGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_dims(
        {"aclnnAminmax", Stat::MinMax, self, nullptr, keepDim, 0, ACL_FLOAT, minOut, maxOut}, dim, workspaceSize,
        executor);
}
OPAPI_DEFINE_RUN(aclnnAminmax)

NPUSIM_C_EXPORT aclnnStatus aclnnProdGetWorkspaceSize(const aclTensor* self, const aclDataType dtype, aclTensor* out,
                                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnProdGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare({"aclnnProd", Stat::Prod, self, nullptr, false, 0, dtype, out, nullptr},
                                  workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnProd)

NPUSIM_C_EXPORT aclnnStatus aclnnProdDimGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepDim,
                                                         const aclDataType dtype, aclTensor* out,
                                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnProdDimGetWorkspaceSize", aclnnStatus);
    const npusim::opapi::Dims dims{dim};
    return npusim::opapi::prepare({"aclnnProdDim", Stat::Prod, self, &dims, keepDim, 0, dtype, out, nullptr},
                                  workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnProdDim)

NPUSIM_C_EXPORT aclnnStatus aclnnVarGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool unbiased,
                                                     bool keepdim, aclTensor* out, uint64_t* workspaceSize,
                                                     aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnVarGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_dims(
        {"aclnnVar", Stat::Var, self, nullptr, keepdim, unbiased ? 1 : 0, ACL_FLOAT, out, nullptr}, dim, workspaceSize,
        executor);
}
OPAPI_DEFINE_RUN(aclnnVar)

NPUSIM_C_EXPORT aclnnStatus aclnnVarCorrectionGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim,
                                                               int64_t correction, bool keepdim, aclTensor* out,
                                                               uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnVarCorrectionGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_dims(
        {"aclnnVarCorrection", Stat::Var, self, nullptr, keepdim, correction, ACL_FLOAT, out, nullptr}, dim,
        workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnVarCorrection)

NPUSIM_C_EXPORT aclnnStatus aclnnVarMeanGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim,
                                                         int64_t correction, bool keepdim, aclTensor* varOut,
                                                         aclTensor* meanOut, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnVarMeanGetWorkspaceSize", aclnnStatus);
    OPAPI_CHECK(npusim::opapi::check_not_null("aclnnVarMean", {meanOut}));
    return npusim::opapi::prepare_dims(
        {"aclnnVarMean", Stat::Var, self, nullptr, keepdim, correction, ACL_FLOAT, varOut, meanOut}, dim, workspaceSize,
        executor);
}
OPAPI_DEFINE_RUN(aclnnVarMean)

NPUSIM_C_EXPORT aclnnStatus aclnnStdGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim,
                                                     const int64_t correction, bool keepdim, aclTensor* out,
                                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnStdGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_dims(
        {"aclnnStd", Stat::Std, self, nullptr, keepdim, correction, ACL_FLOAT, out, nullptr}, dim, workspaceSize,
        executor);
}
OPAPI_DEFINE_RUN(aclnnStd)

NPUSIM_C_EXPORT aclnnStatus aclnnStdMeanCorrectionGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim,
                                                                   int64_t correction, bool keepdim, aclTensor* stdOut,
                                                                   aclTensor* meanOut, uint64_t* workspaceSize,
                                                                   aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnStdMeanCorrectionGetWorkspaceSize", aclnnStatus);
    OPAPI_CHECK(npusim::opapi::check_not_null("aclnnStdMeanCorrection", {meanOut}));
    return npusim::opapi::prepare_dims(
        {"aclnnStdMeanCorrection", Stat::Std, self, nullptr, keepdim, correction, ACL_FLOAT, stdOut, meanOut}, dim,
        workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnStdMeanCorrection)

NPUSIM_C_EXPORT aclnnStatus aclnnLogSumExpGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim,
                                                           aclTensor* out, uint64_t* workspaceSize,
                                                           aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnLogSumExpGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_dims(
        {"aclnnLogSumExp", Stat::LogSumExp, self, nullptr, keepDim, 0, ACL_FLOAT, out, nullptr}, dim, workspaceSize,
        executor);
}
OPAPI_DEFINE_RUN(aclnnLogSumExp)

NPUSIM_C_EXPORT aclnnStatus aclnnMaxDimGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepdim,
                                                        aclTensor* out, aclTensor* indices, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnMaxDimGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_extremum_dim("aclnnMaxDim", true, self, dim, keepdim, out, indices, workspaceSize,
                                               executor);
}
OPAPI_DEFINE_RUN(aclnnMaxDim)

NPUSIM_C_EXPORT aclnnStatus aclnnMinDimGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepdim,
                                                        aclTensor* out, aclTensor* indices, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnMinDimGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_extremum_dim("aclnnMinDim", false, self, dim, keepdim, out, indices, workspaceSize,
                                               executor);
}
OPAPI_DEFINE_RUN(aclnnMinDim)
