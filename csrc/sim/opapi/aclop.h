// The single-operator (aclop) path of the operator library: aclopCompileAndExecute[V2] of
// libacl_op_compiler hands an operator type, its input and output tensors (descriptions and
// buffers, read through the public acl_base.h getters) and its attributes (opapi/aclop_attr.h) to
// run_aclop, which runs the registered operator of that type on the same primitives and kernel
// launches as the aclnn operators. Bad inputs or attributes: ACL_ERROR_INVALID_PARAM, one log line.
//
// Registered types (OpInfo::aclop; inputs in CANN's order):
//   Fill (dims: int32/int64 [rank], value: [] or [1] of y's type) -> y [dims]: every element value
//   StatelessDropOutGenMask (shape: int32/int64 [rank], prob: float [] (the probability of keeping an
//       element), seed: int32/int64 [], seed1: int32/int64 [], offset: int64 [2]) -> mask: uint8
//       [ceil(numel / 128) * 16]: bit k (of byte k / 8) is 1 when element k is kept. The bits are the
//       device RNG's (opapi/device_rng.h): uniform(seed, seed1, offset[1] + offset[0] * 2^64, k) < prob.
//   DropOutDoMask (x, mask: uint8 bits as above, keep_prob: [] of x's type) -> y: x * bit / keep_prob
//   IsFinite (x: float32/float16/bfloat16) -> y: bool of x's shape (torch.isfinite)
//   PadV3Grad (x: the gradient of a padded tensor, paddings: int32/int64 [2 * rank]; attributes mode
//       "reflect" or "edge", paddings_contiguous (default true: before/after pairs per dimension in
//       order; false: every before, then every after)) -> y: x's shape less the paddings: the
//       gradient of the reflect / replicate padding (torch_npu's reflection_pad1d/2d_backward and
//       replication_pad1d/2d_backward): each element of x added to the element of y it was copied from.
#pragma once

#include <cstddef>
#include <vector>

#include "acl/acl_base.h"
#include "core/export.h"
#include "opapi/aclop_attr.h"
#include "opapi/tensor_io.h"

namespace npusim::opapi {

struct AclopOperand {
    aclDataType dtype = ACL_FLOAT;
    Dims dims;
    void* data = nullptr;  // device or host memory (one address space in the simulator)
    size_t bytes = 0;
};

// Whether the registry holds an aclop operator of this type.
NPUSIM_API bool is_aclop_type(const char* type);
// ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (bad inputs, logged); ACL_ERROR_FEATURE_UNSUPPORTED for a
// type the registry does not hold (the caller logs it).
// attrs: the call's attributes, or null (none set).
NPUSIM_API aclError run_aclop(const char* type, const std::vector<AclopOperand>& inputs,
                              const std::vector<AclopOperand>& outputs, const AclopAttrs* attrs, aclrtStream stream);

}  // namespace npusim::opapi
