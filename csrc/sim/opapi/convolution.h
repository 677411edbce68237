// The convolution family's shared geometry and its im2col / col2im on the GEMM primitive: 1-D and
// 2-D convolutions (stride, padding, dilation, groups) of NCL / NCHW tensors, a 1-D convolution
// computed as a 2-D one of height 1. Transposed convolution is refused (ACLNN_ERR_PARAM_INVALID).
#pragma once

#include <cstdint>

#include "aclnn/acl_meta.h"
#include "opapi/tensor_io.h"

namespace npusim::opapi {

struct ConvGeometry {
    int spatial = 2;                       // 1 or 2 spatial dimensions
    int64_t n = 0, c = 0, h = 1, w = 0;    // input [n, c, (h,) w]
    int64_t o = 0, kh = 1, kw = 0;         // weight [o, c / groups, (kh,) kw]
    int64_t groups = 1;
    int64_t sh = 1, sw = 1, ph = 0, pw = 0, dh = 1, dw = 1;
    int64_t oh = 1, ow = 0;                // output [n, o, (oh,) ow]

    int64_t cg() const { return c / groups; }
    int64_t og() const { return o / groups; }
    int64_t col_rows() const { return cg() * kh * kw; }  // one group's im2col rows
    int64_t col_cols() const { return oh * ow; }
    Dims output_dims() const;
    double gemm_flops() const { return 2.0 * double(n) * double(o) * double(col_rows()) * double(col_cols()); }
};

// Checks the operands and attributes as aclnnConvolution does and fills `g` (input and weight
// float types, rank 3 or 4, channels divisible by groups, a positive output size).
aclnnStatus plan_convolution(const char* api, const TensorView& input, const TensorView& weight,
                             const aclIntArray* stride, const aclIntArray* padding, const aclIntArray* dilation,
                             bool transposed, const aclIntArray* outputPadding, int64_t groups, ConvGeometry& g);

// One sample's group `group` of x ([c, h, w] float32) as columns: col[col_rows, col_cols].
void im2col(const float* x, const ConvGeometry& g, int64_t group, float* col);
// The adjoint: adds col[col_rows, col_cols] back into dx ([c, h, w] float32) for group `group`.
void col2im(const float* col, const ConvGeometry& g, int64_t group, float* dx);

}  // namespace npusim::opapi
