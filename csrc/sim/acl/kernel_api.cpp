// Kernel binaries, functions and argument lists. Any bytes load: the
// simulator neither parses nor runs device code, it times kernels by name.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "acl/acl.h"
#include "acl/api_entry.h"
#include "acl/enum_value.h"
#include "acl/kernel_objects.h"
#include "acl/prof_reporter.h"
#include "acl/runtime_state.h"
#include "acl/vmm_state.h"
#include "core/fault_plan.h"
#include "core/unsupported.h"

using namespace acl;
using npusim::CoreType;

namespace {

constexpr uint16_t kParamTag = 0x5A27;  // parameter handles are opaque tokens, never looked up

// The core type the load options ask for (AI CPU mode, or the ELF magic); vector cores when silent.
aclError core_from_options(const aclrtBinaryLoadOptions* options, CoreType& core) {
    core = CoreType::AIV;
    if (options == nullptr) return ACL_SUCCESS;
    if (options->numOpt > 0 && options->options == nullptr) return ACL_ERROR_INVALID_PARAM;
    for (size_t i = 0; i < options->numOpt; ++i) {
        const aclrtBinaryLoadOption& opt = options->options[i];
        switch (raw_value(opt.type)) {
            case ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD:
                if (opt.value.isLazyLoad > 1) return ACL_ERROR_INVALID_PARAM;
                break;
            case ACL_RT_BINARY_LOAD_OPT_MAGIC:
                switch (opt.value.magic) {
                    // A plain AI-core binary may hold mixed kernels; it runs on the cube cores.
                    case ACL_RT_BINARY_MAGIC_ELF_AICORE:
                    case ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE: core = CoreType::AIC; break;
                    case ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE: core = CoreType::AIV; break;
                    default: return ACL_ERROR_INVALID_PARAM;
                }
                break;
            case ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE:
                if (opt.value.cpuKernelMode < 0 || opt.value.cpuKernelMode > 2) return ACL_ERROR_INVALID_PARAM;
                core = CoreType::AICPU;
                break;
            default: return ACL_ERROR_INVALID_PARAM;
        }
    }
    return ACL_SUCCESS;
}

aclError load_binary(size_t size, const aclrtBinaryLoadOptions* options, aclrtBinHandle* binHandle) {
    auto binary = std::make_unique<Binary>();
    if (const aclError rc = core_from_options(options, binary->core); rc != ACL_SUCCESS) return rc;
    npusim::Device* device = nullptr;  // binaries load into the current context
    if (const aclError rc = current_device(device); rc != ACL_SUCCESS) return rc;
    binary->size = size;
    void* handle = binaries().insert(std::move(binary));
    if (handle == nullptr) return ACL_ERROR_BAD_ALLOC;
    *binHandle = handle;
    return ACL_SUCCESS;
}

// The size of a readable regular file; false when there is none.
bool regular_file_size(const char* path, size_t& size) {
    UniqueFd fd(open(path, O_RDONLY | O_CLOEXEC));
    struct stat st{};
    if (fd.get() < 0 || fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
    size = static_cast<size_t>(st.st_size);
    return true;
}

aclError function_of(void* binHandle, const std::string& name, aclrtFuncHandle* funcHandle) {
    if (binHandle == nullptr || funcHandle == nullptr) return ACL_ERROR_INVALID_PARAM;
    Binary* binary = binaries().find(binHandle);
    if (binary == nullptr) return ACL_ERROR_INVALID_RESOURCE_HANDLE;
    void* handle = get_function(binHandle, *binary, name);
    if (handle == nullptr) return ACL_ERROR_BAD_ALLOC;
    *funcHandle = handle;
    return ACL_SUCCESS;
}

}  // namespace

ACL_FUNC_VISIBILITY aclError aclrtBinaryLoadFromFile(const char* binPath, aclrtBinaryLoadOptions* options,
                                                     aclrtBinHandle* binHandle) {
    NPUSIM_FAULT_RETURN("aclrtBinaryLoadFromFile", aclError);
    ACL_API_BEGIN(aclrtBinaryLoadFromFile);
    if (binPath == nullptr || binHandle == nullptr) return ACL_ERROR_INVALID_PARAM;
    size_t size = 0;
    if (!regular_file_size(binPath, size)) return ACL_ERROR_INVALID_FILE;
    return load_binary(size, options, binHandle);
}

ACL_FUNC_VISIBILITY aclError aclrtBinaryLoadFromData(const void* data, size_t length,
                                                     const aclrtBinaryLoadOptions* options, aclrtBinHandle* binHandle) {
    NPUSIM_FAULT_RETURN("aclrtBinaryLoadFromData", aclError);
    ACL_API_BEGIN(aclrtBinaryLoadFromData);
    if (data == nullptr || length == 0 || binHandle == nullptr) return ACL_ERROR_INVALID_PARAM;
    return load_binary(length, options, binHandle);
}

ACL_FUNC_VISIBILITY aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle) {
    NPUSIM_FAULT_RETURN("aclrtBinaryUnLoad", aclError);
    ACL_API_BEGIN(aclrtBinaryUnLoad);
    if (binHandle == nullptr) return ACL_ERROR_INVALID_PARAM;
    return unload_binary(binHandle) ? ACL_SUCCESS : ACL_ERROR_INVALID_RESOURCE_HANDLE;
}

ACL_FUNC_VISIBILITY aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char* kernelName,
                                                    aclrtFuncHandle* funcHandle) {
    NPUSIM_FAULT_RETURN("aclrtBinaryGetFunction", aclError);
    ACL_API_BEGIN(aclrtBinaryGetFunction);
    if (kernelName == nullptr || kernelName[0] == '\0') return ACL_ERROR_INVALID_PARAM;
    return function_of(binHandle, kernelName, funcHandle);
}

ACL_FUNC_VISIBILITY aclError aclrtBinaryGetFunctionByEntry(aclrtBinHandle binHandle, uint64_t funcEntry,
                                                           aclrtFuncHandle* funcHandle) {
    NPUSIM_FAULT_RETURN("aclrtBinaryGetFunctionByEntry", aclError);
    ACL_API_BEGIN(aclrtBinaryGetFunctionByEntry);
    // Without a symbol table the entry address is the function's only name.
    char name[32];
    std::snprintf(name, sizeof name, "entry_%" PRIx64, funcEntry);
    return function_of(binHandle, name, funcHandle);
}

ACL_FUNC_VISIBILITY aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle, aclrtArgsHandle* argsHandle) {
    NPUSIM_FAULT_RETURN("aclrtKernelArgsInit", aclError);
    ACL_API_BEGIN(aclrtKernelArgsInit);
    if (funcHandle == nullptr || argsHandle == nullptr) return ACL_ERROR_INVALID_PARAM;
    const Function* fn = functions().find(funcHandle);
    Binary* binary = fn ? binaries().find(fn->binary) : nullptr;
    if (binary == nullptr) return ACL_ERROR_INVALID_RESOURCE_HANDLE;
    auto args = std::make_unique<KernelArgs>();
    args->function = funcHandle;
    // Argument lists belong to the binary and go away with it, as the runtime's do.
    std::lock_guard<std::mutex> lock(binary->mutex);
    void* handle = kernel_args().insert(std::move(args));
    if (handle == nullptr) return ACL_ERROR_BAD_ALLOC;
    binary->args.push_back(handle);
    *argsHandle = handle;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtKernelArgsAppend(aclrtArgsHandle argsHandle, void* param, size_t paramSize,
                                                   aclrtParamHandle* paramHandle) {
    NPUSIM_FAULT_RETURN("aclrtKernelArgsAppend", aclError);
    ACL_API_BEGIN(aclrtKernelArgsAppend);
    if (argsHandle == nullptr || paramHandle == nullptr || (param == nullptr && paramSize > 0))
        return ACL_ERROR_INVALID_PARAM;
    KernelArgs* args = kernel_args().find(argsHandle);
    if (args == nullptr) return ACL_ERROR_INVALID_RESOURCE_HANDLE;
    if (args->finalized) return ACL_ERROR_INVALID_PARAM;
    const size_t offset = args->data.size();
    const auto* bytes = static_cast<const unsigned char*>(param);
    args->data.insert(args->data.end(), bytes, bytes + paramSize);
    const uint32_t ordinal = args->params++;
    *paramHandle =
        reinterpret_cast<void*>((uintptr_t(kParamTag) << 48) | (uintptr_t(ordinal & 0xFFFF) << 32) | uint32_t(offset));
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle) {
    NPUSIM_FAULT_RETURN("aclrtKernelArgsFinalize", aclError);
    ACL_API_BEGIN(aclrtKernelArgsFinalize);
    if (argsHandle == nullptr) return ACL_ERROR_INVALID_PARAM;
    KernelArgs* args = kernel_args().find(argsHandle);
    if (args == nullptr) return ACL_ERROR_INVALID_RESOURCE_HANDLE;
    args->finalized = true;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetFunctionAddr(aclrtFuncHandle funcHandle, void** aicAddr, void** aivAddr) {
    NPUSIM_FAULT_RETURN("aclrtGetFunctionAddr", aclError);
    ACL_API_BEGIN(aclrtGetFunctionAddr);
    if (funcHandle == nullptr || aicAddr == nullptr || aivAddr == nullptr) return ACL_ERROR_INVALID_PARAM;
    NPUSIM_RETURN_UNSUPPORTED("device code is never loaded, so a function has no device address",
                              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
}
