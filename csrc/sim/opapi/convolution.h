// The convolution family's shared geometry and its im2col / col2im on the GEMM primitive: 1-D and
// 2-D convolutions (stride, padding, dilation, groups) of NCL / NCHW tensors, a 1-D convolution
// computed as a 2-D one of height 1. A transposed convolution is the adjoint of the direct one whose
// geometry it holds: its input has the direct convolution's output shape, its output the direct
// convolution's input shape, and its weight [C_in, C_out / groups, kH, kW] the direct weight's layout,
// so its forward is the direct convolution's input gradient, and its gradients are the direct forward
// (input) and the direct weight gradient with the roles of input and gradient exchanged.
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
    bool transposed = false;               // the operator computes the adjoint (see above)

    int64_t cg() const { return c / groups; }
    int64_t og() const { return o / groups; }
    int64_t col_rows() const { return cg() * kh * kw; }  // one group's im2col rows
    int64_t col_cols() const { return oh * ow; }
    Dims output_dims() const;
    Dims input_dims() const;
    // The operator's own input and result shapes and the result's channel count (the bias length):
    // the direct convolution's, or exchanged for a transposed one.
    Dims source_dims() const { return transposed ? output_dims() : input_dims(); }
    Dims result_dims() const { return transposed ? input_dims() : output_dims(); }
    int64_t result_channels() const { return transposed ? c : o; }
    double gemm_flops() const { return 2.0 * double(n) * double(o) * double(col_rows()) * double(col_cols()); }
};

// Checks the operands and attributes as aclnnConvolution does and fills `g` (input and weight
// float types, rank 3 or 4, channels divisible by groups, a positive output size; for a transposed
// convolution an outputPadding of one value per spatial dimension, each >= 0 and below the stride or
// the dilation).
aclnnStatus plan_convolution(const char* api, const TensorView& input, const TensorView& weight,
                             const aclIntArray* stride, const aclIntArray* padding, const aclIntArray* dilation,
                             bool transposed, const aclIntArray* outputPadding, int64_t groups, ConvGeometry& g);

// One sample's group `group` of x ([c, h, w] float32) as columns: col[col_rows, col_cols].
void im2col(const float* x, const ConvGeometry& g, int64_t group, float* col);
// The adjoint: adds col[col_rows, col_cols] back into dx ([c, h, w] float32) for group `group`.
void col2im(const float* col, const ConvGeometry& g, int64_t group, float* dx);

// The direct convolution's three products over all samples and groups (float32, accumulating in
// float32), on the GEMM primitive:
//   conv_forward        y [n, o, oh, ow] += conv(x [n, c, h, w], w)
//   conv_input_grad     dx [n, c, h, w] += the adjoint of conv applied to dy [n, o, oh, ow]
//   conv_weight_grad    dw [o, c / groups, kh, kw] = sum over samples of dy x columns(x)^T
void conv_forward(const float* x, const float* w, const ConvGeometry& g, float* y);
void conv_input_grad(const float* dy, const float* w, const ConvGeometry& g, float* dx);
void conv_weight_grad(const float* dy, const float* x, const ConvGeometry& g, float* dw);
// out [n, channels, plane] = bias[channel] everywhere.
void fill_bias(const float* bias, int64_t n, int64_t channels, int64_t plane, float* out);

}  // namespace npusim::opapi
