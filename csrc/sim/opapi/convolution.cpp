#include "opapi/convolution.h"

#include "nnopbase/tensor.h"
#include "opapi/checks.h"

namespace npusim::opapi {

namespace {

// An attribute array of `spatial` values (one value stands for every dimension) as the (height,
// width) pair; a 1-D convolution's height takes `fallback` (stride and dilation 1, padding 0).
bool expand(const aclIntArray* array, int spatial, int64_t fallback, int64_t& height, int64_t& width) {
    height = width = fallback;
    if (array == nullptr) return true;
    if (!nn::valid(array)) return false;
    const auto& v = array->values;
    if (v.size() != 1 && static_cast<int>(v.size()) != spatial) return false;
    width = v.back();
    if (spatial == 2) height = v.front();
    return true;
}

}  // namespace

Dims ConvGeometry::output_dims() const { return spatial == 1 ? Dims{n, o, ow} : Dims{n, o, oh, ow}; }

aclnnStatus plan_convolution(const char* api, const TensorView& input, const TensorView& weight,
                             const aclIntArray* stride, const aclIntArray* padding, const aclIntArray* dilation,
                             bool transposed, const aclIntArray* outputPadding, int64_t groups, ConvGeometry& g) {
    OPAPI_CHECK(check_float_type(api, "input", input.dtype));
    OPAPI_CHECK(check_same_dtype(api, "weight", weight.dtype, input.dtype));
    OPAPI_CHECK(check_rank(api, "input", input.dims, 3, 4));
    if (weight.rank() != input.rank()) {
        return invalid(api, "weight %s and input %s differ in rank", dims_text(weight.dims).c_str(),
                       dims_text(input.dims).c_str());
    }
    if (transposed) return invalid(api, "transposed convolution is not supported by the simulator");
    (void)outputPadding;  // read by transposed convolution only
    g.spatial = static_cast<int>(input.rank()) - 2;
    g.n = input.dims[0], g.c = input.dims[1], g.o = weight.dims[0];
    g.h = g.spatial == 2 ? input.dims[2] : 1;
    g.w = input.dims.back();
    g.kh = g.spatial == 2 ? weight.dims[2] : 1;
    g.kw = weight.dims.back();
    g.groups = groups;
    if (!expand(stride, g.spatial, 1, g.sh, g.sw)) return invalid(api, "stride must hold 1 or %d values", g.spatial);
    if (!expand(padding, g.spatial, 0, g.ph, g.pw)) return invalid(api, "padding must hold 1 or %d values", g.spatial);
    if (!expand(dilation, g.spatial, 1, g.dh, g.dw)) return invalid(api, "dilation must hold 1 or %d values", g.spatial);
    if (g.sh < 1 || g.sw < 1) return invalid(api, "stride must be positive");
    if (g.dh < 1 || g.dw < 1) return invalid(api, "dilation must be positive");
    if (g.ph < 0 || g.pw < 0) return invalid(api, "padding must not be negative");
    if (groups < 1 || g.c % groups != 0 || g.o % groups != 0) {
        return invalid(api, "groups %lld must divide input channels %lld and output channels %lld", (long long)groups,
                       (long long)g.c, (long long)g.o);
    }
    if (weight.dims[1] != g.cg()) {
        return invalid(api, "weight %s: dimension 1 must be input channels / groups (%lld)",
                       dims_text(weight.dims).c_str(), (long long)g.cg());
    }
    if (g.kh < 1 || g.kw < 1) return invalid(api, "weight %s has an empty kernel", dims_text(weight.dims).c_str());
    const int64_t span_h = g.h + 2 * g.ph - g.dh * (g.kh - 1) - 1;
    const int64_t span_w = g.w + 2 * g.pw - g.dw * (g.kw - 1) - 1;
    if (span_h < 0 || span_w < 0) {
        return invalid(api, "input %s is smaller than the dilated kernel", dims_text(input.dims).c_str());
    }
    g.oh = span_h / g.sh + 1;
    g.ow = span_w / g.sw + 1;
    return ACLNN_SUCCESS;
}

void im2col(const float* x, const ConvGeometry& g, int64_t group, float* col) {
    const int64_t plane = g.h * g.w;
    for (int64_t ci = 0; ci < g.cg(); ++ci) {
        const float* src = x + (group * g.cg() + ci) * plane;
        for (int64_t i = 0; i < g.kh; ++i) {
            for (int64_t j = 0; j < g.kw; ++j) {
                float* dst = col + ((ci * g.kh + i) * g.kw + j) * g.col_cols();
                for (int64_t y = 0; y < g.oh; ++y) {
                    const int64_t iy = y * g.sh - g.ph + i * g.dh;
                    float* row = dst + y * g.ow;
                    if (iy < 0 || iy >= g.h) {
                        for (int64_t xo = 0; xo < g.ow; ++xo) row[xo] = 0.0f;
                        continue;
                    }
                    const float* line = src + iy * g.w;
                    for (int64_t xo = 0; xo < g.ow; ++xo) {
                        const int64_t ix = xo * g.sw - g.pw + j * g.dw;
                        row[xo] = ix >= 0 && ix < g.w ? line[ix] : 0.0f;
                    }
                }
            }
        }
    }
}

void col2im(const float* col, const ConvGeometry& g, int64_t group, float* dx) {
    const int64_t plane = g.h * g.w;
    for (int64_t ci = 0; ci < g.cg(); ++ci) {
        float* dst = dx + (group * g.cg() + ci) * plane;
        for (int64_t i = 0; i < g.kh; ++i) {
            for (int64_t j = 0; j < g.kw; ++j) {
                const float* src = col + ((ci * g.kh + i) * g.kw + j) * g.col_cols();
                for (int64_t y = 0; y < g.oh; ++y) {
                    const int64_t iy = y * g.sh - g.ph + i * g.dh;
                    if (iy < 0 || iy >= g.h) continue;
                    const float* row = src + y * g.ow;
                    float* line = dst + iy * g.w;
                    for (int64_t xo = 0; xo < g.ow; ++xo) {
                        const int64_t ix = xo * g.sw - g.pw + j * g.dw;
                        if (ix >= 0 && ix < g.w) line[ix] += row[xo];
                    }
                }
            }
        }
    }
}

}  // namespace npusim::opapi
