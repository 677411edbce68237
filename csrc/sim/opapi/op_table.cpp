#include "opapi/op_table.h"

#include <array>
#include <cstdio>
#include <map>
#include <utility>

#include "acl/acl_rt.h"
#include "core/catalogue.h"
#include "core/immortal.h"
#include "core/log.h"
#include "core/toml_document.h"
#include "nnopbase/dtype.h"

namespace npusim::opapi {

namespace {

// One row per kernel, in Kernel order.
constexpr std::array<KernelSpec, static_cast<size_t>(Kernel::Count)> kKernels = {{
    {Kernel::Add, "Add", "AddAiCore", 100000000, CoreType::AIV},
    {Kernel::Axpy, "Axpy", "AxpyAiCore", 210000000, CoreType::AIV},
    {Kernel::Sub, "Sub", "SubAiCore", 100000000, CoreType::AIV},
    {Kernel::Mul, "Mul", "MulAiCore", 100000000, CoreType::AIV},
    {Kernel::RealDiv, "RealDiv", "RealDivAiCore", 100000000, CoreType::AIV},
    {Kernel::Cast, "Cast", "CastAiCore", 1000, CoreType::AIV},
    {Kernel::MatMulV2, "MatMulV2", "MatMulCommon", 10000001, CoreType::AIC},
    {Kernel::BatchMatMulV2, "BatchMatMulV2", "BatchMatMulCommon", 10000001, CoreType::AIC},
    {Kernel::SoftmaxV2, "SoftmaxV2", "SoftmaxV2AiCore", 10000, CoreType::AIV},
    {Kernel::LayerNormV4, "LayerNormV4", "LayerNormV4AiCore", 100, CoreType::AIV},
    {Kernel::RmsNorm, "RmsNorm", "RmsNormAiCore", 1, CoreType::AIV},
    {Kernel::Gelu, "Gelu", "GeluAiCore", 1, CoreType::AIV},
    {Kernel::Silu, "Silu", "SiluAiCore", 1, CoreType::AIV},
    {Kernel::Relu, "Relu", "ReluAiCore", 1, CoreType::AIV},
    {Kernel::GatherV2, "GatherV2", "GatherV2AiCore", 1000, CoreType::AIV},
    {Kernel::Transpose, "Transpose", "TransposeAiCore", 10000, CoreType::AIV},
    {Kernel::ReduceSum, "ReduceSum", "ReduceSumAiCore", 2100, CoreType::AIV},
    {Kernel::ReduceMean, "ReduceMean", "ReduceMeanAiCore", 2100, CoreType::AIV},
    {Kernel::ViewCopy, "ViewCopy", "ViewCopyAiCore", 1, CoreType::AIV},
    {Kernel::FlashAttentionScore, "FlashAttentionScore", "FlashAttentionScoreAiCore", 10000000000000, CoreType::MIX},
    {Kernel::Muls, "Muls", "MulsAiCore", 100000000, CoreType::AIV},
    {Kernel::ZerosLike, "ZerosLike", "ZerosLikeAiCore", 1, CoreType::AIV},
    {Kernel::Exp, "Exp", "ExpAiCore", 1, CoreType::AIV},
    {Kernel::Neg, "Neg", "NegAiCore", 1, CoreType::AIV},
    {Kernel::Sigmoid, "Sigmoid", "SigmoidAiCore", 1, CoreType::AIV},
    {Kernel::Tanh, "Tanh", "TanhAiCore", 1, CoreType::AIV},
    {Kernel::Fill, "Fill", "FillAiCore", 1, CoreType::AIV},
    {Kernel::GeluGrad, "GeluGrad", "GeluGradAiCore", 1, CoreType::AIV},
    {Kernel::MseLoss, "MseLoss", "MseLossAiCore", 1, CoreType::AIV},
    {Kernel::MseLossGrad, "MseLossGrad", "MseLossGradAiCore", 1, CoreType::AIV},
    {Kernel::ForeachAddList, "ForeachAddList", "ForeachAddListAiCore", 1, CoreType::AIV},
    {Kernel::LayerNormGradV3, "LayerNormGradV3", "LayerNormGradV3AiCore", 100, CoreType::AIV},
    {Kernel::SoftmaxGrad, "SoftmaxGrad", "SoftmaxGradAiCore", 10000, CoreType::AIV},
    {Kernel::ConcatD, "ConcatD", "ConcatDAiCore", 1, CoreType::AIV},
    {Kernel::LogSoftmaxV2, "LogSoftmaxV2", "LogSoftmaxV2AiCore", 10000, CoreType::AIV},
    {Kernel::LogSoftmaxGrad, "LogSoftmaxGrad", "LogSoftmaxGradAiCore", 10000, CoreType::AIV},
    {Kernel::NLLLoss, "NLLLoss", "NLLLossAiCore", 1, CoreType::AIV},
    {Kernel::NLLLossGrad, "NLLLossGrad", "NLLLossGradAiCore", 1, CoreType::AIV},
    {Kernel::Pow, "Pow", "PowAiCore", 1, CoreType::AIV},
    {Kernel::ReduceMax, "ReduceMax", "ReduceMaxAiCore", 2100, CoreType::AIV},
    {Kernel::SiluGrad, "SiluGrad", "SiluGradAiCore", 1, CoreType::AIV},
    {Kernel::EmbeddingDenseGrad, "EmbeddingDenseGrad", "EmbeddingDenseGradAiCore", 1, CoreType::AIV},
    {Kernel::Lerp, "Lerp", "LerpAiCore", 1, CoreType::AIV},
    {Kernel::Sqrt, "Sqrt", "SqrtAiCore", 1, CoreType::AIV},
    {Kernel::Addcmul, "Addcmul", "AddcmulAiCore", 1, CoreType::AIV},
    {Kernel::Addcdiv, "Addcdiv", "AddcdivAiCore", 1, CoreType::AIV},
    {Kernel::ForeachMulScalar, "ForeachMulScalar", "ForeachMulScalarAiCore", 1, CoreType::AIV},
    {Kernel::ForeachAddScalar, "ForeachAddScalar", "ForeachAddScalarAiCore", 1, CoreType::AIV},
    {Kernel::ForeachDivScalar, "ForeachDivScalar", "ForeachDivScalarAiCore", 1, CoreType::AIV},
    {Kernel::ForeachSqrt, "ForeachSqrt", "ForeachSqrtAiCore", 1, CoreType::AIV},
    {Kernel::ForeachLerpScalar, "ForeachLerpScalar", "ForeachLerpScalarAiCore", 1, CoreType::AIV},
    {Kernel::ForeachAddcmulScalar, "ForeachAddcmulScalar", "ForeachAddcmulScalarAiCore", 1, CoreType::AIV},
    {Kernel::ForeachAddcdivScalar, "ForeachAddcdivScalar", "ForeachAddcdivScalarAiCore", 1, CoreType::AIV},
    {Kernel::StatelessDropOutGenMask, "StatelessDropOutGenMask", "StatelessDropOutGenMaskAiCore", 1, CoreType::AIV},
    {Kernel::DropOutDoMask, "DropOutDoMask", "DropOutDoMaskAiCore", 1, CoreType::AIV},
    {Kernel::Triu, "Triu", "TriuAiCore", 1, CoreType::AIV},
    {Kernel::Tril, "Tril", "TrilAiCore", 1, CoreType::AIV},
    {Kernel::NotEqual, "NotEqual", "NotEqualAiCore", 1, CoreType::AIV},
    {Kernel::Equal, "Equal", "EqualAiCore", 1, CoreType::AIV},
    {Kernel::LogicalNot, "LogicalNot", "LogicalNotAiCore", 1, CoreType::AIV},
    {Kernel::ThresholdGradV2D, "ThresholdGradV2D", "ThresholdGradV2DAiCore", 1, CoreType::AIV},
    {Kernel::FlashAttentionScoreGrad, "FlashAttentionScoreGrad", "FlashAttentionScoreGradAiCore", 10000000000000,
     CoreType::MIX},
    {Kernel::Mish, "Mish", "MishAiCore", 1, CoreType::AIV},
    {Kernel::MishGrad, "MishGrad", "MishGradAiCore", 1, CoreType::AIV},
    {Kernel::SoftplusV2, "SoftplusV2", "SoftplusV2AiCore", 1, CoreType::AIV},
    {Kernel::SoftplusV2Grad, "SoftplusV2Grad", "SoftplusV2GradAiCore", 1, CoreType::AIV},
    {Kernel::MaskedFill, "MaskedFill", "MaskedFillAiCore", 1, CoreType::AIV},
    {Kernel::Rsqrt, "Rsqrt", "RsqrtAiCore", 1, CoreType::AIV},
    {Kernel::ReduceAll, "ReduceAll", "ReduceAllAiCore", 2100, CoreType::AIV},
    {Kernel::GroupNorm, "GroupNorm", "GroupNormAiCore", 1, CoreType::AIV},
    {Kernel::GroupNormGrad, "GroupNormGrad", "GroupNormGradAiCore", 1, CoreType::AIV},
    {Kernel::Invert, "Invert", "InvertAiCore", 1, CoreType::AIV},
    {Kernel::Abs, "Abs", "AbsAiCore", 1, CoreType::AIV},
    {Kernel::Sign, "Sign", "SignAiCore", 1, CoreType::AIV},
    {Kernel::Log, "Log", "LogAiCore", 1, CoreType::AIV},
    {Kernel::Log1p, "Log1p", "Log1pAiCore", 1, CoreType::AIV},
    {Kernel::Expm1, "Expm1", "Expm1AiCore", 1, CoreType::AIV},
    {Kernel::Sin, "Sin", "SinAiCore", 1, CoreType::AIV},
    {Kernel::Cos, "Cos", "CosAiCore", 1, CoreType::AIV},
    {Kernel::Erf, "Erf", "ErfAiCore", 1, CoreType::AIV},
    {Kernel::Reciprocal, "Reciprocal", "ReciprocalAiCore", 1, CoreType::AIV},
    {Kernel::Floor, "Floor", "FloorAiCore", 1, CoreType::AIV},
    {Kernel::Ceil, "Ceil", "CeilAiCore", 1, CoreType::AIV},
    {Kernel::Round, "Round", "RoundAiCore", 1, CoreType::AIV},
    {Kernel::Trunc, "Trunc", "TruncAiCore", 1, CoreType::AIV},
    {Kernel::HardSwish, "HardSwish", "HardSwishAiCore", 1, CoreType::AIV},
    {Kernel::HardSwishGrad, "HardSwishGrad", "HardSwishGradAiCore", 1, CoreType::AIV},
    {Kernel::HardSigmoid, "HardSigmoid", "HardSigmoidAiCore", 1, CoreType::AIV},
    {Kernel::HardSigmoidGrad, "HardSigmoidGrad", "HardSigmoidGradAiCore", 1, CoreType::AIV},
    {Kernel::LeakyRelu, "LeakyRelu", "LeakyReluAiCore", 1, CoreType::AIV},
    {Kernel::LeakyReluGrad, "LeakyReluGrad", "LeakyReluGradAiCore", 1, CoreType::AIV},
    {Kernel::Elu, "Elu", "EluAiCore", 1, CoreType::AIV},
    {Kernel::ClipByValueV2, "ClipByValueV2", "ClipByValueV2AiCore", 1, CoreType::AIV},
    {Kernel::HardtanhGrad, "HardtanhGrad", "HardtanhGradAiCore", 1, CoreType::AIV},
    {Kernel::GeluV2, "GeluV2", "GeluV2AiCore", 1, CoreType::AIV},
    {Kernel::GeluGradV2, "GeluGradV2", "GeluGradV2AiCore", 1, CoreType::AIV},
    {Kernel::Greater, "Greater", "GreaterAiCore", 1, CoreType::AIV},
    {Kernel::Less, "Less", "LessAiCore", 1, CoreType::AIV},
    {Kernel::GreaterEqual, "GreaterEqual", "GreaterEqualAiCore", 1, CoreType::AIV},
    {Kernel::LessEqual, "LessEqual", "LessEqualAiCore", 1, CoreType::AIV},
    {Kernel::LogicalAnd, "LogicalAnd", "LogicalAndAiCore", 1, CoreType::AIV},
    {Kernel::LogicalOr, "LogicalOr", "LogicalOrAiCore", 1, CoreType::AIV},
    {Kernel::Maximum, "Maximum", "MaximumAiCore", 1, CoreType::AIV},
    {Kernel::Minimum, "Minimum", "MinimumAiCore", 1, CoreType::AIV},
    {Kernel::SelectV2, "SelectV2", "SelectV2AiCore", 1, CoreType::AIV},
    {Kernel::Cumsum, "Cumsum", "CumsumAiCore", 1, CoreType::AIV},
    {Kernel::ArgMaxV2, "ArgMaxV2", "ArgMaxV2AiCore", 1, CoreType::AIV},
    {Kernel::ArgMin, "ArgMin", "ArgMinAiCore", 1, CoreType::AIV},
    {Kernel::BatchNormV3, "BatchNormV3", "BatchNormV3AiCore", 1, CoreType::AIV},
    {Kernel::BatchNormGradV3, "BatchNormGradV3", "BatchNormGradV3AiCore", 1, CoreType::AIV},
    {Kernel::CeluV2, "CeluV2", "CeluV2AiCore", 1, CoreType::AIV},
    {Kernel::EluGradV2, "EluGradV2", "EluGradV2AiCore", 1, CoreType::AIV},
    {Kernel::ReverseV2, "ReverseV2", "ReverseV2AiCore", 1, CoreType::AIV},
    {Kernel::StatelessRandomUniformV2, "StatelessRandomUniformV2", "StatelessRandomUniformV2AiCore", 1, CoreType::AIV},
    {Kernel::StatelessRandomNormalV2, "StatelessRandomNormalV2", "StatelessRandomNormalV2AiCore", 1, CoreType::AIV},
    {Kernel::MaxPoolWithArgmaxV1, "MaxPoolWithArgmaxV1", "MaxPoolWithArgmaxV1AiCore", 1, CoreType::AIV},
    {Kernel::MaxPoolGradWithArgmaxV1, "MaxPoolGradWithArgmaxV1", "MaxPoolGradWithArgmaxV1AiCore", 1, CoreType::AIV},
    {Kernel::AvgPoolV2, "AvgPoolV2", "AvgPoolV2AiCore", 1, CoreType::AIV},
    {Kernel::AvgPoolV2Grad, "AvgPoolV2Grad", "AvgPoolV2GradAiCore", 1, CoreType::AIV},
    {Kernel::GatherElements, "GatherElements", "GatherElementsAiCore", 1, CoreType::AIV},
    {Kernel::ScatterElements, "ScatterElements", "ScatterElementsAiCore", 1, CoreType::AIV},
    {Kernel::Pack, "Pack", "PackAiCore", 1, CoreType::AIV},
    {Kernel::Tile, "Tile", "TileAiCore", 1, CoreType::AIV},
    {Kernel::Range, "Range", "RangeAiCore", 1, CoreType::AIV},
    {Kernel::Sort, "Sort", "SortAiCore", 1, CoreType::AIV},
    {Kernel::TopKV2, "TopKV2", "TopKV2AiCore", 1, CoreType::AIV},
    {Kernel::Index, "Index", "IndexAiCore", 1, CoreType::AIV},
    {Kernel::IndexPutV2, "IndexPutV2", "IndexPutV2AiCore", 1, CoreType::AIV},
    {Kernel::StatelessRandomInt, "StatelessRandomInt", "StatelessRandomIntAiCore", 1, CoreType::AIV},
    {Kernel::Conv2D, "Conv2D", "Conv2DAiCore", 10000001, CoreType::AIC},
    {Kernel::Conv2DBackpropInput, "Conv2DBackpropInput", "Conv2DBackpropInputAiCore", 10000001, CoreType::AIC},
    {Kernel::Conv2DBackpropFilter, "Conv2DBackpropFilter", "Conv2DBackpropFilterAiCore", 10000001, CoreType::AIC},
    {Kernel::Conv2DTranspose, "Conv2DTranspose", "Conv2DTransposeAiCore", 10000001, CoreType::AIC},
    {Kernel::PadV3, "PadV3", "PadV3AiCore", 1, CoreType::AIV},
    {Kernel::LpNormV2, "LpNormV2", "LpNormV2AiCore", 1, CoreType::AIV},
    {Kernel::ForeachNorm, "ForeachNorm", "ForeachNormAiCore", 1, CoreType::AIV},
    {Kernel::ForeachNonFiniteCheckAndUnscale, "ForeachNonFiniteCheckAndUnscale",
     "ForeachNonFiniteCheckAndUnscaleAiCore", 1, CoreType::AIV},
    {Kernel::AmpUpdateScale, "AmpUpdateScale", "AmpUpdateScaleAiCore", 1, CoreType::AIV},
    {Kernel::BitwiseAnd, "BitwiseAnd", "BitwiseAndAiCore", 1, CoreType::AIV},
    {Kernel::ReduceAny, "ReduceAny", "ReduceAnyAiCore", 2100, CoreType::AIV},
    {Kernel::TanhGrad, "TanhGrad", "TanhGradAiCore", 1, CoreType::AIV},
    {Kernel::ReduceMin, "ReduceMin", "ReduceMinAiCore", 2100, CoreType::AIV},
    {Kernel::ReduceProd, "ReduceProd", "ReduceProdAICore", 2100, CoreType::AIV},
    {Kernel::ReduceVar, "ReduceVar", "ReduceVar", 2100, CoreType::AIV},
    {Kernel::ReduceStdV2, "ReduceStdV2", "ReduceStdV2", 2100, CoreType::AIV},
    {Kernel::ReduceLogSumExp, "ReduceLogSumExp", "ReduceLogSumExpAiCore", 2100, CoreType::AIV},
    {Kernel::NonZero, "NonZero", "NonZeroAiCore", 1, CoreType::AIV},
    {Kernel::MaskedSelectV3, "MaskedSelectV3", "MaskedSelectV3AiCore", 1, CoreType::AIV},
    {Kernel::LpLoss, "LpLoss", "LpLossAiCore", 1, CoreType::AIV},
    {Kernel::L1LossGrad, "L1LossGrad", "L1LossGradAiCore", 1, CoreType::AIV},
    {Kernel::SmoothL1LossV2, "SmoothL1LossV2", "SmoothL1LossV2AiCore", 1, CoreType::AIV},
    {Kernel::SmoothL1LossGradV2, "SmoothL1LossGradV2", "SmoothL1LossGradV2AiCore", 1, CoreType::AIV},
    {Kernel::BinaryCrossEntropy, "BinaryCrossEntropy", "BinaryCrossEntropyAiCore", 1, CoreType::AIV},
    {Kernel::BinaryCrossEntropyGrad, "BinaryCrossEntropyGrad", "BinaryCrossEntropyGradAiCore", 1, CoreType::AIV},
    {Kernel::SigmoidCrossEntropyWithLogitsV2, "SigmoidCrossEntropyWithLogitsV2",
     "SigmoidCrossEntropyWithLogitsV2AiCore", 1, CoreType::AIV},
    {Kernel::SigmoidCrossEntropyWithLogitsGradV2, "SigmoidCrossEntropyWithLogitsGradV2",
     "SigmoidCrossEntropyWithLogitsGradV2AiCore", 1, CoreType::AIV},
    {Kernel::KLDivV2, "KLDivV2", "KLDivV2AiCore", 1, CoreType::AIV},
    {Kernel::KlDivLossGrad, "KlDivLossGrad", "KlDivLossGradAiCore", 1, CoreType::AIV},
    {Kernel::Tan, "Tan", "TanAiCore", 1, CoreType::AIV},
    {Kernel::Asin, "Asin", "AsinAiCore", 1, CoreType::AIV},
    {Kernel::Acos, "Acos", "AcosAiCore", 1, CoreType::AIV},
    {Kernel::Atan, "Atan", "AtanAiCore", 1, CoreType::AIV},
    {Kernel::Sinh, "Sinh", "SinhAiCore", 1, CoreType::AIV},
    {Kernel::Cosh, "Cosh", "CoshAiCore", 1, CoreType::AIV},
    {Kernel::Asinh, "Asinh", "AsinhAiCore", 1, CoreType::AIV},
    {Kernel::Acosh, "Acosh", "AcoshAiCore", 1, CoreType::AIV},
    {Kernel::Atanh, "Atanh", "AtanhAiCore", 1, CoreType::AIV},
    {Kernel::Atan2, "Atan2", "Atan2AiCore", 1, CoreType::AIV},
    {Kernel::Mod, "Mod", "ModAiCore", 1, CoreType::AIV},
    {Kernel::FloorMod, "FloorMod", "FloorModAiCore", 1, CoreType::AIV},
    {Kernel::FloorDiv, "FloorDiv", "FloorDivAiCore", 1, CoreType::AIV},
    {Kernel::LogAddExp, "LogAddExp", "LogAddExpAiCore", 1, CoreType::AIV},
    {Kernel::BitwiseOr, "BitwiseOr", "BitwiseOrAiCore", 1, CoreType::AIV},
    {Kernel::BitwiseXor, "BitwiseXor", "BitwiseXorAiCore", 1, CoreType::AIV},
    {Kernel::SigmoidGrad, "SigmoidGrad", "SigmoidGradAiCore", 1, CoreType::AIV},
    {Kernel::SoftShrink, "SoftShrink", "SoftShrinkAiCore", 1, CoreType::AIV},
    {Kernel::SoftShrinkGrad, "SoftShrinkGrad", "SoftShrinkGradAiCore", 1, CoreType::AIV},
    {Kernel::HardShrink, "HardShrink", "HardShrinkAiCore", 1, CoreType::AIV},
    {Kernel::HardShrinkGrad, "HardShrinkGrad", "HardShrinkGradAiCore", 1, CoreType::AIV},
    {Kernel::InplaceIndexAdd, "InplaceIndexAdd", "InplaceIndexAddAiCore", 1, CoreType::AIV},
    {Kernel::IndexFillD, "IndexFillD", "IndexFillDAiCore", 1, CoreType::AIV},
    {Kernel::Roll, "Roll", "RollAiCore", 1, CoreType::AIV},
    {Kernel::MaskedScatter, "MaskedScatter", "MaskedScatterAiCore", 1, CoreType::AIV},
    {Kernel::ArgMaxWithValue, "ArgMaxWithValue", "ArgMaxWithValueAiCore", 2100, CoreType::AIV},
    {Kernel::ArgMinWithValue, "ArgMinWithValue", "ArgMinWithValueAiCore", 2100, CoreType::AIV},
    {Kernel::OneHot, "OneHot", "OneHotAiCore", 1, CoreType::AIV},
    {Kernel::Cumprod, "Cumprod", "CumprodAiCore", 1, CoreType::AIV},
    {Kernel::GluGrad, "GluGrad", "GluGradAiCore", 1, CoreType::AIV},
    {Kernel::MirrorPad, "MirrorPad", "MirrorPadAiCore", 1, CoreType::AIV},
    {Kernel::AdaptiveAvgPool2d, "AdaptiveAvgPool2d", "AdaptiveAvgPool2dAiCore", 1, CoreType::AIV},
    {Kernel::ResizeNearestNeighborV2, "ResizeNearestNeighborV2", "ResizeNearestNeighborV2AiCore", 1, CoreType::AIV},
    {Kernel::ResizeNearestNeighborV2Grad, "ResizeNearestNeighborV2Grad", "ResizeNearestNeighborV2GradAiCore", 1,
     CoreType::AIV},
    {Kernel::ResizeBilinearV2, "ResizeBilinearV2", "ResizeBilinearV2AiCore", 1, CoreType::AIV},
    {Kernel::ResizeBilinearV2Grad, "ResizeBilinearV2Grad", "ResizeBilinearV2GradAiCore", 1, CoreType::AIV},
    {Kernel::Im2col, "Im2col", "Im2colAiCore", 1, CoreType::AIV},
    {Kernel::Col2im, "Col2im", "Col2imAiCore", 1, CoreType::AIV},
    {Kernel::HistogramV2, "HistogramV2", "HistogramV2AiCore", 1, CoreType::AIV},
    {Kernel::SearchSorted, "SearchSorted", "SearchSortedAiCore", 1, CoreType::AIV},
    {Kernel::Median, "Median", "MedianAiCore", 1, CoreType::AIV},
    {Kernel::UniqueWithCountsAndSorting, "UniqueWithCountsAndSorting", "UniqueWithCountsAndSortingAiCore", 1,
     CoreType::AIV},
    {Kernel::UniqueConsecutive, "UniqueConsecutive", "UniqueConsecutiveAiCore", 1, CoreType::AIV},
    {Kernel::GridSampler2D, "GridSampler2D", "GridSampler2DAiCore", 1, CoreType::AIV},
    {Kernel::GridSampler2DGrad, "GridSampler2DGrad", "GridSampler2DGradAiCore", 1, CoreType::AIV},
    {Kernel::IsFinite, "IsFinite", "IsFiniteAiCore", 1, CoreType::AIV},
    {Kernel::PadV3Grad, "PadV3Grad", "PadV3GradAiCore", 1, CoreType::AIV},
}};

// 64-bit FNV-1a with a seed, so that two seeds give a 128-bit digest.
uint64_t fnv1a(const std::string& text, uint64_t seed) {
    uint64_t h = 0xCBF29CE484222325ULL ^ seed;
    for (unsigned char c : text) {
        h ^= c;
        h *= 0x100000001B3ULL;
    }
    return h;
}

// The names public captures give, by (kernel type, data type): the [[kernel]] entries of
// sim_runtime/data/kernel_names.toml, embedded at build time.
using RecordedNames = std::map<std::pair<std::string, std::string>, std::string>;

RecordedNames parse_recorded_names() {
    RecordedNames names;
    TomlDocument doc;
    std::string error;
    if (!parse_toml(embedded_kernel_names_toml(), doc, error)) {
        log_message(LogLevel::Error, "kernel_names.toml: %s", error.c_str());
        return names;
    }
    const auto it = doc.arrays.find("kernel");
    if (it == doc.arrays.end()) return names;
    for (const TomlTable& entry : it->second) {
        const auto type = entry.get_string("type");
        const auto dtype = entry.get_string("dtype");
        const auto name = entry.get_string("name");
        if (!type || !dtype || !name) {
            log_message(LogLevel::Error, "kernel_names.toml line %d: a [[kernel]] needs type, dtype and name",
                        entry.line);
            continue;
        }
        names[{*type, *dtype}] = *name;
    }
    return names;
}

const RecordedNames& recorded_names() {
    static Immortal<RecordedNames> names(parse_recorded_names());
    return names.get();
}

}  // namespace

const KernelSpec& kernel_spec(Kernel id) { return kKernels[static_cast<size_t>(id)]; }

std::string kernel_name(const KernelSpec& spec, aclDataType dtype) {
    const RecordedNames& recorded = recorded_names();
    if (const auto it = recorded.find({spec.type, nn::dtype_name(dtype)}); it != recorded.end()) return it->second;
    const std::string key = std::string(spec.type) + "/" + nn::dtype_name(dtype);
    char digest[33];
    std::snprintf(digest, sizeof digest, "%016llx%016llx", static_cast<unsigned long long>(fnv1a(key, 0)),
                  static_cast<unsigned long long>(fnv1a(key, 0x9E3779B97F4A7C15ULL)));
    std::string name = std::string(spec.type) + "_" + digest + "_high_performance_" + std::to_string(spec.tiling_key);
    if (spec.core == CoreType::MIX) name += "_mix_aic";
    return name;
}

std::string node_name(const char* api, const KernelSpec& spec) {
    return std::string(api) + "_" + spec.l0_op + "_" + spec.type;
}

uint32_t binary_magic(CoreType core) {
    switch (core) {
        case CoreType::AIC: return ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE;
        case CoreType::AIV: return ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE;
        default: return ACL_RT_BINARY_MAGIC_ELF_AICORE;
    }
}

}  // namespace npusim::opapi
