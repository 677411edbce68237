// libruntime: the runtime's own rt* entry points that programs import directly (torch_npu 2.14.0
// imports rtDevBinaryRegister, rtFunctionRegister, rtKernelLaunch and rtGetC2cCtrlAddr). CANN's
// libruntime is the layer under libascendcl; the simulator's runtime is libascendcl itself, and its
// kernels are launched through aclrtLaunchKernel. These legacy registration and launch functions
// are not supported: each returns ACL_ERROR_RT_FEATURE_NOT_SUPPORT (rtError_t is the runtime's
// int32_t error code) with one log line per process and function.
#include <cstdint>

#include "acl/error_codes/rt_error_codes.h"
#include "core/fault_plan.h"
#include "core/unsupported.h"

#if defined(__GNUC__)
#define RTS_API __attribute__((visibility("default")))
#else
#define RTS_API
#endif

typedef int32_t rtError_t;
typedef void* rtStream_t;
struct rtDevBinary_t;
struct rtSmDesc_t;

namespace {
constexpr const char* kUseAcl = "the legacy rt kernel API is not simulated; use aclrtBinaryLoad*/aclrtLaunchKernel";
}  // namespace

extern "C" {

RTS_API rtError_t rtDevBinaryRegister(const rtDevBinary_t* bin, void** hdl) {
    NPUSIM_FAULT_RETURN("rtDevBinaryRegister", rtError_t);
    (void)bin;
    (void)hdl;
    NPUSIM_RETURN_UNSUPPORTED(kUseAcl, rtError_t{ACL_ERROR_RT_FEATURE_NOT_SUPPORT});
}

RTS_API rtError_t rtFunctionRegister(void* binHandle, const void* stubFunc, const char* stubName,
                                     const void* kernelInfoExt, uint32_t funcMode) {
    NPUSIM_FAULT_RETURN("rtFunctionRegister", rtError_t);
    (void)binHandle;
    (void)stubFunc;
    (void)stubName;
    (void)kernelInfoExt;
    (void)funcMode;
    NPUSIM_RETURN_UNSUPPORTED(kUseAcl, rtError_t{ACL_ERROR_RT_FEATURE_NOT_SUPPORT});
}

RTS_API rtError_t rtKernelLaunch(const void* stubFunc, uint32_t blockDim, void* args, uint32_t argsSize,
                                 rtSmDesc_t* smDesc, rtStream_t stm) {
    NPUSIM_FAULT_RETURN("rtKernelLaunch", rtError_t);
    (void)stubFunc;
    (void)blockDim;
    (void)args;
    (void)argsSize;
    (void)smDesc;
    (void)stm;
    NPUSIM_RETURN_UNSUPPORTED(kUseAcl, rtError_t{ACL_ERROR_RT_FEATURE_NOT_SUPPORT});
}

// The chip-to-chip control address (a register window of A3 packages): not modelled.
RTS_API rtError_t rtGetC2cCtrlAddr(uint64_t* addr, uint32_t* len) {
    NPUSIM_FAULT_RETURN("rtGetC2cCtrlAddr", rtError_t);
    (void)addr;
    (void)len;
    NPUSIM_RETURN_UNSUPPORTED("no chip-to-chip control window is modelled",
                              rtError_t{ACL_ERROR_RT_FEATURE_NOT_SUPPORT});
}

}  // extern "C"
