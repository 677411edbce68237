// The runner's counting, searching, order-statistics (median, aminmax) and unique operators, included by aclnn_runner.cpp after its Spec, Phase1 and
// Phase2; their arguments by name as in aclnn_runner_by_name.h.
#pragma once

#include <string>

#include "aclnnop/aclnn_aminmax.h"
#include "aclnnop/aclnn_histc.h"
#include "aclnnop/aclnn_median.h"
#include "aclnnop/aclnn_searchsorted.h"
#include "aclnnop/aclnn_unique.h"
#include "aclnnop/aclnn_unique2.h"
#include "aclnnop/aclnn_unique_consecutive.h"

namespace {

bool select_counting(const Spec& p, Phase1& first, Phase2& second) {
    const std::string& op = p.op;
    if (op == "Histc") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnHistcGetWorkspaceSize(p.t("self"), static_cast<int64_t>(p.n("bins", 100)), p.s("min"),
                                              p.s("max"), p.t("out"), w, e);
        };
        second = aclnnHistc;
    } else if (op == "SearchSorted") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnSearchSortedGetWorkspaceSize(p.t("sortedSequence"), p.t("self"), p.n("outInt32", 0) != 0,
                                                     p.n("right", 0) != 0, p.t("sorter"), p.t("out"), w, e);
        };
        second = aclnnSearchSorted;
    } else if (op == "SearchSorteds") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnSearchSortedsGetWorkspaceSize(p.t("sortedSequence"), p.s("self"), p.n("outInt32", 0) != 0,
                                                      p.n("right", 0) != 0, p.t("sorter"), p.t("out"), w, e);
        };
        second = aclnnSearchSorteds;
    } else if (op == "Aminmax") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnAminmaxGetWorkspaceSize(p.t("self"), p.a("dim"), p.n("keepDim", 0) != 0, p.t("minOut"),
                                                p.t("maxOut"), w, e);
        };
        second = aclnnAminmax;
    } else if (op == "Median") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnMedianGetWorkspaceSize(p.t("self"), p.t("out"), w, e);
        };
        second = aclnnMedian;
    } else if (op == "NanMedian") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnNanMedianGetWorkspaceSize(p.t("self"), p.t("out"), w, e);
        };
        second = aclnnNanMedian;
    } else if (op == "MedianDim" || op == "NanMedianDim") {
        const bool nan = op == "NanMedianDim";
        first = [&p, nan](uint64_t* w, aclOpExecutor** e) {
            const auto dim = static_cast<int64_t>(p.n("dim", 0));
            const bool keep = p.n("keepDim", 0) != 0;
            return nan ? aclnnNanMedianDimGetWorkspaceSize(p.t("self"), dim, keep, p.t("values"), p.t("indices"), w, e)
                       : aclnnMedianDimGetWorkspaceSize(p.t("self"), dim, keep, p.t("values"), p.t("indices"), w, e);
        };
        second = nan ? aclnnNanMedianDim : aclnnMedianDim;
    } else if (op == "Unique") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnUniqueGetWorkspaceSize(p.t("self"), true, p.n("returnInverse", 0) != 0, p.t("values"),
                                               p.t("inverse"), w, e);
        };
        second = aclnnUnique;
    } else if (op == "Unique2") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnUnique2GetWorkspaceSize(p.t("self"), true, p.n("returnInverse", 0) != 0,
                                                p.n("returnCounts", 0) != 0, p.t("values"), p.t("inverse"),
                                                p.t("counts"), w, e);
        };
        second = aclnnUnique2;
    } else if (op == "UniqueConsecutive") {
        first = [&p](uint64_t* w, aclOpExecutor** e) {
            return aclnnUniqueConsecutiveGetWorkspaceSize(
                p.t("self"), p.n("returnInverse", 0) != 0, p.n("returnCounts", 0) != 0,
                static_cast<int64_t>(p.n("dim", 1000)), p.t("values"), p.t("inverse"), p.t("counts"), w, e);
        };
        second = aclnnUniqueConsecutive;
    } else {
        return false;
    }
    return true;
}

}  // namespace
