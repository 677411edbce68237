// aclnnConvolutionBackward: the gradients of aclnnConvolution (opapi/convolution.h) on the GEMM
// primitive, each selected by outputMask:
//   gradInput   per sample and group, weight^T [C/g*kH*kW, O/g] times gradOutput [O/g, oH*oW],
//               scattered back by col2im (Conv2DBackpropInput);
//   gradWeight  summed over samples, gradOutput [O/g, oH*oW] times the input's columns^T
//               (Conv2DBackpropFilter);
//   gradBias    gradOutput summed over samples and positions (ReduceSum).
// Transposed (the adjoint of the direct convolution of opapi/convolution.h): gradInput is the direct
// forward of gradOutput (Conv2D), gradWeight the direct weight gradient with the input as the output
// gradient and gradOutput as the input (Conv2DBackpropFilter), gradBias as above.
// Every sum accumulates in float32; each result is rounded once to its output type.
#include <memory>

#include "aclnnop/aclnn_convolution_backward.h"
#include "core/fault_plan.h"
#include "nnopbase/tensor.h"
#include "opapi/checks.h"
#include "opapi/convolution.h"
#include "opapi/gemm.h"
#include "opapi/op_launcher.h"
#include "opapi/registry.h"

namespace npusim::opapi {

namespace {

[[maybe_unused]] const bool kRegistered =
    register_op({"aclnnConvolutionBackward", OpFamily::Convolution, kFloatTypes, Kernel::Conv2DBackpropInput});

struct Plan {
    ConvGeometry g;
    TensorView grad_out, input, weight, grad_input, grad_weight, grad_bias;
    bool want_input = false, want_weight = false, want_bias = false;
};

void compute(const Plan& p) {
    const ConvGeometry& g = p.g;
    const std::vector<float> dy = read_floats(p.grad_out);
    if (p.want_input) {
        const std::vector<float> w = read_floats(p.weight);
        std::vector<float> dx(static_cast<size_t>(numel(g.source_dims())), 0.0f);
        if (g.transposed) {
            conv_forward(dy.data(), w.data(), g, dx.data());
        } else {
            conv_input_grad(dy.data(), w.data(), g, dx.data());
        }
        write_floats(p.grad_input, dx);
    }
    if (p.want_weight) {
        const std::vector<float> x = read_floats(p.input);
        std::vector<float> dw(static_cast<size_t>(g.o * g.col_rows()));
        if (g.transposed) {  // the input plays the direct convolution's output gradient
            conv_weight_grad(x.data(), dy.data(), g, dw.data());
        } else {
            conv_weight_grad(dy.data(), x.data(), g, dw.data());
        }
        write_floats(p.grad_weight, dw);
    }
    if (p.want_bias) {
        const int64_t channels = g.result_channels();
        const int64_t plane = numel(g.result_dims()) / (g.n * channels);
        std::vector<float> db(static_cast<size_t>(channels), 0.0f);
        for (int64_t s = 0; s < g.n; ++s) {
            for (int64_t ch = 0; ch < channels; ++ch) {
                const float* values = dy.data() + (s * channels + ch) * plane;
                float acc = 0.0f;
                for (int64_t i = 0; i < plane; ++i) acc += values[i];
                db[size_t(ch)] += acc;
            }
        }
        write_floats(p.grad_bias, db);
    }
}

aclnnStatus check_output(const char* api, const char* what, const aclTensor* t, aclDataType dtype, const Dims& dims,
                         TensorView& view) {
    if (t == nullptr) return check_not_null(api, {t});
    OPAPI_CHECK(check_tensor(api, what, t));
    view = view_of(t);
    OPAPI_CHECK(check_same_dtype(api, what, view.dtype, dtype));
    return check_same_dims(api, what, view.dims, dims);
}

aclnnStatus prepare(const aclTensor* gradOutput, const aclTensor* input, const aclTensor* weight,
                    const aclIntArray* biasSizes, const aclIntArray* stride, const aclIntArray* padding,
                    const aclIntArray* dilation, bool transposed, const aclIntArray* outputPadding, int64_t groups,
                    const aclBoolArray* outputMask, aclTensor* gradInput, aclTensor* gradWeight, aclTensor* gradBias,
                    uint64_t* workspaceSize, aclOpExecutor** executor) {
    const char* api = "aclnnConvolutionBackward";
    OPAPI_CHECK(check_not_null(
        api, {gradOutput, input, weight, stride, padding, dilation, outputMask, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "gradOutput", gradOutput));
    OPAPI_CHECK(check_tensor(api, "input", input));
    OPAPI_CHECK(check_tensor(api, "weight", weight));
    if (outputMask->magic != nn::kArrayMagic || outputMask->values.size() != 3) {
        return invalid(api, "outputMask is not a live aclBoolArray of 3 values");
    }
    Plan p;
    p.grad_out = view_of(gradOutput), p.input = view_of(input), p.weight = view_of(weight);
    OPAPI_CHECK(
        plan_convolution(api, p.input, p.weight, stride, padding, dilation, transposed, outputPadding, groups, p.g));
    const aclDataType dt = p.input.dtype;
    OPAPI_CHECK(check_same_dtype(api, "gradOutput", p.grad_out.dtype, dt));
    OPAPI_CHECK(check_same_dims(api, "gradOutput", p.grad_out.dims, p.g.result_dims()));
    if (biasSizes != nullptr) {
        if (!nn::valid(biasSizes)) return invalid(api, "biasSizes is not a live aclIntArray");
        OPAPI_CHECK(check_same_dims(api, "biasSizes", biasSizes->values, Dims{p.g.result_channels()}));
    }
    p.want_input = outputMask->values[0], p.want_weight = outputMask->values[1], p.want_bias = outputMask->values[2];
    if (p.want_input) OPAPI_CHECK(check_output(api, "gradInput", gradInput, dt, p.input.dims, p.grad_input));
    if (p.want_weight) OPAPI_CHECK(check_output(api, "gradWeight", gradWeight, dt, p.weight.dims, p.grad_weight));
    if (p.want_bias) {
        OPAPI_CHECK(check_output(api, "gradBias", gradBias, dt, Dims{p.g.result_channels()}, p.grad_bias));
    }

    const ConvGeometry& g = p.g;
    std::vector<KernelLaunch> launches;
    std::vector<void*> args{p.grad_out.data, p.input.data, p.weight.data};
    const double dy_bytes = double(p.grad_out.bytes());
    if (p.want_input) {
        const double bytes = dy_bytes + double(p.weight.bytes() + p.grad_input.bytes());
        launches.push_back({g.transposed ? Kernel::Conv2D : Kernel::Conv2DBackpropInput, dt,
                            cube_cost(g.n * g.groups, g.col_rows(), g.col_cols(), g.og(), bytes, dt)});
        args.push_back(p.grad_input.data);
    }
    if (p.want_weight) {
        const double bytes = dy_bytes + double(p.input.bytes() + p.grad_weight.bytes());
        launches.push_back({Kernel::Conv2DBackpropFilter, dt,
                            cube_cost(g.groups, g.og(), g.col_rows(), g.n * g.col_cols(), bytes, dt)});
        args.push_back(p.grad_weight.data);
    }
    if (p.want_bias) {
        launches.push_back(
            {Kernel::ReduceSum, dt,
             vector_cost(double(p.grad_out.numel()), dy_bytes + double(p.grad_bias.bytes()), g.result_channels(), 1)});
        args.push_back(p.grad_bias.data);
    }
    auto run = [p]() { compute(p); };
    return hand_over(std::make_unique<OpExecutor>(api, 0, run, std::move(launches), std::move(args)), workspaceSize,
                     executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnConvolutionBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* input, const aclTensor* weight, const aclIntArray* biasSizes,
    const aclIntArray* stride, const aclIntArray* padding, const aclIntArray* dilation, bool transposed,
    const aclIntArray* outputPadding, int groups, const aclBoolArray* outputMask, int8_t cubeMathType,
    aclTensor* gradInput, aclTensor* gradWeight, aclTensor* gradBias, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnConvolutionBackwardGetWorkspaceSize", aclnnStatus);
    (void)cubeMathType;
    return npusim::opapi::prepare(gradOutput, input, weight, biasSizes, stride, padding, dilation, transposed,
                                  outputPadding, groups, outputMask, gradInput, gradWeight, gradBias, workspaceSize,
                                  executor);
}
OPAPI_DEFINE_RUN(aclnnConvolutionBackward)
