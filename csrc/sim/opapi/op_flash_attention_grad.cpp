// aclnnFlashAttentionScoreGrad: the backward of aclnnFlashAttentionScore for the subset its forward
// supports (aclnnop/aclnn_flash_attention_score_grad.h). The probabilities P of each (batch, head,
// query row) are recomputed by the forward's own row (opapi/attention_plan.h), so they and the
// dropout bits are the forward's; then, with Pd = Dropout(P) and Z = pse + Q K^T (scores = scale * Z):
//   dV = Pd^T dy;   dPd = dy V^T;   dP = Dropout(dPd) (the same bits and 1 / keepProb);
//   dS = P * (dP - rowsum(P * dP));   dZ = scale * dS;   dQ = dZ K;   dK = dZ^T Q;   dpse = dZ
// (rowsum(P * dP) = rowsum(Pd * dPd) = dy . out, the term CANN reads from attentionIn). Key heads
// shared by a group of query heads sum the group's gradients; dpse sums over the axes the pse
// broadcasts along. Products accumulate in double and round once to the outputs' type.
#include <memory>

#include "aclnnop/aclnn_flash_attention_score_grad.h"
#include "core/fault_plan.h"
#include "opapi/attention_plan.h"
#include "opapi/checks.h"
#include "opapi/op_launcher.h"
#include "opapi/registry.h"

namespace npusim::opapi {

namespace {

[[maybe_unused]] const bool kRegistered = register_op(
    {"aclnnFlashAttentionScoreGrad", OpFamily::Attention, kFloatTypes, Kernel::FlashAttentionScoreGrad});

constexpr uint64_t kWorkspaceBytes = 16 * 1024;

struct Plan {
    AttentionPlan a;
    TensorView dy, dq, dk, dv, dpse;
    bool has_dpse = false;
};

void compute(const Plan& plan) {
    const AttentionPlan& p = plan.a;
    const AttentionInputs in = read_attention_inputs(p);
    const std::vector<float> dy = read_floats(plan.dy);
    const AttentionGeometry& gq = p.gq;
    const AttentionGeometry& gk = p.gk;
    std::vector<double> dq(in.q.size(), 0.0), dk(in.k.size(), 0.0), dv(in.v.size(), 0.0), dpse;
    if (plan.has_dpse) dpse.assign(size_t(numel(p.pse_dims)), 0.0);
    const double keep_scale = 1.0 / p.keep_prob;
    std::vector<float> row;
    std::vector<double> prob(size_t(gk.s)), dprob(size_t(gk.s));
    for (int64_t b = 0; b < gq.b; ++b) {
        for (int64_t n = 0; n < gq.n; ++n) {
            const int64_t kn = n / p.group();
            for (int64_t i = 0; i < gq.s; ++i) {
                const SoftmaxRow r = softmax_row(p, in, b, n, i, row);
                if (r.sum <= 0) continue;  // a fully masked row: the forward wrote zeros
                double rowsum = 0;         // rowsum(Pd * dPd)
                for (int64_t j = 0; j < gk.s; ++j) {
                    const double pj = double(row[size_t(j)]) / double(r.sum);
                    const bool keep = dropout_keeps(p, in, b, n, i, j);
                    const double pd = keep ? pj * keep_scale : 0.0;
                    double dpd = 0;  // dy_i . v_j
                    for (int64_t d = 0; d < gq.d; ++d) {
                        const double g = dy[size_t(gq.index(b, n, i, d))];
                        dpd += g * in.v[size_t(gk.index(b, kn, j, d))];
                        dv[size_t(gk.index(b, kn, j, d))] += pd * g;
                    }
                    rowsum += pd * dpd;
                    prob[size_t(j)] = pj;
                    dprob[size_t(j)] = keep ? dpd * keep_scale : 0.0;
                }
                for (int64_t j = 0; j < gk.s; ++j) {
                    const double dz = double(p.scale) * prob[size_t(j)] * (dprob[size_t(j)] - rowsum);
                    if (dz == 0) continue;
                    for (int64_t d = 0; d < gq.d; ++d) {
                        dq[size_t(gq.index(b, n, i, d))] += dz * in.k[size_t(gk.index(b, kn, j, d))];
                        dk[size_t(gk.index(b, kn, j, d))] += dz * in.q[size_t(gq.index(b, n, i, d))];
                    }
                    if (plan.has_dpse) {
                        const int64_t pb = p.pse_dims[0] == 1 ? 0 : b, pi = p.pse_dims[2] == 1 ? 0 : i;
                        dpse[size_t(((pb * gq.n + n) * p.pse_dims[2] + pi) * gk.s + j)] += dz;
                    }
                }
            }
        }
    }
    write_doubles(plan.dq, dq);
    write_doubles(plan.dk, dk);
    write_doubles(plan.dv, dv);
    if (plan.has_dpse) write_doubles(plan.dpse, dpse);
}

aclnnStatus check_output(const char* api, const char* what, const aclTensor* t, const TensorView& like,
                         TensorView& out) {
    OPAPI_CHECK(check_tensor(api, what, t));
    out = view_of(t);
    OPAPI_CHECK(check_same_dtype(api, what, out.dtype, like.dtype));
    return check_same_dims(api, what, out.dims, like.dims);
}

aclnnStatus prepare(const AttentionArgs& args, const aclTensor* dy, const aclTensor* dqOut, const aclTensor* dkOut,
                    const aclTensor* dvOut, const aclTensor* dpseOut, uint64_t* workspaceSize,
                    aclOpExecutor** executor) {
    const char* api = "aclnnFlashAttentionScoreGrad";
    OPAPI_CHECK(check_not_null(api, {dy, dqOut, dkOut, dvOut, workspaceSize, executor}));
    Plan plan;
    OPAPI_CHECK(plan_attention(api, args, plan.a));
    const AttentionPlan& p = plan.a;
    OPAPI_CHECK(check_output(api, "dy", dy, p.q, plan.dy));
    OPAPI_CHECK(check_output(api, "dqOut", dqOut, p.q, plan.dq));
    OPAPI_CHECK(check_output(api, "dkOut", dkOut, p.k, plan.dk));
    OPAPI_CHECK(check_output(api, "dvOut", dvOut, p.v, plan.dv));
    if (p.has_pse) {
        if (dpseOut == nullptr) return invalid(api, "pseShiftOptional is given: dpseOut is needed");
        OPAPI_CHECK(check_output(api, "dpseOut", dpseOut, p.pse, plan.dpse));
        plan.has_dpse = true;
    } else if (dpseOut != nullptr) {  // torch_npu passes an empty tensor when there is no pse
        OPAPI_CHECK(check_tensor(api, "dpseOut", dpseOut));
        if (view_of(dpseOut).numel() != 0) return invalid(api, "dpseOut must be empty without pseShiftOptional");
    }
    const double bytes = p.input_bytes() + double(plan.dy.bytes() + plan.dq.bytes() + plan.dk.bytes() + plan.dv.bytes() +
                                                  (plan.has_dpse ? plan.dpse.bytes() : 0));
    std::vector<KernelLaunch> launches{{Kernel::FlashAttentionScoreGrad, p.q.dtype,
                                        attention_grad_cost(p.gq.b, p.gq.n, p.gq.s, p.gk.s, p.gq.d, bytes, p.q.dtype)}};
    auto run = [plan]() { compute(plan); };
    return hand_over(std::make_unique<OpExecutor>(api, kWorkspaceBytes, run, std::move(launches),
                                                  std::vector<void*>{p.q.data, p.k.data, p.v.data, plan.dy.data,
                                                                     p.mask.data, plan.dq.data, plan.dk.data,
                                                                     plan.dv.data}),
                     workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnFlashAttentionScoreGradGetWorkspaceSize(
    const aclTensor* query, const aclTensor* keyIn, const aclTensor* value, const aclTensor* dy,
    const aclTensor* pseShiftOptional, const aclTensor* dropMaskOptional, const aclTensor* paddingMaskOptional,
    const aclTensor* attenMaskOptional, const aclTensor* softmaxMaxOptional, const aclTensor* softmaxSumOptional,
    const aclTensor* softmaxInOptional, const aclTensor* attentionInOptional, const aclIntArray* prefixOptional,
    double scaleValue, double keepProb, int64_t preTokens, int64_t nextTokens, int64_t headNum, char* inputLayout,
    int64_t innerPrecise, int64_t sparseMode, const aclTensor* dqOut, const aclTensor* dkOut, const aclTensor* dvOut,
    const aclTensor* dpseOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnFlashAttentionScoreGradGetWorkspaceSize", aclnnStatus);
    // Recomputed from query, key, the masks and the pse instead (see the header); paddingMask is reserved.
    (void)paddingMaskOptional, (void)softmaxMaxOptional, (void)softmaxSumOptional, (void)softmaxInOptional;
    (void)attentionInOptional, (void)innerPrecise;
    const npusim::opapi::AttentionArgs args{query,      keyIn,     value,     pseShiftOptional, dropMaskOptional,
                                            attenMaskOptional, prefixOptional, scaleValue, keepProb, preTokens,
                                            nextTokens, headNum,   sparseMode, inputLayout};
    return npusim::opapi::prepare(args, dy, dqOut, dkOut, dvOut, dpseOut, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnFlashAttentionScoreGrad)
