// libacl_op_compiler: the operator compiler API (acl/acl_op_compiler.h). Compile options are kept
// per process and read back. Compiling and executing an operator through GE's single-operator path
// is not supported: the simulator's operators are the aclnn operators of libopapi, so
// aclopCompileAndExecute[V2] return ACL_ERROR_FEATURE_UNSUPPORTED; the first call in a process logs
// one line naming the operator type.
#include <array>
#include <atomic>
#include <cstring>
#include <mutex>
#include <string>

#include "acl/acl_op_compiler.h"
#include "core/fault_plan.h"
#include "core/log.h"
#include "core/unsupported.h"

namespace {

constexpr size_t kOptionCount = static_cast<size_t>(ACL_OP_DEBUG_OPTION) + 1;

struct CompileOptions {
    std::mutex mutex;
    std::array<std::string, kOptionCount> values;
};

CompileOptions& options() {
    static CompileOptions instance;
    return instance;
}

bool valid_option(aclCompileOpt opt) {
    const auto index = static_cast<long long>(opt);
    return index >= 0 && static_cast<size_t>(index) < kOptionCount;
}

aclError compile_and_execute_unsupported(const char* function, const char* opType) {
    static std::atomic<bool> once{false};
    if (!once.exchange(true, std::memory_order_relaxed)) {
        npusim::log_message(npusim::LogLevel::Warn,
                            "%s(\"%s\") is not supported by the simulator (no GE single-operator compiler; "
                            "operators run as aclnn operators of libopapi); it returns %d",
                            function, opType == nullptr ? "" : opType, ACL_ERROR_FEATURE_UNSUPPORTED);
    }
    return ACL_ERROR_FEATURE_UNSUPPORTED;
}

}  // namespace

extern "C" {

ACL_FUNC_VISIBILITY aclError aclopCompileAndExecute(const char* opType, int, const aclTensorDesc* const[],
                                                    const aclDataBuffer* const[], int, const aclTensorDesc* const[],
                                                    aclDataBuffer* const[], const aclopAttr*, aclopEngineType,
                                                    aclopCompileType, const char*, aclrtStream) {
    NPUSIM_FAULT_RETURN("aclopCompileAndExecute", aclError);
    if (opType == nullptr) return ACL_ERROR_INVALID_PARAM;
    return compile_and_execute_unsupported(__func__, opType);
}

ACL_FUNC_VISIBILITY aclError aclopCompileAndExecuteV2(const char* opType, int, aclTensorDesc*[], aclDataBuffer*[], int,
                                                      aclTensorDesc*[], aclDataBuffer*[], aclopAttr*, aclopEngineType,
                                                      aclopCompileType, const char*, aclrtStream) {
    NPUSIM_FAULT_RETURN("aclopCompileAndExecuteV2", aclError);
    if (opType == nullptr) return ACL_ERROR_INVALID_PARAM;
    return compile_and_execute_unsupported(__func__, opType);
}

ACL_FUNC_VISIBILITY aclError aclSetCompileopt(aclCompileOpt opt, const char* value) {
    NPUSIM_FAULT_RETURN("aclSetCompileopt", aclError);
    if (!valid_option(opt) || value == nullptr) return ACL_ERROR_INVALID_PARAM;
    CompileOptions& o = options();
    std::lock_guard<std::mutex> lock(o.mutex);
    o.values[static_cast<size_t>(opt)] = value;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY size_t aclGetCompileoptSize(aclCompileOpt opt) {
    if (NPUSIM_FAULT("aclGetCompileoptSize").fail) return 0;  // returns a size, not an aclError
    if (!valid_option(opt)) return 0;
    CompileOptions& o = options();
    std::lock_guard<std::mutex> lock(o.mutex);
    return o.values[static_cast<size_t>(opt)].size() + 1;
}

ACL_FUNC_VISIBILITY aclError aclGetCompileopt(aclCompileOpt opt, char* value, size_t length) {
    NPUSIM_FAULT_RETURN("aclGetCompileopt", aclError);
    if (!valid_option(opt) || value == nullptr) return ACL_ERROR_INVALID_PARAM;
    CompileOptions& o = options();
    std::lock_guard<std::mutex> lock(o.mutex);
    const std::string& stored = o.values[static_cast<size_t>(opt)];
    if (length < stored.size() + 1) return ACL_ERROR_INVALID_PARAM;
    std::memcpy(value, stored.c_str(), stored.size() + 1);
    return ACL_SUCCESS;
}

}  // extern "C"
