// libacl_op_compiler: the operator compiler API (acl/acl_op_compiler.h). Compile options are kept
// per process and read back. aclopCompileAndExecute[V2] run the operator types of the operator
// library's registry (opapi/aclop.h) on the given stream, reading the tensors through their
// descriptions and buffers and handing over the attributes (opapi/aclop_attr.h); any other type returns
// ACL_ERROR_FEATURE_UNSUPPORTED, and the first such call in a process logs one line naming it.
#include <array>
#include <atomic>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl_op_compiler.h"
#include "core/fault_plan.h"
#include "core/log.h"
#include "core/unsupported.h"
#include "opapi/aclop.h"
#include "opapi/aclop_attr.h"

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

// The operands of an aclop call, read through the public getters; false when one is malformed.
bool operands(int count, const aclTensorDesc* const descs[], const aclDataBuffer* const buffers[],
              std::vector<npusim::opapi::AclopOperand>& out) {
    if (count < 0 || (count > 0 && (descs == nullptr || buffers == nullptr))) return false;
    out.resize(static_cast<size_t>(count));
    for (int i = 0; i < count; ++i) {
        if (descs[i] == nullptr || buffers[i] == nullptr) return false;
        npusim::opapi::AclopOperand& o = out[static_cast<size_t>(i)];
        o.dtype = aclGetTensorDescType(descs[i]);
        const size_t rank = aclGetTensorDescNumDims(descs[i]);
        o.dims.resize(rank);
        for (size_t d = 0; d < rank; ++d) {
            if (aclGetTensorDescDimV2(descs[i], d, &o.dims[d]) != ACL_SUCCESS || o.dims[d] < 0) return false;
        }
        o.data = aclGetDataBufferAddr(buffers[i]);
        o.bytes = aclGetDataBufferSizeV2(buffers[i]);
    }
    return true;
}

aclError compile_and_execute(const char* function, const char* opType, int numInputs,
                             const aclTensorDesc* const inputDesc[], const aclDataBuffer* const inputs[],
                             int numOutputs, const aclTensorDesc* const outputDesc[],
                             const aclDataBuffer* const outputs[], const aclopAttr* attr, aclrtStream stream) {
    if (opType == nullptr) return ACL_ERROR_INVALID_PARAM;
    if (!npusim::opapi::is_aclop_type(opType)) return compile_and_execute_unsupported(function, opType);
    std::vector<npusim::opapi::AclopOperand> in, out;
    if (!operands(numInputs, inputDesc, inputs, in) || !operands(numOutputs, outputDesc, outputs, out)) {
        npusim::log_message(npusim::LogLevel::Error, "%s(\"%s\"): a tensor description or buffer is missing", function,
                            opType);
        return ACL_ERROR_INVALID_PARAM;
    }
    return npusim::opapi::run_aclop(opType, in, out, attr == nullptr ? nullptr : &attr->values, stream);
}

}  // namespace

extern "C" {

// The engine, compile type and path are not read.
ACL_FUNC_VISIBILITY aclError aclopCompileAndExecute(
    const char* opType, int numInputs, const aclTensorDesc* const inputDesc[], const aclDataBuffer* const inputs[],
    int numOutputs, const aclTensorDesc* const outputDesc[], aclDataBuffer* const outputs[], const aclopAttr* attr,
    aclopEngineType, aclopCompileType, const char*, aclrtStream stream) {
    NPUSIM_FAULT_RETURN("aclopCompileAndExecute", aclError);
    return compile_and_execute(__func__, opType, numInputs, inputDesc, inputs, numOutputs, outputDesc, outputs, attr,
                               stream);
}

ACL_FUNC_VISIBILITY aclError aclopCompileAndExecuteV2(const char* opType, int numInputs, aclTensorDesc* inputDesc[],
                                                      aclDataBuffer* inputs[], int numOutputs,
                                                      aclTensorDesc* outputDesc[], aclDataBuffer* outputs[],
                                                      aclopAttr* attr, aclopEngineType, aclopCompileType, const char*,
                                                      aclrtStream stream) {
    NPUSIM_FAULT_RETURN("aclopCompileAndExecuteV2", aclError);
    return compile_and_execute(__func__, opType, numInputs, inputDesc, inputs, numOutputs, outputDesc, outputs, attr,
                               stream);
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
