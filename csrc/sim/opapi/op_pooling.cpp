// 2-d pooling over self [N, C, H, W] or [C, H, W], torch's rules (output size with ceilMode,
// windows, padding never a maximum):
//   aclnnMaxPool2dWithIndices / aclnnMaxPool2dWithMask: the first largest value of each window (nan
//   wins); the indices hold its flat position h * W + w, the mask (the simulator's own layout of
//   CANN's int8 mask, as torch_npu allocates it: [N, C, kH * kW, >= oH * oW]) a 1 at byte [k][p]
//   for kernel position k of output p;
//   their backward: each gradient element added at its window's maximum;
//   aclnnAvgPool2d and its backward: the window's sum divided by divisorOverride (when not 0) or by
//   its size, padding counted when countIncludePad (torch's avg_pool2d); cubeMathType has no effect.
// Accumulated in double, float types.
#include <cmath>
#include <memory>

#include "aclnnop/aclnn_avgpool2d.h"
#include "aclnnop/aclnn_avgpool2d_backward.h"
#include "aclnnop/aclnn_max_pool2d_with_indices.h"
#include "aclnnop/aclnn_max_pool2d_with_indices_backward.h"
#include "core/fault_plan.h"
#include "nnopbase/dtype.h"
#include "nnopbase/tensor.h"
#include "opapi/checks.h"
#include "opapi/op_launcher.h"
#include "opapi/registry.h"

namespace npusim::opapi {

namespace {

[[maybe_unused]] const bool kRegistered =
    register_op({"aclnnMaxPool2dWithMask", OpFamily::Reduction, kFloatTypes, Kernel::MaxPoolWithArgmaxV1}) &&
    register_op({"aclnnMaxPool2dWithIndices", OpFamily::Reduction, kFloatTypes, Kernel::MaxPoolWithArgmaxV1}) &&
    register_op(
        {"aclnnMaxPool2dWithMaskBackward", OpFamily::Reduction, kFloatTypes, Kernel::MaxPoolGradWithArgmaxV1}) &&
    register_op(
        {"aclnnMaxPool2dWithIndicesBackward", OpFamily::Reduction, kFloatTypes, Kernel::MaxPoolGradWithArgmaxV1}) &&
    register_op({"aclnnAvgPool2d", OpFamily::Reduction, kFloatTypes, Kernel::AvgPoolV2}) &&
    register_op({"aclnnAvgPool2dBackward", OpFamily::Reduction, kFloatTypes, Kernel::AvgPoolV2Grad});

// The geometry of one pooling: planes (N * C) of H x W into oH x oW through kH x kW windows.
struct Pool {
    int64_t planes = 1, h = 0, w = 0, oh = 0, ow = 0;
    int64_t kh = 1, kw = 1, sh = 1, sw = 1, ph = 0, pw = 0, dh = 1, dw = 1;
    bool ceil = false;
    int64_t window() const { return kh * kw; }
};

// torch's pooling_output_shape.
int64_t output_size(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dilation, bool ceil) {
    const int64_t span = in + 2 * pad - dilation * (k - 1) - 1 + (ceil ? stride - 1 : 0);
    int64_t out = span / stride + 1;  // span >= 0 is checked by the caller
    if (ceil && (out - 1) * stride >= in + pad) --out;
    return out;
}

// One or two values (the second defaults to the first; `fallback` when the array is empty).
bool pair_of(const aclIntArray* a, int64_t fallback, int64_t& first, int64_t& second) {
    if (a == nullptr || !nn::valid(a) || a->values.size() > 2) return false;
    first = a->values.empty() ? fallback : a->values[0];
    second = a->values.size() == 2 ? a->values[1] : first;
    return true;
}

aclnnStatus plan(const char* api, const TensorView& x, const aclIntArray* kernel, const aclIntArray* stride,
                 const aclIntArray* padding, const aclIntArray* dilation, bool ceil, Pool& p) {
    OPAPI_CHECK(check_float_type(api, "self", x.dtype));
    OPAPI_CHECK(check_rank(api, "self", x.dims, 3, 4));
    const size_t r = x.rank();
    p.h = x.dims[r - 2];
    p.w = x.dims[r - 1];
    p.planes = x.numel() / std::max<int64_t>(p.h * p.w, 1);
    if (!pair_of(kernel, 1, p.kh, p.kw) || kernel->values.empty())
        return invalid(api, "kernelSize must hold 1 or 2 values");
    if (!pair_of(stride, p.kh, p.sh, p.sw)) return invalid(api, "stride must hold 0 to 2 values");
    if (stride->values.empty()) p.sw = p.kw;
    if (!pair_of(padding, 0, p.ph, p.pw)) return invalid(api, "padding must hold 0 to 2 values");
    if (dilation != nullptr && !pair_of(dilation, 1, p.dh, p.dw))
        return invalid(api, "dilation must hold 0 to 2 values");
    p.ceil = ceil;
    if (p.kh <= 0 || p.kw <= 0 || p.sh <= 0 || p.sw <= 0 || p.dh <= 0 || p.dw <= 0 || p.ph < 0 || p.pw < 0 ||
        2 * p.ph > p.kh || 2 * p.pw > p.kw) {
        return invalid(api,
                       "kernel %lldx%lld, stride %lldx%lld, padding %lldx%lld: sizes must be positive and padding "
                       "at most half the kernel",
                       static_cast<long long>(p.kh), static_cast<long long>(p.kw), static_cast<long long>(p.sh),
                       static_cast<long long>(p.sw), static_cast<long long>(p.ph), static_cast<long long>(p.pw));
    }
    if (p.h + 2 * p.ph < p.dh * (p.kh - 1) + 1 || p.w + 2 * p.pw < p.dw * (p.kw - 1) + 1) {
        return invalid(api, "the window is larger than the padded input %s", dims_text(x.dims).c_str());
    }
    p.oh = output_size(p.h, p.kh, p.ph, p.sh, p.dh, ceil);
    p.ow = output_size(p.w, p.kw, p.pw, p.sw, p.dw, ceil);
    return ACLNN_SUCCESS;
}

Dims pooled_dims(const TensorView& x, const Pool& p) {
    Dims d = x.dims;
    d[d.size() - 2] = p.oh;
    d[d.size() - 1] = p.ow;
    return d;
}

enum class Record : uint8_t { Indices, Mask };

// For each output element: the flat input position (h * W + w) of its maximum and the kernel position.
struct Argmax {
    std::vector<int64_t> position, kernel;
};

Argmax argmax(const Pool& p, const std::vector<double>& v, std::vector<double>* out) {
    Argmax a{std::vector<int64_t>(static_cast<size_t>(p.planes * p.oh * p.ow), -1),
             std::vector<int64_t>(static_cast<size_t>(p.planes * p.oh * p.ow), 0)};
    for (int64_t c = 0; c < p.planes; ++c)
        for (int64_t i = 0; i < p.oh; ++i)
            for (int64_t j = 0; j < p.ow; ++j) {
                const size_t o = static_cast<size_t>((c * p.oh + i) * p.ow + j);
                double best = -INFINITY;
                for (int64_t ki = 0; ki < p.kh; ++ki)
                    for (int64_t kj = 0; kj < p.kw; ++kj) {
                        const int64_t y = i * p.sh - p.ph + ki * p.dh, x = j * p.sw - p.pw + kj * p.dw;
                        if (y < 0 || y >= p.h || x < 0 || x >= p.w) continue;
                        const double value = v[static_cast<size_t>((c * p.h + y) * p.w + x)];
                        if (a.position[o] < 0 || value > best || (std::isnan(value) && !std::isnan(best))) {
                            best = value;
                            a.position[o] = y * p.w + x;
                            a.kernel[o] = ki * p.kw + kj;
                        }
                    }
                if (out != nullptr) (*out)[o] = best;
            }
    return a;
}

aclnnStatus prepare_max(const char* api, Record record, const aclTensor* self, const aclIntArray* kernelSize,
                        const aclIntArray* stride, const aclIntArray* padding, const aclIntArray* dilation,
                        bool ceilMode, const aclTensor* out, const aclTensor* indices, uint64_t* workspaceSize,
                        aclOpExecutor** executor) {
    OPAPI_CHECK(
        check_not_null(api, {self, kernelSize, stride, padding, dilation, out, indices, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "out", out));
    OPAPI_CHECK(check_tensor(api, "indices", indices));
    const TensorView x = view_of(self), y = view_of(out), ind = view_of(indices);
    Pool p;
    OPAPI_CHECK(plan(api, x, kernelSize, stride, padding, dilation, ceilMode, p));
    OPAPI_CHECK(check_same_dtype(api, "out", y.dtype, x.dtype));
    OPAPI_CHECK(check_same_dims(api, "out", y.dims, pooled_dims(x, p)));
    if (record == Record::Indices) {
        if (ind.dtype != ACL_INT32 && ind.dtype != ACL_INT64) return invalid(api, "indices must be int32 or int64");
        OPAPI_CHECK(check_same_dims(api, "indices", ind.dims, pooled_dims(x, p)));
    } else {
        if (ind.dtype != ACL_INT8 && ind.dtype != ACL_UINT8) return invalid(api, "the mask (indices) must be int8");
        if (ind.rank() != x.rank() || ind.dims[ind.rank() - 2] != p.window() ||
            ind.dims[ind.rank() - 1] < p.oh * p.ow || ind.numel() != p.planes * p.window() * ind.dims[ind.rank() - 1]) {
            return invalid(api, "the mask %s must be [N, C, %lld, >= %lld]", dims_text(ind.dims).c_str(),
                           static_cast<long long>(p.window()), static_cast<long long>(p.oh * p.ow));
        }
    }
    const int64_t row = record == Record::Mask ? ind.dims[ind.rank() - 1] : 0;
    std::vector<KernelLaunch> launches{
        {Kernel::MaxPoolWithArgmaxV1, x.dtype,
         vector_cost(double(y.numel() * p.window()), double(x.bytes() + y.bytes() + ind.bytes()), p.planes, 1)}};
    auto compute = [x, y, ind, p, record, row]() {
        std::vector<double> pooled(static_cast<size_t>(p.planes * p.oh * p.ow));
        const Argmax a = argmax(p, read_doubles(x), &pooled);
        write_doubles(y, pooled);
        if (record == Record::Indices) {
            write_doubles(ind, std::vector<double>(a.position.begin(), a.position.end()));
            return;
        }
        std::vector<double> mask(static_cast<size_t>(ind.numel()), 0.0);
        for (int64_t c = 0; c < p.planes; ++c)
            for (int64_t o = 0; o < p.oh * p.ow; ++o) {
                const size_t e = static_cast<size_t>(c * p.oh * p.ow + o);
                mask[static_cast<size_t>((c * p.window() + a.kernel[e]) * row + o)] = 1.0;
            }
        write_doubles(ind, mask);
    };
    return hand_over(
        std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{x.data, y.data}),
        workspaceSize, executor);
}

aclnnStatus prepare_max_backward(const char* api, Record record, const aclTensor* gradOutput, const aclTensor* self,
                                 const aclTensor* indices, const aclIntArray* kernelSize, const aclIntArray* stride,
                                 const aclIntArray* padding, const aclIntArray* dilation, bool ceilMode,
                                 const aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPAPI_CHECK(check_not_null(
        api, {gradOutput, self, indices, kernelSize, stride, padding, dilation, gradInput, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "gradOutput", gradOutput));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "indices", indices));
    OPAPI_CHECK(check_tensor(api, "gradInput", gradInput));
    const TensorView g = view_of(gradOutput), x = view_of(self), ind = view_of(indices), dx = view_of(gradInput);
    Pool p;
    OPAPI_CHECK(plan(api, x, kernelSize, stride, padding, dilation, ceilMode, p));
    OPAPI_CHECK(check_same_dtype(api, "gradOutput", g.dtype, x.dtype));
    OPAPI_CHECK(check_same_dtype(api, "gradInput", dx.dtype, x.dtype));
    OPAPI_CHECK(check_same_dims(api, "gradOutput", g.dims, pooled_dims(x, p)));
    OPAPI_CHECK(check_same_dims(api, "gradInput", dx.dims, x.dims));
    if (record == Record::Indices) {
        if (ind.dtype != ACL_INT32 && ind.dtype != ACL_INT64) return invalid(api, "indices must be int32 or int64");
        OPAPI_CHECK(check_same_dims(api, "indices", ind.dims, pooled_dims(x, p)));
    } else if ((ind.dtype != ACL_INT8 && ind.dtype != ACL_UINT8) || ind.rank() != x.rank() ||
               ind.dims[ind.rank() - 2] != p.window() || ind.dims[ind.rank() - 1] < p.oh * p.ow) {
        return invalid(api, "the mask %s must be int8 [N, C, %lld, >= %lld]", dims_text(ind.dims).c_str(),
                       static_cast<long long>(p.window()), static_cast<long long>(p.oh * p.ow));
    }
    const int64_t row = record == Record::Mask ? ind.dims[ind.rank() - 1] : 0;
    std::vector<KernelLaunch> launches{
        {Kernel::MaxPoolGradWithArgmaxV1, x.dtype,
         vector_cost(double(g.numel()), double(g.bytes() + dx.bytes() + ind.bytes()), p.planes, 1)}};
    auto compute = [g, ind, dx, p, record, row]() {
        const std::vector<double> gv = read_doubles(g), iv = read_doubles(ind);
        std::vector<double> r(static_cast<size_t>(p.planes * p.h * p.w), 0.0);
        for (int64_t c = 0; c < p.planes; ++c)
            for (int64_t i = 0; i < p.oh; ++i)
                for (int64_t j = 0; j < p.ow; ++j) {
                    const int64_t o = i * p.ow + j;
                    int64_t position = -1;
                    if (record == Record::Indices) {
                        position = static_cast<int64_t>(iv[static_cast<size_t>(c * p.oh * p.ow + o)]);
                    } else {
                        for (int64_t k = 0; k < p.window() && position < 0; ++k) {
                            if (iv[static_cast<size_t>((c * p.window() + k) * row + o)] == 0.0) continue;
                            const int64_t y = i * p.sh - p.ph + (k / p.kw) * p.dh,
                                          x = j * p.sw - p.pw + (k % p.kw) * p.dw;
                            position = y * p.w + x;
                        }
                    }
                    if (position < 0 || position >= p.h * p.w) continue;  // no maximum recorded
                    r[static_cast<size_t>(c * p.h * p.w + position)] += gv[static_cast<size_t>(c * p.oh * p.ow + o)];
                }
        write_doubles(dx, r);
    };
    return hand_over(
        std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{g.data, dx.data}),
        workspaceSize, executor);
}

// The divisor and bounds of avg-pool window (i, j), torch's avg_pool2d.
struct Window {
    int64_t y0, y1, x0, x1;
    double divisor;
};

Window avg_window(const Pool& p, int64_t i, int64_t j, bool count_include_pad, int64_t divisor_override) {
    int64_t y0 = i * p.sh - p.ph, x0 = j * p.sw - p.pw;
    int64_t y1 = std::min(y0 + p.kh, p.h + p.ph), x1 = std::min(x0 + p.kw, p.w + p.pw);
    const int64_t padded = (y1 - y0) * (x1 - x0);
    y0 = std::max<int64_t>(y0, 0);
    x0 = std::max<int64_t>(x0, 0);
    y1 = std::min(y1, p.h);
    x1 = std::min(x1, p.w);
    const double divisor =
        divisor_override != 0 ? double(divisor_override) : double(count_include_pad ? padded : (y1 - y0) * (x1 - x0));
    return {y0, y1, x0, x1, divisor};
}

aclnnStatus prepare_avg(const char* api, bool backward, const aclTensor* gradOutput, const aclTensor* self,
                        const aclIntArray* kernelSize, const aclIntArray* stride, const aclIntArray* padding,
                        bool ceilMode, bool countIncludePad, int64_t divisorOverride, const aclTensor* out,
                        uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPAPI_CHECK(check_not_null(api, {self, kernelSize, stride, padding, out, workspaceSize, executor}));
    if (backward) OPAPI_CHECK(check_not_null(api, {gradOutput}));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "out", out));
    const TensorView x = view_of(self), y = view_of(out);
    Pool p;
    OPAPI_CHECK(plan(api, x, kernelSize, stride, padding, nullptr, ceilMode, p));
    OPAPI_CHECK(check_same_dtype(api, "out", y.dtype, x.dtype));
    OPAPI_CHECK(check_same_dims(api, "out", y.dims, backward ? x.dims : pooled_dims(x, p)));
    TensorView g;
    if (backward) {
        OPAPI_CHECK(check_tensor(api, "gradOutput", gradOutput));
        g = view_of(gradOutput);
        OPAPI_CHECK(check_same_dtype(api, "gradOutput", g.dtype, x.dtype));
        OPAPI_CHECK(check_same_dims(api, "gradOutput", g.dims, pooled_dims(x, p)));
    }
    std::vector<KernelLaunch> launches{
        {backward ? Kernel::AvgPoolV2Grad : Kernel::AvgPoolV2, x.dtype,
         vector_cost(double(p.planes * p.oh * p.ow * p.window()), double(x.bytes() + y.bytes()), p.planes, 1)}};
    auto compute = [x, y, g, p, backward, countIncludePad, divisorOverride]() {
        const std::vector<double> v = read_doubles(backward ? g : x);
        std::vector<double> r(static_cast<size_t>(backward ? p.planes * p.h * p.w : p.planes * p.oh * p.ow), 0.0);
        for (int64_t c = 0; c < p.planes; ++c)
            for (int64_t i = 0; i < p.oh; ++i)
                for (int64_t j = 0; j < p.ow; ++j) {
                    const Window w = avg_window(p, i, j, countIncludePad, divisorOverride);
                    const size_t o = static_cast<size_t>((c * p.oh + i) * p.ow + j);
                    double sum = 0;
                    for (int64_t yy = w.y0; yy < w.y1; ++yy)
                        for (int64_t xx = w.x0; xx < w.x1; ++xx) {
                            const size_t e = static_cast<size_t>((c * p.h + yy) * p.w + xx);
                            if (backward) r[e] += v[o] / w.divisor;
                            else sum += v[e];
                        }
                    if (!backward) r[o] = sum / w.divisor;
                }
        write_doubles(y, r);
    };
    return hand_over(
        std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{x.data, y.data}),
        workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

using npusim::opapi::Record;

NPUSIM_C_EXPORT aclnnStatus aclnnMaxPool2dWithMaskGetWorkspaceSize(const aclTensor* self, const aclIntArray* kernelSize,
                                                                   const aclIntArray* stride,
                                                                   const aclIntArray* padding,
                                                                   const aclIntArray* dilation, bool ceilMode,
                                                                   aclTensor* out, aclTensor* indices,
                                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnMaxPool2dWithMaskGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_max("aclnnMaxPool2dWithMask", Record::Mask, self, kernelSize, stride, padding,
                                      dilation, ceilMode, out, indices, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnMaxPool2dWithMask)

NPUSIM_C_EXPORT aclnnStatus aclnnMaxPool2dWithIndicesGetWorkspaceSize(
    const aclTensor* self, const aclIntArray* kernelSize, const aclIntArray* stride, const aclIntArray* padding,
    const aclIntArray* dilation, bool ceilMode, aclTensor* out, aclTensor* indices, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnMaxPool2dWithIndicesGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_max("aclnnMaxPool2dWithIndices", Record::Indices, self, kernelSize, stride, padding,
                                      dilation, ceilMode, out, indices, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnMaxPool2dWithIndices)

NPUSIM_C_EXPORT aclnnStatus aclnnMaxPool2dWithMaskBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclTensor* indices, const aclIntArray* kernelSize,
    const aclIntArray* stride, const aclIntArray* padding, const aclIntArray* dilation, bool ceilMode,
    aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnMaxPool2dWithMaskBackwardGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_max_backward("aclnnMaxPool2dWithMaskBackward", Record::Mask, gradOutput, self,
                                               indices, kernelSize, stride, padding, dilation, ceilMode, gradInput,
                                               workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnMaxPool2dWithMaskBackward)

NPUSIM_C_EXPORT aclnnStatus aclnnMaxPool2dWithIndicesBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclTensor* indices, const aclIntArray* kernelSize,
    const aclIntArray* stride, const aclIntArray* padding, const aclIntArray* dilation, bool ceilMode,
    aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnMaxPool2dWithIndicesBackwardGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_max_backward("aclnnMaxPool2dWithIndicesBackward", Record::Indices, gradOutput, self,
                                               indices, kernelSize, stride, padding, dilation, ceilMode, gradInput,
                                               workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnMaxPool2dWithIndicesBackward)

NPUSIM_C_EXPORT aclnnStatus aclnnAvgPool2dGetWorkspaceSize(const aclTensor* self, const aclIntArray* kernelSize,
                                                           const aclIntArray* strides, const aclIntArray* paddings,
                                                           const bool ceilMode, const bool countIncludePad,
                                                           const int64_t divisorOverride, const int8_t cubeMathType,
                                                           aclTensor* out, uint64_t* workspaceSize,
                                                           aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnAvgPool2dGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_avg("aclnnAvgPool2d", false, nullptr, self, kernelSize, strides, paddings, ceilMode,
                                      countIncludePad, divisorOverride, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnAvgPool2d)

NPUSIM_C_EXPORT aclnnStatus aclnnAvgPool2dBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclIntArray* kernelSize, const aclIntArray* stride,
    const aclIntArray* padding, bool ceilMode, bool countIncludePad, int64_t divisorOverride, int8_t cubeMathType,
    aclTensor* gradInput, uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnAvgPool2dBackwardGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_avg("aclnnAvgPool2dBackward", true, gradOutput, self, kernelSize, stride, padding,
                                      ceilMode, countIncludePad, divisorOverride, gradInput, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnAvgPool2dBackward)
