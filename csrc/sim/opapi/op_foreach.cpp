// The foreach operators (torch's _foreach_* ops, the multi-tensor steps of its optimisers) on the
// element-wise primitive (opapi/elementwise.h, prepare_foreach): the function over item i of every
// list, equal shapes, one kernel for the whole list as CANN's multi-tensor kernels; out may be the
// first list (the in-place forms torch_npu calls).
//   aclnnForeachAddList (alpha a one-element tensor, read when the kernel runs),
//   aclnnForeachAddListV2 (alpha an aclScalar)      out = x1 + alpha * x2
//   aclnnForeachAddScalarV2 / MulScalarV2 / DivScalarV2   out = x + s, x * s, x / s
//   aclnnForeachSqrt                                 out = sqrt(x)
//   aclnnForeachLerpScalar                           out = x1 + weight * (x2 - x1)
//   aclnnForeachAddcmulScalarV2 / AddcdivScalarV2    out = x1 + s * x2 * x3, x1 + s * x2 / x3
// Adam and AdamW (foreach) reach these; the V1 scalar forms (the scalar as a tensor) have no public
// header and are not offered, so torch_npu takes the V2 forms.
#include <cmath>

#include "aclnnop/aclnn_foreach_add_list.h"
#include "aclnnop/aclnn_foreach_add_scalar_v2.h"
#include "aclnnop/aclnn_foreach_addcdiv_scalar_v2.h"
#include "aclnnop/aclnn_foreach_addcmul_scalar_v2.h"
#include "aclnnop/aclnn_foreach_div_scalar_v2.h"
#include "aclnnop/aclnn_foreach_lerp_scalar.h"
#include "aclnnop/aclnn_foreach_mul_scalar_v2.h"
#include "aclnnop/aclnn_foreach_sqrt.h"
#include "core/fault_plan.h"
#include "opapi/elementwise.h"
#include "opapi/op_launcher.h"

namespace npusim::opapi {

namespace {

double add(double a, double b, double alpha, double) { return a + alpha * b; }
double add_scalar(double a, double s, double, double) { return a + s; }
double mul_scalar(double a, double s, double, double) { return a * s; }
double div_scalar(double a, double s, double, double) { return a / s; }
double sqrt_(double a, double, double, double) { return std::sqrt(a); }
double lerp_(double self, double end, double weight, double) { return lerp(self, end, weight); }
double addcmul(double a, double b, double c, double s) { return a + s * b * c; }
double addcdiv(double a, double b, double c, double s) { return a + s * b / c; }

using P = Promotion;
using F = OpFamily;

OPAPI_ELEMENTWISE(kAddList, "aclnnForeachAddList", F::Foreach, {Kernel::ForeachAddList, 2}, kFloatTypes, P::Common,
                  add);
OPAPI_ELEMENTWISE(kAddListV2, "aclnnForeachAddListV2", F::Foreach, {Kernel::ForeachAddList, 2}, kFloatTypes, P::Common,
                  add);
OPAPI_ELEMENTWISE(kAddScalar, "aclnnForeachAddScalarV2", F::Foreach, {Kernel::ForeachAddScalar, 1}, kFloatTypes,
                  P::Common, add_scalar);
OPAPI_ELEMENTWISE(kMulScalar, "aclnnForeachMulScalarV2", F::Foreach, {Kernel::ForeachMulScalar, 1}, kFloatTypes,
                  P::Common, mul_scalar);
OPAPI_ELEMENTWISE(kDivScalar, "aclnnForeachDivScalarV2", F::Foreach, {Kernel::ForeachDivScalar, 1}, kFloatTypes,
                  P::Common, div_scalar);
OPAPI_ELEMENTWISE(kSqrt, "aclnnForeachSqrt", F::Foreach, {Kernel::ForeachSqrt, 4}, kFloatTypes, P::Common, sqrt_);
OPAPI_ELEMENTWISE(kLerpScalar, "aclnnForeachLerpScalar", F::Foreach, {Kernel::ForeachLerpScalar, 3}, kFloatTypes,
                  P::Common, lerp_);
OPAPI_ELEMENTWISE(kAddcmulScalar, "aclnnForeachAddcmulScalarV2", F::Foreach, {Kernel::ForeachAddcmulScalar, 3},
                  kFloatTypes, P::Common, addcmul);
OPAPI_ELEMENTWISE(kAddcdivScalar, "aclnnForeachAddcdivScalarV2", F::Foreach, {Kernel::ForeachAddcdivScalar, 3},
                  kFloatTypes, P::Common, addcdiv);

}  // namespace

}  // namespace npusim::opapi

using namespace npusim::opapi;

NPUSIM_C_EXPORT aclnnStatus aclnnForeachAddListGetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2,
                                                                const aclTensor* alpha, aclTensorList* out,
                                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnForeachAddListGetWorkspaceSize", aclnnStatus);
    return prepare_foreach(kAddList, {list_in("x1", x1), list_in("x2", x2), tensor_value("alpha", alpha)}, out,
                           workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnForeachAddList)

NPUSIM_C_EXPORT aclnnStatus aclnnForeachAddListV2GetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2,
                                                                  const aclScalar* alpha, const aclTensorList* out,
                                                                  uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnForeachAddListV2GetWorkspaceSize", aclnnStatus);
    return prepare_foreach(kAddListV2, {list_in("x1", x1), list_in("x2", x2), attribute("alpha", alpha)}, out,
                           workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnForeachAddListV2)

NPUSIM_C_EXPORT aclnnStatus aclnnForeachAddScalarV2GetWorkspaceSize(const aclTensorList* x, const aclScalar* scalar,
                                                                    aclTensorList* out, uint64_t* workspaceSize,
                                                                    aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnForeachAddScalarV2GetWorkspaceSize", aclnnStatus);
    return prepare_foreach(kAddScalar, {list_in("x", x), attribute("scalar", scalar)}, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnForeachAddScalarV2)

NPUSIM_C_EXPORT aclnnStatus aclnnForeachMulScalarV2GetWorkspaceSize(const aclTensorList* x, const aclScalar* scalar,
                                                                    aclTensorList* out, uint64_t* workspaceSize,
                                                                    aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnForeachMulScalarV2GetWorkspaceSize", aclnnStatus);
    return prepare_foreach(kMulScalar, {list_in("x", x), attribute("scalar", scalar)}, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnForeachMulScalarV2)

NPUSIM_C_EXPORT aclnnStatus aclnnForeachDivScalarV2GetWorkspaceSize(const aclTensorList* x, const aclScalar* scalar,
                                                                    aclTensorList* out, uint64_t* workspaceSize,
                                                                    aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnForeachDivScalarV2GetWorkspaceSize", aclnnStatus);
    return prepare_foreach(kDivScalar, {list_in("x", x), attribute("scalar", scalar)}, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnForeachDivScalarV2)

NPUSIM_C_EXPORT aclnnStatus aclnnForeachSqrtGetWorkspaceSize(const aclTensorList* x, aclTensorList* out,
                                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnForeachSqrtGetWorkspaceSize", aclnnStatus);
    return prepare_foreach(kSqrt, {list_in("x", x)}, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnForeachSqrt)

NPUSIM_C_EXPORT aclnnStatus aclnnForeachLerpScalarGetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2,
                                                                   const aclScalar* weight, aclTensorList* out,
                                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnForeachLerpScalarGetWorkspaceSize", aclnnStatus);
    return prepare_foreach(kLerpScalar, {list_in("x1", x1), list_in("x2", x2), attribute("weight", weight)}, out,
                           workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnForeachLerpScalar)

NPUSIM_C_EXPORT aclnnStatus aclnnForeachAddcmulScalarV2GetWorkspaceSize(
    const aclTensorList* x1, const aclTensorList* x2, const aclTensorList* x3, const aclScalar* scalar,
    aclTensorList* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnForeachAddcmulScalarV2GetWorkspaceSize", aclnnStatus);
    return prepare_foreach(kAddcmulScalar,
                           {list_in("x1", x1), list_in("x2", x2), list_in("x3", x3), attribute("scalar", scalar)}, out,
                           workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnForeachAddcmulScalarV2)

NPUSIM_C_EXPORT aclnnStatus aclnnForeachAddcdivScalarV2GetWorkspaceSize(
    const aclTensorList* x1, const aclTensorList* x2, const aclTensorList* x3, const aclScalar* scalar,
    aclTensorList* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnForeachAddcdivScalarV2GetWorkspaceSize", aclnnStatus);
    return prepare_foreach(kAddcdivScalar,
                           {list_in("x1", x1), list_in("x2", x2), list_in("x3", x3), attribute("scalar", scalar)}, out,
                           workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnForeachAddcdivScalarV2)
