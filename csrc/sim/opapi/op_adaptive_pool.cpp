// aclnnAdaptiveAvgPool2d: torch's adaptive_avg_pool2d (nn.AdaptiveAvgPool2d, the head of most image
// classifiers) over the last two dimensions of a 3-D or 4-D self: output cell i of a dimension of size L
// pooled to S averages the input indices floor(i * L / S) .. ceil((i + 1) * L / S) - 1. Accumulated in
// double, rounded once; one AdaptiveAvgPool2d kernel. Bad input: NULL is ACLNN_ERR_PARAM_NULLPTR; a type
// outside the floats, a rank other than 3 or 4, an outputSize not of two positive values or an out of
// another shape or type is ACLNN_ERR_PARAM_INVALID.
#include <memory>

#include "aclnnop/aclnn_adaptive_avg_pool2d.h"
#include "core/fault_plan.h"
#include "nnopbase/dtype.h"
#include "nnopbase/tensor.h"
#include "opapi/checks.h"
#include "opapi/op_launcher.h"
#include "opapi/registry.h"

namespace npusim::opapi {

namespace {

[[maybe_unused]] const bool kRegistered =
    register_op({"aclnnAdaptiveAvgPool2d", OpFamily::Reduction, kFloatTypes, Kernel::AdaptiveAvgPool2d});

// The first input index of output cell i, and the one past its last.
int64_t window_start(int64_t i, int64_t in, int64_t out) { return i * in / out; }
int64_t window_end(int64_t i, int64_t in, int64_t out) { return ((i + 1) * in + out - 1) / out; }

aclnnStatus prepare(const aclTensor* self, const aclIntArray* outputSize, const aclTensor* out, uint64_t* workspaceSize,
                    aclOpExecutor** executor) {
    const char* api = "aclnnAdaptiveAvgPool2d";
    OPAPI_CHECK(check_not_null(api, {self, outputSize, out, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "out", out));
    if (!nn::valid(outputSize)) return invalid(api, "outputSize is not a live aclIntArray");
    const TensorView x = view_of(self), y = view_of(out);
    OPAPI_CHECK(check_float_type(api, "self", x.dtype));
    OPAPI_CHECK(check_same_dtype(api, "out", y.dtype, x.dtype));
    OPAPI_CHECK(check_rank(api, "self", x.dims, 3, 4));
    const std::vector<int64_t>& size = outputSize->values;
    if (size.size() != 2 || size[0] <= 0 || size[1] <= 0) {
        return invalid(api, "outputSize %s; two positive values expected", dims_text(size).c_str());
    }
    const size_t r = x.rank();
    const int64_t in_h = x.dims[r - 2], in_w = x.dims[r - 1];
    if (in_h <= 0 || in_w <= 0) return invalid(api, "self %s has an empty plane", dims_text(x.dims).c_str());
    Dims expected = x.dims;
    expected[r - 2] = size[0];
    expected[r - 1] = size[1];
    OPAPI_CHECK(check_same_dims(api, "out", y.dims, expected));
    const int64_t planes = x.numel() / (in_h * in_w), out_h = size[0], out_w = size[1];
    std::vector<KernelLaunch> launches{
        {Kernel::AdaptiveAvgPool2d, x.dtype, vector_cost(double(x.numel()), double(x.bytes() + y.bytes()), planes, 1)}};
    auto compute = [x, y, planes, in_h, in_w, out_h, out_w]() {
        const std::vector<double> v = read_doubles(x);
        std::vector<double> result(static_cast<size_t>(planes * out_h * out_w));
        size_t next = 0;
        for (int64_t p = 0; p < planes; ++p) {
            const double* plane = v.data() + p * in_h * in_w;
            for (int64_t i = 0; i < out_h; ++i) {
                const int64_t h0 = window_start(i, in_h, out_h), h1 = window_end(i, in_h, out_h);
                for (int64_t j = 0; j < out_w; ++j) {
                    const int64_t w0 = window_start(j, in_w, out_w), w1 = window_end(j, in_w, out_w);
                    double sum = 0;
                    for (int64_t h = h0; h < h1; ++h) {
                        for (int64_t w = w0; w < w1; ++w) sum += plane[h * in_w + w];
                    }
                    result[next++] = sum / double((h1 - h0) * (w1 - w0));
                }
            }
        }
        write_doubles(y, result);
    };
    return hand_over(
        std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{x.data, y.data}),
        workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnAdaptiveAvgPool2dGetWorkspaceSize(const aclTensor* self, const aclIntArray* outputSize,
                                                                   aclTensor* out, uint64_t* workspaceSize,
                                                                   aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnAdaptiveAvgPool2dGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare(self, outputSize, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnAdaptiveAvgPool2d)
