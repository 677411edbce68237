// What the aclop operator types of the operator library share (opapi/aclop.cpp and the aclop_*.cpp
// files, one per type family): reading their operands, the error of a bad call, and running a
// prepared operator at once (an aclop call is both phases of an aclnn operator).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "aclnn/acl_meta.h"
#include "opapi/aclop.h"
#include "opapi/op_launcher.h"

namespace npusim::opapi {

using AclopHandler = aclError (*)(const std::vector<AclopOperand>& inputs, const std::vector<AclopOperand>& outputs,
                                  const AclopAttrs* attrs, aclrtStream stream);

// Logs "aclopCompileAndExecute("<type>"): <what><detail>" and returns ACL_ERROR_INVALID_PARAM.
aclError aclop_bad(const char* type, const char* what, const std::string& detail = {});
// The elements of a small host-readable tensor (dims, scalars); empty when it cannot be read.
std::vector<double> operand_values(const AclopOperand& o);
// The operand as a contiguous (row-major) tensor view.
TensorView contiguous_view(const AclopOperand& o);
// Whether the operand's buffer is present and holds its elements.
bool fits(const AclopOperand& o);

using AclTensorPtr = std::unique_ptr<aclTensor, aclnnStatus (*)(const aclTensor*)>;
// The operand as an aclTensor over its buffer (contiguous), for the aclnn primitives; null when it
// cannot be described.
AclTensorPtr tensor_of(const AclopOperand& o);
// Runs a prepared operator now on `stream`.
aclError launch_now(const char* type, std::unique_ptr<OpExecutor> op, aclrtStream stream);
// Runs the executor the first phase of an aclnn primitive returned (`status`: that phase's result,
// computed before this call) now on `stream`.
aclError run_prepared(const char* type, aclnnStatus status, aclOpExecutor* executor, aclrtStream stream);

// The types of aclop_pad_grad.cpp.
aclError pad_v3_grad(const std::vector<AclopOperand>& inputs, const std::vector<AclopOperand>& outputs,
                     const AclopAttrs* attrs, aclrtStream stream);

}  // namespace npusim::opapi
