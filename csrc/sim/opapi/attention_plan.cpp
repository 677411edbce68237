// The arguments and the softmax row shared by the flash-attention operators (opapi/attention_plan.h).
#include "opapi/attention_plan.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "nnopbase/tensor.h"
#include "opapi/checks.h"

namespace npusim::opapi {

namespace {

constexpr int64_t kTokenMax = 2147483647;  // preTokens / nextTokens: no band

bool parse_geometry(AttentionLayout layout, const Dims& dims, int64_t head_dim, AttentionGeometry& g) {
    g.layout = layout;
    switch (layout) {
        case AttentionLayout::BSH:
            if (dims.size() != 3 || head_dim <= 0 || dims[2] % head_dim != 0) return false;
            g.b = dims[0], g.s = dims[1], g.n = dims[2] / head_dim, g.d = head_dim;
            return true;
        case AttentionLayout::BSND:
            if (dims.size() != 4) return false;
            g.b = dims[0], g.s = dims[1], g.n = dims[2], g.d = dims[3];
            return true;
        case AttentionLayout::BNSD:
            if (dims.size() != 4) return false;
            g.b = dims[0], g.n = dims[1], g.s = dims[2], g.d = dims[3];
            return true;
    }
    return false;
}

// Whether score (b, n, i, j) is masked out.
bool masked(const AttentionPlan& p, const std::vector<double>& mask, int64_t b, int64_t n, int64_t i, int64_t j) {
    switch (p.sparse) {
        case 2: return j > i;                      // leftUpCausal
        case 3: return j > i + (p.gk.s - p.gq.s);  // rightDownCausal
        default: break;
    }
    if (!p.has_mask) return false;
    const int64_t mb = p.mask_dims[0] == 1 ? 0 : b, mn = p.mask_dims[1] == 1 ? 0 : n;
    return mask[size_t(((mb * p.mask_dims[1] + mn) * p.gq.s + i) * p.gk.s + j)] != 0;
}

aclnnStatus plan_mask(const char* api, const AttentionArgs& a, AttentionPlan& p) {
    if ((p.sparse == 2 || p.sparse == 3) && a.atten_mask == nullptr) {
        p.sparse = 0;  // CANN: without attenMask the sparse mode takes no effect (full computation)
    }
    if (a.atten_mask == nullptr) return ACLNN_SUCCESS;
    OPAPI_CHECK(check_tensor(api, "attenMaskOptional", a.atten_mask));
    p.mask = view_of(a.atten_mask);
    if (p.mask.dtype != ACL_BOOL && p.mask.dtype != ACL_UINT8)
        return invalid(api, "attenMaskOptional must be bool or uint8");
    const Dims& m = p.mask.dims;
    if (p.sparse >= 2) {
        if (m.size() != 2) {
            return invalid(api, "attenMaskOptional %s: sparseMode %lld takes a 2-D (compressed) mask",
                           dims_text(m).c_str(), (long long)p.sparse);
        }
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
    return ACLNN_SUCCESS;
}

aclnnStatus plan_shift_and_dropout(const char* api, const AttentionArgs& a, AttentionPlan& p) {
    if (a.real_shift != nullptr) {
        OPAPI_CHECK(check_tensor(api, "realShiftOptional", a.real_shift));
        p.pse = view_of(a.real_shift);
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
    if (a.drop_mask != nullptr) {
        OPAPI_CHECK(check_tensor(api, "dropMaskOptional", a.drop_mask));
        p.drop = view_of(a.drop_mask);
        OPAPI_CHECK(check_same_dtype(api, "dropMaskOptional", p.drop.dtype, ACL_UINT8));
        const int64_t bits = p.gq.b * p.gq.n * p.gq.s * p.gk.s;
        if (p.drop.numel() * 8 < bits) {
            return invalid(api, "dropMaskOptional holds %lld bits; %lld expected", (long long)(p.drop.numel() * 8),
                           (long long)bits);
        }
        p.has_drop = a.keep_prob < 1.0;
    }
    return ACLNN_SUCCESS;
}

}  // namespace

double AttentionPlan::input_bytes() const {
    return double(q.bytes() + k.bytes() + v.bytes() + (has_mask ? mask.bytes() : 0) + (has_pse ? pse.bytes() : 0) +
                  (has_drop ? drop.bytes() : 0));
}

aclnnStatus plan_attention(const char* api, const AttentionArgs& a, AttentionPlan& p) {
    OPAPI_CHECK(check_not_null(api, {a.query, a.key, a.value, a.layout}));
    OPAPI_CHECK(check_tensor(api, "query", a.query));
    OPAPI_CHECK(check_tensor(api, "key", a.key));
    OPAPI_CHECK(check_tensor(api, "value", a.value));
    // torch_npu passes an empty array for no prefix.
    if (a.prefix != nullptr && (!nn::valid(a.prefix) || !a.prefix->values.empty())) {
        return invalid(api, "prefixOptional (sparseMode 5 and 6) is not supported");
    }
    if (!(a.keep_prob > 0.0 && a.keep_prob <= 1.0)) return invalid(api, "keepProb %g is outside (0, 1]", a.keep_prob);
    if (a.keep_prob < 1.0 && a.drop_mask == nullptr) {
        return invalid(api, "keepProb %g < 1 needs dropMaskOptional", a.keep_prob);
    }
    if (a.sparse_mode < 0 || a.sparse_mode > 3) {
        return invalid(api, "sparseMode %lld: 0 to 3 are supported", (long long)a.sparse_mode);
    }
    if (a.sparse_mode == 0 && (a.pre_tokens < kTokenMax || a.next_tokens < kTokenMax)) {
        return invalid(api,
                       "preTokens %lld / nextTokens %lld: only the full range (%lld) is supported with sparseMode 0",
                       (long long)a.pre_tokens, (long long)a.next_tokens, (long long)kTokenMax);
    }
    if (a.head_num <= 0) return invalid(api, "headNum %lld must be positive", (long long)a.head_num);
    p.sparse = a.sparse_mode;
    p.keep_prob = static_cast<float>(a.keep_prob);
    p.scale = static_cast<float>(a.scale);
    p.q = view_of(a.query), p.k = view_of(a.key), p.v = view_of(a.value);
    OPAPI_CHECK(check_float_type(api, "query", p.q.dtype));
    OPAPI_CHECK(check_same_dtype(api, "key", p.k.dtype, p.q.dtype));
    OPAPI_CHECK(check_same_dtype(api, "value", p.v.dtype, p.q.dtype));
    AttentionLayout layout;
    const std::string name = a.layout;
    if (name == "BSH") layout = AttentionLayout::BSH;
    else if (name == "BSND") layout = AttentionLayout::BSND;
    else if (name == "BNSD") layout = AttentionLayout::BNSD;
    else return invalid(api, "inputLayout \"%s\": BSH, BSND or BNSD expected", a.layout);
    int64_t head_dim = 0;
    if (layout == AttentionLayout::BSH) {
        if (p.q.rank() != 3 || p.q.dims[2] % a.head_num != 0) {
            return invalid(api, "query %s does not hold %lld heads", dims_text(p.q.dims).c_str(),
                           (long long)a.head_num);
        }
        head_dim = p.q.dims[2] / a.head_num;
    }
    if (!parse_geometry(layout, p.q.dims, head_dim, p.gq) || !parse_geometry(layout, p.k.dims, p.gq.d, p.gk)) {
        return invalid(api, "query %s / key %s do not match layout %s", dims_text(p.q.dims).c_str(),
                       dims_text(p.k.dims).c_str(), a.layout);
    }
    if (p.gq.n != a.head_num) {
        return invalid(api, "query has %lld heads, headNum is %lld", (long long)p.gq.n, (long long)a.head_num);
    }
    if (p.gk.b != p.gq.b || p.gk.d != p.gq.d || p.gk.n == 0 || p.gq.n % p.gk.n != 0) {
        return invalid(api, "key %s does not fit query %s", dims_text(p.k.dims).c_str(), dims_text(p.q.dims).c_str());
    }
    OPAPI_CHECK(check_same_dims(api, "value", p.v.dims, p.k.dims));
    OPAPI_CHECK(plan_mask(api, a, p));
    return plan_shift_and_dropout(api, a, p);
}

AttentionInputs read_attention_inputs(const AttentionPlan& p) {
    AttentionInputs in;
    in.q = read_floats(p.q), in.k = read_floats(p.k), in.v = read_floats(p.v);
    if (p.has_mask && p.sparse < 2) in.mask = read_doubles(p.mask);
    if (p.has_pse) in.pse = read_floats(p.pse);
    if (p.has_drop) in.drop = read_doubles(p.drop);
    return in;
}

Matrix head_matrix(const AttentionGeometry& g, const float* data, int64_t b, int64_t n) {
    return {data + g.index(b, n, 0, 0), g.row_stride(), false};
}

void softmax_block(const AttentionPlan& p, const AttentionInputs& in, int64_t b, int64_t n, std::vector<float>& probs,
                   std::vector<SoftmaxRow>& rows) {
    const AttentionGeometry& gq = p.gq;
    const AttentionGeometry& gk = p.gk;
    const int64_t kn = n / p.group();
    probs.resize(size_t(gq.s * gk.s));
    rows.resize(size_t(gq.s));
    Matrix kt = head_matrix(gk, in.k.data(), b, kn);
    kt.trans = true;
    gemm(gq.s, gk.s, gq.d, 1.0f, head_matrix(gq, in.q.data(), b, n), kt, 0.0f, probs.data(), gk.s);
    for (int64_t i = 0; i < gq.s; ++i) {
        float* row = probs.data() + i * gk.s;
        SoftmaxRow r;
        r.peak = -INFINITY;
        const int64_t pb = p.has_pse && p.pse_dims[0] == 1 ? 0 : b, pi = p.has_pse && p.pse_dims[2] == 1 ? 0 : i;
        const float* pse = p.has_pse ? in.pse.data() + ((pb * gq.n + n) * p.pse_dims[2] + pi) * gk.s : nullptr;
        for (int64_t j = 0; j < gk.s; ++j) {
            float sc = (pse != nullptr ? row[j] + pse[j] : row[j]) * p.scale;
            if ((p.has_mask || p.sparse >= 2) && masked(p, in.mask, b, n, i, j)) sc = -INFINITY;
            row[j] = sc;
            r.peak = std::max(r.peak, sc);
        }
        if (std::isinf(r.peak)) {
            std::fill(row, row + gk.s, 0.0f);
        } else {
            for (int64_t j = 0; j < gk.s; ++j) {
                row[j] = std::exp(row[j] - r.peak);
                r.sum += row[j];
            }
        }
        rows[size_t(i)] = r;
    }
}

bool dropout_keeps(const AttentionPlan& p, const AttentionInputs& in, int64_t b, int64_t n, int64_t i, int64_t j) {
    if (!p.has_drop) return true;
    const int64_t bit = ((b * p.gq.n + n) * p.gq.s + i) * p.gk.s + j;
    const auto byte = static_cast<unsigned>(in.drop[size_t(bit >> 3)]);
    return ((byte >> (bit & 7)) & 1u) != 0;
}

bool cube_rounds(const AttentionPlan& p) { return p.q.dtype == ACL_FLOAT16 || p.q.dtype == ACL_BF16; }

void round_for_cube(const AttentionPlan& p, std::vector<float>& block) {
    if (!cube_rounds(p)) return;
    for (float& x : block) x = round_to(p.q.dtype, x);
}

}  // namespace npusim::opapi
