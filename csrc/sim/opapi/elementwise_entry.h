// The exported entry points of an element-wise operator whose first phase only hands its arguments
// to the element-wise primitive (opapi/elementwise.h): the first phase (with the fault point every
// simulated function has) and the second.
//
//   OPAPI_ELEMENTWISE_ENTRY(aclnnAbs, (const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
//                                      aclOpExecutor** executor),
//                           prepare_elementwise(kAbs, {tensor_in("self", self)}, out, workspaceSize, executor))
//
// The parameter list is CANN's (the operator's header in include/aclnnop declares the same).
#pragma once

#include "core/fault_plan.h"
#include "opapi/elementwise.h"
#include "opapi/op_launcher.h"

#define OPAPI_ELEMENTWISE_ENTRY(Api, Params, ...)                  \
    NPUSIM_C_EXPORT aclnnStatus Api##GetWorkspaceSize Params {     \
        NPUSIM_FAULT_RETURN(#Api "GetWorkspaceSize", aclnnStatus); \
        using namespace ::npusim::opapi;                           \
        return __VA_ARGS__;                                        \
    }                                                              \
    OPAPI_DEFINE_RUN(Api)
