// Upsampling of the last two dimensions of an [N, C, H, W] self, one resampling primitive: each output
// row (column) reads one (nearest) or two (bilinear) input rows (columns) with weights, and the
// backward adds each output gradient back to them with the same weights.
//   aclnnUpsampleNearest2d(self, outputSize, out)                          torch's upsample_nearest2d
//   aclnnUpsampleNearest2dV2(self, outputSize, scalesH, scalesW, out)      (torch_npu's first choice)
//   aclnnUpsampleNearest2dBackward(gradOut, outputSize, inputSize, scalesH, scalesW, gradInput)
//   aclnnUpsampleBilinear2d(self, outputSize, alignCorners, scalesH, scalesW, out)
//   aclnnUpsampleBilinear2dBackward(gradOut, outputSize, inputSize, alignCorners, scalesH, scalesW, out)
// The index rules are torch's CPU kernels': nearest reads floor(i * s) (at most H - 1) with s = 1 / scale
// for a scale > 0 given, else H / outH (in float); bilinear reads the source position s * i
// (alignCorners, s = (H - 1) / (outH - 1)) or max(s * (i + 0.5) - 0.5, 0) and its next row. Sums in
// double, rounded once. outputSize: two positive values; inputSize: four ([N, C, H, W]).
// Bad input: NULL is ACLNN_ERR_PARAM_NULLPTR; a data type outside the operator's, a self or gradOut
// not 4-D, sizes not as above or an out of another shape or type is ACLNN_ERR_PARAM_INVALID.
#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "aclnnop/aclnn_upsample_bilinear_2d.h"
#include "aclnnop/aclnn_upsample_bilinear_2d_backward.h"
#include "aclnnop/aclnn_upsample_nearest_2d.h"
#include "aclnnop/aclnn_upsample_nearest_2d_backward.h"
#include "aclnnop/aclnn_upsample_nearest_2d_v2.h"
#include "core/fault_plan.h"
#include "nnopbase/dtype.h"
#include "nnopbase/tensor.h"
#include "opapi/checks.h"
#include "opapi/op_launcher.h"
#include "opapi/registry.h"

namespace npusim::opapi {

namespace {

[[maybe_unused]] const bool kRegistered =
    register_op({"aclnnUpsampleNearest2d", OpFamily::Layout, kNumericTypes, Kernel::ResizeNearestNeighborV2}) &&
    register_op({"aclnnUpsampleNearest2dV2", OpFamily::Layout, kNumericTypes, Kernel::ResizeNearestNeighborV2}) &&
    register_op(
        {"aclnnUpsampleNearest2dBackward", OpFamily::Layout, kFloatTypes, Kernel::ResizeNearestNeighborV2Grad}) &&
    register_op({"aclnnUpsampleBilinear2d", OpFamily::Layout, kFloatTypes, Kernel::ResizeBilinearV2}) &&
    register_op({"aclnnUpsampleBilinear2dBackward", OpFamily::Layout, kFloatTypes, Kernel::ResizeBilinearV2Grad});

enum class Mode : uint8_t { Nearest, Bilinear };

// Output index i of a dimension reads input `index[k]` with `weight[k]`, k < taps.
struct Tap {
    int64_t index[2] = {0, 0};
    double weight[2] = {0, 0};
    int taps = 1;
};

// torch's compute_scales_value<float>: 1 / scale for a scale given (> 0), else in / out.
float scale_value(double scale, int64_t in, int64_t out) {
    return scale > 0 ? static_cast<float>(1.0 / scale) : static_cast<float>(in) / static_cast<float>(out);
}

std::vector<Tap> taps_of(Mode mode, int64_t in, int64_t out, bool align_corners, double scale) {
    std::vector<Tap> taps(static_cast<size_t>(out));
    for (int64_t i = 0; i < out; ++i) {
        Tap& t = taps[static_cast<size_t>(i)];
        if (mode == Mode::Nearest) {
            t.weight[0] = 1;
            if (out == in) {
                t.index[0] = i;
            } else if (out == 2 * in) {
                t.index[0] = i >> 1;
            } else {
                const float s = scale_value(scale, in, out);
                t.index[0] = std::min(static_cast<int64_t>(std::floor(static_cast<float>(i) * s)), in - 1);
            }
            continue;
        }
        const float s = align_corners ? (out > 1 ? static_cast<float>(in - 1) / static_cast<float>(out - 1) : 0.0f)
                                      : scale_value(scale, in, out);
        const float real =
            align_corners ? s * static_cast<float>(i) : std::max(s * (static_cast<float>(i) + 0.5f) - 0.5f, 0.0f);
        const int64_t i0 = std::min(static_cast<int64_t>(std::floor(real)), in - 1);
        const float lambda = std::min(std::max(real - static_cast<float>(i0), 0.0f), 1.0f);
        t.taps = 2;
        t.index[0] = i0;
        t.index[1] = i0 + (i0 < in - 1 ? 1 : 0);
        t.weight[0] = 1.0f - lambda;
        t.weight[1] = lambda;
    }
    return taps;
}

struct Resample {
    Mode mode;
    bool backward;
    bool align_corners;
    double scale_h, scale_w;
};

// small: the [N, C, H, W] input side (self, or gradInput); large: the [N, C, outH, outW] side.
aclnnStatus prepare(const char* api, const Resample& r, const aclTensor* source, const aclIntArray* outputSize,
                    const aclIntArray* inputSize, const aclTensor* result, uint64_t* workspaceSize,
                    aclOpExecutor** executor) {
    OPAPI_CHECK(check_not_null(api, {source, outputSize, result, workspaceSize, executor}));
    if (r.backward) OPAPI_CHECK(check_not_null(api, {inputSize}));
    OPAPI_CHECK(check_tensor(api, r.backward ? "gradOut" : "self", source));
    OPAPI_CHECK(check_tensor(api, "out", result));
    if (!nn::valid(outputSize) || (r.backward && !nn::valid(inputSize))) {
        return invalid(api, "outputSize or inputSize is not a live aclIntArray");
    }
    const TensorView x = view_of(source), y = view_of(result);
    const DTypeSet types = r.mode == Mode::Nearest && !r.backward ? kNumericTypes : kFloatTypes;
    if (!types.has(x.dtype)) {
        return invalid(api, "%s has data type %s; %s expected", r.backward ? "gradOut" : "self",
                       nn::dtype_name(x.dtype), types.text().c_str());
    }
    OPAPI_CHECK(check_same_dtype(api, "out", y.dtype, x.dtype));
    OPAPI_CHECK(check_rank(api, r.backward ? "gradOut" : "self", x.dims, 4, 4));
    const std::vector<int64_t>& size = outputSize->values;
    if (size.size() != 2 || size[0] <= 0 || size[1] <= 0) {
        return invalid(api, "outputSize %s; two positive values expected", dims_text(size).c_str());
    }
    Dims small = x.dims;  // forward: self's shape
    if (r.backward) {
        small = inputSize->values;
        if (small.size() != 4 || std::any_of(small.begin(), small.end(), [](int64_t d) { return d <= 0; })) {
            return invalid(api, "inputSize %s; four positive values expected", dims_text(small).c_str());
        }
    }
    if (small[2] <= 0 || small[3] <= 0) return invalid(api, "self %s has an empty plane", dims_text(small).c_str());
    const Dims large{small[0], small[1], size[0], size[1]};
    OPAPI_CHECK(r.backward ? check_same_dims(api, "gradOut", x.dims, large)
                           : check_same_dims(api, "out", y.dims, large));
    if (r.backward) OPAPI_CHECK(check_same_dims(api, "out", y.dims, small));
    const std::vector<Tap> rows = taps_of(r.mode, small[2], size[0], r.align_corners, r.scale_h);
    const std::vector<Tap> cols = taps_of(r.mode, small[3], size[1], r.align_corners, r.scale_w);
    const int64_t planes = small[0] * small[1], in_h = small[2], in_w = small[3], out_h = size[0], out_w = size[1];
    const bool backward = r.backward;
    auto compute = [x, y, rows, cols, planes, in_h, in_w, out_h, out_w, backward]() {
        const std::vector<double> v = read_doubles(x);
        std::vector<double> result(static_cast<size_t>(numel(y.dims)), 0.0);
        for (int64_t p = 0; p < planes; ++p) {
            const int64_t small_base = p * in_h * in_w, large_base = p * out_h * out_w;
            for (int64_t i = 0; i < out_h; ++i) {
                const Tap& row = rows[static_cast<size_t>(i)];
                for (int64_t j = 0; j < out_w; ++j) {
                    const Tap& col = cols[static_cast<size_t>(j)];
                    const size_t at = static_cast<size_t>(large_base + i * out_w + j);
                    double sum = 0;
                    for (int a = 0; a < row.taps; ++a) {
                        for (int b = 0; b < col.taps; ++b) {
                            const auto from = static_cast<size_t>(small_base + row.index[a] * in_w + col.index[b]);
                            const double weight = row.weight[a] * col.weight[b];
                            if (backward) {
                                result[from] += weight * v[at];
                            } else {
                                sum += weight * v[from];
                            }
                        }
                    }
                    if (!backward) result[at] = sum;
                }
            }
        }
        write_doubles(y, result);
    };
    const Kernel kernel = r.mode == Mode::Nearest
                              ? (backward ? Kernel::ResizeNearestNeighborV2Grad : Kernel::ResizeNearestNeighborV2)
                              : (backward ? Kernel::ResizeBilinearV2Grad : Kernel::ResizeBilinearV2);
    const int64_t n = planes * out_h * out_w;
    const double flops = r.mode == Mode::Nearest ? 0.0 : 8.0 * double(n);
    std::vector<KernelLaunch> launches{{kernel, x.dtype, vector_cost(flops, double(x.bytes() + y.bytes()), n, 4096)}};
    return hand_over(
        std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{x.data, y.data}),
        workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

using npusim::opapi::Mode;
using npusim::opapi::Resample;

NPUSIM_C_EXPORT aclnnStatus aclnnUpsampleNearest2dGetWorkspaceSize(const aclTensor* self, const aclIntArray* outputSize,
                                                                   aclTensor* out, uint64_t* workspaceSize,
                                                                   aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnUpsampleNearest2dGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare("aclnnUpsampleNearest2d", Resample{Mode::Nearest, false, false, 0, 0}, self,
                                  outputSize, nullptr, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnUpsampleNearest2d)

NPUSIM_C_EXPORT aclnnStatus aclnnUpsampleNearest2dV2GetWorkspaceSize(const aclTensor* self,
                                                                     const aclIntArray* outputSize, float scalesH,
                                                                     float scalesW, aclTensor* out,
                                                                     uint64_t* workspaceSize,
                                                                     aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnUpsampleNearest2dV2GetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare("aclnnUpsampleNearest2dV2", Resample{Mode::Nearest, false, false, scalesH, scalesW},
                                  self, outputSize, nullptr, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnUpsampleNearest2dV2)

NPUSIM_C_EXPORT aclnnStatus aclnnUpsampleNearest2dBackwardGetWorkspaceSize(
    const aclTensor* gradOut, const aclIntArray* outputSize, const aclIntArray* inputSize, double scalesH,
    double scalesW, aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnUpsampleNearest2dBackwardGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare("aclnnUpsampleNearest2dBackward",
                                  Resample{Mode::Nearest, true, false, scalesH, scalesW}, gradOut, outputSize,
                                  inputSize, gradInput, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnUpsampleNearest2dBackward)

NPUSIM_C_EXPORT aclnnStatus aclnnUpsampleBilinear2dGetWorkspaceSize(const aclTensor* self,
                                                                    const aclIntArray* outputSize,
                                                                    const bool alignCorners, const double scalesH,
                                                                    const double scalesW, aclTensor* out,
                                                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnUpsampleBilinear2dGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare("aclnnUpsampleBilinear2d",
                                  Resample{Mode::Bilinear, false, alignCorners, scalesH, scalesW}, self, outputSize,
                                  nullptr, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnUpsampleBilinear2d)

NPUSIM_C_EXPORT aclnnStatus aclnnUpsampleBilinear2dBackwardGetWorkspaceSize(
    const aclTensor* gradOut, const aclIntArray* outputSize, const aclIntArray* inputSize, bool alignCorners,
    double scalesH, double scalesW, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnUpsampleBilinear2dBackwardGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare("aclnnUpsampleBilinear2dBackward",
                                  Resample{Mode::Bilinear, true, alignCorners, scalesH, scalesW}, gradOut, outputSize,
                                  inputSize, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnUpsampleBilinear2dBackward)
