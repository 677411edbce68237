#include "opapi/convolution.h"

#include <algorithm>
#include <vector>

#include "nnopbase/tensor.h"
#include "opapi/checks.h"
#include "opapi/gemm.h"

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
Dims ConvGeometry::input_dims() const { return spatial == 1 ? Dims{n, c, w} : Dims{n, c, h, w}; }

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
    g.spatial = static_cast<int>(input.rank()) - 2;
    g.transposed = transposed;
    g.n = input.dims[0];
    g.kh = g.spatial == 2 ? weight.dims[2] : 1;
    g.kw = weight.dims.back();
    g.groups = groups;
    if (!expand(stride, g.spatial, 1, g.sh, g.sw)) return invalid(api, "stride must hold 1 or %d values", g.spatial);
    if (!expand(padding, g.spatial, 0, g.ph, g.pw)) return invalid(api, "padding must hold 1 or %d values", g.spatial);
    if (!expand(dilation, g.spatial, 1, g.dh, g.dw))
        return invalid(api, "dilation must hold 1 or %d values", g.spatial);
    if (g.sh < 1 || g.sw < 1) return invalid(api, "stride must be positive");
    if (g.dh < 1 || g.dw < 1) return invalid(api, "dilation must be positive");
    if (g.ph < 0 || g.pw < 0) return invalid(api, "padding must not be negative");
    if (g.kh < 1 || g.kw < 1) return invalid(api, "weight %s has an empty kernel", dims_text(weight.dims).c_str());
    if (groups < 1) return invalid(api, "groups %lld must be positive", (long long)groups);
    if (transposed) {
        // The operator's input is the direct convolution's output [n, o, (oh,) ow].
        if (outputPadding == nullptr) return check_not_null(api, {outputPadding});
        if (!nn::valid(outputPadding) || static_cast<int>(outputPadding->values.size()) != g.spatial) {
            return invalid(api, "outputPadding must hold %d values", g.spatial);
        }
        const int64_t opw = outputPadding->values.back();
        const int64_t oph = g.spatial == 2 ? outputPadding->values.front() : 0;
        if (oph < 0 || opw < 0) return invalid(api, "outputPadding must not be negative");
        if ((oph >= g.sh && oph >= g.dh) || (opw >= g.sw && opw >= g.dw)) {
            return invalid(api, "outputPadding must be less than the stride or the dilation");
        }
        g.o = input.dims[1];
        g.oh = g.spatial == 2 ? input.dims[2] : 1;
        g.ow = input.dims.back();
        if (weight.dims[0] != g.o) {
            return invalid(api, "weight %s: dimension 0 must be input channels (%lld) when transposed",
                           dims_text(weight.dims).c_str(), (long long)g.o);
        }
        g.c = weight.dims[1] * groups;
        if (g.o % groups != 0) {
            return invalid(api, "groups %lld must divide input channels %lld", (long long)groups, (long long)g.o);
        }
        g.h = g.spatial == 2 ? (g.oh - 1) * g.sh - 2 * g.ph + g.dh * (g.kh - 1) + oph + 1 : 1;
        g.w = (g.ow - 1) * g.sw - 2 * g.pw + g.dw * (g.kw - 1) + opw + 1;
        if (g.h < 1 || g.w < 1) {
            return invalid(api, "input %s gives an empty output for this stride, padding and kernel",
                           dims_text(input.dims).c_str());
        }
        return ACLNN_SUCCESS;
    }
    g.c = input.dims[1], g.o = weight.dims[0];
    g.h = g.spatial == 2 ? input.dims[2] : 1;
    g.w = input.dims.back();
    if (g.c % groups != 0 || g.o % groups != 0) {
        return invalid(api, "groups %lld must divide input channels %lld and output channels %lld", (long long)groups,
                       (long long)g.c, (long long)g.o);
    }
    if (weight.dims[1] != g.cg()) {
        return invalid(api, "weight %s: dimension 1 must be input channels / groups (%lld)",
                       dims_text(weight.dims).c_str(), (long long)g.cg());
    }
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

void conv_forward(const float* x, const float* w, const ConvGeometry& g, float* y) {
    const int64_t cols = g.col_cols(), rows = g.col_rows();
    std::vector<float> col(static_cast<size_t>(rows * cols));
    for (int64_t s = 0; s < g.n; ++s) {
        const float* sample = x + s * g.c * g.h * g.w;
        for (int64_t gi = 0; gi < g.groups; ++gi) {
            im2col(sample, g, gi, col.data());
            gemm(g.og(), cols, rows, 1.0f, {w + gi * g.og() * rows, rows, false}, {col.data(), cols, false}, 1.0f,
                 y + (s * g.o + gi * g.og()) * cols, cols);
        }
    }
}

void conv_input_grad(const float* dy, const float* w, const ConvGeometry& g, float* dx) {
    const int64_t cols = g.col_cols(), rows = g.col_rows(), og = g.og();
    const int64_t sample_in = g.c * g.h * g.w;
    std::vector<float> col(static_cast<size_t>(rows * cols));
    for (int64_t s = 0; s < g.n; ++s) {
        for (int64_t gi = 0; gi < g.groups; ++gi) {
            gemm(rows, cols, og, 1.0f, {w + gi * og * rows, rows, true}, {dy + (s * g.o + gi * og) * cols, cols, false},
                 0.0f, col.data(), cols);
            col2im(col.data(), g, gi, dx + s * sample_in);
        }
    }
}

void conv_weight_grad(const float* dy, const float* x, const ConvGeometry& g, float* dw) {
    const int64_t cols = g.col_cols(), rows = g.col_rows(), og = g.og();
    const int64_t sample_in = g.c * g.h * g.w;
    std::fill(dw, dw + g.o * rows, 0.0f);
    std::vector<float> col(static_cast<size_t>(rows * cols));
    for (int64_t s = 0; s < g.n; ++s) {
        for (int64_t gi = 0; gi < g.groups; ++gi) {
            im2col(x + s * sample_in, g, gi, col.data());
            gemm(og, rows, cols, 1.0f, {dy + (s * g.o + gi * og) * cols, cols, false}, {col.data(), cols, true}, 1.0f,
                 dw + gi * og * rows, rows);
        }
    }
}

void fill_bias(const float* bias, int64_t n, int64_t channels, int64_t plane, float* out) {
    for (int64_t s = 0; s < n; ++s) {
        for (int64_t ch = 0; ch < channels; ++ch) {
            float* p = out + (s * channels + ch) * plane;
            std::fill(p, p + plane, bias[ch]);
        }
    }
}

}  // namespace npusim::opapi
