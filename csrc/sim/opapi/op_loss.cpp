// The point-wise losses, one primitive: a loss of each (self, target) pair, self and target (and
// the optional weight and pos_weight) broadcast to one shape, then reduced (0 none: element-wise,
// 1 mean, 2 sum; torch's Reduction enum); the backward is grad * d loss / d self, grad broadcast
// and divided by the element count for the mean. Each loss is a row of kLosses:
//   aclnnMseLoss(Backward)                (self - target)^2                        MseLoss(Grad)
//   aclnnL1Loss(Backward)                 |self - target|                          LpLoss, L1LossGrad
//   aclnnSmoothL1Loss(Backward)           0.5 d^2 / beta where |d| < beta, else     SmoothL1LossV2,
//                                         |d| - 0.5 beta (beta 0: |d|)             SmoothL1LossGradV2
//   aclnnBinaryCrossEntropy(Backward)     -w (t log x + (1 - t) log(1 - x)), each  BinaryCrossEntropy(Grad)
//                                         log at least -100; the gradient
//                                         w (x - t) / max(x (1 - x), 1e-12) (torch's CPU kernel)
//   aclnnBinaryCrossEntropyWithLogits     w ((1 - t) x + (1 + (p - 1) t) softplus(-x)) (p: pos_weight,
//   (Backward)                            1 when absent); the gradient w ((1 - t) - (1 + (p - 1) t)
//                                         sigmoid(-x))                              SigmoidCrossEntropyWithLogits(Grad)V2
//   aclnnKlDiv, aclnnKlDivBackward        t (log t - x) (0 where t = 0), or with    KLDivV2, KlDivLossGrad
//                                         logTarget exp(t) (t - x); gradient -t or -exp(t)
// Data types: float32, float16, bfloat16 for every tensor; the loss accumulates in double and rounds
// once to the output's type. Bad input: NULL is ACLNN_ERR_PARAM_NULLPTR; a type outside the floats, a
// reduction outside 0..2, shapes that do not broadcast or an output of another shape is
// ACLNN_ERR_PARAM_INVALID.
#include <algorithm>
#include <cmath>
#include <memory>

#include "aclnnop/aclnn_binary_cross_entropy.h"
#include "aclnnop/aclnn_binary_cross_entropy_backward.h"
#include "aclnnop/aclnn_binary_cross_entropy_with_logits.h"
#include "aclnnop/aclnn_binary_cross_entropy_with_logits_backward.h"
#include "aclnnop/aclnn_kl_div.h"
#include "aclnnop/aclnn_kl_div_backward.h"
#include "aclnnop/aclnn_l1_loss.h"
#include "aclnnop/aclnn_l1_loss_backward.h"
#include "aclnnop/aclnn_mse_loss.h"
#include "aclnnop/aclnn_mse_loss_backward.h"
#include "aclnnop/aclnn_smooth_l1_loss.h"
#include "aclnnop/aclnn_smooth_l1_loss_backward.h"
#include "core/fault_plan.h"
#include "nnopbase/dtype.h"
#include "nnopbase/tensor.h"
#include "opapi/checks.h"
#include "opapi/elementwise_entry.h"
#include "opapi/op_launcher.h"
#include "opapi/registry.h"

namespace npusim::opapi {

namespace {

// The attribute of a loss: SmoothL1Loss's beta, KlDiv's logTarget (0 or 1).
struct LossArgs {
    double x, t, pos_weight, attribute;
};
using LossFn = double (*)(const LossArgs& a);

struct LossKind {
    const char* api;
    const char* backward_api;
    Kernel kernel, grad_kernel;
    double flops, grad_flops;  // per element
    LossFn loss, grad;
};

double sign(double d) { return d > 0 ? 1.0 : d < 0 ? -1.0 : 0.0; }
double softplus(double z) { return std::max(z, 0.0) + std::log1p(std::exp(-std::abs(z))); }
double sigmoid(double z) { return 1.0 / (1.0 + std::exp(-z)); }

enum Loss : uint8_t { kMse, kL1, kSmoothL1, kBce, kBceLogits, kKlDiv, kLossCount };

const LossKind kLosses[kLossCount] = {
    {"aclnnMseLoss", "aclnnMseLossBackward", Kernel::MseLoss, Kernel::MseLossGrad, 3, 4,
     [](const LossArgs& a) { return (a.x - a.t) * (a.x - a.t); }, [](const LossArgs& a) { return 2.0 * (a.x - a.t); }},
    {"aclnnL1Loss", "aclnnL1LossBackward", Kernel::LpLoss, Kernel::L1LossGrad, 2, 2,
     [](const LossArgs& a) { return std::abs(a.x - a.t); }, [](const LossArgs& a) { return sign(a.x - a.t); }},
    {"aclnnSmoothL1Loss", "aclnnSmoothL1LossBackward", Kernel::SmoothL1LossV2, Kernel::SmoothL1LossGradV2, 4, 4,
     [](const LossArgs& a) {
         const double d = std::abs(a.x - a.t), beta = a.attribute;
         return d < beta ? 0.5 * d * d / beta : d - 0.5 * beta;
     },
     [](const LossArgs& a) {
         const double d = a.x - a.t, beta = a.attribute;
         return std::abs(d) < beta ? d / beta : sign(d);
     }},
    {"aclnnBinaryCrossEntropy", "aclnnBinaryCrossEntropyBackward", Kernel::BinaryCrossEntropy,
     Kernel::BinaryCrossEntropyGrad, 8, 6,
     [](const LossArgs& a) {
         return -(a.t * std::max(std::log(a.x), -100.0) + (1.0 - a.t) * std::max(std::log(1.0 - a.x), -100.0));
     },
     [](const LossArgs& a) { return (a.x - a.t) / std::max((1.0 - a.x) * a.x, 1e-12); }},
    {"aclnnBinaryCrossEntropyWithLogits", "aclnnBinaryCrossEntropyWithLogitsBackward",
     Kernel::SigmoidCrossEntropyWithLogitsV2, Kernel::SigmoidCrossEntropyWithLogitsGradV2, 10, 8,
     [](const LossArgs& a) { return (1.0 - a.t) * a.x + (1.0 + (a.pos_weight - 1.0) * a.t) * softplus(-a.x); },
     [](const LossArgs& a) { return (1.0 - a.t) - (1.0 + (a.pos_weight - 1.0) * a.t) * sigmoid(-a.x); }},
    {"aclnnKlDiv", "aclnnKlDivBackward", Kernel::KLDivV2, Kernel::KlDivLossGrad, 4, 2,
     [](const LossArgs& a) {
         if (a.attribute != 0.0) return std::exp(a.t) * (a.t - a.x);
         return a.t > 0 ? a.t * (std::log(a.t) - a.x) : a.t == 0 ? 0.0 : std::nan("");
     },
     [](const LossArgs& a) { return a.attribute != 0.0 ? -std::exp(a.t) : -a.t; }},
};

[[maybe_unused]] const bool kRegistered = [] {
    for (const LossKind& k : kLosses) {
        register_op({k.api, OpFamily::Loss, kFloatTypes, k.kernel});
        register_op({k.backward_api, OpFamily::Loss, kFloatTypes, k.grad_kernel});
    }
    return true;
}();

// The inputs of a loss call; weight and pos_weight may be NULL (absent).
struct LossCall {
    Loss kind;
    bool backward;
    const aclTensor* grad;  // backward only
    const aclTensor* self;
    const aclTensor* target;
    const aclTensor* weight;
    const aclTensor* pos_weight;
    int64_t reduction;
    double attribute;
    aclTensor* out;
};

aclnnStatus check_float_tensor(const char* api, const char* what, const aclTensor* t, TensorView& view) {
    OPAPI_CHECK(check_tensor(api, what, t));
    view = view_of(t);
    OPAPI_CHECK(check_float_type(api, what, view.dtype));
    return check_rank(api, what, view.dims, 0, nn::kMaxDims);
}

aclnnStatus prepare_loss(const LossCall& c, uint64_t* workspaceSize, aclOpExecutor** executor) {
    const LossKind& kind = kLosses[c.kind];
    const char* api = c.backward ? kind.backward_api : kind.api;
    OPAPI_CHECK(check_not_null(api, {c.self, c.target, c.out, workspaceSize, executor}));
    if (c.backward) OPAPI_CHECK(check_not_null(api, {c.grad}));
    OPAPI_CHECK(check_reduction(api, c.reduction));
    TensorView x, t, y, g, w, pw;
    OPAPI_CHECK(check_float_tensor(api, "self", c.self, x));
    OPAPI_CHECK(check_float_tensor(api, "target", c.target, t));
    OPAPI_CHECK(check_float_tensor(api, "out", c.out, y));
    Dims shape;
    if (!broadcast_dims(x.dims, t.dims, shape)) {
        return invalid(api, "self %s and target %s do not broadcast", dims_text(x.dims).c_str(),
                       dims_text(t.dims).c_str());
    }
    // The optional tensors broadcast to the pair's shape without widening it.
    const auto fits = [&](const char* what, const aclTensor* handle, TensorView& view) -> aclnnStatus {
        if (handle == nullptr) return ACLNN_SUCCESS;
        OPAPI_CHECK(check_float_tensor(api, what, handle, view));
        Dims joint;
        if (!broadcast_dims(view.dims, shape, joint) || joint != shape) {
            return invalid(api, "%s %s does not broadcast to %s", what, dims_text(view.dims).c_str(),
                           dims_text(shape).c_str());
        }
        return ACLNN_SUCCESS;
    };
    if (c.backward) OPAPI_CHECK(fits("gradOutput", c.grad, g));
    OPAPI_CHECK(fits("weight", c.weight, w));
    OPAPI_CHECK(fits("posWeight", c.pos_weight, pw));
    OPAPI_CHECK(check_same_dims(api, c.backward ? "gradInput" : "out", y.dims,
                                c.backward || c.reduction == kReductionNone ? shape : Dims{}));
    const int64_t n = numel(shape);
    const double bytes = double(x.bytes() + t.bytes() + y.bytes() + (c.grad ? g.bytes() : 0) +
                                (c.weight ? w.bytes() : 0) + (c.pos_weight ? pw.bytes() : 0));
    std::vector<KernelLaunch> launches{
        {c.backward ? kind.grad_kernel : kind.kernel, y.dtype,
         vector_cost((c.backward ? kind.grad_flops : kind.flops) * double(n), bytes, n, 4096)}};
    std::vector<void*> args{x.data, t.data, y.data};
    for (const TensorView* v : {&g, &w, &pw}) {
        if (v->data) args.push_back(v->data);
    }
    const bool has_grad = c.backward, has_w = c.weight != nullptr, has_pw = c.pos_weight != nullptr;
    auto compute = [=]() {
        const std::vector<double> a = read_doubles(x, shape), b = read_doubles(t, shape);
        const std::vector<double> gv = has_grad ? read_doubles(g, shape) : std::vector<double>{};
        const std::vector<double> wv = has_w ? read_doubles(w, shape) : std::vector<double>{};
        const std::vector<double> pv = has_pw ? read_doubles(pw, shape) : std::vector<double>{};
        const LossFn fn = has_grad ? kind.grad : kind.loss;
        std::vector<double> r(a.size());
        double total = 0;
        for (size_t i = 0; i < a.size(); ++i) {
            r[i] = fn({a[i], b[i], has_pw ? pv[i] : 1.0, c.attribute}) * (has_w ? wv[i] : 1.0);
            if (has_grad) {
                r[i] *= gv[i] / (c.reduction == kReductionMean ? double(a.size()) : 1.0);
            }
            total += r[i];
        }
        if (!has_grad && c.reduction != kReductionNone) {
            r.assign(1, c.reduction == kReductionMean ? total / double(a.size()) : total);
        }
        write_doubles(y, r);
    };
    return hand_over(std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::move(args)), workspaceSize,
                     executor);
}

}  // namespace

}  // namespace npusim::opapi

OPAPI_ELEMENTWISE_ENTRY(aclnnMseLoss,
                        (const aclTensor* self, const aclTensor* target, int64_t reduction, aclTensor* out,
                         uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_loss({kMse, false, nullptr, self, target, nullptr, nullptr, reduction, 0, out},
                                     workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnMseLossBackward,
                        (const aclTensor* gradOutput, const aclTensor* self, const aclTensor* target, int64_t reduction,
                         aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_loss({kMse, true, gradOutput, self, target, nullptr, nullptr, reduction, 0, gradInput},
                                     workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnL1Loss,
                        (const aclTensor* self, const aclTensor* target, int64_t reduction, aclTensor* out,
                         uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_loss({kL1, false, nullptr, self, target, nullptr, nullptr, reduction, 0, out},
                                     workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnL1LossBackward,
                        (const aclTensor* gradOutput, const aclTensor* self, const aclTensor* target, int64_t reduction,
                         aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_loss({kL1, true, gradOutput, self, target, nullptr, nullptr, reduction, 0, gradInput},
                                     workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnSmoothL1Loss,
                        (const aclTensor* self, const aclTensor* target, int64_t reduction, float beta,
                         aclTensor* result, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_loss({kSmoothL1, false, nullptr, self, target, nullptr, nullptr, reduction, beta,
                                      result},
                                     workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnSmoothL1LossBackward,
                        (const aclTensor* gradOut, const aclTensor* self, const aclTensor* target, int64_t reduction,
                         float beta, aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_loss({kSmoothL1, true, gradOut, self, target, nullptr, nullptr, reduction, beta,
                                      gradInput},
                                     workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnBinaryCrossEntropy,
                        (const aclTensor* self, const aclTensor* target, const aclTensor* weight, int64_t reduction,
                         aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_loss({kBce, false, nullptr, self, target, weight, nullptr, reduction, 0, out},
                                     workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnBinaryCrossEntropyBackward,
                        (const aclTensor* gradOutput, const aclTensor* self, const aclTensor* target,
                         const aclTensor* weightOptional, int64_t reduction, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_loss({kBce, true, gradOutput, self, target, weightOptional, nullptr, reduction, 0, out},
                                     workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnBinaryCrossEntropyWithLogits,
                        (const aclTensor* self, const aclTensor* target, const aclTensor* weightOptional,
                         const aclTensor* posWeightOptional, int64_t reduction, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_loss({kBceLogits, false, nullptr, self, target, weightOptional, posWeightOptional,
                                      reduction, 0, out},
                                     workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnBinaryCrossEntropyWithLogitsBackward,
                        (const aclTensor* gradOutput, const aclTensor* self, const aclTensor* target,
                         const aclTensor* weightOptional, const aclTensor* posWeightOptional, int64_t reduction,
                         aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_loss({kBceLogits, true, gradOutput, self, target, weightOptional, posWeightOptional,
                                      reduction, 0, out},
                                     workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnKlDiv,
                        (const aclTensor* self, const aclTensor* target, int64_t reduction, bool logTarget,
                         aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_loss({kKlDiv, false, nullptr, self, target, nullptr, nullptr, reduction,
                                      logTarget ? 1.0 : 0.0, out},
                                     workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnKlDivBackward,
                        (const aclTensor* gradOutput, const aclTensor* self, const aclTensor* target, int64_t reduction,
                         bool logTarget, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_loss({kKlDiv, true, gradOutput, self, target, nullptr, nullptr, reduction,
                                      logTarget ? 1.0 : 0.0, out},
                                     workspaceSize, executor))
