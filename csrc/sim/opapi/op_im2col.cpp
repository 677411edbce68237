// aclnnIm2col (torch's im2col: nn.Unfold) and aclnnIm2colBackward (col2im: nn.Fold, and the backward
// of nn.Unfold) on the convolution family's im2col / col2im (opapi/convolution.h), one sample at a time:
//   Im2col          self [N,] C, H, W  ->  out [N,] C * kH * kW, L   (L = outH * outW; row
//                   (c * kH + i) * kW + j, column y * outW + x holds self[c, y * sH - pH + i * dH,
//                   x * sW - pW + j * dW], 0 outside)
//   Im2colBackward  gradOutput [N,] C * kH * kW, L  ->  out [N,] C, inputSize: the adjoint (sums).
// kernelSize, dilation, padding, stride: two values each (kernel, dilation, stride positive, padding
// non-negative), as torch requires; computed in float32 (the primitives' type), rounded to the tensor's.
// Bad input: NULL is ACLNN_ERR_PARAM_NULLPTR; a type outside the floats, a rank other than 3 or 4 (2 or 3
// for gradOutput), attributes not as above, a window larger than the padded plane, an L or channel
// count that does not match or an out of another shape or type is ACLNN_ERR_PARAM_INVALID.
#include <memory>
#include <vector>

#include "aclnnop/aclnn_im2col.h"
#include "aclnnop/aclnn_im2col_backward.h"
#include "core/fault_plan.h"
#include "nnopbase/dtype.h"
#include "nnopbase/tensor.h"
#include "opapi/checks.h"
#include "opapi/convolution.h"
#include "opapi/op_launcher.h"
#include "opapi/registry.h"

namespace npusim::opapi {

namespace {

[[maybe_unused]] const bool kRegistered =
    register_op({"aclnnIm2col", OpFamily::Layout, kFloatTypes, Kernel::Im2col}) &&
    register_op({"aclnnIm2colBackward", OpFamily::Layout, kFloatTypes, Kernel::Col2im});

// Fills the geometry's window attributes; false (logged) when one is not two valid values.
aclnnStatus window(const char* api, const aclIntArray* kernelSize, const aclIntArray* dilation,
                   const aclIntArray* padding, const aclIntArray* stride, ConvGeometry& g) {
    for (const aclIntArray* a : {kernelSize, dilation, padding, stride}) {
        if (!nn::valid(a) || a->values.size() != 2) {
            return invalid(api, "kernelSize, dilation, padding and stride must be two values each");
        }
    }
    g.kh = kernelSize->values[0], g.kw = kernelSize->values[1];
    g.dh = dilation->values[0], g.dw = dilation->values[1];
    g.ph = padding->values[0], g.pw = padding->values[1];
    g.sh = stride->values[0], g.sw = stride->values[1];
    if (g.kh <= 0 || g.kw <= 0 || g.dh <= 0 || g.dw <= 0 || g.sh <= 0 || g.sw <= 0 || g.ph < 0 || g.pw < 0) {
        return invalid(api, "kernelSize, dilation and stride must be positive, padding non-negative");
    }
    g.oh = (g.h + 2 * g.ph - g.dh * (g.kh - 1) - 1) / g.sh + 1;
    g.ow = (g.w + 2 * g.pw - g.dw * (g.kw - 1) - 1) / g.sw + 1;
    if (g.h + 2 * g.ph < g.dh * (g.kh - 1) + 1 || g.w + 2 * g.pw < g.dw * (g.kw - 1) + 1) {
        return invalid(api, "the window (kernel %lld x %lld, dilation %lld x %lld) is larger than the padded plane",
                       (long long)g.kh, (long long)g.kw, (long long)g.dh, (long long)g.dw);
    }
    return ACLNN_SUCCESS;
}

// image: the [N,] C, H, W side; columns: the [N,] C * kH * kW, L side.
aclnnStatus prepare(const char* api, bool backward, const aclTensor* source, const aclIntArray* inputSize,
                    const aclIntArray* kernelSize, const aclIntArray* dilation, const aclIntArray* padding,
                    const aclIntArray* stride, const aclTensor* result, uint64_t* workspaceSize,
                    aclOpExecutor** executor) {
    OPAPI_CHECK(check_not_null(api, {source, kernelSize, dilation, padding, stride, result, workspaceSize, executor}));
    if (backward) OPAPI_CHECK(check_not_null(api, {inputSize}));
    OPAPI_CHECK(check_tensor(api, backward ? "gradOutput" : "self", source));
    OPAPI_CHECK(check_tensor(api, "out", result));
    const TensorView x = view_of(source), y = view_of(result);
    OPAPI_CHECK(check_float_type(api, backward ? "gradOutput" : "self", x.dtype));
    OPAPI_CHECK(check_same_dtype(api, "out", y.dtype, x.dtype));
    OPAPI_CHECK(backward ? check_rank(api, "gradOutput", x.dims, 2, 3) : check_rank(api, "self", x.dims, 3, 4));
    const bool batched = backward ? x.rank() == 3 : x.rank() == 4;
    ConvGeometry g;
    g.n = batched ? x.dims[0] : 1;
    if (backward) {
        if (!nn::valid(inputSize) || inputSize->values.size() != 2 || inputSize->values[0] <= 0 ||
            inputSize->values[1] <= 0) {
            return invalid(api, "inputSize must be two positive values");
        }
        g.h = inputSize->values[0], g.w = inputSize->values[1];
    } else {
        g.c = x.dims[x.rank() - 3], g.h = x.dims[x.rank() - 2], g.w = x.dims[x.rank() - 1];
    }
    OPAPI_CHECK(window(api, kernelSize, dilation, padding, stride, g));
    if (backward) {
        const int64_t rows = x.dims[x.rank() - 2], cols = x.dims[x.rank() - 1];
        if (rows % (g.kh * g.kw) != 0 || cols != g.oh * g.ow) {
            return invalid(api, "gradOutput %s does not match the window: C * %lld rows and %lld columns expected",
                           dims_text(x.dims).c_str(), (long long)(g.kh * g.kw), (long long)(g.oh * g.ow));
        }
        g.c = rows / (g.kh * g.kw);
    }
    g.o = g.c;  // unused by im2col / col2im; kept consistent
    Dims image{g.c, g.h, g.w}, columns{g.c * g.kh * g.kw, g.oh * g.ow};
    if (batched) image.insert(image.begin(), g.n), columns.insert(columns.begin(), g.n);
    OPAPI_CHECK(check_same_dims(api, "out", y.dims, backward ? image : columns));
    std::vector<KernelLaunch> launches{{backward ? Kernel::Col2im : Kernel::Im2col, x.dtype,
                                        vector_cost(0, double(x.bytes() + y.bytes()), g.n * g.c, 1)}};
    auto compute = [x, y, g, backward]() {
        const std::vector<float> in = read_floats(x);
        const int64_t image_size = g.c * g.h * g.w, column_size = g.col_rows() * g.col_cols();
        std::vector<float> result(static_cast<size_t>(g.n * (backward ? image_size : column_size)), 0.0f);
        for (int64_t s = 0; s < g.n; ++s) {
            if (backward) {
                col2im(in.data() + s * column_size, g, 0, result.data() + s * image_size);
            } else {
                im2col(in.data() + s * image_size, g, 0, result.data() + s * column_size);
            }
        }
        write_floats(y, result);
    };
    return hand_over(
        std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{x.data, y.data}),
        workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnIm2colGetWorkspaceSize(const aclTensor* self, const aclIntArray* kernelSize,
                                                        const aclIntArray* dilation, const aclIntArray* padding,
                                                        const aclIntArray* stride, const aclTensor* out,
                                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnIm2colGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare("aclnnIm2col", false, self, nullptr, kernelSize, dilation, padding, stride, out,
                                  workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnIm2col)

NPUSIM_C_EXPORT aclnnStatus aclnnIm2colBackwardGetWorkspaceSize(const aclTensor* gradOutput,
                                                                const aclIntArray* inputSize,
                                                                const aclIntArray* kernelSize,
                                                                const aclIntArray* dilation, const aclIntArray* padding,
                                                                const aclIntArray* stride, aclTensor* out,
                                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnIm2colBackwardGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare("aclnnIm2colBackward", true, gradOutput, inputSize, kernelSize, dilation, padding,
                                  stride, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnIm2colBackward)
