// What aclnnFlashAttentionScore and aclnnFlashAttentionScoreGrad share: their common arguments
// (layout, heads, masks, pse, dropout) checked and read into one plan, and the softmax row both
// compute the same way, so the backward sees exactly the probabilities (and dropout bits) of the
// forward it differentiates.
//   scores = Mask(scale * (pse + Q K^T), atten_mask); P = Softmax(scores); Pd = Dropout(P, keepProb)
// The supported subset is documented in include/aclnnop/aclnn_flash_attention_score.h.
#pragma once

#include <cstdint>
#include <vector>

#include "aclnn/acl_meta.h"
#include "opapi/gemm.h"
#include "opapi/tensor_io.h"

namespace npusim::opapi {

enum class AttentionLayout { BSH, BSND, BNSD };

// Where element (b, n, s, d) of a Q/K/V/out tensor lives in its row-major logical order.
struct AttentionGeometry {
    AttentionLayout layout = AttentionLayout::BSH;
    int64_t b = 0, n = 0, s = 0, d = 0;
    int64_t index(int64_t bi, int64_t ni, int64_t si, int64_t di) const {
        switch (layout) {
            case AttentionLayout::BSH:
            case AttentionLayout::BSND: return ((bi * s + si) * n + ni) * d + di;
            case AttentionLayout::BNSD: return ((bi * n + ni) * s + si) * d + di;
        }
        return 0;
    }
    // The distance between rows s and s + 1 of one head.
    int64_t row_stride() const { return layout == AttentionLayout::BNSD ? d : n * d; }
};

// The arguments both phases of both operators take, as the first phase accepted them.
struct AttentionArgs {
    const aclTensor* query = nullptr;
    const aclTensor* key = nullptr;
    const aclTensor* value = nullptr;
    const aclTensor* real_shift = nullptr;
    const aclTensor* drop_mask = nullptr;
    const aclTensor* atten_mask = nullptr;
    const aclIntArray* prefix = nullptr;
    double scale = 1, keep_prob = 1;
    int64_t pre_tokens = 0, next_tokens = 0, head_num = 0, sparse_mode = 0;
    const char* layout = nullptr;
};

struct AttentionPlan {
    TensorView q, k, v, mask, pse, drop;
    AttentionGeometry gq, gk;
    bool has_mask = false, has_pse = false, has_drop = false;
    Dims mask_dims;  // mask read as [B or 1, N or 1, Sq, Skv]
    Dims pse_dims;   // pse read as [B or 1, N, Sq or 1, Skv]
    float scale = 1;
    float keep_prob = 1;
    int64_t sparse = 0;
    int64_t group() const { return gq.n / gk.n; }  // query heads per key head
    double input_bytes() const;                     // q, k, v and the masks and pse read
};

// Checks the shared arguments (ACLNN_ERR_PARAM_NULLPTR / ACLNN_ERR_PARAM_INVALID with a log line
// naming `api` otherwise) and fills `plan`.
aclnnStatus plan_attention(const char* api, const AttentionArgs& args, AttentionPlan& plan);

// The plan's inputs read into host buffers (second phase).
struct AttentionInputs {
    std::vector<float> q, k, v, pse;
    std::vector<double> mask, drop;
};
AttentionInputs read_attention_inputs(const AttentionPlan& p);

// Per query row: the peak of its scores and the sum of exp(score - peak) (sum 0 when the whole row
// is masked).
struct SoftmaxRow {
    float peak = 0;
    float sum = 0;
};
// Head (b, n)'s block of exp(scores - peak): probs[i * Skv + j] (0 where masked), the scores
// Q K^T computed by the GEMM primitive (float32), with each row's peak and sum in `rows`.
void softmax_block(const AttentionPlan& p, const AttentionInputs& in, int64_t b, int64_t n, std::vector<float>& probs,
                   std::vector<SoftmaxRow>& rows);
// Head (b, n) of a buffer in the logical order of a tensor of geometry g, as a [S, D] matrix.
Matrix head_matrix(const AttentionGeometry& g, const float* data, int64_t b, int64_t n);
// Whether the dropout keeps probability (b, n, i, j) (always, without dropout).
bool dropout_keeps(const AttentionPlan& p, const AttentionInputs& in, int64_t b, int64_t n, int64_t i, int64_t j);
// A vector-unit block (float32) made the cube's input: rounded to the attention's input type when
// that is float16 or bfloat16 (the cube takes them; ops-transformer's FlashAttentionScore design
// notes), unchanged for float32. The forward rounds the probabilities before the product with V, the
// backward the probabilities before dV and dS before dQ and dK.
void round_for_cube(const AttentionPlan& p, std::vector<float>& block);
// True when round_for_cube changes a block (a float16 or bfloat16 attention).
bool cube_rounds(const AttentionPlan& p);

}  // namespace npusim::opapi
