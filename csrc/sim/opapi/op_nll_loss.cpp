// aclnnNLLLoss and aclnnNLLLossBackward (torch's nll_loss, the second half of cross-entropy) for
// self [N, C] or [C] and target [N] or [] of class indices (int64, int32 or uint8), and
// aclnnNLLLoss2d and aclnnNLLLoss2dBackward (torch's nll_loss2d) for self [N, C, H, W] and target
// [N, H, W]: one sample per (n, h, w). A sample's weight is weight[target] (1 without weight), 0 when
// target == ignoreIndex.
//   forward:  l_n = -w_n * self[n, target_n]; reduction 0 none (out: target's shape), 1 mean
//             (sum l / sum w), 2 sum; totalWeightOut (one element) = sum w
//   backward: gradInput[n, target_n] = -w_n * g (g = gradOutput[n] for none, gradOutput / totalWeight
//             for mean, gradOutput for sum); every other element 0
// A target outside [0, C) that is not ignoreIndex contributes nothing; the kernel's compute logs it
// once per call (a real device would raise an AI-core exception).
#include <memory>

#include "aclnnop/aclnn_nll_loss.h"
#include "aclnnop/aclnn_nll_loss2d.h"
#include "aclnnop/aclnn_nll_loss2d_backward.h"
#include "aclnnop/aclnn_nll_loss_backward.h"
#include "core/fault_plan.h"
#include "core/log.h"
#include "nnopbase/dtype.h"
#include "nnopbase/tensor.h"
#include "opapi/checks.h"
#include "opapi/op_launcher.h"
#include "opapi/registry.h"

namespace npusim::opapi {

namespace {

// Declared in the operator registry (hand-written: its own checks and compute).
[[maybe_unused]] const bool kRegistered =
    register_op({"aclnnNLLLoss", OpFamily::Loss, kFloatTypes | DTypeSet{ACL_INT32, ACL_INT64}, Kernel::NLLLoss}) &&
    register_op(
        {"aclnnNLLLossBackward", OpFamily::Loss, kFloatTypes | DTypeSet{ACL_INT32, ACL_INT64}, Kernel::NLLLossGrad}) &&
    register_op({"aclnnNLLLoss2d", OpFamily::Loss, kFloatTypes | DTypeSet{ACL_INT32, ACL_INT64}, Kernel::NLLLoss}) &&
    register_op(
        {"aclnnNLLLoss2dBackward", OpFamily::Loss, kFloatTypes | DTypeSet{ACL_INT32, ACL_INT64}, Kernel::NLLLossGrad});

struct NllPlan {
    TensorView x, target, weight, out, total, grad;  // grad: the backward's gradOutput
    bool has_weight = false;
    // batch: the number of samples (N, or N * H * W for the 2-D form); inner: the samples of one n (1,
    // or H * W), the stride of the class dimension in self.
    int64_t reduction = kReductionMean, ignore = -100, batch = 1, classes = 1, inner = 1;
    Dims samples;  // the target's shape: one element per sample

    // The element of self holding sample k's score of class c.
    size_t score(size_t k, int64_t c) const {
        const size_t in = size_t(inner);
        return (k / in * size_t(classes) + size_t(c)) * in + k % in;
    }
};

// spatial: the 2-D form (self [N, C, H, W], target [N, H, W]).
aclnnStatus check_common(const char* api, bool spatial, const aclTensor* self, const aclTensor* target,
                         const aclTensor* weight, int64_t reduction, NllPlan& p) {
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "target", target));
    OPAPI_CHECK(check_reduction(api, reduction));
    p.reduction = reduction;
    p.x = view_of(self);
    p.target = view_of(target);
    OPAPI_CHECK(check_float_type(api, "self", p.x.dtype));
    OPAPI_CHECK(spatial ? check_rank(api, "self", p.x.dims, 4, 4) : check_rank(api, "self", p.x.dims, 1, 2));
    const aclDataType t = p.target.dtype;
    if (t != ACL_INT64 && t != ACL_INT32 && t != ACL_UINT8) {
        return invalid(api, "target has data type %s; int64, int32 or uint8 expected", nn::dtype_name(t));
    }
    if (spatial) {
        p.classes = p.x.dims[1];
        p.inner = p.x.dims[2] * p.x.dims[3];
        p.samples = {p.x.dims[0], p.x.dims[2], p.x.dims[3]};
    } else {
        p.classes = p.x.dims.back();
        p.samples = p.x.rank() == 2 ? Dims{p.x.dims[0]} : Dims{};
    }
    p.batch = numel(p.samples);
    OPAPI_CHECK(check_same_dims(api, "target", p.target.dims, p.samples));
    p.has_weight = weight != nullptr;
    if (p.has_weight) {
        OPAPI_CHECK(check_tensor(api, "weight", weight));
        p.weight = view_of(weight);
        OPAPI_CHECK(check_float_type(api, "weight", p.weight.dtype));
        OPAPI_CHECK(check_same_dims(api, "weight", p.weight.dims, Dims{p.classes}));
    }
    return ACLNN_SUCCESS;
}

// The class of each sample (-1: contributes nothing) and its weight.
void sample_weights(const char* api, const NllPlan& p, std::vector<int64_t>& cls, std::vector<double>& w) {
    const std::vector<double> t = read_doubles(p.target);
    const std::vector<double> cw = p.has_weight ? read_doubles(p.weight) : std::vector<double>();
    cls.assign(t.size(), -1);
    w.assign(t.size(), 0.0);
    bool reported = false;
    for (size_t n = 0; n < t.size(); ++n) {
        const int64_t c = static_cast<int64_t>(t[n]);
        if (c == p.ignore) continue;
        if (c < 0 || c >= p.classes) {
            if (!reported)
                log_message(LogLevel::Error, "%s: target %lld is outside [0, %lld)", api, (long long)c,
                            (long long)p.classes);
            reported = true;
            continue;
        }
        cls[n] = c;
        w[n] = p.has_weight ? cw[size_t(c)] : 1.0;
    }
}

aclnnStatus prepare_forward(const char* api, bool spatial, const aclTensor* self, const aclTensor* target,
                            const aclTensor* weight, int64_t reduction, int64_t ignoreIndex, aclTensor* out,
                            aclTensor* totalWeightOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPAPI_CHECK(check_not_null(api, {self, target, out, totalWeightOut, workspaceSize, executor}));
    NllPlan p;
    OPAPI_CHECK(check_common(api, spatial, self, target, weight, reduction, p));
    p.ignore = ignoreIndex;
    OPAPI_CHECK(check_tensor(api, "out", out));
    OPAPI_CHECK(check_tensor(api, "totalWeightOut", totalWeightOut));
    p.out = view_of(out);
    p.total = view_of(totalWeightOut);
    OPAPI_CHECK(check_float_type(api, "out", p.out.dtype));
    OPAPI_CHECK(check_float_type(api, "totalWeightOut", p.total.dtype));
    OPAPI_CHECK(check_same_dims(api, "out", p.out.dims, reduction == kReductionNone ? p.samples : Dims{}));
    if (p.total.numel() != 1)
        return invalid(api, "totalWeightOut has %lld elements; 1 expected", (long long)p.total.numel());
    const double bytes = double(p.batch) * double(nn::dtype_size(p.x.dtype) + nn::dtype_size(p.target.dtype)) +
                         double(p.out.bytes() + p.total.bytes());
    std::vector<KernelLaunch> launches{
        {Kernel::NLLLoss, p.out.dtype, vector_cost(2.0 * double(p.batch), bytes, p.batch, 4096)}};
    std::vector<void*> args{p.x.data, p.target.data, p.weight.data, p.out.data, p.total.data};
    auto compute = [p, api]() {
        std::vector<int64_t> cls;
        std::vector<double> w;
        sample_weights(api, p, cls, w);
        const std::vector<double> x = read_doubles(p.x);
        std::vector<double> loss(cls.size(), 0.0);
        double total = 0, sum = 0;
        for (size_t n = 0; n < cls.size(); ++n) {
            if (cls[n] < 0) continue;
            loss[n] = -w[n] * x[p.score(n, cls[n])];
            total += w[n];
            sum += loss[n];
        }
        if (p.reduction == kReductionNone) {
            write_doubles(p.out, loss);
        } else {
            write_doubles(p.out, {p.reduction == kReductionMean ? sum / total : sum});
        }
        write_doubles(p.total, {total});
    };
    return hand_over(std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::move(args)), workspaceSize,
                     executor);
}

aclnnStatus prepare_backward(const char* api, bool spatial, const aclTensor* gradOutput, const aclTensor* self,
                             const aclTensor* target, const aclTensor* weight, int64_t reduction, int64_t ignoreIndex,
                             const aclTensor* totalWeight, aclTensor* out, uint64_t* workspaceSize,
                             aclOpExecutor** executor) {
    OPAPI_CHECK(check_not_null(api, {gradOutput, self, target, totalWeight, out, workspaceSize, executor}));
    NllPlan p;
    OPAPI_CHECK(check_common(api, spatial, self, target, weight, reduction, p));
    p.ignore = ignoreIndex;
    OPAPI_CHECK(check_tensor(api, "gradOutput", gradOutput));
    OPAPI_CHECK(check_tensor(api, "totalWeight", totalWeight));
    OPAPI_CHECK(check_tensor(api, "out", out));
    p.grad = view_of(gradOutput);
    p.total = view_of(totalWeight);
    p.out = view_of(out);
    OPAPI_CHECK(check_float_type(api, "gradOutput", p.grad.dtype));
    OPAPI_CHECK(check_float_type(api, "out", p.out.dtype));
    OPAPI_CHECK(check_same_dims(api, "out", p.out.dims, p.x.dims));
    if (p.total.numel() != 1)
        return invalid(api, "totalWeight has %lld elements; 1 expected", (long long)p.total.numel());
    const int64_t grads = reduction == kReductionNone ? p.batch : 1;
    if (p.grad.numel() != grads)
        return invalid(api, "gradOutput has %lld elements; %lld expected", (long long)p.grad.numel(), (long long)grads);
    std::vector<KernelLaunch> launches{
        {Kernel::NLLLossGrad, p.out.dtype,
         vector_cost(2.0 * double(p.batch), double(p.out.bytes() + p.grad.bytes()), p.out.numel(), 4096)}};
    std::vector<void*> args{p.grad.data, p.x.data, p.target.data, p.weight.data, p.total.data, p.out.data};
    auto compute = [p, api]() {
        std::vector<int64_t> cls;
        std::vector<double> w;
        sample_weights(api, p, cls, w);
        const std::vector<double> g = read_doubles(p.grad);
        const double total = read_doubles(p.total).front();
        std::vector<double> r(size_t(p.out.numel()), 0.0);
        for (size_t n = 0; n < cls.size(); ++n) {
            if (cls[n] < 0) continue;
            double scale = p.reduction == kReductionNone ? g[n] : g[0];
            if (p.reduction == kReductionMean) scale /= total;
            r[p.score(n, cls[n])] = -w[n] * scale;
        }
        write_doubles(p.out, r);
    };
    return hand_over(std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::move(args)), workspaceSize,
                     executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnNLLLossGetWorkspaceSize(const aclTensor* self, const aclTensor* target,
                                                         const aclTensor* weight, int64_t reduction,
                                                         int64_t ignoreIndex, aclTensor* out, aclTensor* totalWeightOut,
                                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnNLLLossGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_forward("aclnnNLLLoss", false, self, target, weight, reduction, ignoreIndex, out,
                                          totalWeightOut, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnNLLLoss)

NPUSIM_C_EXPORT aclnnStatus aclnnNLLLossBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                                 const aclTensor* target, const aclTensor* weight,
                                                                 int64_t reduction, int64_t ignoreIndex,
                                                                 const aclTensor* totalWeight, aclTensor* out,
                                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnNLLLossBackwardGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_backward("aclnnNLLLossBackward", false, gradOutput, self, target, weight, reduction,
                                           ignoreIndex, totalWeight, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnNLLLossBackward)

NPUSIM_C_EXPORT aclnnStatus aclnnNLLLoss2dGetWorkspaceSize(const aclTensor* self, const aclTensor* target,
                                                           const aclTensor* weight, int64_t reduction,
                                                           int64_t ignoreIndex, aclTensor* out,
                                                           aclTensor* totalWeightOut, uint64_t* workspaceSize,
                                                           aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnNLLLoss2dGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_forward("aclnnNLLLoss2d", true, self, target, weight, reduction, ignoreIndex, out,
                                          totalWeightOut, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnNLLLoss2d)

NPUSIM_C_EXPORT aclnnStatus aclnnNLLLoss2dBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                                   const aclTensor* target, const aclTensor* weight,
                                                                   int64_t reduction, int64_t ignoreIndex,
                                                                   aclTensor* totalWeight, aclTensor* out,
                                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnNLLLoss2dBackwardGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_backward("aclnnNLLLoss2dBackward", true, gradOutput, self, target, weight, reduction,
                                           ignoreIndex, totalWeight, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnNLLLoss2dBackward)
