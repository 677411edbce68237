// The runner's operators that take their arguments by name from the spec, one branch each (included
// by aclnn_runner.cpp after its Spec, Phase1 and Phase2): tensors and scalars by parameter name,
// numbers (int / float lines) for int64, bool, double and aclDataType parameters, str lines for
// char* ones, ints / bools lines for the arrays.
#pragma once

#include <string>

#include "aclnnop/aclnn_abs.h"
#include "aclnnop/aclnn_arange.h"
#include "aclnnop/aclnn_argmax.h"
#include "aclnnop/aclnn_argmin.h"
#include "aclnnop/aclnn_avgpool2d.h"
#include "aclnnop/aclnn_avgpool2d_backward.h"
#include "aclnnop/aclnn_batch_norm.h"
#include "aclnnop/aclnn_batch_norm_backward.h"
#include "aclnnop/aclnn_ceil.h"
#include "aclnnop/aclnn_celu.h"
#include "aclnnop/aclnn_clamp.h"
#include "aclnnop/aclnn_cos.h"
#include "aclnnop/aclnn_cumsum.h"
#include "aclnnop/aclnn_elu.h"
#include "aclnnop/aclnn_elu_backward.h"
#include "aclnnop/aclnn_eq_tensor.h"
#include "aclnnop/aclnn_erf.h"
#include "aclnnop/aclnn_expm1.h"
#include "aclnnop/aclnn_flip.h"
#include "aclnnop/aclnn_floor.h"
#include "aclnnop/aclnn_gather.h"
#include "aclnnop/aclnn_ge_scalar.h"
#include "aclnnop/aclnn_ge_tensor.h"
#include "aclnnop/aclnn_gelu_backward_v2.h"
#include "aclnnop/aclnn_gelu_v2.h"
#include "aclnnop/aclnn_gt_scalar.h"
#include "aclnnop/aclnn_gt_tensor.h"
#include "aclnnop/aclnn_hardsigmoid.h"
#include "aclnnop/aclnn_hardsigmoid_backward.h"
#include "aclnnop/aclnn_hardswish.h"
#include "aclnnop/aclnn_hardswish_backward.h"
#include "aclnnop/aclnn_hardswish_backward_v2.h"
#include "aclnnop/aclnn_hardtanh.h"
#include "aclnnop/aclnn_hardtanh_backward.h"
#include "aclnnop/aclnn_index.h"
#include "aclnnop/aclnn_index_put_impl.h"
#include "aclnnop/aclnn_le_scalar.h"
#include "aclnnop/aclnn_le_tensor.h"
#include "aclnnop/aclnn_leaky_relu.h"
#include "aclnnop/aclnn_leaky_relu_backward.h"
#include "aclnnop/aclnn_log.h"
#include "aclnnop/aclnn_log10.h"
#include "aclnnop/aclnn_log1p.h"
#include "aclnnop/aclnn_log2.h"
#include "aclnnop/aclnn_logical_and.h"
#include "aclnnop/aclnn_logical_or.h"
#include "aclnnop/aclnn_lt_scalar.h"
#include "aclnnop/aclnn_lt_tensor.h"
#include "aclnnop/aclnn_max_pool2d_with_indices.h"
#include "aclnnop/aclnn_max_pool2d_with_indices_backward.h"
#include "aclnnop/aclnn_maximum.h"
#include "aclnnop/aclnn_minimum.h"
#include "aclnnop/aclnn_normal.h"
#include "aclnnop/aclnn_random.h"
#include "aclnnop/aclnn_reciprocal.h"
#include "aclnnop/aclnn_repeat.h"
#include "aclnnop/aclnn_round.h"
#include "aclnnop/aclnn_s_where.h"
#include "aclnnop/aclnn_scatter.h"
#include "aclnnop/aclnn_scatter_add.h"
#include "aclnnop/aclnn_sign.h"
#include "aclnnop/aclnn_sin.h"
#include "aclnnop/aclnn_sort.h"
#include "aclnnop/aclnn_stack.h"
#include "aclnnop/aclnn_topk.h"
#include "aclnnop/aclnn_trunc.h"
#include "aclnnop/aclnn_uniform.h"

namespace {

bool select_by_name(const Spec& p, Phase1& first, Phase2& second) {
    const std::string& op = p.op;
    // A char* argument: the spec's str line (NULL when absent).
    const auto str = [&p](const char* name) -> char* {
        const auto it = p.strings.find(name);
        return it == p.strings.end() ? nullptr : const_cast<char*>(it->second.c_str());
    };
    if (op == "Abs") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnAbsGetWorkspaceSize(p.t("self"), p.t("out"), w, e);
        };
        second = aclnnAbs;
        return true;
    }
    if (op == "Arange") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnArangeGetWorkspaceSize(p.s("start"), p.s("end"), p.s("step"), p.t("out"), w, e);
        };
        second = aclnnArange;
        return true;
    }
    if (op == "ArgMax") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnArgMaxGetWorkspaceSize(p.t("self"), static_cast<int64_t>(p.n("dim")), p.n("keepdim") != 0,
                                               p.t("out"), w, e);
        };
        second = aclnnArgMax;
        return true;
    }
    if (op == "ArgMin") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnArgMinGetWorkspaceSize(p.t("self"), static_cast<int64_t>(p.n("dim")), p.n("keepdim") != 0,
                                               p.t("out"), w, e);
        };
        second = aclnnArgMin;
        return true;
    }
    if (op == "AvgPool2d") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnAvgPool2dGetWorkspaceSize(p.t("self"), p.a("kernelSize"), p.a("strides"), p.a("paddings"),
                                                  p.n("ceilMode") != 0, p.n("countIncludePad") != 0,
                                                  static_cast<int64_t>(p.n("divisorOverride")),
                                                  static_cast<int8_t>(p.n("cubeMathType")), p.t("out"), w, e);
        };
        second = aclnnAvgPool2d;
        return true;
    }
    if (op == "AvgPool2dBackward") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnAvgPool2dBackwardGetWorkspaceSize(
                p.t("gradOutput"), p.t("self"), p.a("kernelSize"), p.a("stride"), p.a("padding"), p.n("ceilMode") != 0,
                p.n("countIncludePad") != 0, static_cast<int64_t>(p.n("divisorOverride")),
                static_cast<int8_t>(p.n("cubeMathType")), p.t("gradInput"), w, e);
        };
        second = aclnnAvgPool2dBackward;
        return true;
    }
    if (op == "BatchNorm") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnBatchNormGetWorkspaceSize(p.t("input"), p.t("weight"), p.t("bias"), p.t("runningMean"),
                                                  p.t("runningVar"), p.n("training") != 0, p.n("momentum"), p.n("eps"),
                                                  p.t("output"), p.t("saveMean"), p.t("saveInvstd"), w, e);
        };
        second = aclnnBatchNorm;
        return true;
    }
    if (op == "BatchNormBackward") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnBatchNormBackwardGetWorkspaceSize(
                p.t("gradOut"), p.t("input"), p.t("weight"), p.t("runningMean"), p.t("runningVar"), p.t("saveMean"),
                p.t("saveInvstd"), p.n("training") != 0, p.n("eps"), p.b("outputMask"), p.t("gradInput"),
                p.t("gradWeight"), p.t("gradBias"), w, e);
        };
        second = aclnnBatchNormBackward;
        return true;
    }
    if (op == "Ceil") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnCeilGetWorkspaceSize(p.t("self"), p.t("out"), w, e);
        };
        second = aclnnCeil;
        return true;
    }
    if (op == "InplaceCeil") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceCeilGetWorkspaceSize(p.t("selfRef"), w, e);
        };
        second = aclnnInplaceCeil;
        return true;
    }
    if (op == "Celu") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnCeluGetWorkspaceSize(p.t("self"), p.s("alpha"), p.t("out"), w, e);
        };
        second = aclnnCelu;
        return true;
    }
    if (op == "InplaceCelu") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceCeluGetWorkspaceSize(p.t("selfRef"), p.s("alpha"), w, e);
        };
        second = aclnnInplaceCelu;
        return true;
    }
    if (op == "Clamp") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnClampGetWorkspaceSize(p.t("self"), p.s("clipValueMin"), p.s("clipValueMax"), p.t("out"), w, e);
        };
        second = aclnnClamp;
        return true;
    }
    if (op == "ClampMin") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnClampMinGetWorkspaceSize(p.t("self"), p.s("clipValueMin"), p.t("out"), w, e);
        };
        second = aclnnClampMin;
        return true;
    }
    if (op == "ClampMax") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnClampMaxGetWorkspaceSize(p.t("self"), p.s("clipValueMax"), p.t("out"), w, e);
        };
        second = aclnnClampMax;
        return true;
    }
    if (op == "InplaceClampMax") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceClampMaxGetWorkspaceSize(p.t("selfRef"), p.s("clipValueMax"), w, e);
        };
        second = aclnnInplaceClampMax;
        return true;
    }
    if (op == "ClampTensor") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnClampTensorGetWorkspaceSize(p.t("self"), p.t("clipValueMin"), p.t("clipValueMax"), p.t("out"),
                                                    w, e);
        };
        second = aclnnClampTensor;
        return true;
    }
    if (op == "ClampMinTensor") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnClampMinTensorGetWorkspaceSize(p.t("self"), p.t("clipValueMin"), p.t("out"), w, e);
        };
        second = aclnnClampMinTensor;
        return true;
    }
    if (op == "InplaceClampMinTensor") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceClampMinTensorGetWorkspaceSize(p.t("selfRef"), p.t("clipValueMin"), w, e);
        };
        second = aclnnInplaceClampMinTensor;
        return true;
    }
    if (op == "ClampMaxTensor") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnClampMaxTensorGetWorkspaceSize(p.t("self"), p.t("max"), p.t("out"), w, e);
        };
        second = aclnnClampMaxTensor;
        return true;
    }
    if (op == "InplaceClampMaxTensor") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceClampMaxTensorGetWorkspaceSize(p.t("selfRef"), p.t("max"), w, e);
        };
        second = aclnnInplaceClampMaxTensor;
        return true;
    }
    if (op == "Cos") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnCosGetWorkspaceSize(p.t("input"), p.t("out"), w, e);
        };
        second = aclnnCos;
        return true;
    }
    if (op == "InplaceCos") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceCosGetWorkspaceSize(p.t("inputRef"), w, e);
        };
        second = aclnnInplaceCos;
        return true;
    }
    if (op == "Cumsum") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnCumsumGetWorkspaceSize(p.t("self"), static_cast<int64_t>(p.n("dim")),
                                               static_cast<aclDataType>(static_cast<int>(p.n("dtype"))), p.t("out"), w,
                                               e);
        };
        second = aclnnCumsum;
        return true;
    }
    if (op == "CumsumV2") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnCumsumV2GetWorkspaceSize(p.t("self"), static_cast<int64_t>(p.n("dim")), p.n("exclusive") != 0,
                                                 p.n("reverse") != 0, p.t("out"), w, e);
        };
        second = aclnnCumsumV2;
        return true;
    }
    if (op == "Elu") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnEluGetWorkspaceSize(p.t("self"), p.s("alpha"), p.s("scale"), p.s("inputScale"), p.t("out"), w,
                                            e);
        };
        second = aclnnElu;
        return true;
    }
    if (op == "InplaceElu") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceEluGetWorkspaceSize(p.t("selfRef"), p.s("alpha"), p.s("scale"), p.s("inputScale"), w, e);
        };
        second = aclnnInplaceElu;
        return true;
    }
    if (op == "EluBackward") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnEluBackwardGetWorkspaceSize(p.t("gradOutput"), p.s("alpha"), p.s("scale"), p.s("inputScale"),
                                                    p.n("isResult") != 0, p.t("selfOrResult"), p.t("gradInput"), w, e);
        };
        second = aclnnEluBackward;
        return true;
    }
    if (op == "EqTensor") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnEqTensorGetWorkspaceSize(p.t("self"), p.t("other"), p.t("out"), w, e);
        };
        second = aclnnEqTensor;
        return true;
    }
    if (op == "InplaceEqTensor") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceEqTensorGetWorkspaceSize(p.t("selfRef"), p.t("other"), w, e);
        };
        second = aclnnInplaceEqTensor;
        return true;
    }
    if (op == "Erf") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnErfGetWorkspaceSize(p.t("self"), p.t("out"), w, e);
        };
        second = aclnnErf;
        return true;
    }
    if (op == "InplaceErf") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceErfGetWorkspaceSize(p.t("selfRef"), w, e);
        };
        second = aclnnInplaceErf;
        return true;
    }
    if (op == "Expm1") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnExpm1GetWorkspaceSize(p.t("self"), p.t("out"), w, e);
        };
        second = aclnnExpm1;
        return true;
    }
    if (op == "InplaceExpm1") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceExpm1GetWorkspaceSize(p.t("selfRef"), w, e);
        };
        second = aclnnInplaceExpm1;
        return true;
    }
    if (op == "Flip") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnFlipGetWorkspaceSize(p.t("self"), p.a("dims"), p.t("out"), w, e);
        };
        second = aclnnFlip;
        return true;
    }
    if (op == "Floor") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnFloorGetWorkspaceSize(p.t("self"), p.t("out"), w, e);
        };
        second = aclnnFloor;
        return true;
    }
    if (op == "InplaceFloor") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceFloorGetWorkspaceSize(p.t("selfRef"), w, e);
        };
        second = aclnnInplaceFloor;
        return true;
    }
    if (op == "Gather") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnGatherGetWorkspaceSize(p.t("self"), static_cast<int64_t>(p.n("dim")), p.t("index"), p.t("out"),
                                               w, e);
        };
        second = aclnnGather;
        return true;
    }
    if (op == "GeScalar") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnGeScalarGetWorkspaceSize(p.t("self"), p.s("other"), p.t("out"), w, e);
        };
        second = aclnnGeScalar;
        return true;
    }
    if (op == "InplaceGeScalar") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceGeScalarGetWorkspaceSize(p.t("selfRef"), p.s("other"), w, e);
        };
        second = aclnnInplaceGeScalar;
        return true;
    }
    if (op == "GeTensor") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnGeTensorGetWorkspaceSize(p.t("self"), p.t("other"), p.t("out"), w, e);
        };
        second = aclnnGeTensor;
        return true;
    }
    if (op == "InplaceGeTensor") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceGeTensorGetWorkspaceSize(p.t("selfRef"), p.t("other"), w, e);
        };
        second = aclnnInplaceGeTensor;
        return true;
    }
    if (op == "GeluBackwardV2") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnGeluBackwardV2GetWorkspaceSize(p.t("gradOutput"), p.t("self"), str("approximate"),
                                                       p.t("gradInput"), w, e);
        };
        second = aclnnGeluBackwardV2;
        return true;
    }
    if (op == "GeluV2") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnGeluV2GetWorkspaceSize(p.t("x"), static_cast<int64_t>(p.n("approximate")), p.t("y"), w, e);
        };
        second = aclnnGeluV2;
        return true;
    }
    if (op == "GtScalar") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnGtScalarGetWorkspaceSize(p.t("self"), p.s("other"), p.t("out"), w, e);
        };
        second = aclnnGtScalar;
        return true;
    }
    if (op == "InplaceGtScalar") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceGtScalarGetWorkspaceSize(p.t("selfRef"), p.s("other"), w, e);
        };
        second = aclnnInplaceGtScalar;
        return true;
    }
    if (op == "GtTensor") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnGtTensorGetWorkspaceSize(p.t("self"), p.t("other"), p.t("out"), w, e);
        };
        second = aclnnGtTensor;
        return true;
    }
    if (op == "InplaceGtTensor") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceGtTensorGetWorkspaceSize(p.t("selfRef"), p.t("other"), w, e);
        };
        second = aclnnInplaceGtTensor;
        return true;
    }
    if (op == "Hardsigmoid") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnHardsigmoidGetWorkspaceSize(p.t("self"), p.t("out"), w, e);
        };
        second = aclnnHardsigmoid;
        return true;
    }
    if (op == "InplaceHardsigmoid") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceHardsigmoidGetWorkspaceSize(p.t("self"), w, e);
        };
        second = aclnnInplaceHardsigmoid;
        return true;
    }
    if (op == "HardsigmoidBackward") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnHardsigmoidBackwardGetWorkspaceSize(p.t("gradOutput"), p.t("self"), p.t("out"), w, e);
        };
        second = aclnnHardsigmoidBackward;
        return true;
    }
    if (op == "Hardswish") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnHardswishGetWorkspaceSize(p.t("self"), p.t("out"), w, e);
        };
        second = aclnnHardswish;
        return true;
    }
    if (op == "InplaceHardswish") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceHardswishGetWorkspaceSize(p.t("self"), w, e);
        };
        second = aclnnInplaceHardswish;
        return true;
    }
    if (op == "HardswishBackward") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnHardswishBackwardGetWorkspaceSize(p.t("gradOutput"), p.t("self"), p.t("out"), w, e);
        };
        second = aclnnHardswishBackward;
        return true;
    }
    if (op == "HardswishBackwardV2") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnHardswishBackwardV2GetWorkspaceSize(p.t("gradOutput"), p.t("self"), p.t("out"), w, e);
        };
        second = aclnnHardswishBackwardV2;
        return true;
    }
    if (op == "Hardtanh") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnHardtanhGetWorkspaceSize(p.t("self"), p.s("clipValueMin"), p.s("clipValueMax"), p.t("out"), w,
                                                 e);
        };
        second = aclnnHardtanh;
        return true;
    }
    if (op == "InplaceHardtanh") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceHardtanhGetWorkspaceSize(p.t("selfRef"), p.s("clipValueMin"), p.s("clipValueMax"), w, e);
        };
        second = aclnnInplaceHardtanh;
        return true;
    }
    if (op == "HardtanhBackward") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnHardtanhBackwardGetWorkspaceSize(p.t("gradOutput"), p.t("self"), p.s("min"), p.s("max"),
                                                         p.t("out"), w, e);
        };
        second = aclnnHardtanhBackward;
        return true;
    }
    if (op == "Index") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnIndexGetWorkspaceSize(p.t("self"), p.l("indices"), p.t("out"), w, e);
        };
        second = aclnnIndex;
        return true;
    }
    if (op == "IndexPutImpl") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnIndexPutImplGetWorkspaceSize(p.t("selfRef"), p.l("indices"), p.t("values"),
                                                     p.n("accumulate") != 0, p.n("unsafe") != 0, w, e);
        };
        second = aclnnIndexPutImpl;
        return true;
    }
    if (op == "LeScalar") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnLeScalarGetWorkspaceSize(p.t("self"), p.s("other"), p.t("out"), w, e);
        };
        second = aclnnLeScalar;
        return true;
    }
    if (op == "InplaceLeScalar") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceLeScalarGetWorkspaceSize(p.t("selfRef"), p.s("other"), w, e);
        };
        second = aclnnInplaceLeScalar;
        return true;
    }
    if (op == "LeTensor") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnLeTensorGetWorkspaceSize(p.t("self"), p.t("other"), p.t("out"), w, e);
        };
        second = aclnnLeTensor;
        return true;
    }
    if (op == "InplaceLeTensor") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceLeTensorGetWorkspaceSize(p.t("selfRef"), p.t("other"), w, e);
        };
        second = aclnnInplaceLeTensor;
        return true;
    }
    if (op == "LeakyRelu") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnLeakyReluGetWorkspaceSize(p.t("self"), p.s("negativeSlope"), p.t("out"), w, e);
        };
        second = aclnnLeakyRelu;
        return true;
    }
    if (op == "InplaceLeakyRelu") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceLeakyReluGetWorkspaceSize(p.t("selfRef"), p.s("negativeSlope"), w, e);
        };
        second = aclnnInplaceLeakyRelu;
        return true;
    }
    if (op == "LeakyReluBackward") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnLeakyReluBackwardGetWorkspaceSize(p.t("gradOutput"), p.t("self"), p.s("negativeSlope"),
                                                          p.n("selfIsResult") != 0, p.t("out"), w, e);
        };
        second = aclnnLeakyReluBackward;
        return true;
    }
    if (op == "Log") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnLogGetWorkspaceSize(p.t("self"), p.t("out"), w, e);
        };
        second = aclnnLog;
        return true;
    }
    if (op == "InplaceLog") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceLogGetWorkspaceSize(p.t("selfRef"), w, e);
        };
        second = aclnnInplaceLog;
        return true;
    }
    if (op == "Log10") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnLog10GetWorkspaceSize(p.t("self"), p.t("out"), w, e);
        };
        second = aclnnLog10;
        return true;
    }
    if (op == "InplaceLog10") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceLog10GetWorkspaceSize(p.t("selfRef"), w, e);
        };
        second = aclnnInplaceLog10;
        return true;
    }
    if (op == "Log1p") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnLog1pGetWorkspaceSize(p.t("self"), p.t("out"), w, e);
        };
        second = aclnnLog1p;
        return true;
    }
    if (op == "InplaceLog1p") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceLog1pGetWorkspaceSize(p.t("selfRef"), w, e);
        };
        second = aclnnInplaceLog1p;
        return true;
    }
    if (op == "Log2") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnLog2GetWorkspaceSize(p.t("self"), p.t("out"), w, e);
        };
        second = aclnnLog2;
        return true;
    }
    if (op == "InplaceLog2") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceLog2GetWorkspaceSize(p.t("selfRef"), w, e);
        };
        second = aclnnInplaceLog2;
        return true;
    }
    if (op == "LogicalAnd") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnLogicalAndGetWorkspaceSize(p.t("self"), p.t("other"), p.t("out"), w, e);
        };
        second = aclnnLogicalAnd;
        return true;
    }
    if (op == "InplaceLogicalAnd") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceLogicalAndGetWorkspaceSize(p.t("selfRef"), p.t("other"), w, e);
        };
        second = aclnnInplaceLogicalAnd;
        return true;
    }
    if (op == "LogicalOr") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnLogicalOrGetWorkspaceSize(p.t("self"), p.t("other"), p.t("out"), w, e);
        };
        second = aclnnLogicalOr;
        return true;
    }
    if (op == "InplaceLogicalOr") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceLogicalOrGetWorkspaceSize(p.t("selfRef"), p.t("other"), w, e);
        };
        second = aclnnInplaceLogicalOr;
        return true;
    }
    if (op == "LtScalar") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnLtScalarGetWorkspaceSize(p.t("self"), p.s("other"), p.t("out"), w, e);
        };
        second = aclnnLtScalar;
        return true;
    }
    if (op == "InplaceLtScalar") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceLtScalarGetWorkspaceSize(p.t("selfRef"), p.s("other"), w, e);
        };
        second = aclnnInplaceLtScalar;
        return true;
    }
    if (op == "LtTensor") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnLtTensorGetWorkspaceSize(p.t("self"), p.t("other"), p.t("out"), w, e);
        };
        second = aclnnLtTensor;
        return true;
    }
    if (op == "InplaceLtTensor") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceLtTensorGetWorkspaceSize(p.t("selfRef"), p.t("other"), w, e);
        };
        second = aclnnInplaceLtTensor;
        return true;
    }
    if (op == "MaxPool2dWithMask") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnMaxPool2dWithMaskGetWorkspaceSize(p.t("self"), p.a("kernelSize"), p.a("stride"), p.a("padding"),
                                                          p.a("dilation"), p.n("ceilMode") != 0, p.t("out"),
                                                          p.t("indices"), w, e);
        };
        second = aclnnMaxPool2dWithMask;
        return true;
    }
    if (op == "MaxPool2dWithIndices") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnMaxPool2dWithIndicesGetWorkspaceSize(p.t("self"), p.a("kernelSize"), p.a("stride"),
                                                             p.a("padding"), p.a("dilation"), p.n("ceilMode") != 0,
                                                             p.t("out"), p.t("indices"), w, e);
        };
        second = aclnnMaxPool2dWithIndices;
        return true;
    }
    if (op == "MaxPool2dWithMaskBackward") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnMaxPool2dWithMaskBackwardGetWorkspaceSize(
                p.t("gradOutput"), p.t("self"), p.t("indices"), p.a("kernelSize"), p.a("stride"), p.a("padding"),
                p.a("dilation"), p.n("ceilMode") != 0, p.t("gradInput"), w, e);
        };
        second = aclnnMaxPool2dWithMaskBackward;
        return true;
    }
    if (op == "MaxPool2dWithIndicesBackward") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnMaxPool2dWithIndicesBackwardGetWorkspaceSize(
                p.t("gradOutput"), p.t("self"), p.t("indices"), p.a("kernelSize"), p.a("stride"), p.a("padding"),
                p.a("dilation"), p.n("ceilMode") != 0, p.t("gradInput"), w, e);
        };
        second = aclnnMaxPool2dWithIndicesBackward;
        return true;
    }
    if (op == "Maximum") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnMaximumGetWorkspaceSize(p.t("self"), p.t("other"), p.t("out"), w, e);
        };
        second = aclnnMaximum;
        return true;
    }
    if (op == "Minimum") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnMinimumGetWorkspaceSize(p.t("self"), p.t("other"), p.t("out"), w, e);
        };
        second = aclnnMinimum;
        return true;
    }
    if (op == "InplaceNormal") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceNormalGetWorkspaceSize(p.t("selfRef"), static_cast<float>(p.n("mean")),
                                                      static_cast<float>(p.n("std")), static_cast<int64_t>(p.n("seed")),
                                                      static_cast<int64_t>(p.n("offset")), w, e);
        };
        second = aclnnInplaceNormal;
        return true;
    }
    if (op == "InplaceRandom") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceRandomGetWorkspaceSize(
                p.t("selfRef"), static_cast<int64_t>(p.n("from")), static_cast<int64_t>(p.n("to")),
                static_cast<int64_t>(p.n("seed")), static_cast<int64_t>(p.n("offset")), w, e);
        };
        second = aclnnInplaceRandom;
        return true;
    }
    if (op == "Reciprocal") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnReciprocalGetWorkspaceSize(p.t("self"), p.t("out"), w, e);
        };
        second = aclnnReciprocal;
        return true;
    }
    if (op == "InplaceReciprocal") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceReciprocalGetWorkspaceSize(p.t("selfRef"), w, e);
        };
        second = aclnnInplaceReciprocal;
        return true;
    }
    if (op == "Repeat") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnRepeatGetWorkspaceSize(p.t("self"), p.a("repeats"), p.t("out"), w, e);
        };
        second = aclnnRepeat;
        return true;
    }
    if (op == "Round") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnRoundGetWorkspaceSize(p.t("self"), p.t("out"), w, e);
        };
        second = aclnnRound;
        return true;
    }
    if (op == "InplaceRound") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceRoundGetWorkspaceSize(p.t("selfRef"), w, e);
        };
        second = aclnnInplaceRound;
        return true;
    }
    if (op == "RoundDecimals") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnRoundDecimalsGetWorkspaceSize(p.t("self"), static_cast<int64_t>(p.n("decimals")), p.t("out"), w,
                                                      e);
        };
        second = aclnnRoundDecimals;
        return true;
    }
    if (op == "InplaceRoundDecimals") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceRoundDecimalsGetWorkspaceSize(p.t("selfRef"), static_cast<int64_t>(p.n("decimals")), w,
                                                             e);
        };
        second = aclnnInplaceRoundDecimals;
        return true;
    }
    if (op == "SWhere") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnSWhereGetWorkspaceSize(p.t("condition"), p.t("self"), p.t("other"), p.t("out"), w, e);
        };
        second = aclnnSWhere;
        return true;
    }
    if (op == "Scatter") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnScatterGetWorkspaceSize(p.t("self"), static_cast<int64_t>(p.n("dim")), p.t("index"), p.t("src"),
                                                static_cast<int64_t>(p.n("reduce")), p.t("out"), w, e);
        };
        second = aclnnScatter;
        return true;
    }
    if (op == "InplaceScatter") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceScatterGetWorkspaceSize(p.t("selfRef"), static_cast<int64_t>(p.n("dim")), p.t("index"),
                                                       p.t("src"), static_cast<int64_t>(p.n("reduce")), w, e);
        };
        second = aclnnInplaceScatter;
        return true;
    }
    if (op == "ScatterAdd") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnScatterAddGetWorkspaceSize(p.t("self"), static_cast<int64_t>(p.n("dim")), p.t("index"),
                                                   p.t("src"), p.t("out"), w, e);
        };
        second = aclnnScatterAdd;
        return true;
    }
    if (op == "Sign") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnSignGetWorkspaceSize(p.t("self"), p.t("result"), w, e);
        };
        second = aclnnSign;
        return true;
    }
    if (op == "Sin") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnSinGetWorkspaceSize(p.t("self"), p.t("out"), w, e);
        };
        second = aclnnSin;
        return true;
    }
    if (op == "InplaceSin") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceSinGetWorkspaceSize(p.t("selfRef"), w, e);
        };
        second = aclnnInplaceSin;
        return true;
    }
    if (op == "Sort") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnSortGetWorkspaceSize(p.t("self"), p.n("stable") != 0, static_cast<int64_t>(p.n("dim")),
                                             p.n("descending") != 0, p.t("valuesOut"), p.t("indicesOut"), w, e);
        };
        second = aclnnSort;
        return true;
    }
    if (op == "Stack") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnStackGetWorkspaceSize(p.l("tensors"), static_cast<int64_t>(p.n("dim")), p.t("out"), w, e);
        };
        second = aclnnStack;
        return true;
    }
    if (op == "Topk") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnTopkGetWorkspaceSize(p.t("self"), static_cast<int64_t>(p.n("k")),
                                             static_cast<int64_t>(p.n("dim")), p.n("largest") != 0, p.n("sorted") != 0,
                                             p.t("valuesOut"), p.t("indicesOut"), w, e);
        };
        second = aclnnTopk;
        return true;
    }
    if (op == "Trunc") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnTruncGetWorkspaceSize(p.t("self"), p.t("out"), w, e);
        };
        second = aclnnTrunc;
        return true;
    }
    if (op == "InplaceTrunc") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceTruncGetWorkspaceSize(p.t("selfRef"), w, e);
        };
        second = aclnnInplaceTrunc;
        return true;
    }
    if (op == "InplaceUniform") {
        first = [&p, str](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceUniformGetWorkspaceSize(p.t("selfRef"), p.n("from"), p.n("to"),
                                                       static_cast<uint64_t>(p.n("seed")),
                                                       static_cast<uint64_t>(p.n("offset")), w, e);
        };
        second = aclnnInplaceUniform;
        return true;
    }
    return false;
}

}  // namespace
