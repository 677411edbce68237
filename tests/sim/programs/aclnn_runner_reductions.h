// The runner's reductions, losses, data-dependent and dimension-index operators (included by aclnn_runner.cpp after
// its Spec, Phase1 and Phase2), their arguments by name as in aclnn_runner_by_name.h.
#pragma once

#include <string>

#include "aclnnop/aclnn_amax.h"
#include "aclnnop/aclnn_amin.h"
#include "aclnnop/aclnn_binary_cross_entropy.h"
#include "aclnnop/aclnn_binary_cross_entropy_backward.h"
#include "aclnnop/aclnn_binary_cross_entropy_with_logits.h"
#include "aclnnop/aclnn_binary_cross_entropy_with_logits_backward.h"
#include "aclnnop/aclnn_index_add.h"
#include "aclnnop/aclnn_index_fill_tensor.h"
#include "aclnnop/aclnn_index_select.h"
#include "aclnnop/aclnn_kl_div.h"
#include "aclnnop/aclnn_kl_div_backward.h"
#include "aclnnop/aclnn_l1_loss.h"
#include "aclnnop/aclnn_l1_loss_backward.h"
#include "aclnnop/aclnn_logsumexp.h"
#include "aclnnop/aclnn_masked_scatter.h"
#include "aclnnop/aclnn_max_dim.h"
#include "aclnnop/aclnn_min_dim.h"
#include "aclnnop/aclnn_masked_select.h"
#include "aclnnop/aclnn_nonzero.h"
#include "aclnnop/aclnn_nonzero_v2.h"
#include "aclnnop/aclnn_one_hot.h"
#include "aclnnop/aclnn_prod.h"
#include "aclnnop/aclnn_roll.h"
#include "aclnnop/aclnn_smooth_l1_loss.h"
#include "aclnnop/aclnn_smooth_l1_loss_backward.h"
#include "aclnnop/aclnn_std.h"
#include "aclnnop/aclnn_std_mean_correction.h"
#include "aclnnop/aclnn_var.h"
#include "aclnnop/aclnn_var_mean.h"

namespace {

bool select_reductions(const Spec& p, Phase1& first, Phase2& second) {
    const std::string& op = p.op;
    const auto dt = [&p](const char* name) { return static_cast<aclDataType>(static_cast<int>(p.n(name))); };
    const auto i64 = [&p](const char* name) { return static_cast<int64_t>(p.n(name)); };
    const auto flag = [&p](const char* name) { return p.n(name) != 0; };
    if (op == "Amax") {
        first = [&p, flag](uint64_t* w, aclOpExecutor** e) {
            return aclnnAmaxGetWorkspaceSize(p.t("self"), p.a("dim"), flag("keepDim"), p.t("out"), w, e);
        };
        second = aclnnAmax;
    } else if (op == "Amin") {
        first = [&p, flag](uint64_t* w, aclOpExecutor** e) {
            return aclnnAminGetWorkspaceSize(p.t("self"), p.a("dim"), flag("keepDim"), p.t("out"), w, e);
        };
        second = aclnnAmin;
    } else if (op == "Prod") {
        first = [&p, dt](uint64_t* w, aclOpExecutor** e) {
            return aclnnProdGetWorkspaceSize(p.t("self"), dt("dtype"), p.t("out"), w, e);
        };
        second = aclnnProd;
    } else if (op == "ProdDim") {
        first = [&p, dt, i64, flag](uint64_t* w, aclOpExecutor** e) {
            return aclnnProdDimGetWorkspaceSize(p.t("self"), i64("dim"), flag("keepDim"), dt("dtype"), p.t("out"), w,
                                                e);
        };
        second = aclnnProdDim;
    } else if (op == "Var") {
        first = [&p, flag](uint64_t* w, aclOpExecutor** e) {
            return aclnnVarGetWorkspaceSize(p.t("self"), p.a("dim"), flag("unbiased"), flag("keepdim"), p.t("out"), w,
                                            e);
        };
        second = aclnnVar;
    } else if (op == "VarCorrection") {
        first = [&p, i64, flag](uint64_t* w, aclOpExecutor** e) {
            return aclnnVarCorrectionGetWorkspaceSize(p.t("self"), p.a("dim"), i64("correction"), flag("keepdim"),
                                                      p.t("out"), w, e);
        };
        second = aclnnVarCorrection;
    } else if (op == "VarMean") {
        first = [&p, i64, flag](uint64_t* w, aclOpExecutor** e) {
            return aclnnVarMeanGetWorkspaceSize(p.t("self"), p.a("dim"), i64("correction"), flag("keepdim"),
                                                p.t("varOut"), p.t("meanOut"), w, e);
        };
        second = aclnnVarMean;
    } else if (op == "Std") {
        first = [&p, i64, flag](uint64_t* w, aclOpExecutor** e) {
            return aclnnStdGetWorkspaceSize(p.t("self"), p.a("dim"), i64("correction"), flag("keepdim"), p.t("out"), w,
                                            e);
        };
        second = aclnnStd;
    } else if (op == "StdMeanCorrection") {
        first = [&p, i64, flag](uint64_t* w, aclOpExecutor** e) {
            return aclnnStdMeanCorrectionGetWorkspaceSize(p.t("self"), p.a("dim"), i64("correction"), flag("keepdim"),
                                                          p.t("stdOut"), p.t("meanOut"), w, e);
        };
        second = aclnnStdMeanCorrection;
    } else if (op == "LogSumExp") {
        first = [&p, flag](uint64_t* w, aclOpExecutor** e) {
            return aclnnLogSumExpGetWorkspaceSize(p.t("self"), p.a("dim"), flag("keepDim"), p.t("out"), w, e);
        };
        second = aclnnLogSumExp;
    } else if (op == "Nonzero") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnNonzeroGetWorkspaceSize(p.t("self"), p.t("out"), w, e);
        };
        second = aclnnNonzero;
    } else if (op == "NonzeroV2") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnNonzeroV2GetWorkspaceSize(p.t("self"), p.t("out"), w, e);
        };
        second = aclnnNonzeroV2;
    } else if (op == "MaskedSelect") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnMaskedSelectGetWorkspaceSize(p.t("self"), p.t("mask"), p.t("out"), w, e);
        };
        second = aclnnMaskedSelect;
    } else if (op == "L1Loss") {
        first = [&p, i64](uint64_t* w, aclOpExecutor** e) {
            return aclnnL1LossGetWorkspaceSize(p.t("self"), p.t("target"), i64("reduction"), p.t("out"), w, e);
        };
        second = aclnnL1Loss;
    } else if (op == "L1LossBackward") {
        first = [&p, i64](uint64_t* w, aclOpExecutor** e) {
            return aclnnL1LossBackwardGetWorkspaceSize(p.t("gradOutput"), p.t("self"), p.t("target"), i64("reduction"),
                                                       p.t("gradInput"), w, e);
        };
        second = aclnnL1LossBackward;
    } else if (op == "SmoothL1Loss") {
        first = [&p, i64](uint64_t* w, aclOpExecutor** e) {
            return aclnnSmoothL1LossGetWorkspaceSize(p.t("self"), p.t("target"), i64("reduction"),
                                                     static_cast<float>(p.n("beta")), p.t("result"), w, e);
        };
        second = aclnnSmoothL1Loss;
    } else if (op == "SmoothL1LossBackward") {
        first = [&p, i64](uint64_t* w, aclOpExecutor** e) {
            return aclnnSmoothL1LossBackwardGetWorkspaceSize(p.t("gradOut"), p.t("self"), p.t("target"),
                                                             i64("reduction"), static_cast<float>(p.n("beta")),
                                                             p.t("gradInput"), w, e);
        };
        second = aclnnSmoothL1LossBackward;
    } else if (op == "BinaryCrossEntropy") {
        first = [&p, i64](uint64_t* w, aclOpExecutor** e) {
            return aclnnBinaryCrossEntropyGetWorkspaceSize(p.t("self"), p.t("target"), p.t("weight"), i64("reduction"),
                                                           p.t("out"), w, e);
        };
        second = aclnnBinaryCrossEntropy;
    } else if (op == "BinaryCrossEntropyBackward") {
        first = [&p, i64](uint64_t* w, aclOpExecutor** e) {
            return aclnnBinaryCrossEntropyBackwardGetWorkspaceSize(p.t("gradOutput"), p.t("self"), p.t("target"),
                                                                   p.t("weight"), i64("reduction"), p.t("out"), w, e);
        };
        second = aclnnBinaryCrossEntropyBackward;
    } else if (op == "BinaryCrossEntropyWithLogits") {
        first = [&p, i64](uint64_t* w, aclOpExecutor** e) {
            return aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize(
                p.t("self"), p.t("target"), p.t("weight"), p.t("posWeight"), i64("reduction"), p.t("out"), w, e);
        };
        second = aclnnBinaryCrossEntropyWithLogits;
    } else if (op == "BinaryCrossEntropyWithLogitsBackward") {
        first = [&p, i64](uint64_t* w, aclOpExecutor** e) {
            return aclnnBinaryCrossEntropyWithLogitsBackwardGetWorkspaceSize(
                p.t("gradOutput"), p.t("self"), p.t("target"), p.t("weight"), p.t("posWeight"), i64("reduction"),
                p.t("out"), w, e);
        };
        second = aclnnBinaryCrossEntropyWithLogitsBackward;
    } else if (op == "KlDiv") {
        first = [&p, i64, flag](uint64_t* w, aclOpExecutor** e) {
            return aclnnKlDivGetWorkspaceSize(p.t("self"), p.t("target"), i64("reduction"), flag("logTarget"),
                                              p.t("out"), w, e);
        };
        second = aclnnKlDiv;
    } else if (op == "KlDivBackward") {
        first = [&p, i64, flag](uint64_t* w, aclOpExecutor** e) {
            return aclnnKlDivBackwardGetWorkspaceSize(p.t("gradOutput"), p.t("self"), p.t("target"), i64("reduction"),
                                                      flag("logTarget"), p.t("out"), w, e);
        };
        second = aclnnKlDivBackward;
    } else if (op == "IndexSelect") {
        first = [&p, i64](uint64_t* w, aclOpExecutor** e) {
            return aclnnIndexSelectGetWorkspaceSize(p.t("self"), i64("dim"), p.t("index"), p.t("out"), w, e);
        };
        second = aclnnIndexSelect;
    } else if (op == "IndexAdd") {
        first = [&p, i64](uint64_t* w, aclOpExecutor** e) {
            return aclnnIndexAddGetWorkspaceSize(p.t("self"), i64("dim"), p.t("index"), p.t("source"), p.s("alpha"),
                                                 p.t("out"), w, e);
        };
        second = aclnnIndexAdd;
    } else if (op == "IndexFillTensor") {
        first = [&p, i64](uint64_t* w, aclOpExecutor** e) {
            return aclnnIndexFillTensorGetWorkspaceSize(p.t("self"), i64("dim"), p.a("index"), p.s("value"), p.t("out"),
                                                        w, e);
        };
        second = aclnnIndexFillTensor;
    } else if (op == "InplaceIndexFillTensor") {
        first = [&p, i64](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceIndexFillTensorGetWorkspaceSize(p.t("selfRef"), i64("dim"), p.a("index"), p.s("value"),
                                                               w, e);
        };
        second = aclnnInplaceIndexFillTensor;
    } else if (op == "Roll") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnRollGetWorkspaceSize(p.t("x"), p.a("shifts"), p.a("dims"), p.t("out"), w, e);
        };
        second = aclnnRoll;
    } else if (op == "InplaceMaskedScatter") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceMaskedScatterGetWorkspaceSize(p.t("selfRef"), p.t("mask"), p.t("source"), w, e);
        };
        second = aclnnInplaceMaskedScatter;
    } else if (op == "MaxDim") {
        first = [&p, i64, flag](uint64_t* w, aclOpExecutor** e) {
            return aclnnMaxDimGetWorkspaceSize(p.t("self"), i64("dim"), flag("keepdim"), p.t("out"), p.t("indices"), w,
                                               e);
        };
        second = aclnnMaxDim;
    } else if (op == "MinDim") {
        first = [&p, i64, flag](uint64_t* w, aclOpExecutor** e) {
            return aclnnMinDimGetWorkspaceSize(p.t("self"), i64("dim"), flag("keepdim"), p.t("out"), p.t("indices"), w,
                                               e);
        };
        second = aclnnMinDim;
    } else if (op == "OneHot") {
        first = [&p, i64](uint64_t* w, aclOpExecutor** e) {
            return aclnnOneHotGetWorkspaceSize(p.t("self"), static_cast<int>(p.n("numClasses")), p.t("onValue"),
                                               p.t("offValue"), i64("axis"), p.t("out"), w, e);
        };
        second = aclnnOneHot;
    } else {
        return false;
    }
    return true;
}

}  // namespace
