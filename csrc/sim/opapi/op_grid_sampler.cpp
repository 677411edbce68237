// aclnnGridSampler2D and aclnnGridSampler2DBackward: torch's grid_sampler_2d (F.grid_sample of a 4-D
// input) and its backward, by torch's CPU rules: grid [N, Ho, Wo, 2] holds (x, y) in [-1, 1], mapped to
// input positions (alignCorners: -1 and 1 are the corner pixels' centres, else their outer edges),
// then paddingMode 0 zeros (outside reads 0), 1 border (clamped), 2 reflection (mirrored at the
// edges, then clamped); interpolationMode 0 bilinear (the four neighbours), 1 nearest (rounded half to
// even). out: [N, C, Ho, Wo]. The backward (outputMask: inputGrad, gridGrad) adds each output gradient
// to the neighbours it read, with their weights, and gives the grid the derivative of the interpolation
// times that of the mapping (0 for nearest). Computed in double, rounded once.
// Not modelled: interpolationMode 2 (bicubic), refused with ACLNN_ERR_PARAM_INVALID.
// Bad input: NULL is ACLNN_ERR_PARAM_NULLPTR; a type outside the floats, input not 4-D, a grid not
// [N, Ho, Wo, 2], a mode outside the above, or an output of another shape or type is
// ACLNN_ERR_PARAM_INVALID.
#include <cmath>
#include <memory>
#include <vector>

#include "aclnnop/aclnn_grid_sampler2d.h"
#include "aclnnop/aclnn_grid_sampler2d_backward.h"
#include "core/fault_plan.h"
#include "nnopbase/dtype.h"
#include "nnopbase/tensor.h"
#include "opapi/checks.h"
#include "opapi/op_launcher.h"
#include "opapi/registry.h"

namespace npusim::opapi {

namespace {

[[maybe_unused]] const bool kRegistered =
    register_op({"aclnnGridSampler2D", OpFamily::Index, kFloatTypes, Kernel::GridSampler2D}) &&
    register_op({"aclnnGridSampler2DBackward", OpFamily::Index, kFloatTypes, Kernel::GridSampler2DGrad});

constexpr int64_t kBilinear = 0, kNearest = 1;
constexpr int64_t kZeros = 0, kBorder = 1, kReflection = 2;

struct Sampling {
    int64_t interpolation, padding;
    bool align;
};

// A reflected coordinate and d(result)/d(in), as torch's reflect_coordinates_set_grad.
double reflect(double in, double twice_low, double twice_high, double& grad) {
    if (twice_low == twice_high) {
        grad = 0;
        return 0;
    }
    const double low = twice_low / 2, span = (twice_high - twice_low) / 2;
    in -= low;
    double sign = 1;
    if (in < 0) sign = -1, in = -in;
    const double extra = std::fmod(in, span);
    if (static_cast<int64_t>(std::floor(in / span)) % 2 == 0) {
        grad = sign;
        return extra + low;
    }
    grad = -sign;
    return span - extra + low;
}

// The input position of grid coordinate `coord` along a dimension of `size`, and its derivative.
double source_index(double coord, int64_t size, const Sampling& s, double& grad) {
    const double n = static_cast<double>(size);
    double c = s.align ? (coord + 1) / 2 * (n - 1) : ((coord + 1) * n - 1) / 2;
    grad = s.align ? (n - 1) / 2 : n / 2;
    const auto clip = [&](double v) {
        if (v <= 0 || v >= n - 1) grad = 0;
        return std::fmin(n - 1, std::fmax(v, 0.0));
    };
    if (s.padding == kBorder) {
        c = clip(c);
    } else if (s.padding == kReflection) {
        double g = 1;
        c = s.align ? reflect(c, 0, 2 * (n - 1), g) : reflect(c, -1, 2 * n - 1, g);
        grad *= g;
        c = clip(c);
    }
    if (!std::isfinite(c)) c = -100;  // torch's safe_downgrade_to_int_range
    return c;
}

struct Plan {
    Sampling s;
    int64_t n, c, h, w, ho, wo;
};

// One output position's neighbours (index into the [h, w] plane, or -1 outside) and weights, and the
// weights' derivatives along x and y.
struct Taps {
    int64_t at[4] = {-1, -1, -1, -1};
    double weight[4] = {0, 0, 0, 0}, dx[4] = {0, 0, 0, 0}, dy[4] = {0, 0, 0, 0};
    double gx = 0, gy = 0;  // d(source x, y)/d(grid x, y)
};

Taps taps_at(const Plan& p, double gx, double gy) {
    Taps t;
    const double ix = source_index(gx, p.w, p.s, t.gx), iy = source_index(gy, p.h, p.s, t.gy);
    const auto inside = [&p](int64_t x, int64_t y) { return x >= 0 && x < p.w && y >= 0 && y < p.h; };
    if (p.s.interpolation == kNearest) {
        const auto x = static_cast<int64_t>(std::nearbyint(ix)), y = static_cast<int64_t>(std::nearbyint(iy));
        if (inside(x, y)) t.at[0] = y * p.w + x, t.weight[0] = 1;
        return t;
    }
    const double x0 = std::floor(ix), y0 = std::floor(iy), fx = ix - x0, fy = iy - y0;
    const int64_t xs[4] = {int64_t(x0), int64_t(x0) + 1, int64_t(x0), int64_t(x0) + 1};
    const int64_t ys[4] = {int64_t(y0), int64_t(y0), int64_t(y0) + 1, int64_t(y0) + 1};
    const double wx[4] = {1 - fx, fx, 1 - fx, fx}, wy[4] = {1 - fy, 1 - fy, fy, fy};
    const double sx[4] = {-1, 1, -1, 1}, sy[4] = {-1, -1, 1, 1};
    for (int k = 0; k < 4; ++k) {
        if (!inside(xs[k], ys[k])) continue;
        t.at[k] = ys[k] * p.w + xs[k];
        t.weight[k] = wx[k] * wy[k];
        t.dx[k] = sx[k] * wy[k];
        t.dy[k] = sy[k] * wx[k];
    }
    return t;
}

aclnnStatus check_modes(const char* api, const Sampling& s) {
    if (s.interpolation != kBilinear && s.interpolation != kNearest) {
        return invalid(api, "interpolationMode %lld; 0 (bilinear) or 1 (nearest) expected (bicubic is not modelled)",
                       static_cast<long long>(s.interpolation));
    }
    if (s.padding != kZeros && s.padding != kBorder && s.padding != kReflection) {
        return invalid(api, "paddingMode %lld; 0, 1 or 2 expected", static_cast<long long>(s.padding));
    }
    return ACLNN_SUCCESS;
}

aclnnStatus plan_of(const char* api, const TensorView& x, const TensorView& grid, const Sampling& s, Plan& p) {
    OPAPI_CHECK(check_float_type(api, "input", x.dtype));
    OPAPI_CHECK(check_same_dtype(api, "grid", grid.dtype, x.dtype));
    OPAPI_CHECK(check_rank(api, "input", x.dims, 4, 4));
    OPAPI_CHECK(check_modes(api, s));
    if (grid.rank() != 4 || grid.dims[0] != x.dims[0] || grid.dims[3] != 2) {
        return invalid(api, "grid %s; [N, Ho, Wo, 2] expected with input's N", dims_text(grid.dims).c_str());
    }
    if (x.dims[2] <= 0 || x.dims[3] <= 0) return invalid(api, "input %s is empty", dims_text(x.dims).c_str());
    p = Plan{s, x.dims[0], x.dims[1], x.dims[2], x.dims[3], grid.dims[1], grid.dims[2]};
    return ACLNN_SUCCESS;
}

aclnnStatus prepare_forward(const aclTensor* input, const aclTensor* grid, const Sampling& s, const aclTensor* out,
                            uint64_t* workspaceSize, aclOpExecutor** executor) {
    const char* api = "aclnnGridSampler2D";
    OPAPI_CHECK(check_not_null(api, {input, grid, out, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "input", input));
    OPAPI_CHECK(check_tensor(api, "grid", grid));
    OPAPI_CHECK(check_tensor(api, "out", out));
    const TensorView x = view_of(input), g = view_of(grid), y = view_of(out);
    Plan p;
    OPAPI_CHECK(plan_of(api, x, g, s, p));
    OPAPI_CHECK(check_same_dtype(api, "out", y.dtype, x.dtype));
    OPAPI_CHECK(check_same_dims(api, "out", y.dims, Dims{p.n, p.c, p.ho, p.wo}));
    const int64_t points = p.n * p.ho * p.wo;
    std::vector<KernelLaunch> launches{
        {Kernel::GridSampler2D, x.dtype,
         vector_cost(8.0 * double(points * p.c), double(x.bytes() + g.bytes() + y.bytes()), points, 1024)}};
    auto compute = [x, g, y, p]() {
        const std::vector<double> in = read_doubles(x), coords = read_doubles(g);
        std::vector<double> result(static_cast<size_t>(p.n * p.c * p.ho * p.wo), 0.0);
        const int64_t plane = p.h * p.w, out_plane = p.ho * p.wo;
        for (int64_t b = 0; b < p.n; ++b) {
            for (int64_t q = 0; q < out_plane; ++q) {
                const size_t gi = static_cast<size_t>((b * out_plane + q) * 2);
                const Taps t = taps_at(p, coords[gi], coords[gi + 1]);
                for (int64_t c = 0; c < p.c; ++c) {
                    const double* src = in.data() + (b * p.c + c) * plane;
                    double sum = 0;
                    for (int k = 0; k < 4; ++k) {
                        if (t.at[k] >= 0) sum += t.weight[k] * src[t.at[k]];
                    }
                    result[static_cast<size_t>((b * p.c + c) * out_plane + q)] = sum;
                }
            }
        }
        write_doubles(y, result);
    };
    return hand_over(
        std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{x.data, g.data, y.data}),
        workspaceSize, executor);
}

aclnnStatus prepare_backward(const aclTensor* gradOutput, const aclTensor* input, const aclTensor* grid,
                             const Sampling& s, const aclBoolArray* outputMask, const aclTensor* inputGrad,
                             const aclTensor* gridGrad, uint64_t* workspaceSize, aclOpExecutor** executor) {
    const char* api = "aclnnGridSampler2DBackward";
    OPAPI_CHECK(check_not_null(api, {gradOutput, input, grid, outputMask, workspaceSize, executor}));
    if (outputMask->magic != nn::kArrayMagic || outputMask->values.size() != 2) {
        return invalid(api, "outputMask must hold two values (inputGrad, gridGrad)");
    }
    const bool want_input = outputMask->values[0], want_grid = outputMask->values[1];
    if (want_input) OPAPI_CHECK(check_not_null(api, {inputGrad}));
    if (want_grid) OPAPI_CHECK(check_not_null(api, {gridGrad}));
    OPAPI_CHECK(check_tensor(api, "gradOutput", gradOutput));
    OPAPI_CHECK(check_tensor(api, "input", input));
    OPAPI_CHECK(check_tensor(api, "grid", grid));
    const TensorView dy = view_of(gradOutput), x = view_of(input), g = view_of(grid);
    Plan p;
    OPAPI_CHECK(plan_of(api, x, g, s, p));
    OPAPI_CHECK(check_same_dtype(api, "gradOutput", dy.dtype, x.dtype));
    OPAPI_CHECK(check_same_dims(api, "gradOutput", dy.dims, Dims{p.n, p.c, p.ho, p.wo}));
    TensorView dx, dg;
    if (want_input) {
        OPAPI_CHECK(check_tensor(api, "inputGrad", inputGrad));
        dx = view_of(inputGrad);
        OPAPI_CHECK(check_same_dtype(api, "inputGrad", dx.dtype, x.dtype));
        OPAPI_CHECK(check_same_dims(api, "inputGrad", dx.dims, x.dims));
    }
    if (want_grid) {
        OPAPI_CHECK(check_tensor(api, "gridGrad", gridGrad));
        dg = view_of(gridGrad);
        OPAPI_CHECK(check_same_dtype(api, "gridGrad", dg.dtype, x.dtype));
        OPAPI_CHECK(check_same_dims(api, "gridGrad", dg.dims, g.dims));
    }
    const int64_t points = p.n * p.ho * p.wo;
    std::vector<KernelLaunch> launches{
        {Kernel::GridSampler2DGrad, x.dtype,
         vector_cost(16.0 * double(points * p.c), double(x.bytes() + g.bytes() + dy.bytes() + dx.bytes() + dg.bytes()),
                     points, 1024)}};
    auto compute = [dy, x, g, dx, dg, p, want_input, want_grid]() {
        const std::vector<double> in = read_doubles(x), coords = read_doubles(g), grad = read_doubles(dy);
        std::vector<double> gin(static_cast<size_t>(x.numel()), 0.0), ggrid(coords.size(), 0.0);
        const int64_t plane = p.h * p.w, out_plane = p.ho * p.wo;
        for (int64_t b = 0; b < p.n; ++b) {
            for (int64_t q = 0; q < out_plane; ++q) {
                const size_t gi = static_cast<size_t>((b * out_plane + q) * 2);
                const Taps t = taps_at(p, coords[gi], coords[gi + 1]);
                double sx = 0, sy = 0;
                for (int64_t c = 0; c < p.c; ++c) {
                    const double go = grad[static_cast<size_t>((b * p.c + c) * out_plane + q)];
                    const int64_t base = (b * p.c + c) * plane;
                    for (int k = 0; k < 4; ++k) {
                        if (t.at[k] < 0) continue;
                        gin[static_cast<size_t>(base + t.at[k])] += t.weight[k] * go;
                        sx += t.dx[k] * in[static_cast<size_t>(base + t.at[k])] * go;
                        sy += t.dy[k] * in[static_cast<size_t>(base + t.at[k])] * go;
                    }
                }
                ggrid[gi] = t.gx * sx;
                ggrid[gi + 1] = t.gy * sy;
            }
        }
        if (want_input) write_doubles(dx, gin);
        if (want_grid) write_doubles(dg, ggrid);
    };
    std::vector<void*> buffers{dy.data, x.data, g.data};
    if (want_input) buffers.push_back(dx.data);
    if (want_grid) buffers.push_back(dg.data);
    return hand_over(std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::move(buffers)),
                     workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnGridSampler2DGetWorkspaceSize(const aclTensor* input, const aclTensor* grid,
                                                               int64_t interpolationMode, int64_t paddingMode,
                                                               bool alignCorners, aclTensor* out,
                                                               uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnGridSampler2DGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_forward(input, grid, {interpolationMode, paddingMode, alignCorners}, out,
                                          workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnGridSampler2D)

NPUSIM_C_EXPORT aclnnStatus aclnnGridSampler2DBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* input, const aclTensor* grid, int64_t interpolationMode,
    int64_t paddingMode, bool alignCorners, const aclBoolArray* outputMask, aclTensor* inputGrad, aclTensor* gridGrad,
    uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnGridSampler2DBackwardGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_backward(gradOutput, input, grid, {interpolationMode, paddingMode, alignCorners},
                                           outputMask, inputGrad, gridGrad, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnGridSampler2DBackward)
