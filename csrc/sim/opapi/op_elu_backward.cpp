// aclnnEluBackward: the gradient of aclnnElu (torch's elu_backward), from its input x (isResult false)
// or its result y (isResult true):
//   x:  gradOutput * (x > 0 ? scale : alpha * scale * inputScale * exp(x * inputScale))
//   y:  gradOutput * (y > 0 ? scale : inputScale * (y + alpha * scale))
// gradOutput, selfOrResult and gradInput of one shape and one float type. Hand-written: five numbers
// per element, one more than the element-wise primitive's functions take.
#include <cmath>
#include <memory>

#include "aclnnop/aclnn_elu_backward.h"
#include "core/fault_plan.h"
#include "nnopbase/dtype.h"
#include "nnopbase/tensor.h"
#include "opapi/checks.h"
#include "opapi/op_launcher.h"
#include "opapi/registry.h"

namespace npusim::opapi {

namespace {

[[maybe_unused]] const bool kRegistered =
    register_op({"aclnnEluBackward", OpFamily::Binary, kFloatTypes, Kernel::EluGradV2});

aclnnStatus prepare(const aclTensor* gradOutput, const aclScalar* alpha, const aclScalar* scale,
                    const aclScalar* inputScale, bool isResult, const aclTensor* selfOrResult,
                    const aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor) {
    const char* api = "aclnnEluBackward";
    OPAPI_CHECK(
        check_not_null(api, {gradOutput, alpha, scale, inputScale, selfOrResult, gradInput, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "gradOutput", gradOutput));
    OPAPI_CHECK(check_tensor(api, "selfOrResult", selfOrResult));
    OPAPI_CHECK(check_tensor(api, "gradInput", gradInput));
    if (!nn::valid(alpha) || !nn::valid(scale) || !nn::valid(inputScale)) {
        return invalid(api, "alpha, scale and inputScale must be live aclScalars");
    }
    const TensorView g = view_of(gradOutput), x = view_of(selfOrResult), dx = view_of(gradInput);
    OPAPI_CHECK(check_float_type(api, "gradOutput", g.dtype));
    OPAPI_CHECK(check_same_dtype(api, "selfOrResult", x.dtype, g.dtype));
    OPAPI_CHECK(check_same_dtype(api, "gradInput", dx.dtype, g.dtype));
    OPAPI_CHECK(check_rank(api, "gradOutput", g.dims, 0, nn::kMaxDims));
    OPAPI_CHECK(check_same_dims(api, "selfOrResult", x.dims, g.dims));
    OPAPI_CHECK(check_same_dims(api, "gradInput", dx.dims, g.dims));
    const double a = alpha->value, s = scale->value, in = inputScale->value;
    const int64_t n = g.numel();
    std::vector<KernelLaunch> launches{
        {Kernel::EluGradV2, g.dtype, vector_cost(double(n) * 5.0, double(3 * g.bytes()), n, 4096)}};
    auto compute = [g, x, dx, a, s, in, isResult]() {
        const std::vector<double> gv = read_doubles(g), xv = read_doubles(x);
        std::vector<double> r(gv.size());
        for (size_t i = 0; i < r.size(); ++i) {
            const double v = xv[i];
            const double d = v > 0.0 ? s : isResult ? in * (v + a * s) : a * s * in * std::exp(v * in);
            r[i] = gv[i] * d;
        }
        write_doubles(dx, r);
    };
    return hand_over(
        std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{g.data, dx.data}),
        workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnEluBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclScalar* alpha,
                                                             const aclScalar* scale, const aclScalar* inputScale,
                                                             bool isResult, const aclTensor* selfOrResult,
                                                             aclTensor* gradInput, uint64_t* workspaceSize,
                                                             aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnEluBackwardGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare(gradOutput, alpha, scale, inputScale, isResult, selfOrResult, gradInput,
                                  workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnEluBackward)
