// aclnnGelu, aclnnSilu, aclnnRelu, aclnnExp, aclnnNeg, aclnnSigmoid, aclnnTanh:
// element-wise unary operators, one kernel each.
//   Gelu: x * Phi(x) = 0.5 x (1 + erf(x / sqrt(2))), the form CANN's aclnn_gelu.h documents
//         and torch's default (approximate="none"); the tanh approximation is not offered
//   Silu: x / (1 + exp(-x))
//   Relu: max(x, 0)
//   Exp: exp(x);  Neg: -x;  Sigmoid: 1 / (1 + exp(-x));  Tanh: tanh(x)
// The kernel runs in self's type; an output of another float type gets a Cast launch.
#include <cmath>
#include <memory>

#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_neg.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_silu.h"
#include "aclnnop/aclnn_tanh.h"
#include "core/fault_plan.h"
#include "nnopbase/dtype.h"
#include "nnopbase/tensor.h"
#include "opapi/checks.h"
#include "opapi/op_launcher.h"

namespace npusim::opapi {

namespace {

enum class Activation { Gelu, Silu, Relu, Exp, Neg, Sigmoid, Tanh };

float activate(Activation kind, float x) {
    switch (kind) {
        case Activation::Gelu: {
            const double d = x;
            return static_cast<float>(0.5 * d * (1.0 + std::erf(d * 0.7071067811865476)));
        }
        case Activation::Silu: return x / (1.0f + std::exp(-x));
        case Activation::Relu: return x > 0.0f ? x : 0.0f;
        case Activation::Exp: return std::exp(x);
        case Activation::Neg: return -x;
        case Activation::Sigmoid: return 1.0f / (1.0f + std::exp(-x));
        case Activation::Tanh: return std::tanh(x);
    }
    return x;
}

aclnnStatus prepare(const char* api, Activation kind, const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                    aclOpExecutor** executor) {
    OPAPI_CHECK(check_not_null(api, {self, out, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "out", out));
    const TensorView x = view_of(self), y = view_of(out);
    OPAPI_CHECK(check_float_type(api, "self", x.dtype));
    OPAPI_CHECK(check_float_type(api, "out", y.dtype));
    OPAPI_CHECK(check_rank(api, "self", x.dims, 0, nn::kMaxDims));
    OPAPI_CHECK(check_same_dims(api, "out", y.dims, x.dims));

    static const Kernel kKernels[] = {Kernel::Gelu, Kernel::Silu,    Kernel::Relu, Kernel::Exp,
                                      Kernel::Neg,  Kernel::Sigmoid, Kernel::Tanh};
    static const double kFlops[] = {8, 4, 1, 4, 1, 4, 4};
    const int64_t n = x.numel();
    const double elem = static_cast<double>(nn::dtype_size(x.dtype));
    std::vector<KernelLaunch> launches{
        {kKernels[static_cast<int>(kind)], x.dtype, vector_cost(kFlops[static_cast<int>(kind)] * n, 2 * elem * n, n, 4096)}};
    if (y.dtype != x.dtype) launches.push_back({Kernel::Cast, y.dtype, vector_cost(double(n), elem * n + double(y.bytes()), n, 4096)});

    auto compute = [kind, x, y]() {
        std::vector<float> v = read_floats(x);
        for (float& e : v) e = round_to(x.dtype, activate(kind, e));
        write_floats(y, v);
    };
    return hand_over(std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{x.data, y.data}),
                     workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

using npusim::opapi::Activation;

NPUSIM_C_EXPORT aclnnStatus aclnnGeluGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnGeluGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare("aclnnGelu", Activation::Gelu, self, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnGelu)

NPUSIM_C_EXPORT aclnnStatus aclnnSiluGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnSiluGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare("aclnnSilu", Activation::Silu, self, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnSilu)

NPUSIM_C_EXPORT aclnnStatus aclnnReluGetWorkspaceSize(const aclTensor* self, const aclTensor* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnReluGetWorkspaceSize", aclnnStatus);
    // CANN declares the output const (a handle of device memory the operator writes).
    return npusim::opapi::prepare("aclnnRelu", Activation::Relu, self, const_cast<aclTensor*>(out), workspaceSize,
                                  executor);
}
OPAPI_DEFINE_RUN(aclnnRelu)

NPUSIM_C_EXPORT aclnnStatus aclnnExpGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnExpGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare("aclnnExp", Activation::Exp, self, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnExp)

NPUSIM_C_EXPORT aclnnStatus aclnnNegGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnNegGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare("aclnnNeg", Activation::Neg, self, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnNeg)

NPUSIM_C_EXPORT aclnnStatus aclnnSigmoidGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnSigmoidGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare("aclnnSigmoid", Activation::Sigmoid, self, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnSigmoid)

NPUSIM_C_EXPORT aclnnStatus aclnnTanhGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnTanhGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare("aclnnTanh", Activation::Tanh, self, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnTanh)
