// The runner's operators of the breadth work (normalisation entry points, 2-D losses, padding, pooling,
// scans and in-place activations torch_npu's op-plugin routes), included by aclnn_runner.cpp after its Spec, Phase1 and
// Phase2; their arguments by name as in aclnn_runner_by_name.h.
#pragma once

#include <string>

#include "aclnnop/aclnn_adaptive_avg_pool2d.h"
#include "aclnnop/aclnn_cumprod.h"
#include "aclnnop/aclnn_glu.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_glu_backward.h"
#include "aclnnop/aclnn_nll_loss2d.h"
#include "aclnnop/aclnn_nll_loss2d_backward.h"
#include "aclnnop/aclnn_norm.h"
#include "aclnnop/aclnn_reflection_pad1d.h"
#include "aclnnop/aclnn_reflection_pad2d.h"
#include "aclnnop/aclnn_reflection_pad3d.h"
#include "aclnnop/aclnn_replication_pad1d.h"
#include "aclnnop/aclnn_replication_pad2d.h"
#include "aclnnop/aclnn_replication_pad3d.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_tanh.h"

namespace {

bool select_breadth(const Spec& p, Phase1& first, Phase2& second) {
    const std::string& op = p.op;
    const auto i64 = [&p](const char* name, double fallback) { return static_cast<int64_t>(p.n(name, fallback)); };
    if (op == "FastLayerNorm") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnFastLayerNormGetWorkspaceSize(p.t("input"), p.a("normalizedShape"), p.t("weight"), p.t("bias"),
                                                      p.n("eps", 1e-5), p.t("out"), p.t("mean"), p.t("rstd"), w, e);
        };
        second = aclnnFastLayerNorm;
    } else if (op == "NLLLoss2d") {
        first = [&p, i64](uint64_t* w, aclOpExecutor** e) {
            return aclnnNLLLoss2dGetWorkspaceSize(p.t("self"), p.t("target"), p.t("weight"), i64("reduction", 1),
                                                  i64("ignoreIndex", -100), p.t("out"), p.t("totalWeight"), w, e);
        };
        second = aclnnNLLLoss2d;
    } else if (op == "NLLLoss2dBackward") {
        first = [&p, i64](uint64_t* w, aclOpExecutor** e) {
            return aclnnNLLLoss2dBackwardGetWorkspaceSize(p.t("gradOutput"), p.t("self"), p.t("target"), p.t("weight"),
                                                          i64("reduction", 1), i64("ignoreIndex", -100),
                                                          p.t("totalWeight"), p.t("out"), w, e);
        };
        second = aclnnNLLLoss2dBackward;
    } else if (op == "Norm") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnNormGetWorkspaceSize(p.t("self"), p.s("p"), p.a("dim"), p.n("keepdim") != 0, p.t("out"), w, e);
        };
        second = aclnnNorm;
    } else if (op == "Cumprod") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnCumprodGetWorkspaceSize(
                p.t("input"), p.s("dim"), static_cast<aclDataType>(static_cast<int>(p.n("dtype"))), p.t("out"), w, e);
        };
        second = aclnnCumprod;
    } else if (op == "Glu") {
        first = [&p, i64](uint64_t* w, aclOpExecutor** e) {
            return aclnnGluGetWorkspaceSize(p.t("self"), i64("dim", -1), p.t("out"), w, e);
        };
        second = aclnnGlu;
    } else if (op == "GluBackward") {
        first = [&p, i64](uint64_t* w, aclOpExecutor** e) {
            return aclnnGluBackwardGetWorkspaceSize(p.t("gradOut"), p.t("self"), i64("dim", -1), p.t("out"), w, e);
        };
        second = aclnnGluBackward;
    } else if (op == "ReflectionPad1d") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnReflectionPad1dGetWorkspaceSize(p.t("self"), p.a("padding"), p.t("out"), w, e);
        };
        second = aclnnReflectionPad1d;
    } else if (op == "ReflectionPad2d") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnReflectionPad2dGetWorkspaceSize(p.t("self"), p.a("padding"), p.t("out"), w, e);
        };
        second = aclnnReflectionPad2d;
    } else if (op == "ReflectionPad3d") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnReflectionPad3dGetWorkspaceSize(p.t("self"), p.a("padding"), p.t("out"), w, e);
        };
        second = aclnnReflectionPad3d;
    } else if (op == "ReplicationPad1d") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnReplicationPad1dGetWorkspaceSize(p.t("self"), p.a("padding"), p.t("out"), w, e);
        };
        second = aclnnReplicationPad1d;
    } else if (op == "ReplicationPad2d") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnReplicationPad2dGetWorkspaceSize(p.t("self"), p.a("padding"), p.t("out"), w, e);
        };
        second = aclnnReplicationPad2d;
    } else if (op == "ReplicationPad3d") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnReplicationPad3dGetWorkspaceSize(p.t("self"), p.a("padding"), p.t("out"), w, e);
        };
        second = aclnnReplicationPad3d;
    } else if (op == "InplaceSigmoid") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnInplaceSigmoidGetWorkspaceSize(p.t("selfRef"), w, e);
        };
        second = aclnnInplaceSigmoid;
    } else if (op == "InplaceTanh") {
        first = [&p](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceTanhGetWorkspaceSize(p.t("selfRef"), w, e); };
        second = aclnnInplaceTanh;
    } else if (op == "AdaptiveAvgPool2d") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnAdaptiveAvgPool2dGetWorkspaceSize(p.t("self"), p.a("outputSize"), p.t("out"), w, e);
        };
        second = aclnnAdaptiveAvgPool2d;
    } else {
        return false;
    }
    return true;
}

}  // namespace
