// aclnnGelu, aclnnSilu, aclnnRelu, aclnnExp, aclnnNeg, aclnnSigmoid, aclnnTanh (and in place), aclnnSqrt,
// aclnnInplaceSqrt, aclnnRsqrt and aclnnInplaceRsqrt: element-wise unary
// operators on the element-wise primitive (opapi/elementwise.h), one kernel each, run in self's
// type; an output of another type gets a Cast launch.
//   Gelu: the tanh form 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))), as CANN's Gelu kernel
//         computes it (opapi/gelu_forms.h); torch_npu sends F.gelu of either approximation here
//   Silu: x / (1 + exp(-x));  Relu: max(x, 0);  Exp: exp(x);  Neg: -x;  Sigmoid: 1 / (1 + exp(-x));
//   Tanh: tanh(x);  Sqrt: sqrt(x) (nan below 0);  Rsqrt: 1 / sqrt(x) (inf at 0, nan below 0)
// Relu takes integer tensors as well; Sqrt and Rsqrt take integer and bool tensors, computed as float32.
#include <cmath>

#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_neg.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_rsqrt.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_sqrt.h"
#include "aclnnop/aclnn_silu.h"
#include "aclnnop/aclnn_tanh.h"
#include "core/fault_plan.h"
#include "opapi/elementwise.h"
#include "opapi/elementwise_entry.h"
#include "opapi/gelu_forms.h"
#include "opapi/op_launcher.h"

namespace npusim::opapi {

namespace {

double gelu(double x, double, double, double) { return gelu_tanh_value(x); }
double silu(double x, double, double, double) { return x / (1.0 + std::exp(-x)); }
double relu(double x, double, double, double) { return x > 0.0 ? x : 0.0; }
double exp_(double x, double, double, double) { return std::exp(x); }
double neg(double x, double, double, double) { return -x; }
double sigmoid(double x, double, double, double) { return 1.0 / (1.0 + std::exp(-x)); }
double tanh_(double x, double, double, double) { return std::tanh(x); }
double sqrt_(double x, double, double, double) { return std::sqrt(x); }
double rsqrt(double x, double, double, double) { return 1.0 / std::sqrt(x); }

using P = Promotion;
using F = OpFamily;

OPAPI_ELEMENTWISE(kGelu, "aclnnGelu", F::Unary, {Kernel::Gelu, 8}, kFloatTypes, P::Common, gelu);
OPAPI_ELEMENTWISE(kSilu, "aclnnSilu", F::Unary, {Kernel::Silu, 4}, kFloatTypes, P::Common, silu);
OPAPI_ELEMENTWISE(kRelu, "aclnnRelu", F::Unary, {Kernel::Relu, 1}, kNumericTypes, P::Common, relu);
OPAPI_ELEMENTWISE(kExp, "aclnnExp", F::Unary, {Kernel::Exp, 4}, kFloatTypes, P::Common, exp_);
OPAPI_ELEMENTWISE(kNeg, "aclnnNeg", F::Unary, {Kernel::Neg, 1}, kFloatTypes, P::Common, neg);
OPAPI_ELEMENTWISE(kSigmoid, "aclnnSigmoid", F::Unary, {Kernel::Sigmoid, 4}, kFloatTypes, P::Common, sigmoid);
OPAPI_ELEMENTWISE(kTanh, "aclnnTanh", F::Unary, {Kernel::Tanh, 4}, kFloatTypes, P::Common, tanh_);
// The in-place forms torch's sigmoid_ and tanh_ reach.
OPAPI_ELEMENTWISE(kInplaceSigmoid, "aclnnInplaceSigmoid", F::Unary, {Kernel::Sigmoid, 4}, kFloatTypes, P::Common,
                  sigmoid);
OPAPI_ELEMENTWISE(kInplaceTanh, "aclnnInplaceTanh", F::Unary, {Kernel::Tanh, 4}, kFloatTypes, P::Common, tanh_);
OPAPI_ELEMENTWISE(kSqrt, "aclnnSqrt", F::Unary, {Kernel::Sqrt, 4}, kAllTypes, P::ToFloat, sqrt_);
OPAPI_ELEMENTWISE(kInplaceSqrt, "aclnnInplaceSqrt", F::Unary, {Kernel::Sqrt, 4}, kFloatTypes, P::Common, sqrt_);
OPAPI_ELEMENTWISE(kRsqrt, "aclnnRsqrt", F::Unary, {Kernel::Rsqrt, 5}, kAllTypes, P::ToFloat, rsqrt);
OPAPI_ELEMENTWISE(kInplaceRsqrt, "aclnnInplaceRsqrt", F::Unary, {Kernel::Rsqrt, 5}, kFloatTypes, P::Common, rsqrt);

aclnnStatus unary(const ElementwiseOp& op, const aclTensor* self, const aclTensor* out, uint64_t* ws,
                  aclOpExecutor** ex) {
    return prepare_elementwise(op, {tensor_in("self", self)}, out, ws, ex);
}

}  // namespace

}  // namespace npusim::opapi

using namespace npusim::opapi;

OPAPI_ELEMENTWISE_ENTRY(aclnnGelu,
                        (const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        unary(kGelu, self, out, workspaceSize, executor))

OPAPI_ELEMENTWISE_ENTRY(aclnnSilu,
                        (const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        unary(kSilu, self, out, workspaceSize, executor))

// CANN declares the output const (a handle of device memory the operator writes).
OPAPI_ELEMENTWISE_ENTRY(aclnnRelu,
                        (const aclTensor* self, const aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        unary(kRelu, self, out, workspaceSize, executor))

OPAPI_ELEMENTWISE_ENTRY(aclnnExp,
                        (const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        unary(kExp, self, out, workspaceSize, executor))

OPAPI_ELEMENTWISE_ENTRY(aclnnNeg,
                        (const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        unary(kNeg, self, out, workspaceSize, executor))

OPAPI_ELEMENTWISE_ENTRY(aclnnSigmoid,
                        (const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        unary(kSigmoid, self, out, workspaceSize, executor))

OPAPI_ELEMENTWISE_ENTRY(aclnnTanh,
                        (const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        unary(kTanh, self, out, workspaceSize, executor))

OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceSigmoid, (aclTensor * selfRef, uint64_t* workspaceSize, aclOpExecutor** executor),
                        unary(kInplaceSigmoid, selfRef, selfRef, workspaceSize, executor))

OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceTanh, (aclTensor * selfRef, uint64_t* workspaceSize, aclOpExecutor** executor),
                        unary(kInplaceTanh, selfRef, selfRef, workspaceSize, executor))

OPAPI_ELEMENTWISE_ENTRY(aclnnSqrt,
                        (const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** opExecutor),
                        unary(kSqrt, self, out, workspaceSize, opExecutor))

OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceSqrt, (aclTensor * self, uint64_t* workspaceSize, aclOpExecutor** executor),
                        unary(kInplaceSqrt, self, self, workspaceSize, executor))

OPAPI_ELEMENTWISE_ENTRY(aclnnRsqrt,
                        (const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        unary(kRsqrt, self, out, workspaceSize, executor))

OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceRsqrt, (aclTensor * selfRef, uint64_t* workspaceSize, aclOpExecutor** executor),
                        unary(kInplaceRsqrt, selfRef, selfRef, workspaceSize, executor))
