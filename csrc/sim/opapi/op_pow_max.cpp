// aclnnPowTensorScalar (out = self ^ exponent, element-wise; torch's x ** 2) and aclnnMax (the
// largest element of self as a 0-D out; NaN when any element is NaN, as torch's max()). Computed
// in double and rounded to out's type; one Pow / ReduceMax kernel each.
#include <algorithm>
#include <cmath>
#include <memory>

#include "aclnnop/aclnn_max.h"
#include "aclnnop/aclnn_pow.h"
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
    register_op({"aclnnPowTensorScalar", OpFamily::Unary, kFloatTypes, Kernel::Pow}) &&
    register_op({"aclnnMax", OpFamily::Reduction, kFloatTypes, Kernel::ReduceMax});

aclnnStatus prepare_pow(const aclTensor* self, const aclScalar* exponent, aclTensor* out, uint64_t* workspaceSize,
                        aclOpExecutor** executor) {
    const char* api = "aclnnPowTensorScalar";
    OPAPI_CHECK(check_not_null(api, {self, exponent, out, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "out", out));
    if (!nn::valid(exponent)) return invalid(api, "exponent is not a live aclScalar");
    const TensorView x = view_of(self), y = view_of(out);
    OPAPI_CHECK(check_float_type(api, "self", x.dtype));
    OPAPI_CHECK(check_float_type(api, "out", y.dtype));
    OPAPI_CHECK(check_rank(api, "self", x.dims, 0, nn::kMaxDims));
    OPAPI_CHECK(check_same_dims(api, "out", y.dims, x.dims));
    const int64_t n = x.numel();
    std::vector<KernelLaunch> launches{
        {Kernel::Pow, y.dtype, vector_cost(4.0 * n, double(x.bytes() + y.bytes()), n, 4096)}};
    const double e = exponent->value;
    auto compute = [x, y, e]() {
        std::vector<double> v = read_doubles(x);
        for (double& a : v) a = std::pow(static_cast<double>(round_to(x.dtype, static_cast<float>(a))), e);
        write_doubles(y, v);
    };
    return hand_over(
        std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{x.data, y.data}),
        workspaceSize, executor);
}

aclnnStatus prepare_max(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    const char* api = "aclnnMax";
    OPAPI_CHECK(check_not_null(api, {self, out, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "out", out));
    const TensorView x = view_of(self), y = view_of(out);
    OPAPI_CHECK(check_float_type(api, "self", x.dtype));
    OPAPI_CHECK(check_same_dtype(api, "out", y.dtype, x.dtype));
    OPAPI_CHECK(check_rank(api, "self", x.dims, 0, nn::kMaxDims));
    if (x.numel() == 0) return invalid(api, "self is empty: the maximum of no elements is undefined");
    if (y.numel() != 1) return invalid(api, "out has %lld elements; 1 expected", static_cast<long long>(y.numel()));
    const int64_t n = x.numel();
    std::vector<KernelLaunch> launches{
        {Kernel::ReduceMax, x.dtype, vector_cost(double(n), double(x.bytes() + y.bytes()), 1, 1)}};
    auto compute = [x, y]() {
        const std::vector<double> v = read_doubles(x);
        double best = v.front();
        for (double a : v) {
            if (std::isnan(a)) {
                best = a;
                break;
            }
            best = std::max(best, a);
        }
        write_doubles(y, {best});
    };
    return hand_over(
        std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{x.data, y.data}),
        workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnPowTensorScalarGetWorkspaceSize(const aclTensor* self, const aclScalar* exponent,
                                                                 const aclTensor* out, uint64_t* workspaceSize,
                                                                 aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnPowTensorScalarGetWorkspaceSize", aclnnStatus);
    // CANN declares the output const (a handle of device memory the operator writes).
    return npusim::opapi::prepare_pow(self, exponent, const_cast<aclTensor*>(out), workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnPowTensorScalar)

NPUSIM_C_EXPORT aclnnStatus aclnnMaxGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                                     aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnMaxGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_max(self, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnMax)
