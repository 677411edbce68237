// aclnnFlashAttentionScoreGrad: the backward of aclnnFlashAttentionScore for the subset its forward
// supports (aclnnop/aclnn_flash_attention_score_grad.h). The probabilities P of each (batch, head,
// query row) are recomputed by the forward's own row (opapi/attention_plan.h), so they and the
// dropout bits are the forward's; then, with Pd = Dropout(P) and Z = pse + Q K^T (scores = scale * Z):
//   dV = Pd^T dy;   dPd = dy V^T;   dP = Dropout(dPd) (the same bits and 1 / keepProb);
//   dS = P * (dP - rowsum(P * dP));   dZ = scale * dS;   dQ = dZ K;   dK = dZ^T Q;   dpse = dZ
// (rowsum(P * dP) = rowsum(Pd * dPd) = dy . out, the term CANN reads from attentionIn). Key heads
// shared by a group of query heads sum the group's gradients; dpse sums over the axes the pse
// broadcasts along. The products run per (batch, head) on the GEMM primitive; everything
// accumulates in float32 and rounds once to the outputs' type, except that for float16/bfloat16
// inputs Pd and dZ are rounded to that type before their products, as CANN's cube takes them.
#include <memory>

#include "aclnnop/aclnn_flash_attention_score_grad.h"
#include "core/fault_plan.h"
#include "opapi/attention_plan.h"
#include "opapi/checks.h"
#include "opapi/math_library.h"
#include "opapi/op_launcher.h"
#include "opapi/registry.h"

namespace npusim::opapi {

namespace {

[[maybe_unused]] const bool kRegistered =
    register_op({"aclnnFlashAttentionScoreGrad", OpFamily::Attention, kFloatTypes, Kernel::FlashAttentionScoreGrad});

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
    std::vector<float> dq(in.q.size(), 0.0f), dk(in.k.size(), 0.0f), dv(in.v.size(), 0.0f), dpse;
    if (plan.has_dpse) dpse.assign(size_t(numel(p.pse_dims)), 0.0f);
    const float keep_scale = 1.0f / p.keep_prob;
    const int64_t sq = gq.s, skv = gk.s, d = gq.d;
    // Key heads split across the math library's threads: each owns its key heads' dK and dV rows and
    // its query heads' dQ and dpse rows.
    parallel_parts(gk.n, [&](int64_t first, int64_t last) {
        std::vector<float> probs, pd(size_t(sq * skv)), pd_cube, dz(size_t(sq * skv));
        std::vector<SoftmaxRow> rows;
        for (int64_t b = 0; b < gq.b; ++b) {
            for (int64_t n = first * p.group(); n < last * p.group(); ++n) {
                const int64_t kn = n / p.group();
                softmax_block(p, in, b, n, probs, rows);
                for (int64_t i = 0; i < sq; ++i) {  // P (normalised) and Pd = Dropout(P)
                    const float sum = rows[size_t(i)].sum;
                    float* prow = probs.data() + i * skv;
                    float* drow = pd.data() + i * skv;
                    for (int64_t j = 0; j < skv; ++j) {
                        prow[j] = sum > 0 ? prow[j] / sum : 0.0f;
                        drow[j] = dropout_keeps(p, in, b, n, i, j) ? prow[j] * keep_scale : 0.0f;
                    }
                }
                const Matrix dy_head = head_matrix(gq, dy.data(), b, n);
                Matrix v_t = head_matrix(gk, in.v.data(), b, kn);
                v_t.trans = true;
                // dV += Pd^T dy (Pd the cube's input type);  dPd = dy V^T (into dz)
                const float* pd_in = pd.data();
                if (cube_rounds(p)) {  // a float32 attention's cube takes Pd as it is: no copy
                    pd_cube = pd;
                    round_for_cube(p, pd_cube);
                    pd_in = pd_cube.data();
                }
                gemm(skv, d, sq, 1.0f, {pd_in, skv, true}, dy_head, 1.0f, dv.data() + gk.index(b, kn, 0, 0),
                     gk.row_stride());
                gemm(sq, skv, d, 1.0f, dy_head, v_t, 0.0f, dz.data(), skv);
                for (int64_t i = 0; i < sq; ++i) {  // dZ = scale * P * (Dropout(dPd) - rowsum(Pd * dPd))
                    const float* prow = probs.data() + i * skv;
                    const float* drow = pd.data() + i * skv;
                    float* zrow = dz.data() + i * skv;
                    float rowsum = 0.0f;
                    for (int64_t j = 0; j < skv; ++j) rowsum += drow[j] * zrow[j];
                    for (int64_t j = 0; j < skv; ++j) {
                        const float dp = dropout_keeps(p, in, b, n, i, j) ? zrow[j] * keep_scale : 0.0f;
                        zrow[j] = p.scale * prow[j] * (dp - rowsum);
                    }
                    if (plan.has_dpse) {
                        const int64_t pb = p.pse_dims[0] == 1 ? 0 : b, pi = p.pse_dims[2] == 1 ? 0 : i;
                        float* prow_pse = dpse.data() + ((pb * gq.n + n) * p.pse_dims[2] + pi) * skv;
                        for (int64_t j = 0; j < skv; ++j) prow_pse[j] += zrow[j];
                    }
                }
                // dQ = dZ K;  dK += dZ^T Q (dZ the cube's input type)
                round_for_cube(p, dz);
                gemm(sq, d, skv, 1.0f, {dz.data(), skv, false}, head_matrix(gk, in.k.data(), b, kn), 0.0f,
                     dq.data() + gq.index(b, n, 0, 0), gq.row_stride());
                gemm(skv, d, sq, 1.0f, {dz.data(), skv, true}, head_matrix(gq, in.q.data(), b, n), 1.0f,
                     dk.data() + gk.index(b, kn, 0, 0), gk.row_stride());
            }
        }
    });
    write_floats(plan.dq, dq);
    write_floats(plan.dk, dk);
    write_floats(plan.dv, dv);
    if (plan.has_dpse) write_floats(plan.dpse, dpse);
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
    const double bytes = p.input_bytes() + double(plan.dy.bytes() + plan.dq.bytes() + plan.dk.bytes() +
                                                  plan.dv.bytes() + (plan.has_dpse ? plan.dpse.bytes() : 0));
    std::vector<KernelLaunch> launches{{Kernel::FlashAttentionScoreGrad, p.q.dtype,
                                        attention_grad_cost(p.gq.b, p.gq.n, p.gq.s, p.gk.s, p.gq.d, bytes, p.q.dtype)}};
    auto run = [plan]() { compute(plan); };
    return hand_over(
        std::make_unique<OpExecutor>(api, kWorkspaceBytes, run, std::move(launches),
                                     std::vector<void*>{p.q.data, p.k.data, p.v.data, plan.dy.data, p.mask.data,
                                                        plan.dq.data, plan.dk.data, plan.dv.data}),
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
    const npusim::opapi::AttentionArgs args{
        query,      keyIn,    value,     pseShiftOptional, dropMaskOptional, attenMaskOptional, prefixOptional,
        scaleValue, keepProb, preTokens, nextTokens,       headNum,          sparseMode,        inputLayout};
    return npusim::opapi::prepare(args, dy, dqOut, dkOut, dvOut, dpseOut, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnFlashAttentionScoreGrad)
