// aclnnMseLoss and aclnnMseLossBackward (torch's F.mse_loss and its gradient), self and target
// broadcast to one shape. reduction: 0 none (element-wise), 1 mean, 2 sum (torch's Reduction
// enum). The loss accumulates in double and rounds once to out's type; the gradient is
// grad * 2 (self - target), divided by the element count for the mean, grad broadcast.
#include <memory>

#include "aclnnop/aclnn_mse_loss.h"
#include "aclnnop/aclnn_mse_loss_backward.h"
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
    register_op({"aclnnMseLoss", OpFamily::Loss, kFloatTypes, Kernel::MseLoss}) &&
    register_op({"aclnnMseLossBackward", OpFamily::Loss, kFloatTypes, Kernel::MseLossGrad});

constexpr int64_t kReductionNone = 0, kReductionMean = 1, kReductionSum = 2;

aclnnStatus check_reduction(const char* api, int64_t reduction) {
    if (reduction >= kReductionNone && reduction <= kReductionSum) return ACLNN_SUCCESS;
    return invalid(api, "reduction %lld; 0 (none), 1 (mean) or 2 (sum) expected", static_cast<long long>(reduction));
}

// Checks self and target and fills their common shape.
aclnnStatus check_pair(const char* api, const TensorView& x, const TensorView& t, Dims& shape) {
    OPAPI_CHECK(check_float_type(api, "self", x.dtype));
    OPAPI_CHECK(check_float_type(api, "target", t.dtype));
    OPAPI_CHECK(check_rank(api, "self", x.dims, 0, nn::kMaxDims));
    OPAPI_CHECK(check_rank(api, "target", t.dims, 0, nn::kMaxDims));
    if (!broadcast_dims(x.dims, t.dims, shape)) {
        return invalid(api, "self %s and target %s do not broadcast", dims_text(x.dims).c_str(), dims_text(t.dims).c_str());
    }
    return ACLNN_SUCCESS;
}

aclnnStatus prepare_loss(const aclTensor* self, const aclTensor* target, int64_t reduction, aclTensor* out,
                         uint64_t* workspaceSize, aclOpExecutor** executor) {
    const char* api = "aclnnMseLoss";
    OPAPI_CHECK(check_not_null(api, {self, target, out, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "target", target));
    OPAPI_CHECK(check_tensor(api, "out", out));
    OPAPI_CHECK(check_reduction(api, reduction));
    const TensorView x = view_of(self), t = view_of(target), y = view_of(out);
    Dims shape;
    OPAPI_CHECK(check_pair(api, x, t, shape));
    OPAPI_CHECK(check_float_type(api, "out", y.dtype));
    OPAPI_CHECK(check_same_dims(api, "out", y.dims, reduction == kReductionNone ? shape : Dims{}));
    const int64_t n = numel(shape);
    std::vector<KernelLaunch> launches{
        {Kernel::MseLoss, y.dtype, vector_cost(3.0 * n, double(x.bytes() + t.bytes() + y.bytes()), n, 4096)}};
    auto compute = [x, t, y, shape, reduction]() {
        const std::vector<double> a = read_doubles(x, shape), b = read_doubles(t, shape);
        std::vector<double> r(a.size());
        double total = 0;
        for (size_t i = 0; i < a.size(); ++i) {
            const double d = a[i] - b[i];
            r[i] = d * d;
            total += r[i];
        }
        if (reduction != kReductionNone) {
            r.assign(1, reduction == kReductionMean && !a.empty() ? total / double(a.size()) : total);
        }
        write_doubles(y, r);
    };
    return hand_over(std::make_unique<OpExecutor>(api, 0, compute, std::move(launches),
                                                  std::vector<void*>{x.data, t.data, y.data}),
                     workspaceSize, executor);
}

aclnnStatus prepare_backward(const aclTensor* gradOutput, const aclTensor* self, const aclTensor* target,
                             int64_t reduction, aclTensor* gradInput, uint64_t* workspaceSize,
                             aclOpExecutor** executor) {
    const char* api = "aclnnMseLossBackward";
    OPAPI_CHECK(check_not_null(api, {gradOutput, self, target, gradInput, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "gradOutput", gradOutput));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "target", target));
    OPAPI_CHECK(check_tensor(api, "gradInput", gradInput));
    OPAPI_CHECK(check_reduction(api, reduction));
    const TensorView g = view_of(gradOutput), x = view_of(self), t = view_of(target), y = view_of(gradInput);
    Dims shape;
    OPAPI_CHECK(check_pair(api, x, t, shape));
    OPAPI_CHECK(check_float_type(api, "gradOutput", g.dtype));
    OPAPI_CHECK(check_float_type(api, "gradInput", y.dtype));
    Dims grad_shape;
    if (!broadcast_dims(g.dims, shape, grad_shape) || grad_shape != shape) {
        return invalid(api, "gradOutput %s does not broadcast to %s", dims_text(g.dims).c_str(), dims_text(shape).c_str());
    }
    OPAPI_CHECK(check_same_dims(api, "gradInput", y.dims, shape));
    const int64_t n = numel(shape);
    std::vector<KernelLaunch> launches{
        {Kernel::MseLossGrad, y.dtype,
         vector_cost(4.0 * n, double(g.bytes() + x.bytes() + t.bytes() + y.bytes()), n, 4096)}};
    auto compute = [g, x, t, y, shape, reduction]() {
        const std::vector<double> a = read_doubles(x, shape), b = read_doubles(t, shape), d = read_doubles(g, shape);
        const double norm = reduction == kReductionMean && !a.empty() ? 2.0 / double(a.size()) : 2.0;
        std::vector<float> r(a.size());
        for (size_t i = 0; i < a.size(); ++i) r[i] = static_cast<float>(norm * (a[i] - b[i]) * d[i]);
        write_floats(y, r);
    };
    return hand_over(std::make_unique<OpExecutor>(api, 0, compute, std::move(launches),
                                                  std::vector<void*>{g.data, x.data, t.data, y.data}),
                     workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnMseLossGetWorkspaceSize(const aclTensor* self, const aclTensor* target,
                                                         int64_t reduction, aclTensor* out, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnMseLossGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_loss(self, target, reduction, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnMseLoss)

NPUSIM_C_EXPORT aclnnStatus aclnnMseLossBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                                 const aclTensor* target, int64_t reduction,
                                                                 aclTensor* gradInput, uint64_t* workspaceSize,
                                                                 aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnMseLossBackwardGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_backward(gradOutput, self, target, reduction, gradInput, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnMseLossBackward)
