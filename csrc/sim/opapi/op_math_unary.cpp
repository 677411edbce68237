// Element-wise mathematical functions on the element-wise primitive (opapi/elementwise.h), one
// kernel each, each with its in-place form where CANN declares one:
//   aclnnAbs |x|; aclnnSign -1, 0 or 1 (0 for 0 and -0; nan stays nan);
//   aclnnLog, aclnnLog2, aclnnLog10, aclnnLog1p, aclnnExpm1, aclnnSin, aclnnCos, aclnnErf,
//   aclnnReciprocal: integer and bool tensors computed as float32 (torch's result type);
//   aclnnFloor, aclnnCeil, aclnnRound (halves to even, as torch), aclnnTrunc: integers unchanged;
//   aclnnRoundDecimals: round(x * 10^d) / 10^d (d < 0 rounds left of the point), torch's formula.
// The in-place forms keep selfRef's type (float types).
#include <cmath>

#include "aclnnop/aclnn_abs.h"
#include "aclnnop/aclnn_log.h"
#include "aclnnop/aclnn_log2.h"
#include "aclnnop/aclnn_log10.h"
#include "aclnnop/aclnn_log1p.h"
#include "aclnnop/aclnn_expm1.h"
#include "aclnnop/aclnn_sin.h"
#include "aclnnop/aclnn_cos.h"
#include "aclnnop/aclnn_erf.h"
#include "aclnnop/aclnn_floor.h"
#include "aclnnop/aclnn_ceil.h"
#include "aclnnop/aclnn_round.h"
#include "aclnnop/aclnn_trunc.h"
#include "aclnnop/aclnn_sign.h"
#include "aclnnop/aclnn_reciprocal.h"
#include "opapi/elementwise_entry.h"

namespace npusim::opapi {

namespace {

double abs_(double x, double, double, double) { return std::fabs(x); }
double sign(double x, double, double, double) { return std::isnan(x) ? x : double((x > 0) - (x < 0)); }
double log_(double x, double, double, double) { return std::log(x); }
double log2_(double x, double, double, double) { return std::log2(x); }
double log10_(double x, double, double, double) { return std::log10(x); }
double log1p_(double x, double, double, double) { return std::log1p(x); }
double expm1_(double x, double, double, double) { return std::expm1(x); }
double sin_(double x, double, double, double) { return std::sin(x); }
double cos_(double x, double, double, double) { return std::cos(x); }
double erf_(double x, double, double, double) { return std::erf(x); }
double reciprocal(double x, double, double, double) { return 1.0 / x; }
double floor_(double x, double, double, double) { return std::floor(x); }
double ceil_(double x, double, double, double) { return std::ceil(x); }
double round_(double x, double, double, double) { return std::nearbyint(x); }  // the default mode: halves to even
double trunc_(double x, double, double, double) { return std::trunc(x); }
double round_decimals(double x, double decimals, double, double) {
    // torch: a positive d multiplies by 10^d, a negative one divides by 10^-d (exact powers of ten).
    const double scale = std::pow(10.0, std::fabs(decimals));
    return decimals >= 0 ? std::nearbyint(x * scale) / scale : std::nearbyint(x / scale) * scale;
}

using P = Promotion;
using F = OpFamily;

OPAPI_ELEMENTWISE(kAbs, "aclnnAbs", F::Unary, {Kernel::Abs, 1}, kNumericTypes, P::Common, abs_);
OPAPI_ELEMENTWISE(kSign, "aclnnSign", F::Unary, {Kernel::Sign, 1}, kNumericTypes, P::Common, sign);
OPAPI_ELEMENTWISE(kLog, "aclnnLog", F::Unary, {Kernel::Log, 4}, kAllTypes, P::ToFloat, log_);
OPAPI_ELEMENTWISE(kInplaceLog, "aclnnInplaceLog", F::Unary, {Kernel::Log, 4}, kFloatTypes, P::Common, log_);
OPAPI_ELEMENTWISE(kLog2, "aclnnLog2", F::Unary, {Kernel::Log, 5}, kAllTypes, P::ToFloat, log2_);
OPAPI_ELEMENTWISE(kInplaceLog2, "aclnnInplaceLog2", F::Unary, {Kernel::Log, 5}, kFloatTypes, P::Common, log2_);
OPAPI_ELEMENTWISE(kLog10, "aclnnLog10", F::Unary, {Kernel::Log, 5}, kAllTypes, P::ToFloat, log10_);
OPAPI_ELEMENTWISE(kInplaceLog10, "aclnnInplaceLog10", F::Unary, {Kernel::Log, 5}, kFloatTypes, P::Common, log10_);
OPAPI_ELEMENTWISE(kLog1p, "aclnnLog1p", F::Unary, {Kernel::Log1p, 5}, kAllTypes, P::ToFloat, log1p_);
OPAPI_ELEMENTWISE(kInplaceLog1p, "aclnnInplaceLog1p", F::Unary, {Kernel::Log1p, 5}, kFloatTypes, P::Common, log1p_);
OPAPI_ELEMENTWISE(kExpm1, "aclnnExpm1", F::Unary, {Kernel::Expm1, 5}, kAllTypes, P::ToFloat, expm1_);
OPAPI_ELEMENTWISE(kInplaceExpm1, "aclnnInplaceExpm1", F::Unary, {Kernel::Expm1, 5}, kFloatTypes, P::Common, expm1_);
OPAPI_ELEMENTWISE(kSin, "aclnnSin", F::Unary, {Kernel::Sin, 4}, kAllTypes, P::ToFloat, sin_);
OPAPI_ELEMENTWISE(kInplaceSin, "aclnnInplaceSin", F::Unary, {Kernel::Sin, 4}, kFloatTypes, P::Common, sin_);
OPAPI_ELEMENTWISE(kCos, "aclnnCos", F::Unary, {Kernel::Cos, 4}, kAllTypes, P::ToFloat, cos_);
OPAPI_ELEMENTWISE(kInplaceCos, "aclnnInplaceCos", F::Unary, {Kernel::Cos, 4}, kFloatTypes, P::Common, cos_);
OPAPI_ELEMENTWISE(kErf, "aclnnErf", F::Unary, {Kernel::Erf, 6}, kAllTypes, P::ToFloat, erf_);
OPAPI_ELEMENTWISE(kInplaceErf, "aclnnInplaceErf", F::Unary, {Kernel::Erf, 6}, kFloatTypes, P::Common, erf_);
OPAPI_ELEMENTWISE(kReciprocal, "aclnnReciprocal", F::Unary, {Kernel::Reciprocal, 1}, kAllTypes, P::ToFloat, reciprocal);
OPAPI_ELEMENTWISE(kInplaceReciprocal, "aclnnInplaceReciprocal", F::Unary, {Kernel::Reciprocal, 1}, kFloatTypes,
                  P::Common, reciprocal);
OPAPI_ELEMENTWISE(kFloor, "aclnnFloor", F::Unary, {Kernel::Floor, 1}, kNumericTypes, P::Common, floor_);
OPAPI_ELEMENTWISE(kInplaceFloor, "aclnnInplaceFloor", F::Unary, {Kernel::Floor, 1}, kNumericTypes, P::Common, floor_);
OPAPI_ELEMENTWISE(kCeil, "aclnnCeil", F::Unary, {Kernel::Ceil, 1}, kNumericTypes, P::Common, ceil_);
OPAPI_ELEMENTWISE(kInplaceCeil, "aclnnInplaceCeil", F::Unary, {Kernel::Ceil, 1}, kNumericTypes, P::Common, ceil_);
OPAPI_ELEMENTWISE(kRound, "aclnnRound", F::Unary, {Kernel::Round, 1}, kNumericTypes, P::Common, round_);
OPAPI_ELEMENTWISE(kInplaceRound, "aclnnInplaceRound", F::Unary, {Kernel::Round, 1}, kNumericTypes, P::Common, round_);
OPAPI_ELEMENTWISE(kTrunc, "aclnnTrunc", F::Unary, {Kernel::Trunc, 1}, kNumericTypes, P::Common, trunc_);
OPAPI_ELEMENTWISE(kInplaceTrunc, "aclnnInplaceTrunc", F::Unary, {Kernel::Trunc, 1}, kNumericTypes, P::Common, trunc_);
OPAPI_ELEMENTWISE(kRoundDecimals, "aclnnRoundDecimals", F::Unary, {Kernel::Round, 3}, kNumericTypes, P::Common,
                  round_decimals);
OPAPI_ELEMENTWISE(kInplaceRoundDecimals, "aclnnInplaceRoundDecimals", F::Unary, {Kernel::Round, 3}, kNumericTypes,
                  P::Common, round_decimals);

}  // namespace

}  // namespace npusim::opapi

OPAPI_ELEMENTWISE_ENTRY(aclnnAbs,
                        (const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kAbs, {tensor_in("self", self)}, out, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnLog,
                        (const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kLog, {tensor_in("self", self)}, out, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceLog, (aclTensor * selfRef, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kInplaceLog, {tensor_in("selfRef", selfRef)}, selfRef, workspaceSize,
                                            executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnLog2,
                        (const aclTensor* self, const aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kLog2, {tensor_in("self", self)}, out, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceLog2, (const aclTensor* selfRef, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kInplaceLog2, {tensor_in("selfRef", selfRef)}, selfRef, workspaceSize,
                                            executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnLog10,
                        (const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kLog10, {tensor_in("self", self)}, out, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceLog10, (aclTensor * selfRef, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kInplaceLog10, {tensor_in("selfRef", selfRef)}, selfRef, workspaceSize,
                                            executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnLog1p,
                        (const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kLog1p, {tensor_in("self", self)}, out, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceLog1p, (aclTensor * selfRef, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kInplaceLog1p, {tensor_in("selfRef", selfRef)}, selfRef, workspaceSize,
                                            executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnExpm1,
                        (const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kExpm1, {tensor_in("self", self)}, out, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceExpm1, (aclTensor * selfRef, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kInplaceExpm1, {tensor_in("selfRef", selfRef)}, selfRef, workspaceSize,
                                            executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnSin,
                        (const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kSin, {tensor_in("self", self)}, out, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceSin, (aclTensor * selfRef, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kInplaceSin, {tensor_in("selfRef", selfRef)}, selfRef, workspaceSize,
                                            executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnCos,
                        (const aclTensor* input, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kCos, {tensor_in("self", input)}, out, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceCos, (aclTensor * inputRef, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kInplaceCos, {tensor_in("selfRef", inputRef)}, inputRef, workspaceSize,
                                            executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnErf,
                        (const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kErf, {tensor_in("self", self)}, out, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceErf, (aclTensor * selfRef, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kInplaceErf, {tensor_in("selfRef", selfRef)}, selfRef, workspaceSize,
                                            executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnFloor,
                        (const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kFloor, {tensor_in("self", self)}, out, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceFloor, (aclTensor * selfRef, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kInplaceFloor, {tensor_in("selfRef", selfRef)}, selfRef, workspaceSize,
                                            executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnCeil,
                        (const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kCeil, {tensor_in("self", self)}, out, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceCeil, (aclTensor * selfRef, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kInplaceCeil, {tensor_in("selfRef", selfRef)}, selfRef, workspaceSize,
                                            executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnRound,
                        (const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kRound, {tensor_in("self", self)}, out, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceRound,
                        (const aclTensor* selfRef, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kInplaceRound, {tensor_in("selfRef", selfRef)}, selfRef, workspaceSize,
                                            executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnRoundDecimals,
                        (const aclTensor* self, int64_t decimals, aclTensor* out, uint64_t* workspaceSize,
                         aclOpExecutor** executor),
                        prepare_elementwise(kRoundDecimals,
                                            {tensor_in("self", self), constant(static_cast<double>(decimals))}, out,
                                            workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceRoundDecimals,
                        (aclTensor * selfRef, int64_t decimals, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kInplaceRoundDecimals,
                                            {tensor_in("selfRef", selfRef), constant(static_cast<double>(decimals))},
                                            selfRef, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnTrunc,
                        (const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kTrunc, {tensor_in("self", self)}, out, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceTrunc, (aclTensor * selfRef, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kInplaceTrunc, {tensor_in("selfRef", selfRef)}, selfRef, workspaceSize,
                                            executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnSign,
                        (const aclTensor* self, aclTensor* result, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kSign, {tensor_in("self", self)}, result, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnReciprocal,
                        (const aclTensor* self, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kReciprocal, {tensor_in("self", self)}, out, workspaceSize, executor))
OPAPI_ELEMENTWISE_ENTRY(aclnnInplaceReciprocal,
                        (const aclTensor* selfRef, uint64_t* workspaceSize, aclOpExecutor** executor),
                        prepare_elementwise(kInplaceReciprocal, {tensor_in("selfRef", selfRef)}, selfRef, workspaceSize,
                                            executor))
