// aclnnConvolution, forward: 1-D and 2-D convolution (stride, padding, dilation, groups, bias) as
// im2col + the GEMM primitive (opapi/convolution.h, opapi/gemm.h): per sample and group, the
// group's weight [O / groups, C / groups * kH * kW] times the sample's columns. Transposed
// (ConvTranspose1d/2d: outputPadding as well) is the adjoint: per sample and group the weight^T
// times the input, scattered by col2im. Products accumulate in float32 and the result is rounded
// once to the output type. One Conv2D (transposed: Conv2DTranspose) launch on the cube cores (a 1-D
// convolution is a 2-D one of height 1, as on CANN).
#include <memory>

#include "aclnnop/aclnn_convolution.h"
#include "core/fault_plan.h"
#include "opapi/checks.h"
#include "opapi/convolution.h"
#include "opapi/gemm.h"
#include "opapi/op_launcher.h"
#include "opapi/registry.h"

namespace npusim::opapi {

namespace {

[[maybe_unused]] const bool kRegistered =
    register_op({"aclnnConvolution", OpFamily::Convolution, kFloatTypes, Kernel::Conv2D});

struct Plan {
    ConvGeometry g;
    TensorView input, weight, bias, output;
};

void compute(const Plan& p) {
    const ConvGeometry& g = p.g;
    const std::vector<float> x = read_floats(p.input);
    const std::vector<float> w = read_floats(p.weight);
    const Dims result = g.result_dims();
    const int64_t channels = g.result_channels();
    std::vector<float> out(static_cast<size_t>(numel(result)), 0.0f);
    if (p.bias.data != nullptr) {
        const std::vector<float> b = read_floats(p.bias);
        fill_bias(b.data(), g.n, channels, numel(result) / (g.n * channels), out.data());
    }
    if (g.transposed) {
        conv_input_grad(x.data(), w.data(), g, out.data());
    } else {
        conv_forward(x.data(), w.data(), g, out.data());
    }
    write_floats(p.output, out);
}

aclnnStatus prepare(const aclTensor* input, const aclTensor* weight, const aclTensor* bias, const aclIntArray* stride,
                    const aclIntArray* padding, const aclIntArray* dilation, bool transposed,
                    const aclIntArray* outputPadding, int64_t groups, aclTensor* output, uint64_t* workspaceSize,
                    aclOpExecutor** executor) {
    const char* api = "aclnnConvolution";
    OPAPI_CHECK(check_not_null(api, {input, weight, stride, padding, dilation, output, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "input", input));
    OPAPI_CHECK(check_tensor(api, "weight", weight));
    OPAPI_CHECK(check_tensor(api, "output", output));
    Plan p;
    p.input = view_of(input), p.weight = view_of(weight), p.output = view_of(output);
    OPAPI_CHECK(
        plan_convolution(api, p.input, p.weight, stride, padding, dilation, transposed, outputPadding, groups, p.g));
    if (bias != nullptr) {
        OPAPI_CHECK(check_tensor(api, "bias", bias));
        p.bias = view_of(bias);
        OPAPI_CHECK(check_same_dtype(api, "bias", p.bias.dtype, p.input.dtype));
        OPAPI_CHECK(check_same_dims(api, "bias", p.bias.dims, Dims{p.g.result_channels()}));
    }
    OPAPI_CHECK(check_same_dtype(api, "output", p.output.dtype, p.input.dtype));
    OPAPI_CHECK(check_same_dims(api, "output", p.output.dims, p.g.result_dims()));
    const ConvGeometry& g = p.g;
    const double bytes = double(p.input.bytes() + p.weight.bytes() + p.output.bytes() + (bias ? p.bias.bytes() : 0));
    const Kernel kernel = g.transposed ? Kernel::Conv2DTranspose : Kernel::Conv2D;
    std::vector<KernelLaunch> launches{
        {kernel, p.input.dtype, cube_cost(g.n * g.groups, g.og(), g.col_cols(), g.col_rows(), bytes, p.input.dtype)}};
    std::vector<void*> args{p.input.data, p.weight.data};
    if (bias != nullptr) args.push_back(p.bias.data);
    args.push_back(p.output.data);
    auto run = [p]() { compute(p); };
    return hand_over(std::make_unique<OpExecutor>(api, 0, run, std::move(launches), std::move(args)), workspaceSize,
                     executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnConvolutionGetWorkspaceSize(
    const aclTensor* input, const aclTensor* weight, const aclTensor* bias, const aclIntArray* stride,
    const aclIntArray* padding, const aclIntArray* dilation, bool transposed, const aclIntArray* outputPadding,
    const int64_t groups, aclTensor* output, int8_t cubeMathType, uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnConvolutionGetWorkspaceSize", aclnnStatus);
    (void)cubeMathType;
    return npusim::opapi::prepare(input, weight, bias, stride, padding, dilation, transposed, outputPadding, groups,
                                  output, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnConvolution)
