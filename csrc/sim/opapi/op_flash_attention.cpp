// aclnnFlashAttentionScore, forward: the subset documented in
// aclnnop/aclnn_flash_attention_score.h. Scores and the softmax are computed in
// float per (batch, head, query row); one MIX kernel is launched.
//   attention_out = Dropout(Softmax(Mask(scale * (pse + query * key^T), atten_mask)), keep_prob) * value
// (CANN's formula): realShift is the pse ([B,N,Sq,Skv], [B,N,1,Skv] or [1,N,Sq,Skv]); dropMask a
// uint8 bit mask (bit k of byte k/8 for element k of [B,N,Sq,Skv], 1 keeps, kept values scaled by
// 1/keepProb); sparseMode 0 and 1 read attenMask as given, 2 (leftUpCausal) and 3 (rightDownCausal)
// mask the upper triangle from the top-left or the bottom-right corner and take CANN's compressed
// [2048, 2048] mask without reading it; paddingMask is reserved by CANN and not read. sparseMode 4
// to 8 (band, prefix) and preTokens / nextTokens other than the full range are refused.
#include <cmath>
#include <cstring>
#include <memory>
#include <string>

#include "aclnnop/aclnn_flash_attention_score.h"
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
    register_op({"aclnnFlashAttentionScore", OpFamily::Attention, kFloatTypes, Kernel::FlashAttentionScore});

constexpr uint64_t kWorkspaceBytes = 16 * 1024;  // what the kernel asks for (split-K scratch on real parts)
constexpr int64_t kStatLanes = 8;                 // softmaxMax / softmaxSum repeat each row's value 8 times

enum class Layout { BSH, BSND, BNSD };

// Where element (b, n, s, d) of a Q/K/V/out tensor lives in its row-major logical order.
struct Geometry {
    Layout layout = Layout::BSH;
    int64_t b = 0, n = 0, s = 0, d = 0;
    int64_t index(int64_t bi, int64_t ni, int64_t si, int64_t di) const {
        switch (layout) {
            case Layout::BSH:
            case Layout::BSND: return ((bi * s + si) * n + ni) * d + di;
            case Layout::BNSD: return ((bi * n + ni) * s + si) * d + di;
        }
        return 0;
    }
};

bool parse_geometry(Layout layout, const Dims& dims, int64_t heads_hint, int64_t head_dim, Geometry& g) {
    g.layout = layout;
    switch (layout) {
        case Layout::BSH:
            if (dims.size() != 3 || head_dim <= 0 || dims[2] % head_dim != 0) return false;
            g.b = dims[0], g.s = dims[1], g.n = dims[2] / head_dim, g.d = head_dim;
            return true;
        case Layout::BSND:
            if (dims.size() != 4) return false;
            g.b = dims[0], g.s = dims[1], g.n = dims[2], g.d = dims[3];
            return true;
        case Layout::BNSD:
            if (dims.size() != 4) return false;
            g.b = dims[0], g.n = dims[1], g.s = dims[2], g.d = dims[3];
            return true;
    }
    (void)heads_hint;
    return false;
}

constexpr int64_t kTokenMax = 2147483647;  // preTokens / nextTokens: no band

struct Plan {
    TensorView q, k, v, mask, out, smax, ssum, pse, drop;
    Geometry gq, gk;
    bool has_mask = false, has_max = false, has_sum = false, has_pse = false, has_drop = false;
    Dims mask_dims;  // mask read as [B or 1, N or 1, Sq, Skv]
    Dims pse_dims;   // pse read as [B or 1, N, Sq or 1, Skv]
    float scale = 1;
    float keep_prob = 1;
    int64_t sparse = 0;
};

// Whether score (b, n, i, j) is masked out.
bool masked(const Plan& p, const std::vector<double>& mask, int64_t b, int64_t n, int64_t i, int64_t j) {
    switch (p.sparse) {
        case 2: return j > i;                          // leftUpCausal
        case 3: return j > i + (p.gk.s - p.gq.s);      // rightDownCausal
        default: break;
    }
    if (!p.has_mask) return false;
    const int64_t mb = p.mask_dims[0] == 1 ? 0 : b, mn = p.mask_dims[1] == 1 ? 0 : n;
    return mask[size_t(((mb * p.mask_dims[1] + mn) * p.gq.s + i) * p.gk.s + j)] != 0;
}

void compute(const Plan& p) {
    const std::vector<float> q = read_floats(p.q), k = read_floats(p.k), v = read_floats(p.v);
    std::vector<double> mask;
    if (p.has_mask && p.sparse < 2) mask = read_doubles(p.mask);
    std::vector<float> pse;
    if (p.has_pse) pse = read_floats(p.pse);
    std::vector<double> drop;
    if (p.has_drop) drop = read_doubles(p.drop);
    const float keep_scale = 1.0f / p.keep_prob;
    const Geometry& gq = p.gq;
    const Geometry& gk = p.gk;
    const int64_t group = gq.n / gk.n;
    std::vector<float> out(q.size(), 0.0f), smax, ssum;
    if (p.has_max) smax.resize(static_cast<size_t>(gq.b * gq.n * gq.s * kStatLanes));
    if (p.has_sum) ssum.resize(static_cast<size_t>(gq.b * gq.n * gq.s * kStatLanes));
    std::vector<float> score(static_cast<size_t>(gk.s));
    for (int64_t b = 0; b < gq.b; ++b) {
        for (int64_t n = 0; n < gq.n; ++n) {
            const int64_t kn = n / group;
            for (int64_t i = 0; i < gq.s; ++i) {
                float peak = -INFINITY;
                for (int64_t j = 0; j < gk.s; ++j) {
                    float dot = 0;
                    for (int64_t d = 0; d < gq.d; ++d) dot += q[size_t(gq.index(b, n, i, d))] * k[size_t(gk.index(b, kn, j, d))];
                    if (p.has_pse) {
                        const int64_t pb = p.pse_dims[0] == 1 ? 0 : b, pi = p.pse_dims[2] == 1 ? 0 : i;
                        dot += pse[size_t(((pb * gq.n + n) * p.pse_dims[2] + pi) * gk.s + j)];
                    }
                    float sc = dot * p.scale;
                    if (masked(p, mask, b, n, i, j)) sc = -INFINITY;
                    score[size_t(j)] = sc;
                    peak = std::max(peak, sc);
                }
                float sum = 0;
                for (float& sc : score) {
                    sc = std::isinf(peak) ? 0.0f : std::exp(sc - peak);
                    sum += sc;
                }
                if (p.has_drop) {  // the probabilities' dropout: kept ones scaled by 1 / keepProb
                    const int64_t base = ((b * gq.n + n) * gq.s + i) * gk.s;
                    for (int64_t j = 0; j < gk.s; ++j) {
                        const int64_t bit = base + j;
                        const auto byte = static_cast<unsigned>(drop[size_t(bit >> 3)]);
                        score[size_t(j)] = ((byte >> (bit & 7)) & 1u) != 0 ? score[size_t(j)] * keep_scale : 0.0f;
                    }
                }
                for (int64_t d = 0; d < gq.d; ++d) {
                    float acc = 0;
                    for (int64_t j = 0; j < gk.s; ++j) acc += score[size_t(j)] * v[size_t(gk.index(b, kn, j, d))];
                    out[size_t(gq.index(b, n, i, d))] = sum > 0 ? acc / sum : 0.0f;
                }
                const size_t row = size_t(((b * gq.n + n) * gq.s + i) * kStatLanes);
                for (int64_t lane = 0; lane < kStatLanes; ++lane) {
                    if (p.has_max) smax[row + size_t(lane)] = peak;
                    if (p.has_sum) ssum[row + size_t(lane)] = sum;
                }
            }
        }
    }
    write_floats(p.out, out);
    if (p.has_max) write_floats(p.smax, smax);
    if (p.has_sum) write_floats(p.ssum, ssum);
}

aclnnStatus check_stat(const char* api, const char* what, const aclTensor* t, const Dims& dims) {
    if (t == nullptr) return ACLNN_SUCCESS;
    OPAPI_CHECK(check_tensor(api, what, t));
    const TensorView s = view_of(t);
    OPAPI_CHECK(check_same_dtype(api, what, s.dtype, ACL_FLOAT));
    return check_same_dims(api, what, s.dims, dims);
}

aclnnStatus prepare(const aclTensor* query, const aclTensor* key, const aclTensor* value, const aclTensor* realShift,
                    const aclTensor* dropMask, const aclTensor* paddingMask, const aclTensor* attenMask,
                    const aclIntArray* prefix, double scaleValue, double keepProb, int64_t preTokens, int64_t nextTokens,
                    int64_t headNum, const char* inputLayout, int64_t sparseMode, const aclTensor* softmaxMaxOut, const aclTensor* softmaxSumOut,
                    const aclTensor* attentionOut, uint64_t* workspaceSize, aclOpExecutor** executor) {
    const char* api = "aclnnFlashAttentionScore";
    OPAPI_CHECK(check_not_null(api, {query, key, value, inputLayout, attentionOut, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "query", query));
    OPAPI_CHECK(check_tensor(api, "key", key));
    OPAPI_CHECK(check_tensor(api, "value", value));
    OPAPI_CHECK(check_tensor(api, "attentionOutOut", attentionOut));
    (void)paddingMask;  // reserved by CANN
    // torch_npu passes an empty array for no prefix.
    if (prefix != nullptr && (!nn::valid(prefix) || !prefix->values.empty())) {
        return invalid(api, "prefixOptional (sparseMode 5 and 6) is not supported");
    }
    if (!(keepProb > 0.0 && keepProb <= 1.0)) return invalid(api, "keepProb %g is outside (0, 1]", keepProb);
    if (keepProb < 1.0 && dropMask == nullptr) return invalid(api, "keepProb %g < 1 needs dropMaskOptional", keepProb);
    if (sparseMode < 0 || sparseMode > 3) {
        return invalid(api, "sparseMode %lld: 0 to 3 are supported", (long long)sparseMode);
    }
    if ((sparseMode == 0 || sparseMode == 4) && (preTokens < kTokenMax || nextTokens < kTokenMax)) {
        return invalid(api, "preTokens %lld / nextTokens %lld: only the full range (%lld) is supported with sparseMode 0",
                       (long long)preTokens, (long long)nextTokens, (long long)kTokenMax);
    }
    if (headNum <= 0) return invalid(api, "headNum %lld must be positive", (long long)headNum);
    Plan p;
    p.sparse = sparseMode;
    p.keep_prob = static_cast<float>(keepProb);
    p.q = view_of(query), p.k = view_of(key), p.v = view_of(value), p.out = view_of(attentionOut);
    OPAPI_CHECK(check_float_type(api, "query", p.q.dtype));
    OPAPI_CHECK(check_same_dtype(api, "key", p.k.dtype, p.q.dtype));
    OPAPI_CHECK(check_same_dtype(api, "value", p.v.dtype, p.q.dtype));
    OPAPI_CHECK(check_same_dtype(api, "attentionOutOut", p.out.dtype, p.q.dtype));
    Layout layout;
    const std::string name = inputLayout;
    if (name == "BSH") layout = Layout::BSH;
    else if (name == "BSND") layout = Layout::BSND;
    else if (name == "BNSD") layout = Layout::BNSD;
    else return invalid(api, "inputLayout \"%s\": BSH, BSND or BNSD expected", inputLayout);
    int64_t head_dim = 0;
    if (layout == Layout::BSH) {
        if (p.q.rank() != 3 || p.q.dims[2] % headNum != 0) return invalid(api, "query %s does not hold %lld heads", dims_text(p.q.dims).c_str(), (long long)headNum);
        head_dim = p.q.dims[2] / headNum;
    }
    if (!parse_geometry(layout, p.q.dims, headNum, head_dim, p.gq) || !parse_geometry(layout, p.k.dims, 0, p.gq.d, p.gk)) {
        return invalid(api, "query %s / key %s do not match layout %s", dims_text(p.q.dims).c_str(), dims_text(p.k.dims).c_str(), inputLayout);
    }
    if (p.gq.n != headNum) return invalid(api, "query has %lld heads, headNum is %lld", (long long)p.gq.n, (long long)headNum);
    if (p.gk.b != p.gq.b || p.gk.d != p.gq.d || p.gk.n == 0 || p.gq.n % p.gk.n != 0) {
        return invalid(api, "key %s does not fit query %s", dims_text(p.k.dims).c_str(), dims_text(p.q.dims).c_str());
    }
    OPAPI_CHECK(check_same_dims(api, "value", p.v.dims, p.k.dims));
    OPAPI_CHECK(check_same_dims(api, "attentionOutOut", p.out.dims, p.q.dims));
    if ((sparseMode == 2 || sparseMode == 3) && attenMask == nullptr) {
        p.sparse = 0;  // CANN: without attenMask the sparse mode takes no effect (full computation)
    }
    if (attenMask != nullptr) {
        OPAPI_CHECK(check_tensor(api, "attenMaskOptional", attenMask));
        p.mask = view_of(attenMask);
        if (p.mask.dtype != ACL_BOOL && p.mask.dtype != ACL_UINT8) return invalid(api, "attenMaskOptional must be bool or uint8");
        const Dims& m = p.mask.dims;
        if (p.sparse >= 2) {
            if (m.size() != 2) return invalid(api, "attenMaskOptional %s: sparseMode %lld takes a 2-D (compressed) mask", dims_text(m).c_str(), (long long)sparseMode);
            p.mask_dims = {1, 1, m[0], m[1]};
        } else if (m.size() == 2 && m[0] == p.gq.s && m[1] == p.gk.s) {
            p.mask_dims = {1, 1, m[0], m[1]};
        } else if (m.size() == 4 && (m[0] == 1 || m[0] == p.gq.b) && (m[1] == 1 || m[1] == p.gq.n) && m[2] == p.gq.s &&
                   m[3] == p.gk.s) {
            p.mask_dims = m;
        } else {
            return invalid(api, "attenMaskOptional %s does not fit [Sq, Skv] or [B|1, N|1, Sq, Skv]", dims_text(m).c_str());
        }
        p.has_mask = true;
    }
    if (realShift != nullptr) {
        OPAPI_CHECK(check_tensor(api, "realShiftOptional", realShift));
        p.pse = view_of(realShift);
        OPAPI_CHECK(check_same_dtype(api, "realShiftOptional", p.pse.dtype, p.q.dtype));
        const Dims& r = p.pse.dims;
        const bool fits = r.size() == 4 && r[1] == p.gq.n && r[3] == p.gk.s &&
                          ((r[0] == p.gq.b && (r[2] == p.gq.s || r[2] == 1)) || (r[0] == 1 && r[2] == p.gq.s));
        if (!fits) {
            return invalid(api, "realShiftOptional %s: [B,N,Sq,Skv], [B,N,1,Skv] or [1,N,Sq,Skv] expected",
                           dims_text(r).c_str());
        }
        p.pse_dims = r;
        p.has_pse = true;
    }
    if (dropMask != nullptr) {
        OPAPI_CHECK(check_tensor(api, "dropMaskOptional", dropMask));
        p.drop = view_of(dropMask);
        OPAPI_CHECK(check_same_dtype(api, "dropMaskOptional", p.drop.dtype, ACL_UINT8));
        const int64_t bits = p.gq.b * p.gq.n * p.gq.s * p.gk.s;
        if (p.drop.numel() * 8 < bits) {
            return invalid(api, "dropMaskOptional holds %lld bits; %lld expected", (long long)(p.drop.numel() * 8),
                           (long long)bits);
        }
        p.has_drop = keepProb < 1.0;
    }
    const Dims stat = {p.gq.b, p.gq.n, p.gq.s, kStatLanes};
    OPAPI_CHECK(check_stat(api, "softmaxMaxOut", softmaxMaxOut, stat));
    OPAPI_CHECK(check_stat(api, "softmaxSumOut", softmaxSumOut, stat));
    p.smax = view_of(softmaxMaxOut), p.ssum = view_of(softmaxSumOut);
    p.has_max = softmaxMaxOut != nullptr, p.has_sum = softmaxSumOut != nullptr;
    p.scale = static_cast<float>(scaleValue);
    const double bytes = double(p.q.bytes() + p.k.bytes() + p.v.bytes() + p.out.bytes() + (p.has_mask ? p.mask.bytes() : 0) +
                                (p.has_pse ? p.pse.bytes() : 0) + (p.has_drop ? p.drop.bytes() : 0) +
                                (p.has_max ? p.smax.bytes() : 0) + (p.has_sum ? p.ssum.bytes() : 0));
    std::vector<KernelLaunch> launches{
        {Kernel::FlashAttentionScore, p.q.dtype, attention_cost(p.gq.b, p.gq.n, p.gq.s, p.gk.s, p.gq.d, bytes, p.q.dtype)}};
    auto run = [p]() { compute(p); };
    return hand_over(std::make_unique<OpExecutor>(api, kWorkspaceBytes, run, std::move(launches),
                                                  std::vector<void*>{p.q.data, p.k.data, p.v.data, p.mask.data, p.smax.data,
                                                                     p.ssum.data, p.out.data}),
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
    return npusim::opapi::prepare(query, key, value, realShiftOptional, dropMaskOptional, paddingMaskOptional,
                                  attenMaskOptional, prefixOptional, scaleValue, keepProb, preTokens, nextTokens, headNum,
                                  inputLayout, sparseMode,
                                  softmaxMaxOut, softmaxSumOut, attentionOutOut, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnFlashAttentionScore)
