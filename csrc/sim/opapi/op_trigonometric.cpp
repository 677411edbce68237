// Trigonometric and hyperbolic functions on the element-wise primitive (opapi/elementwise.h), one
// kernel each: tan, asin, acos, atan, sinh, cosh, asinh, acosh, atanh (integer and bool tensors
// computed as float32, torch's result type; the in-place forms keep selfRef's float type) and
// atan2(self, other), broadcast.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "aclnnop/aclnn_acos.h"
#include "aclnnop/aclnn_acosh.h"
#include "aclnnop/aclnn_asin.h"
#include "aclnnop/aclnn_asinh.h"
#include "aclnnop/aclnn_atan.h"
#include "aclnnop/aclnn_atan2.h"
#include "aclnnop/aclnn_atanh.h"
#include "aclnnop/aclnn_cosh.h"
#include "aclnnop/aclnn_sinh.h"
#include "aclnnop/aclnn_tan.h"
#include "opapi/elementwise_entry.h"

namespace npusim::opapi {

namespace {

double tan_(double a, double, double, double) { return std::tan(a); }
double asin_(double a, double, double, double) { return std::asin(a); }
double acos_(double a, double, double, double) { return std::acos(a); }
double atan_(double a, double, double, double) { return std::atan(a); }
double sinh_(double a, double, double, double) { return std::sinh(a); }
double cosh_(double a, double, double, double) { return std::cosh(a); }
double asinh_(double a, double, double, double) { return std::asinh(a); }
double acosh_(double a, double, double, double) { return std::acosh(a); }
double atanh_(double a, double, double, double) { return std::atanh(a); }
double atan2_(double a, double b, double, double) { return std::atan2(a, b); }

using P = Promotion;
using F = OpFamily;

OPAPI_ELEMENTWISE(kTan, "aclnnTan", F::Unary, {Kernel::Tan, 4}, kAllTypes, P::ToFloat, tan_);
OPAPI_ELEMENTWISE(kInplaceTan, "aclnnInplaceTan", F::Unary, {Kernel::Tan, 4}, kFloatTypes, P::Common, tan_);
OPAPI_ELEMENTWISE(kAsin, "aclnnAsin", F::Unary, {Kernel::Asin, 4}, kAllTypes, P::ToFloat, asin_);
OPAPI_ELEMENTWISE(kInplaceAsin, "aclnnInplaceAsin", F::Unary, {Kernel::Asin, 4}, kFloatTypes, P::Common, asin_);
OPAPI_ELEMENTWISE(kAcos, "aclnnAcos", F::Unary, {Kernel::Acos, 4}, kAllTypes, P::ToFloat, acos_);
OPAPI_ELEMENTWISE(kInplaceAcos, "aclnnInplaceAcos", F::Unary, {Kernel::Acos, 4}, kFloatTypes, P::Common, acos_);
OPAPI_ELEMENTWISE(kAtan, "aclnnAtan", F::Unary, {Kernel::Atan, 4}, kAllTypes, P::ToFloat, atan_);
OPAPI_ELEMENTWISE(kInplaceAtan, "aclnnInplaceAtan", F::Unary, {Kernel::Atan, 4}, kFloatTypes, P::Common, atan_);
OPAPI_ELEMENTWISE(kSinh, "aclnnSinh", F::Unary, {Kernel::Sinh, 4}, kAllTypes, P::ToFloat, sinh_);
OPAPI_ELEMENTWISE(kInplaceSinh, "aclnnInplaceSinh", F::Unary, {Kernel::Sinh, 4}, kFloatTypes, P::Common, sinh_);
OPAPI_ELEMENTWISE(kCosh, "aclnnCosh", F::Unary, {Kernel::Cosh, 4}, kAllTypes, P::ToFloat, cosh_);
OPAPI_ELEMENTWISE(kInplaceCosh, "aclnnInplaceCosh", F::Unary, {Kernel::Cosh, 4}, kFloatTypes, P::Common, cosh_);
OPAPI_ELEMENTWISE(kAsinh, "aclnnAsinh", F::Unary, {Kernel::Asinh, 4}, kAllTypes, P::ToFloat, asinh_);
OPAPI_ELEMENTWISE(kInplaceAsinh, "aclnnInplaceAsinh", F::Unary, {Kernel::Asinh, 4}, kFloatTypes, P::Common, asinh_);
OPAPI_ELEMENTWISE(kAcosh, "aclnnAcosh", F::Unary, {Kernel::Acosh, 4}, kAllTypes, P::ToFloat, acosh_);
OPAPI_ELEMENTWISE(kInplaceAcosh, "aclnnInplaceAcosh", F::Unary, {Kernel::Acosh, 4}, kFloatTypes, P::Common, acosh_);
OPAPI_ELEMENTWISE(kAtanh, "aclnnAtanh", F::Unary, {Kernel::Atanh, 4}, kAllTypes, P::ToFloat, atanh_);
OPAPI_ELEMENTWISE(kInplaceAtanh, "aclnnInplaceAtanh", F::Unary, {Kernel::Atanh, 4}, kFloatTypes, P::Common, atanh_);
OPAPI_ELEMENTWISE(kAtan2, "aclnnAtan2", F::Binary, {Kernel::Atan2, 6}, kAllTypes, P::ToFloat, atan2_);
OPAPI_ELEMENTWISE(kInplaceAtan2, "aclnnInplaceAtan2", F::Binary, {Kernel::Atan2, 6}, kFloatTypes, P::Common, atan2_);

}  // namespace

}  // namespace npusim::opapi

OPAPI_ELEMENTWISE_ENTRY(aclnnTan,
                        (const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kTan, {tensor_in("self", self)}, out, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceTan, (const aclTensor* selfRef, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kInplaceTan, {tensor_in("selfRef", selfRef)}, selfRef, workspaceSize,
                                            executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnAsin,
                        (const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kAsin, {tensor_in("self", self)}, out, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceAsin, (aclTensor * selfRef, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kInplaceAsin, {tensor_in("selfRef", selfRef)}, selfRef, workspaceSize,
                                            executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnAcos,
                        (const aclTensor* input, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kAcos, {tensor_in("input", input)}, out, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceAcos, (aclTensor * inputRef, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kInplaceAcos, {tensor_in("inputRef", inputRef)}, inputRef, workspaceSize,
                                            executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnAtan,
                        (const aclTensor* input, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kAtan, {tensor_in("input", input)}, out, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceAtan, (aclTensor * inputRef, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kInplaceAtan, {tensor_in("inputRef", inputRef)}, inputRef, workspaceSize,
                                            executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnSinh,
                        (const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kSinh, {tensor_in("self", self)}, out, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceSinh, (aclTensor * selfRef, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kInplaceSinh, {tensor_in("selfRef", selfRef)}, selfRef, workspaceSize,
                                            executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnCosh,
                        (const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kCosh, {tensor_in("self", self)}, out, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceCosh, (aclTensor * selfRef, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kInplaceCosh, {tensor_in("selfRef", selfRef)}, selfRef, workspaceSize,
                                            executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnAsinh,
                        (const aclTensor* input, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kAsinh, {tensor_in("input", input)}, out, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceAsinh, (aclTensor * inputRef, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kInplaceAsinh, {tensor_in("inputRef", inputRef)}, inputRef, workspaceSize,
                                            executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnAcosh,
                        (const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kAcosh, {tensor_in("self", self)}, out, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceAcosh, (aclTensor * selfRef, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kInplaceAcosh, {tensor_in("selfRef", selfRef)}, selfRef, workspaceSize,
                                            executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnAtanh,
                        (const aclTensor* input, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kAtanh, {tensor_in("input", input)}, out, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceAtanh, (aclTensor * inputRef, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kInplaceAtanh, {tensor_in("inputRef", inputRef)}, inputRef, workspaceSize,
                                            executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnAtan2,
                        (const aclTensor* self, const aclTensor* other, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kAtan2, {tensor_in("self", self), tensor_in("other", other)}, out,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceAtan2,
                        (aclTensor * selfRef, aclTensor* other, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kInplaceAtan2, {tensor_in("selfRef", selfRef), tensor_in("other", other)},
                                            selfRef, workspaceSize, executor))
