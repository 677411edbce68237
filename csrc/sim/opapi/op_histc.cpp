// aclnnHistc: torch.histc: the counts of self's elements in `bins` equal bins over [min, max] (elements
// outside, and NaN, are not counted; max itself falls in the last bin). As torch's CPU kernel: the bin
// edges are linspace(min, max, bins + 1) in float, an element's bin is estimated as
// (x - min) * bins / (max - min) and settled by a search among the neighbouring edges. out: [bins], of
// self's type. Bad input: NULL is ACLNN_ERR_PARAM_NULLPTR; a type outside the floats, bins <= 0, min not below
// max or not finite, or an out of another shape or type is ACLNN_ERR_PARAM_INVALID.
#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "aclnnop/aclnn_histc.h"
#include "core/fault_plan.h"
#include "nnopbase/dtype.h"
#include "nnopbase/tensor.h"
#include "opapi/checks.h"
#include "opapi/op_launcher.h"
#include "opapi/registry.h"

namespace npusim::opapi {

namespace {

[[maybe_unused]] const bool kRegistered =
    register_op({"aclnnHistc", OpFamily::Reduction, kFloatTypes, Kernel::HistogramV2});

// torch's linspace on the CPU: from the start for the first half, from the end for the rest.
std::vector<float> bin_edges(float low, float high, int64_t bins) {
    std::vector<float> edges(static_cast<size_t>(bins + 1));
    const float step = (high - low) / static_cast<float>(bins);
    const int64_t half = (bins + 1) / 2;
    for (int64_t i = 0; i <= bins; ++i) {
        edges[static_cast<size_t>(i)] =
            i < half ? low + step * static_cast<float>(i) : high - step * static_cast<float>(bins - i);
    }
    return edges;
}

aclnnStatus prepare(const aclTensor* self, int64_t bins, const aclScalar* min, const aclScalar* max,
                    const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    const char* api = "aclnnHistc";
    OPAPI_CHECK(check_not_null(api, {self, min, max, out, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "out", out));
    if (!nn::valid(min) || !nn::valid(max)) return invalid(api, "min or max is not a live aclScalar");
    const TensorView x = view_of(self), y = view_of(out);
    OPAPI_CHECK(check_float_type(api, "self", x.dtype));
    OPAPI_CHECK(check_same_dtype(api, "out", y.dtype, x.dtype));
    if (bins <= 0) return invalid(api, "bins is %lld; a positive number expected", (long long)bins);
    const double low = min->value, high = max->value;
    if (!std::isfinite(low) || !std::isfinite(high) || !(low < high)) {
        return invalid(api, "the range [%g, %g] is not finite with min below max", low, high);
    }
    OPAPI_CHECK(check_same_dims(api, "out", y.dims, Dims{bins}));
    std::vector<KernelLaunch> launches{
        {Kernel::HistogramV2, x.dtype,
         vector_cost(4.0 * double(x.numel()), double(x.bytes() + y.bytes()), x.numel(), 4096)}};
    auto compute = [x, y, bins, low = static_cast<float>(low), high = static_cast<float>(high)]() {
        const std::vector<float> v = read_floats(x);
        std::vector<double> counts(static_cast<size_t>(bins), 0.0);
        const std::vector<float> edges = bin_edges(low, high, bins);
        for (float e : v) {
            if (!(e >= low && e <= high)) continue;  // outside, or NaN
            auto pos = static_cast<int64_t>((e - low) * static_cast<float>(bins) / (high - low));
            const int64_t first = std::max<int64_t>(pos - 1, 0), last = std::min<int64_t>(pos + 2, bins + 1);
            pos = std::upper_bound(edges.begin() + first, edges.begin() + last, e) - edges.begin() - 1;
            counts[static_cast<size_t>(std::clamp<int64_t>(pos, 0, bins - 1))] += 1.0;
        }
        write_doubles(y, counts);
    };
    return hand_over(
        std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{x.data, y.data}),
        workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnHistcGetWorkspaceSize(const aclTensor* self, int64_t bins, const aclScalar* min,
                                                       const aclScalar* max, aclTensor* out, uint64_t* workspaceSize,
                                                       aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnHistcGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare(self, bins, min, max, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnHistc)
