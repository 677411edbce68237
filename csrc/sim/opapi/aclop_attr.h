// The attributes of a single-operator call: aclopCreateAttr / aclopSetAttr* of libascendcl fill an
// aclopAttr (a map from attribute name to a typed value), which aclopCompileAndExecute[V2] of
// libacl_op_compiler hands to the operator library (opapi/aclop.h). Header-only, so that both
// libraries see one definition.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "acl/acl_base.h"

namespace npusim::opapi {

using AclopAttrValue = std::variant<bool, int64_t, float, std::string, aclDataType, std::vector<uint8_t>,
                                    std::vector<int64_t>, std::vector<float>, std::vector<std::vector<int64_t>>>;
using AclopAttrs = std::map<std::string, AclopAttrValue>;

// The attribute `name` of type T; `fallback` when it is not set. `ok` turns false when it is set
// with another type.
template <typename T>
T attr_or(const AclopAttrs* attrs, const char* name, T fallback, bool& ok) {
    if (attrs == nullptr) return fallback;
    const auto it = attrs->find(name);
    if (it == attrs->end()) return fallback;
    if (const T* value = std::get_if<T>(&it->second)) return *value;
    ok = false;
    return fallback;
}

}  // namespace npusim::opapi

struct aclopAttr {
    npusim::opapi::AclopAttrs values;
};
