// aclnnConvolutionBackward: the gradients of aclnnConvolution (opapi/convolution.h) on the GEMM
// primitive, each selected by outputMask:
//   gradInput   per sample and group, weight^T [C/g*kH*kW, O/g] times gradOutput [O/g, oH*oW],
//               scattered back by col2im (Conv2DBackpropInput);
//   gradWeight  summed over samples, gradOutput [O/g, oH*oW] times the input's columns^T
//               (Conv2DBackpropFilter);
//   gradBias    gradOutput summed over samples and positions (ReduceSum).
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
    const int64_t cols = g.col_cols(), rows = g.col_rows(), og = g.og();
    const int64_t sample_in = g.c * g.h * g.w;
    std::vector<float> col(static_cast<size_t>(rows * cols));
    auto dy_block = [&](int64_t s, int64_t gi) { return dy.data() + (s * g.o + gi * og) * cols; };
    if (p.want_input) {
        const std::vector<float> w = read_floats(p.weight);
        std::vector<float> dx(static_cast<size_t>(g.n * sample_in), 0.0f);
        for (int64_t s = 0; s < g.n; ++s) {
            for (int64_t gi = 0; gi < g.groups; ++gi) {
                gemm(rows, cols, og, 1.0f, {w.data() + gi * og * rows, rows, true}, {dy_block(s, gi), cols, false},
                     0.0f, col.data(), cols);
                col2im(col.data(), g, gi, dx.data() + s * sample_in);
            }
        }
        write_floats(p.grad_input, dx);
    }
    if (p.want_weight) {
        const std::vector<float> x = read_floats(p.input);
        std::vector<float> dw(static_cast<size_t>(g.o * rows), 0.0f);
        for (int64_t s = 0; s < g.n; ++s) {
            for (int64_t gi = 0; gi < g.groups; ++gi) {
                im2col(x.data() + s * sample_in, g, gi, col.data());
                gemm(og, rows, cols, 1.0f, {dy_block(s, gi), cols, false}, {col.data(), cols, true}, 1.0f,
                     dw.data() + gi * og * rows, rows);
            }
        }
        write_floats(p.grad_weight, dw);
    }
    if (p.want_bias) {
        std::vector<float> db(static_cast<size_t>(g.o), 0.0f);
        for (int64_t s = 0; s < g.n; ++s) {
            for (int64_t oc = 0; oc < g.o; ++oc) {
                const float* plane = dy.data() + (s * g.o + oc) * cols;
                float acc = 0.0f;
                for (int64_t i = 0; i < cols; ++i) acc += plane[i];
                db[size_t(oc)] += acc;
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
    OPAPI_CHECK(check_not_null(api, {gradOutput, input, weight, stride, padding, dilation, outputMask, workspaceSize,
                                     executor}));
    OPAPI_CHECK(check_tensor(api, "gradOutput", gradOutput));
    OPAPI_CHECK(check_tensor(api, "input", input));
    OPAPI_CHECK(check_tensor(api, "weight", weight));
    if (outputMask->magic != nn::kArrayMagic || outputMask->values.size() != 3) {
        return invalid(api, "outputMask is not a live aclBoolArray of 3 values");
    }
    Plan p;
    p.grad_out = view_of(gradOutput), p.input = view_of(input), p.weight = view_of(weight);
    OPAPI_CHECK(plan_convolution(api, p.input, p.weight, stride, padding, dilation, transposed, outputPadding, groups,
                                 p.g));
    const aclDataType dt = p.input.dtype;
    OPAPI_CHECK(check_same_dtype(api, "gradOutput", p.grad_out.dtype, dt));
    OPAPI_CHECK(check_same_dims(api, "gradOutput", p.grad_out.dims, p.g.output_dims()));
    if (biasSizes != nullptr) {
        if (!nn::valid(biasSizes)) return invalid(api, "biasSizes is not a live aclIntArray");
        OPAPI_CHECK(check_same_dims(api, "biasSizes", biasSizes->values, Dims{p.g.o}));
    }
    p.want_input = outputMask->values[0], p.want_weight = outputMask->values[1], p.want_bias = outputMask->values[2];
    if (p.want_input) OPAPI_CHECK(check_output(api, "gradInput", gradInput, dt, p.input.dims, p.grad_input));
    if (p.want_weight) OPAPI_CHECK(check_output(api, "gradWeight", gradWeight, dt, p.weight.dims, p.grad_weight));
    if (p.want_bias) OPAPI_CHECK(check_output(api, "gradBias", gradBias, dt, Dims{p.g.o}, p.grad_bias));

    const ConvGeometry& g = p.g;
    std::vector<KernelLaunch> launches;
    std::vector<void*> args{p.grad_out.data, p.input.data, p.weight.data};
    const double dy_bytes = double(p.grad_out.bytes());
    if (p.want_input) {
        const double bytes = dy_bytes + double(p.weight.bytes() + p.grad_input.bytes());
        launches.push_back({Kernel::Conv2DBackpropInput, dt,
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
        launches.push_back({Kernel::ReduceSum, dt,
                            vector_cost(double(p.grad_out.numel()), dy_bytes + double(p.grad_bias.bytes()), g.o, 1)});
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
