// Comparisons and masks on the element-wise primitive (opapi/elementwise.h):
//   aclnnNeScalar, aclnnNeTensor   out = (self != other)   aclnnEqScalar   out = (self == other)
//   aclnnLogicalNot                out = (self == 0)
// compared in the inputs' promoted type (Promotion::Predicate), the truth value written to an out of
// any type; and aclnnThresholdBackward: out = gradOutput where self > threshold, else 0 (the
// backward of ReLU).
#include "aclnnop/aclnn_eq_scalar.h"
#include "aclnnop/aclnn_logical_not.h"
#include "aclnnop/aclnn_ne_scalar.h"
#include "aclnnop/aclnn_ne_tensor.h"
#include "aclnnop/aclnn_threshold_backward.h"
#include "core/fault_plan.h"
#include "opapi/elementwise.h"
#include "opapi/op_launcher.h"

namespace npusim::opapi {

namespace {

double ne(double a, double b, double, double) { return a != b ? 1.0 : 0.0; }
double eq(double a, double b, double, double) { return a == b ? 1.0 : 0.0; }
double logical_not(double a, double, double, double) { return a == 0.0 ? 1.0 : 0.0; }
double threshold_backward(double grad, double self, double threshold, double) { return self > threshold ? grad : 0.0; }

using P = Promotion;
using F = OpFamily;

OPAPI_ELEMENTWISE(kNeScalar, "aclnnNeScalar", F::Binary, {Kernel::NotEqual, 1}, kAllTypes, P::Predicate, ne);
OPAPI_ELEMENTWISE(kNeTensor, "aclnnNeTensor", F::Binary, {Kernel::NotEqual, 1}, kAllTypes, P::Predicate, ne);
OPAPI_ELEMENTWISE(kEqScalar, "aclnnEqScalar", F::Binary, {Kernel::Equal, 1}, kAllTypes, P::Predicate, eq);
OPAPI_ELEMENTWISE(kLogicalNot, "aclnnLogicalNot", F::Unary, {Kernel::LogicalNot, 1}, kAllTypes, P::Predicate,
                  logical_not);
OPAPI_ELEMENTWISE(kThresholdBackward, "aclnnThresholdBackward", F::Binary, {Kernel::ThresholdGradV2D, 1},
                  kNumericTypes, P::Common, threshold_backward);

}  // namespace

}  // namespace npusim::opapi

using namespace npusim::opapi;

NPUSIM_C_EXPORT aclnnStatus aclnnNeScalarGetWorkspaceSize(const aclTensor* self, const aclScalar* other, aclTensor* out,
                                                          uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnNeScalarGetWorkspaceSize", aclnnStatus);
    return prepare_elementwise(kNeScalar, {tensor_in("self", self), scalar_in("other", other)}, out, workspaceSize,
                               executor);
}
OPAPI_DEFINE_RUN(aclnnNeScalar)

NPUSIM_C_EXPORT aclnnStatus aclnnNeTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                                          uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnNeTensorGetWorkspaceSize", aclnnStatus);
    return prepare_elementwise(kNeTensor, {tensor_in("self", self), tensor_in("other", other)}, out, workspaceSize,
                               executor);
}
OPAPI_DEFINE_RUN(aclnnNeTensor)

NPUSIM_C_EXPORT aclnnStatus aclnnEqScalarGetWorkspaceSize(const aclTensor* self, const aclScalar* other, aclTensor* out,
                                                          uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnEqScalarGetWorkspaceSize", aclnnStatus);
    return prepare_elementwise(kEqScalar, {tensor_in("self", self), scalar_in("other", other)}, out, workspaceSize,
                               executor);
}
OPAPI_DEFINE_RUN(aclnnEqScalar)

NPUSIM_C_EXPORT aclnnStatus aclnnLogicalNotGetWorkspaceSize(const aclTensor* self, aclTensor* out,
                                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnLogicalNotGetWorkspaceSize", aclnnStatus);
    return prepare_elementwise(kLogicalNot, {tensor_in("self", self)}, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnLogicalNot)

NPUSIM_C_EXPORT aclnnStatus aclnnThresholdBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                                   const aclScalar* threshold, aclTensor* out,
                                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnThresholdBackwardGetWorkspaceSize", aclnnStatus);
    return prepare_elementwise(kThresholdBackward,
                               {tensor_in("gradOutput", gradOutput), tensor_in("self", self),
                                attribute("threshold", threshold)},
                               out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnThresholdBackward)
