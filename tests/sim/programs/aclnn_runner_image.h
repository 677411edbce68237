// The runner's image operators (nearest and bilinear 2-D upsampling, im2col, grid sampling and their
// backward), included by
// aclnn_runner.cpp after its Spec, Phase1 and Phase2; their arguments by name as in aclnn_runner_by_name.h.
#pragma once

#include <string>

#include "aclnnop/aclnn_grid_sampler2d.h"
#include "aclnnop/aclnn_grid_sampler2d_backward.h"
#include "aclnnop/aclnn_im2col.h"
#include "aclnnop/aclnn_im2col_backward.h"
#include "aclnnop/aclnn_upsample_bilinear_2d.h"
#include "aclnnop/aclnn_upsample_bilinear_2d_backward.h"
#include "aclnnop/aclnn_upsample_nearest_2d.h"
#include "aclnnop/aclnn_upsample_nearest_2d_backward.h"
#include "aclnnop/aclnn_upsample_nearest_2d_v2.h"

namespace {

bool select_image(const Spec& p, Phase1& first, Phase2& second) {
    const std::string& op = p.op;
    if (op == "UpsampleNearest2d") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnUpsampleNearest2dGetWorkspaceSize(p.t("self"), p.a("outputSize"), p.t("out"), w, e);
        };
        second = aclnnUpsampleNearest2d;
    } else if (op == "UpsampleNearest2dV2") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnUpsampleNearest2dV2GetWorkspaceSize(p.t("self"), p.a("outputSize"),
                                                            static_cast<float>(p.n("scalesH", -1)),
                                                            static_cast<float>(p.n("scalesW", -1)), p.t("out"), w, e);
        };
        second = aclnnUpsampleNearest2dV2;
    } else if (op == "UpsampleNearest2dBackward") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnUpsampleNearest2dBackwardGetWorkspaceSize(p.t("gradOut"), p.a("outputSize"), p.a("inputSize"),
                                                                  p.n("scalesH", 0), p.n("scalesW", 0), p.t("out"), w,
                                                                  e);
        };
        second = aclnnUpsampleNearest2dBackward;
    } else if (op == "UpsampleBilinear2d") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnUpsampleBilinear2dGetWorkspaceSize(p.t("self"), p.a("outputSize"), p.n("alignCorners", 0) != 0,
                                                           p.n("scalesH", 0), p.n("scalesW", 0), p.t("out"), w, e);
        };
        second = aclnnUpsampleBilinear2d;
    } else if (op == "UpsampleBilinear2dBackward") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnUpsampleBilinear2dBackwardGetWorkspaceSize(p.t("gradOut"), p.a("outputSize"), p.a("inputSize"),
                                                                   p.n("alignCorners", 0) != 0, p.n("scalesH", 0),
                                                                   p.n("scalesW", 0), p.t("out"), w, e);
        };
        second = aclnnUpsampleBilinear2dBackward;
    } else if (op == "Im2col") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnIm2colGetWorkspaceSize(p.t("self"), p.a("kernelSize"), p.a("dilation"), p.a("padding"),
                                               p.a("stride"), p.t("out"), w, e);
        };
        second = aclnnIm2col;
    } else if (op == "Im2colBackward") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnIm2colBackwardGetWorkspaceSize(p.t("gradOutput"), p.a("inputSize"), p.a("kernelSize"),
                                                       p.a("dilation"), p.a("padding"), p.a("stride"), p.t("out"), w,
                                                       e);
        };
        second = aclnnIm2colBackward;
    } else if (op == "GridSampler2D") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnGridSampler2DGetWorkspaceSize(
                p.t("input"), p.t("grid"), static_cast<int64_t>(p.n("interpolationMode", 0)),
                static_cast<int64_t>(p.n("paddingMode", 0)), p.n("alignCorners", 0) != 0, p.t("out"), w, e);
        };
        second = aclnnGridSampler2D;
    } else if (op == "GridSampler2DBackward") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnGridSampler2DBackwardGetWorkspaceSize(
                p.t("gradOutput"), p.t("input"), p.t("grid"), static_cast<int64_t>(p.n("interpolationMode", 0)),
                static_cast<int64_t>(p.n("paddingMode", 0)), p.n("alignCorners", 0) != 0, p.b("outputMask"),
                p.t("inputGrad"), p.t("gridGrad"), w, e);
        };
        second = aclnnGridSampler2DBackward;
    } else {
        return false;
    }
    return true;
}

}  // namespace
