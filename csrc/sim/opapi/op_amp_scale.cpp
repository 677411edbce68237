// The loss-scaling steps of mixed-precision training (torch.amp.GradScaler on device npu):
//   aclnnForeachNonFiniteCheckAndUnscale  every tensor of scaledGrads multiplied in place by invScale
//                                         (a one-element float32 tensor, read when the kernel runs);
//                                         foundInf (one-element float32) set to 1 when any element
//                                         was inf or NaN, left as it was otherwise. One
//                                         ForeachNonFiniteCheckAndUnscale kernel for the list.
//   aclnnAmpUpdateScale                   the new scale and growth tracker (torch's
//                                         _amp_update_scale_): after an inf the scale times
//                                         backoffFactor and the tracker 0; after growthInterval
//                                         clean steps the scale times growthFactor (kept when that
//                                         is not finite) and the tracker 0; otherwise the tracker
//                                         plus one. One AmpUpdateScale kernel.
#include <cmath>
#include <memory>

#include "aclnnop/aclnn_amp_update_scale.h"
#include "aclnnop/aclnn_foreach_non_finite_check_and_unscale.h"
#include "core/fault_plan.h"
#include "nnopbase/dtype.h"
#include "nnopbase/tensor.h"
#include "opapi/checks.h"
#include "opapi/op_launcher.h"
#include "opapi/registry.h"

namespace npusim::opapi {

namespace {

[[maybe_unused]] const bool kRegistered =
    register_op({"aclnnForeachNonFiniteCheckAndUnscale", OpFamily::Foreach, kFloatTypes,
                 Kernel::ForeachNonFiniteCheckAndUnscale}) &&
    register_op({"aclnnAmpUpdateScale", OpFamily::Foreach, DTypeSet{ACL_FLOAT}, Kernel::AmpUpdateScale});

// A one-element tensor of the given type.
aclnnStatus check_single(const char* api, const char* what, const aclTensor* t, aclDataType dtype, TensorView& view) {
    OPAPI_CHECK(check_tensor(api, what, t));
    view = view_of(t);
    OPAPI_CHECK(check_same_dtype(api, what, view.dtype, dtype));
    if (view.numel() != 1) return invalid(api, "%s has %lld elements; 1 expected", what, (long long)view.numel());
    return ACLNN_SUCCESS;
}

aclnnStatus prepare_unscale(const aclTensorList* grads, const aclTensor* foundInf, const aclTensor* invScale,
                            uint64_t* workspaceSize, aclOpExecutor** executor) {
    const char* api = "aclnnForeachNonFiniteCheckAndUnscale";
    OPAPI_CHECK(check_not_null(api, {grads, foundInf, invScale, workspaceSize, executor}));
    if (grads->magic != nn::kArrayMagic || grads->tensors.empty()) {
        return invalid(api, "scaledGrads is not a live, non-empty aclTensorList");
    }
    TensorView found, inv;
    OPAPI_CHECK(check_single(api, "foundInf", foundInf, ACL_FLOAT, found));
    OPAPI_CHECK(check_single(api, "invScale", invScale, ACL_FLOAT, inv));
    std::vector<TensorView> views;
    std::vector<void*> args;
    double bytes = 0.0, elements = 0.0;
    for (const aclTensor* t : grads->tensors) {
        OPAPI_CHECK(check_tensor(api, "scaledGrads", t));
        TensorView v = view_of(t);
        OPAPI_CHECK(check_float_type(api, "scaledGrads", v.dtype));
        bytes += 2.0 * double(v.bytes());
        elements += double(v.numel());
        args.push_back(v.data);
        views.push_back(std::move(v));
    }
    args.push_back(found.data);
    args.push_back(inv.data);
    std::vector<KernelLaunch> launches{{Kernel::ForeachNonFiniteCheckAndUnscale, views.front().dtype,
                                        vector_cost(2.0 * elements, bytes, int64_t(views.size()), 1)}};
    auto compute = [views, found, inv]() {
        const double scale = read_doubles(inv).front();
        bool non_finite = false;
        for (const TensorView& v : views) {
            std::vector<double> values = read_doubles(v);
            for (double& x : values) {
                non_finite = non_finite || !std::isfinite(x);
                x *= scale;
            }
            write_doubles(v, values);
        }
        if (non_finite) write_doubles(found, {1.0});
    };
    return hand_over(std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::move(args)), workspaceSize,
                     executor);
}

aclnnStatus prepare_update(const aclTensor* currentScale, const aclTensor* growthTracker, const aclTensor* foundInf,
                           double growthFactor, double backoffFactor, int64_t growthInterval,
                           const aclTensor* updatedScale, const aclTensor* updatedGrowthTracker,
                           uint64_t* workspaceSize, aclOpExecutor** executor) {
    const char* api = "aclnnAmpUpdateScale";
    OPAPI_CHECK(check_not_null(
        api, {currentScale, growthTracker, foundInf, updatedScale, updatedGrowthTracker, workspaceSize, executor}));
    TensorView scale, tracker, found, new_scale, new_tracker;
    OPAPI_CHECK(check_single(api, "currentScale", currentScale, ACL_FLOAT, scale));
    OPAPI_CHECK(check_single(api, "growthTracker", growthTracker, ACL_INT32, tracker));
    OPAPI_CHECK(check_single(api, "foundInf", foundInf, ACL_FLOAT, found));
    OPAPI_CHECK(check_single(api, "updatedScale", updatedScale, ACL_FLOAT, new_scale));
    OPAPI_CHECK(check_single(api, "updatedGrowthTracker", updatedGrowthTracker, ACL_INT32, new_tracker));
    if (growthInterval <= 0)
        return invalid(api, "growthInterval is %lld; a positive count expected", (long long)growthInterval);
    std::vector<KernelLaunch> launches{{Kernel::AmpUpdateScale, ACL_FLOAT, vector_cost(4.0, 20.0, 1, 1)}};
    auto compute = [=]() {
        double s = read_doubles(scale).front();
        double t = read_doubles(tracker).front();
        if (read_doubles(found).front() != 0.0) {
            s *= backoffFactor;
            t = 0.0;
        } else if (t + 1.0 == double(growthInterval)) {
            const double grown = double(round_to(ACL_FLOAT, float(s * growthFactor)));
            if (std::isfinite(grown)) s = grown;
            t = 0.0;
        } else {
            t += 1.0;
        }
        write_doubles(new_scale, {s});
        write_doubles(new_tracker, {t});
    };
    return hand_over(std::make_unique<OpExecutor>(
                         api, 0, compute, std::move(launches),
                         std::vector<void*>{scale.data, tracker.data, found.data, new_scale.data, new_tracker.data}),
                     workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnForeachNonFiniteCheckAndUnscaleGetWorkspaceSize(const aclTensorList* scaledGrads,
                                                                                 const aclTensor* foundInf,
                                                                                 const aclTensor* invScale,
                                                                                 uint64_t* workspaceSize,
                                                                                 aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnForeachNonFiniteCheckAndUnscaleGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_unscale(scaledGrads, foundInf, invScale, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnForeachNonFiniteCheckAndUnscale)

NPUSIM_C_EXPORT aclnnStatus aclnnAmpUpdateScaleGetWorkspaceSize(
    const aclTensor* currentScale, const aclTensor* growthTracker, const aclTensor* foundInf, double growthFactor,
    double backoffFactor, int64_t growthInterval, const aclTensor* updatedScale, const aclTensor* updatedGrowthTracker,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnAmpUpdateScaleGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_update(currentScale, growthTracker, foundInf, growthFactor, backoffFactor,
                                         growthInterval, updatedScale, updatedGrowthTracker, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnAmpUpdateScale)
