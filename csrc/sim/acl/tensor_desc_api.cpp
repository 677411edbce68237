// Data buffers and tensor descriptions of the single-operator API (acl_base.h). They are plain
// host-side records: a program (torch_npu's operator command path) builds them, and
// aclopCompileAndExecute (libacl_op_compiler) reads them through the public getters.
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "core/fault_plan.h"

struct aclDataBuffer {
    void* data;
    size_t size;
};

struct aclTensorDesc {
    aclDataType type;
    aclFormat format;
    std::vector<int64_t> dims;
    std::string name;
    int32_t placement;
};

namespace {

bool valid_dims(int numDims, const int64_t* dims) {
    // CANN accepts a scalar (0 dims) with or without a dims pointer.
    return numDims >= 0 && (numDims == 0 || dims != nullptr);
}

}  // namespace

extern "C" {

ACL_FUNC_VISIBILITY aclDataBuffer* aclCreateDataBuffer(void* data, size_t size) {
    if (NPUSIM_FAULT("aclCreateDataBuffer").fail) return nullptr;  // returns an object, not an aclError
    // A null data with size 0 is a valid empty buffer, as in CANN.
    if (data == nullptr && size != 0) return nullptr;
    return std::make_unique<aclDataBuffer>(aclDataBuffer{data, size}).release();
}

ACL_FUNC_VISIBILITY aclError aclDestroyDataBuffer(const aclDataBuffer* dataBuffer) {
    NPUSIM_FAULT_RETURN("aclDestroyDataBuffer", aclError);
    if (dataBuffer == nullptr) return ACL_ERROR_INVALID_PARAM;
    std::unique_ptr<const aclDataBuffer> owned(dataBuffer);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY void* aclGetDataBufferAddr(const aclDataBuffer* dataBuffer) {
    if (NPUSIM_FAULT("aclGetDataBufferAddr").fail) return nullptr;
    return dataBuffer == nullptr ? nullptr : dataBuffer->data;
}

ACL_FUNC_VISIBILITY size_t aclGetDataBufferSizeV2(const aclDataBuffer* dataBuffer) {
    if (NPUSIM_FAULT("aclGetDataBufferSizeV2").fail) return 0;
    return dataBuffer == nullptr ? 0 : dataBuffer->size;
}

ACL_FUNC_VISIBILITY aclTensorDesc* aclCreateTensorDesc(aclDataType dataType, int numDims, const int64_t* dims,
                                                       aclFormat format) {
    if (NPUSIM_FAULT("aclCreateTensorDesc").fail) return nullptr;
    if (!valid_dims(numDims, dims)) return nullptr;
    auto desc = std::make_unique<aclTensorDesc>();
    desc->type = dataType;
    desc->format = format;
    if (numDims > 0) desc->dims.assign(dims, dims + numDims);
    desc->placement = 0;  // device memory
    return desc.release();
}

ACL_FUNC_VISIBILITY void aclDestroyTensorDesc(const aclTensorDesc* desc) {
    (void)NPUSIM_FAULT("aclDestroyTensorDesc");  // counted; a void result cannot carry an error code
    std::unique_ptr<const aclTensorDesc> owned(desc);
}

ACL_FUNC_VISIBILITY aclDataType aclGetTensorDescType(const aclTensorDesc* desc) {
    if (NPUSIM_FAULT("aclGetTensorDescType").fail) return ACL_DT_UNDEFINED;
    return desc == nullptr ? ACL_DT_UNDEFINED : desc->type;
}

ACL_FUNC_VISIBILITY aclFormat aclGetTensorDescFormat(const aclTensorDesc* desc) {
    if (NPUSIM_FAULT("aclGetTensorDescFormat").fail) return ACL_FORMAT_UNDEFINED;
    return desc == nullptr ? ACL_FORMAT_UNDEFINED : desc->format;
}

ACL_FUNC_VISIBILITY size_t aclGetTensorDescNumDims(const aclTensorDesc* desc) {
    if (NPUSIM_FAULT("aclGetTensorDescNumDims").fail) return 0;
    return desc == nullptr ? 0 : desc->dims.size();
}

ACL_FUNC_VISIBILITY aclError aclGetTensorDescDimV2(const aclTensorDesc* desc, size_t index, int64_t* dimSize) {
    NPUSIM_FAULT_RETURN("aclGetTensorDescDimV2", aclError);
    if (desc == nullptr || dimSize == nullptr || index >= desc->dims.size()) return ACL_ERROR_INVALID_PARAM;
    *dimSize = desc->dims[index];
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY const char* aclGetTensorDescName(aclTensorDesc* desc) {
    if (NPUSIM_FAULT("aclGetTensorDescName").fail) return nullptr;
    return desc == nullptr ? nullptr : desc->name.c_str();
}

ACL_FUNC_VISIBILITY void aclSetTensorDescName(aclTensorDesc* desc, const char* name) {
    (void)NPUSIM_FAULT("aclSetTensorDescName");  // counted; a void result cannot carry an error code
    if (desc == nullptr) return;
    desc->name = name == nullptr ? "" : name;
}

ACL_FUNC_VISIBILITY aclError aclSetTensorFormat(aclTensorDesc* desc, aclFormat format) {
    NPUSIM_FAULT_RETURN("aclSetTensorFormat", aclError);
    if (desc == nullptr) return ACL_ERROR_INVALID_PARAM;
    desc->format = format;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclSetTensorShape(aclTensorDesc* desc, int numDims, const int64_t* dims) {
    NPUSIM_FAULT_RETURN("aclSetTensorShape", aclError);
    if (desc == nullptr || !valid_dims(numDims, dims)) return ACL_ERROR_INVALID_PARAM;
    desc->dims.assign(dims, dims + numDims);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclSetTensorPlaceMent(aclTensorDesc* desc, aclMemType memType) {
    NPUSIM_FAULT_RETURN("aclSetTensorPlaceMent", aclError);
    const int32_t placement = static_cast<int32_t>(memType);
    if (desc == nullptr || placement < 0 || placement > 2) return ACL_ERROR_INVALID_PARAM;
    desc->placement = placement;
    return ACL_SUCCESS;
}

}  // extern "C"
