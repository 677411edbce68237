// Operator attributes (acl_op.h): a map from attribute name to a typed value (opapi/aclop_attr.h),
// set by a program before an operator call through the single-operator API, validated and kept;
// aclopCompileAndExecute[V2] hands them to the operator types that read attributes (opapi/aclop.h).
#include <memory>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_op.h"
#include "core/fault_plan.h"
#include "opapi/aclop_attr.h"

namespace {

template <typename T>
aclError set_value(aclopAttr* attr, const char* name, T value) {
    if (attr == nullptr || name == nullptr) return ACL_ERROR_INVALID_PARAM;
    attr->values[name] = std::move(value);
    return ACL_SUCCESS;
}

template <typename T>
aclError set_list(aclopAttr* attr, const char* name, int count, const T* values) {
    if (count < 0 || (count > 0 && values == nullptr)) return ACL_ERROR_INVALID_PARAM;
    return set_value(attr, name, count == 0 ? std::vector<T>{} : std::vector<T>(values, values + count));
}

}  // namespace

extern "C" {

ACL_FUNC_VISIBILITY aclopAttr* aclopCreateAttr(void) {
    if (NPUSIM_FAULT("aclopCreateAttr").fail) return nullptr;  // returns an object, not an aclError
    return std::make_unique<aclopAttr>().release();
}

ACL_FUNC_VISIBILITY void aclopDestroyAttr(const aclopAttr* attr) {
    (void)NPUSIM_FAULT("aclopDestroyAttr");  // counted; a void result cannot carry an error code
    std::unique_ptr<const aclopAttr> owned(attr);
}

ACL_FUNC_VISIBILITY aclError aclopSetAttrBool(aclopAttr* attr, const char* attrName, uint8_t attrValue) {
    NPUSIM_FAULT_RETURN("aclopSetAttrBool", aclError);
    return set_value(attr, attrName, attrValue != 0);
}

ACL_FUNC_VISIBILITY aclError aclopSetAttrInt(aclopAttr* attr, const char* attrName, int64_t attrValue) {
    NPUSIM_FAULT_RETURN("aclopSetAttrInt", aclError);
    return set_value(attr, attrName, attrValue);
}

ACL_FUNC_VISIBILITY aclError aclopSetAttrFloat(aclopAttr* attr, const char* attrName, float attrValue) {
    NPUSIM_FAULT_RETURN("aclopSetAttrFloat", aclError);
    return set_value(attr, attrName, attrValue);
}

ACL_FUNC_VISIBILITY aclError aclopSetAttrString(aclopAttr* attr, const char* attrName, const char* attrValue) {
    NPUSIM_FAULT_RETURN("aclopSetAttrString", aclError);
    if (attrValue == nullptr) return ACL_ERROR_INVALID_PARAM;
    return set_value(attr, attrName, std::string(attrValue));
}

ACL_FUNC_VISIBILITY aclError aclopSetAttrDataType(aclopAttr* attr, const char* attrName, aclDataType attrValue) {
    NPUSIM_FAULT_RETURN("aclopSetAttrDataType", aclError);
    return set_value(attr, attrName, attrValue);
}

ACL_FUNC_VISIBILITY aclError aclopSetAttrListBool(aclopAttr* attr, const char* attrName, int numValues,
                                                  const uint8_t* values) {
    NPUSIM_FAULT_RETURN("aclopSetAttrListBool", aclError);
    return set_list(attr, attrName, numValues, values);
}

ACL_FUNC_VISIBILITY aclError aclopSetAttrListInt(aclopAttr* attr, const char* attrName, int numValues,
                                                 const int64_t* values) {
    NPUSIM_FAULT_RETURN("aclopSetAttrListInt", aclError);
    return set_list(attr, attrName, numValues, values);
}

ACL_FUNC_VISIBILITY aclError aclopSetAttrListFloat(aclopAttr* attr, const char* attrName, int numValues,
                                                   const float* values) {
    NPUSIM_FAULT_RETURN("aclopSetAttrListFloat", aclError);
    return set_list(attr, attrName, numValues, values);
}

ACL_FUNC_VISIBILITY aclError aclopSetAttrListListInt(aclopAttr* attr, const char* attrName, int numLists,
                                                     const int* numValues, const int64_t* const values[]) {
    NPUSIM_FAULT_RETURN("aclopSetAttrListListInt", aclError);
    if (numLists < 0 || (numLists > 0 && (numValues == nullptr || values == nullptr))) {
        return ACL_ERROR_INVALID_PARAM;
    }
    std::vector<std::vector<int64_t>> lists(static_cast<size_t>(numLists));
    for (int i = 0; i < numLists; ++i) {
        if (numValues[i] < 0 || (numValues[i] > 0 && values[i] == nullptr)) return ACL_ERROR_INVALID_PARAM;
        lists[static_cast<size_t>(i)].assign(values[i], values[i] + numValues[i]);
    }
    return set_value(attr, attrName, std::move(lists));
}

}  // extern "C"
