// What a kernel launch costs in the device model: FLOPs, bytes moved to and from
// device memory, and the blockDim it is launched with (from the SoC's core count and
// the size of the work). The runtime turns FLOPs and bytes into a roofline duration.
//
// Formulas (n = output elements unless stated):
//   element-wise binary      flops = n (Add/Sub/Mul/RealDiv), 2n (Axpy: a + alpha*b)
//   Cast, ViewCopy, Relu,    flops = n;   Exp, Tanh, Sigmoid, Silu 4n;   Gelu 8n
//   Neg
//   MatMul / BatchMatMul     flops = 2 * batch * M * N * K
//   SoftmaxV2                flops = 5 * input elements (max, subtract, exp, sum, divide)
//   LayerNormV4 / RmsNorm    flops = 8 / 4 * input elements
//   ReduceSum / ReduceMean   flops = input elements (+ n for the mean's division)
//   GatherV2, Transpose,     flops = 0 (pure data movement)
//   ZerosLike, Fill
//   FlashAttentionScore      flops = 4 * B * N * Sq * Skv * D (two products) + 5 * B * N * Sq * Skv
//   FlashAttentionScoreGrad  the forward's FLOPs and modelled duration x 2.5 (five products: the
//                            scores recomputed, dV, dP, dQ, dK), its own bytes
//   GeluGrad 12n;  MseLoss 3n (n: the broadcast elements);  MseLossGrad 4n;  SoftmaxGrad 4n;
//   LayerNormGradV3 12 * input elements;  ForeachAddList 2 * elements of all its tensors;
//   ConcatD 0 (data movement); Addmm / Mm are MatMul (the bias term rides in the epilogue)
//   LogSoftmaxV2 5n, LogSoftmaxGrad 4n;  NLLLoss, NLLLossGrad 2 * batch;  Pow 4n;  ReduceMax n
//   SiluGrad 8n (the sigmoid's 4n and the product);  EmbeddingDenseGrad grad's elements (one add
//   each; + the output's elements with scaleGradByFreq), bytes: grad, indices and the output
//   Element-wise operators of opapi/elementwise.h: the FLOPs per element of their declaration
//   (Lerp, Addcmul, Addcdiv 3n; Sqrt 4n; comparisons, LogicalNot, ThresholdGradV2D n; fills 0) and
//   the bytes of every tensor read and the output, in the working type; the foreach kernels sum
//   both over the list. StatelessDropOutGenMask 10n (the Philox rounds), bytes the mask's;
//   DropOutDoMask 2n; Triu / Tril n; Mish 10n, MishGrad 16n, SoftplusV2 6n, SoftplusV2Grad 8n;
//   MaskedFill n; Rsqrt 5n; ReduceAll input elements; GroupNorm 8 / GroupNormGrad 12 * input elements;
//   Invert (aclnnBitwiseNot) n.
//   bytes = the bytes of every input read plus every output written.
// Cube and attention kernels carry a modelled duration (docs/timing.md): tile quantisation over
// the cube cores, a floor for pipeline fill, per-dtype rates and the efficiencies of
// sim_runtime/data/timing.toml; vector kernels keep the roofline, their FLOPs scaled by the
// dtype's vector rate (vector_rate) and their bytes by the effective HBM bandwidth.
// blockDim: vector kernels one block per 4096 output elements (reductions: per row),
// cube kernels one block per 128 x 256 output tile (per batch), MIX kernels one block
// per 128 query rows of each (batch, head); always at least 1 and at most the number
// of cores of the kernel's type on the configured SoC.
#pragma once

#include <cstdint>

#include "acl/acl_base.h"
#include "core/catalogue.h"

namespace npusim::opapi {

struct LaunchCost {
    double flops = 0;
    double bytes = 0;
    uint32_t block_dim = 1;
    double duration_ns = 0;  // modelled device time of the kernel body; 0: the roofline of flops and bytes
    double compute_ns = 0;   // with duration_ns: its compute and memory terms (overlapping; AI Core metrics)
    double memory_ns = 0;
};

// Cores of a type on the configured SoC (AIV for vector kernels, AIC for cube and MIX).
uint32_t core_count(CoreType core);

LaunchCost vector_cost(double flops, double bytes, int64_t parallel_items, int64_t items_per_block);
// The vector rate of a dtype relative to fp16 on the configured SoC (fp32 runs at half rate).
double vector_rate(aclDataType dtype);

LaunchCost cube_cost(int64_t batch, int64_t m, int64_t n, int64_t k, double bytes, aclDataType dtype);
LaunchCost attention_cost(int64_t batch, int64_t heads, int64_t sq, int64_t skv, int64_t d, double bytes,
                          aclDataType dtype);
LaunchCost attention_grad_cost(int64_t batch, int64_t heads, int64_t sq, int64_t skv, int64_t d, double bytes,
                               aclDataType dtype);

}  // namespace npusim::opapi
