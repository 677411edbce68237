// The kernels of the operator library, as data: which kernel an operator launches,
// the core type it runs on and the names a profiler sees.
//
// Naming scheme (modelled on CANN's op binaries):
//   kernel name  CANN's own name where a public capture gives it for the (kernel type, data
//                type) pair: the [[kernel]] entries of sim_runtime/data/kernel_names.toml, e.g.
//                Axpy_233851a3505389e43928a8bba133a74d_high_performance_210000000 (aclnnAdd,
//                float32). Otherwise the rule:
//                <Type>_<32 hex digits>_high_performance_<tiling key>[_mix_aic]. The 32 hex
//                digits are a 128-bit digest of "<Type>/<dtype>" (two seeded 64-bit FNV-1a),
//                so each (kernel, dtype) pair has its own stable name; MIX kernels carry the
//                "_mix_aic" suffix.
//   node name    <aclnn API>_<L0 operator>_<Type>, e.g. aclnnAdd_AxpyAiCore_Axpy: the
//                name of the node-launch (level 10000, type 5) report of each launch.
// One binary per (kernel type, core type) is loaded with aclrtBinaryLoadFromData, its
// magic chosen by the core type (vector core, cube core, or plain AI core for MIX).
#pragma once

#include <cstdint>
#include <string>

#include "acl/acl_base.h"
#include "core/catalogue.h"

namespace npusim::opapi {

enum class Kernel : uint8_t {
    Add,
    Axpy,
    Sub,
    Mul,
    RealDiv,
    Cast,
    MatMulV2,
    BatchMatMulV2,
    SoftmaxV2,
    LayerNormV4,
    RmsNorm,
    Gelu,
    Silu,
    Relu,
    GatherV2,
    Transpose,
    ReduceSum,
    ReduceMean,
    ViewCopy,
    FlashAttentionScore,
    Muls,
    ZerosLike,
    Exp,
    Neg,
    Sigmoid,
    Tanh,
    Fill,
    GeluGrad,
    MseLoss,
    MseLossGrad,
    ForeachAddList,
    LayerNormGradV3,
    SoftmaxGrad,
    ConcatD,
    LogSoftmaxV2,
    LogSoftmaxGrad,
    NLLLoss,
    NLLLossGrad,
    Pow,
    ReduceMax,
    SiluGrad,
    EmbeddingDenseGrad,
    Lerp,
    Sqrt,
    Addcmul,
    Addcdiv,
    ForeachMulScalar,
    ForeachAddScalar,
    ForeachDivScalar,
    ForeachSqrt,
    ForeachLerpScalar,
    ForeachAddcmulScalar,
    ForeachAddcdivScalar,
    StatelessDropOutGenMask,
    DropOutDoMask,
    Triu,
    Tril,
    NotEqual,
    Equal,
    LogicalNot,
    ThresholdGradV2D,
    FlashAttentionScoreGrad,
    Mish,
    MishGrad,
    SoftplusV2,
    SoftplusV2Grad,
    MaskedFill,
    Rsqrt,
    ReduceAll,
    GroupNorm,
    GroupNormGrad,
    Invert,
    Abs,
    Sign,
    Log,
    Log1p,
    Expm1,
    Sin,
    Cos,
    Erf,
    Reciprocal,
    Floor,
    Ceil,
    Round,
    Trunc,
    HardSwish,
    HardSwishGrad,
    HardSigmoid,
    HardSigmoidGrad,
    LeakyRelu,
    LeakyReluGrad,
    Elu,
    ClipByValueV2,
    HardtanhGrad,
    GeluV2,
    GeluGradV2,
    Greater,
    Less,
    GreaterEqual,
    LessEqual,
    LogicalAnd,
    LogicalOr,
    Maximum,
    Minimum,
    SelectV2,
    Cumsum,
    ArgMaxV2,
    ArgMin,
    BatchNormV3,
    BatchNormGradV3,
    CeluV2,
    EluGradV2,
    ReverseV2,
    StatelessRandomUniformV2,
    StatelessRandomNormalV2,
    MaxPoolWithArgmaxV1,
    MaxPoolGradWithArgmaxV1,
    AvgPoolV2,
    AvgPoolV2Grad,
    GatherElements,
    ScatterElements,
    Pack,
    Tile,
    Range,
    Sort,
    TopKV2,
    Index,
    IndexPutV2,
    StatelessRandomInt,
    Conv2D,
    Conv2DBackpropInput,
    Conv2DBackpropFilter,
    Conv2DTranspose,
    PadV3,
    LpNormV2,
    ForeachNorm,
    ForeachNonFiniteCheckAndUnscale,
    AmpUpdateScale,
    BitwiseAnd,
    ReduceAny,
    TanhGrad,
    ReduceMin,
    ReduceProd,
    ReduceVar,
    ReduceStdV2,
    ReduceLogSumExp,
    NonZero,
    MaskedSelectV3,
    LpLoss,
    L1LossGrad,
    SmoothL1LossV2,
    SmoothL1LossGradV2,
    BinaryCrossEntropy,
    BinaryCrossEntropyGrad,
    SigmoidCrossEntropyWithLogitsV2,
    SigmoidCrossEntropyWithLogitsGradV2,
    KLDivV2,
    KlDivLossGrad,
    Tan,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Asinh,
    Acosh,
    Atanh,
    Atan2,
    Mod,
    FloorMod,
    FloorDiv,
    LogAddExp,
    BitwiseOr,
    BitwiseXor,
    SigmoidGrad,
    SoftShrink,
    SoftShrinkGrad,
    HardShrink,
    HardShrinkGrad,
    InplaceIndexAdd,
    IndexFillD,
    Roll,
    MaskedScatter,
    ArgMaxWithValue,
    ArgMinWithValue,
    OneHot,
    // the breadth operators (op_along_dim.cpp, op_pad.cpp, op_adaptive_pool.cpp)
    Cumprod,
    GluGrad,
    MirrorPad,
    AdaptiveAvgPool2d,
    // upsampling (op_upsample.cpp)
    ResizeNearestNeighborV2,
    ResizeNearestNeighborV2Grad,
    ResizeBilinearV2,
    ResizeBilinearV2Grad,
    // op_im2col.cpp
    Im2col,
    Col2im,
    HistogramV2,   // op_histc.cpp
    SearchSorted,  // op_searchsorted.cpp
    Median,        // op_median.cpp
    UniqueWithCountsAndSorting,  // op_unique.cpp
    UniqueConsecutive,
    GridSampler2D,  // op_grid_sampler.cpp
    GridSampler2DGrad,
    // aclop types (aclop.cpp, aclop_pad_grad.cpp)
    IsFinite,
    PadV3Grad,
    Count
};

struct KernelSpec {
    Kernel id;
    const char* type;      // kernel operator type
    const char* l0_op;     // the middle part of node names
    uint64_t tiling_key;
    CoreType core;
};

const KernelSpec& kernel_spec(Kernel id);

// The recorded name for the given data type, else "Axpy_<digest>_high_performance_210000000".
std::string kernel_name(const KernelSpec& spec, aclDataType dtype);
// "aclnnAdd_AxpyAiCore_Axpy".
std::string node_name(const char* api, const KernelSpec& spec);
// The ACL_RT_BINARY_MAGIC_ELF_* magic for a core type.
uint32_t binary_magic(CoreType core);

}  // namespace npusim::opapi
