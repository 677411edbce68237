// Vector norms, accumulated in double and rounded once to the output's type:
//   aclnnLinalgVectorNorm  torch.linalg.vector_norm over a set of dimensions (all of them when the
//                          set is empty), in the data type `dtype` (out's); one LpNormV2 kernel.
//   aclnnNorm              at::norm (op-plugin's norm and norm.out): the same reduction, the
//                          result's data type out's. (torch.norm and its "fro" form reach
//                          aclnnLinalgVectorNorm: torch's Python front end calls linalg.vector_norm.)
//   aclnnForeachNorm       the norm of every tensor of a list (torch._foreach_norm, which
//                          clip_grad_norm_ calls), each into a one-element tensor; one ForeachNorm
//                          kernel for the list.
// The order p: +inf the largest |x|, -inf the smallest, 0 the count of non-zero elements, otherwise
// (sum |x|^p)^(1/p).
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>

#include "aclnnop/aclnn_foreach_norm.h"
#include "aclnnop/aclnn_linalg_vector_norm.h"
#include "aclnnop/aclnn_norm.h"
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
    register_op({"aclnnLinalgVectorNorm", OpFamily::Reduction, kFloatTypes, Kernel::LpNormV2}) &&
    register_op({"aclnnNorm", OpFamily::Reduction, kFloatTypes, Kernel::LpNormV2}) &&
    register_op({"aclnnForeachNorm", OpFamily::Foreach, kFloatTypes, Kernel::ForeachNorm});

// Accumulates the p-norm of a sequence of values.
class NormAccumulator {
public:
    explicit NormAccumulator(double p)
        : p_(p), acc_(p == -std::numeric_limits<double>::infinity() ? std::numeric_limits<double>::infinity() : 0.0) {}
    void add(double x) {
        const double a = std::fabs(x);
        if (std::isnan(x)) {
            nan_ = true;
        } else if (std::isinf(p_)) {
            acc_ = p_ > 0 ? std::max(acc_, a) : std::min(acc_, a);
        } else if (p_ == 0.0) {
            acc_ += a != 0.0 ? 1.0 : 0.0;
        } else {
            acc_ += p_ == 1.0 ? a : p_ == 2.0 ? a * a : std::pow(a, p_);
        }
    }
    double value() const {
        if (nan_) return std::numeric_limits<double>::quiet_NaN();
        if (std::isinf(p_) || p_ == 0.0 || p_ == 1.0) return acc_;
        return p_ == 2.0 ? std::sqrt(acc_) : std::pow(acc_, 1.0 / p_);
    }

private:
    double p_;
    double acc_;
    bool nan_ = false;
};

// api: aclnnLinalgVectorNorm (the result's data type is `dtype`) or aclnnNorm (out's: dtype unset).
aclnnStatus prepare_vector_norm(const char* api, const aclTensor* self, const aclScalar* ord, const aclIntArray* dims,
                                bool keepDims, std::optional<aclDataType> result_type, const aclTensor* out,
                                uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPAPI_CHECK(check_not_null(api, {self, ord, dims, out, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "out", out));
    const aclDataType dtype = result_type.value_or(view_of(out).dtype);
    if (!nn::valid(ord)) return invalid(api, "ord is not a live aclScalar");
    if (!nn::valid(dims)) return invalid(api, "dims is not a live aclIntArray");
    const TensorView x = view_of(self), y = view_of(out);
    OPAPI_CHECK(check_float_type(api, "self", x.dtype));
    OPAPI_CHECK(check_float_type(api, "dtype", dtype));
    OPAPI_CHECK(check_same_dtype(api, "out", y.dtype, dtype));
    OPAPI_CHECK(check_rank(api, "self", x.dims, 0, nn::kMaxDims));
    std::vector<bool> reduced;
    OPAPI_CHECK(reduced_dims(api, dims->values, x.rank(), reduced));
    Dims expected;
    for (size_t i = 0; i < x.rank(); ++i) {
        if (!reduced[i] || keepDims) expected.push_back(reduced[i] ? 1 : x.dims[i]);
    }
    OPAPI_CHECK(check_same_dims(api, "out", y.dims, expected));
    const int64_t n = x.numel(), outputs = y.numel();
    std::vector<KernelLaunch> launches{
        {Kernel::LpNormV2, dtype, vector_cost(3.0 * double(n), double(x.bytes() + y.bytes()), outputs, 1)}};
    auto compute = [x, y, reduced, p = ord->value]() {
        const std::vector<double> v = read_doubles(x);
        const ReductionLayout layout = reduction_layout(x.dims, reduced);
        std::vector<NormAccumulator> acc(static_cast<size_t>(layout.outputs), NormAccumulator(p));
        for (size_t e = 0; e < v.size(); ++e) acc[static_cast<size_t>(layout.slot[e])].add(v[e]);
        std::vector<double> r;
        r.reserve(acc.size());
        for (const NormAccumulator& a : acc) r.push_back(a.value());
        write_doubles(y, r);
    };
    return hand_over(
        std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{x.data, y.data}),
        workspaceSize, executor);
}

aclnnStatus prepare_foreach_norm(const aclTensorList* x, const aclScalar* scalar, const aclTensorList* out,
                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
    const char* api = "aclnnForeachNorm";
    OPAPI_CHECK(check_not_null(api, {x, scalar, out, workspaceSize, executor}));
    if (x->magic != nn::kArrayMagic || x->tensors.empty())
        return invalid(api, "x is not a live, non-empty aclTensorList");
    if (out->magic != nn::kArrayMagic) return invalid(api, "out is not a live aclTensorList");
    if (!nn::valid(scalar)) return invalid(api, "scalar is not a live aclScalar");
    if (out->tensors.size() != x->tensors.size()) {
        return invalid(api, "out has %zu tensors; x has %zu", out->tensors.size(), x->tensors.size());
    }
    std::vector<TensorView> ins, outs;
    std::vector<void*> args;
    double bytes = 0.0, elements = 0.0;
    for (size_t i = 0; i < x->tensors.size(); ++i) {
        OPAPI_CHECK(check_tensor(api, "x", x->tensors[i]));
        OPAPI_CHECK(check_tensor(api, "out", out->tensors[i]));
        TensorView a = view_of(x->tensors[i]), b = view_of(out->tensors[i]);
        OPAPI_CHECK(check_float_type(api, "x", a.dtype));
        OPAPI_CHECK(check_same_dtype(api, "out", b.dtype, a.dtype));
        if (b.numel() != 1)
            return invalid(api, "out tensor %zu has %lld elements; 1 expected", i, (long long)b.numel());
        bytes += double(a.bytes() + b.bytes());
        elements += double(a.numel());
        args.push_back(a.data);
        ins.push_back(std::move(a));
        outs.push_back(std::move(b));
    }
    for (const TensorView& b : outs) args.push_back(b.data);
    std::vector<KernelLaunch> launches{
        {Kernel::ForeachNorm, ins.front().dtype, vector_cost(3.0 * elements, bytes, int64_t(ins.size()), 1)}};
    auto compute = [ins, outs, p = scalar->value]() {
        for (size_t i = 0; i < ins.size(); ++i) {
            NormAccumulator acc(p);
            for (double value : read_doubles(ins[i])) acc.add(value);
            write_doubles(outs[i], {acc.value()});
        }
    };
    return hand_over(std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::move(args)), workspaceSize,
                     executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnLinalgVectorNormGetWorkspaceSize(const aclTensor* self, const aclScalar* ord,
                                                                  const aclIntArray* dims, bool keepDims,
                                                                  const aclDataType dtype, aclTensor* out,
                                                                  uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnLinalgVectorNormGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_vector_norm("aclnnLinalgVectorNorm", self, ord, dims, keepDims, dtype, out,
                                              workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnLinalgVectorNorm)

NPUSIM_C_EXPORT aclnnStatus aclnnNormGetWorkspaceSize(const aclTensor* self, const aclScalar* pScalar,
                                                      const aclIntArray* dim, bool keepdim, aclTensor* out,
                                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnNormGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_vector_norm("aclnnNorm", self, pScalar, dim, keepdim, std::nullopt, out,
                                              workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnNorm)

NPUSIM_C_EXPORT aclnnStatus aclnnForeachNormGetWorkspaceSize(const aclTensorList* x, const aclScalar* scalar,
                                                             const aclTensorList* out, uint64_t* workspaceSize,
                                                             aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnForeachNormGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_foreach_norm(x, scalar, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnForeachNorm)
