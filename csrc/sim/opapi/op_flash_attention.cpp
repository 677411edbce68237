// aclnnFlashAttentionScore, forward: the subset documented in
// aclnnop/aclnn_flash_attention_score.h. Per (batch, head), the scores Q K^T and the product of the
// probabilities with V run on the GEMM primitive (float32), the softmax per row by the shared block
// of opapi/attention_plan.h (float32), the probabilities rounded to a float16/bfloat16 input's type
// before their product with V, as CANN's cube takes them; one MIX kernel is launched.
//   attention_out = Dropout(Softmax(Mask(scale * (pse + query * key^T), atten_mask)), keep_prob) * value
// (CANN's formula): realShift is the pse ([B,N,Sq,Skv], [B,N,1,Skv] or [1,N,Sq,Skv]); dropMask a
// uint8 bit mask (bit k of byte k/8 for element k of [B,N,Sq,Skv], 1 keeps, kept values scaled by
// 1/keepProb); sparseMode 0 and 1 read attenMask as given, 2 (leftUpCausal) and 3 (rightDownCausal)
// mask the upper triangle from the top-left or the bottom-right corner and take CANN's compressed
// [2048, 2048] mask without reading it; paddingMask is reserved by CANN and not read. sparseMode 4
// to 8 (band, prefix) and preTokens / nextTokens other than the full range are refused.
#include <memory>

#include "aclnnop/aclnn_flash_attention_score.h"
#include "core/fault_plan.h"
#include "opapi/attention_plan.h"
#include "opapi/checks.h"
#include "opapi/math_library.h"
#include "opapi/op_launcher.h"
#include "opapi/registry.h"

namespace npusim::opapi {

namespace {

// Declared in the operator registry (hand-written: its own checks and compute).
[[maybe_unused]] const bool kRegistered =
    register_op({"aclnnFlashAttentionScore", OpFamily::Attention, kFloatTypes, Kernel::FlashAttentionScore});

constexpr uint64_t kWorkspaceBytes = 16 * 1024;  // what the kernel asks for (split-K scratch on real parts)
constexpr int64_t kStatLanes = 8;                 // softmaxMax / softmaxSum repeat each row's value 8 times

struct Plan {
    AttentionPlan a;
    TensorView out, smax, ssum;
    bool has_max = false, has_sum = false;
};

void compute(const Plan& plan) {
    const AttentionPlan& p = plan.a;
    const AttentionInputs in = read_attention_inputs(p);
    const float keep_scale = 1.0f / p.keep_prob;
    const AttentionGeometry& gq = p.gq;
    const AttentionGeometry& gk = p.gk;
    std::vector<float> out(in.q.size(), 0.0f), smax, ssum;
    if (plan.has_max) smax.resize(static_cast<size_t>(gq.b * gq.n * gq.s * kStatLanes));
    if (plan.has_sum) ssum.resize(static_cast<size_t>(gq.b * gq.n * gq.s * kStatLanes));
    const int64_t ld = gq.row_stride();
    // Key heads split across the math library's threads (each writes its query heads' rows only).
    parallel_parts(gk.n, [&](int64_t first, int64_t last) {
        std::vector<float> probs;
        std::vector<SoftmaxRow> rows;
        for (int64_t b = 0; b < gq.b; ++b) {
            for (int64_t n = first * p.group(); n < last * p.group(); ++n) {
                const int64_t kn = n / p.group();
                softmax_block(p, in, b, n, probs, rows);
                if (p.has_drop) {  // the probabilities' dropout: kept ones scaled by 1 / keepProb
                    for (int64_t i = 0; i < gq.s; ++i) {
                        float* row = probs.data() + i * gk.s;
                        for (int64_t j = 0; j < gk.s; ++j) {
                            row[j] = dropout_keeps(p, in, b, n, i, j) ? row[j] * keep_scale : 0.0f;
                        }
                    }
                }
                round_for_cube(p, probs);
                float* o = out.data() + gq.index(b, n, 0, 0);
                gemm(gq.s, gq.d, gk.s, 1.0f, {probs.data(), gk.s, false}, head_matrix(gk, in.v.data(), b, kn), 0.0f, o,
                     ld);
                for (int64_t i = 0; i < gq.s; ++i) {
                    const SoftmaxRow& row = rows[size_t(i)];
                    float* orow = o + i * ld;
                    for (int64_t d = 0; d < gq.d; ++d) orow[d] = row.sum > 0 ? orow[d] / row.sum : 0.0f;
                    const size_t base = size_t(((b * gq.n + n) * gq.s + i) * kStatLanes);
                    for (int64_t lane = 0; lane < kStatLanes; ++lane) {
                        if (plan.has_max) smax[base + size_t(lane)] = row.peak;
                        if (plan.has_sum) ssum[base + size_t(lane)] = row.sum;
                    }
                }
            }
        }
    });
    write_floats(plan.out, out);
    if (plan.has_max) write_floats(plan.smax, smax);
    if (plan.has_sum) write_floats(plan.ssum, ssum);
}

aclnnStatus check_stat(const char* api, const char* what, const aclTensor* t, const Dims& dims) {
    if (t == nullptr) return ACLNN_SUCCESS;
    OPAPI_CHECK(check_tensor(api, what, t));
    const TensorView s = view_of(t);
    OPAPI_CHECK(check_same_dtype(api, what, s.dtype, ACL_FLOAT));
    return check_same_dims(api, what, s.dims, dims);
}

aclnnStatus prepare(const AttentionArgs& args, const aclTensor* paddingMask, const aclTensor* softmaxMaxOut,
                    const aclTensor* softmaxSumOut, const aclTensor* attentionOut, uint64_t* workspaceSize,
                    aclOpExecutor** executor) {
    const char* api = "aclnnFlashAttentionScore";
    OPAPI_CHECK(check_not_null(api, {attentionOut, workspaceSize, executor}));
    (void)paddingMask;  // reserved by CANN
    Plan plan;
    OPAPI_CHECK(plan_attention(api, args, plan.a));
    const AttentionPlan& p = plan.a;
    OPAPI_CHECK(check_tensor(api, "attentionOutOut", attentionOut));
    plan.out = view_of(attentionOut);
    OPAPI_CHECK(check_same_dtype(api, "attentionOutOut", plan.out.dtype, p.q.dtype));
    OPAPI_CHECK(check_same_dims(api, "attentionOutOut", plan.out.dims, p.q.dims));
    const Dims stat = {p.gq.b, p.gq.n, p.gq.s, kStatLanes};
    OPAPI_CHECK(check_stat(api, "softmaxMaxOut", softmaxMaxOut, stat));
    OPAPI_CHECK(check_stat(api, "softmaxSumOut", softmaxSumOut, stat));
    plan.smax = view_of(softmaxMaxOut), plan.ssum = view_of(softmaxSumOut);
    plan.has_max = softmaxMaxOut != nullptr, plan.has_sum = softmaxSumOut != nullptr;
    const double bytes = p.input_bytes() + double(plan.out.bytes() + (plan.has_max ? plan.smax.bytes() : 0) +
                                                  (plan.has_sum ? plan.ssum.bytes() : 0));
    std::vector<KernelLaunch> launches{{Kernel::FlashAttentionScore, p.q.dtype,
                                        attention_cost(p.gq.b, p.gq.n, p.gq.s, p.gk.s, p.gq.d, bytes, p.q.dtype)}};
    auto run = [plan]() { compute(plan); };
    return hand_over(std::make_unique<OpExecutor>(api, kWorkspaceBytes, run, std::move(launches),
                                                  std::vector<void*>{p.q.data, p.k.data, p.v.data, p.mask.data,
                                                                     plan.smax.data, plan.ssum.data, plan.out.data}),
                     workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnFlashAttentionScoreGetWorkspaceSize(
    const aclTensor* query, const aclTensor* key, const aclTensor* value, const aclTensor* realShiftOptional,
    const aclTensor* dropMaskOptional, const aclTensor* paddingMaskOptional, const aclTensor* attenMaskOptional,
    const aclIntArray* prefixOptional, double scaleValue, double keepProb, int64_t preTokens, int64_t nextTokens,
    int64_t headNum, char* inputLayout, int64_t innerPrecise, int64_t sparseMode, const aclTensor* softmaxMaxOut,
    const aclTensor* softmaxSumOut, const aclTensor* softmaxOutOut, const aclTensor* attentionOutOut,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnFlashAttentionScoreGetWorkspaceSize", aclnnStatus);
    (void)innerPrecise, (void)softmaxOutOut;
    const npusim::opapi::AttentionArgs args{
        query,      key,      value,     realShiftOptional, dropMaskOptional, attenMaskOptional, prefixOptional,
        scaleValue, keepProb, preTokens, nextTokens,        headNum,          sparseMode,        inputLayout};
    return npusim::opapi::prepare(args, paddingMaskOptional, softmaxMaxOut, softmaxSumOut, attentionOutOut,
                                  workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnFlashAttentionScore)
