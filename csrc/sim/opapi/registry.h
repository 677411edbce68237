// The operator registry: every aclnn operator of libopapi declared once, with the data types it
// accepts, the family of shared primitives that computes it and the kernel it launches (whose cost
// class, vector / cube / MIX, is the kernel table's: the timing model prices the class).
//
// Operators built from the shared primitives (opapi/elementwise.h) register themselves from their
// declaration (ElementwiseOp / ForeachOp); hand-written operators register a line each. The
// registry is filled by static initialisers when libopapi loads and never changes afterwards, so
// reading it takes no lock.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "acl/acl_base.h"
#include "opapi/op_table.h"

namespace npusim::opapi {

// A set of aclDataType values (those below 64: every type an aclnn operator takes).
class DTypeSet {
public:
    constexpr DTypeSet() = default;
    constexpr DTypeSet(std::initializer_list<aclDataType> types) {
        for (aclDataType t : types) bits_ |= bit(t);
    }
    constexpr bool has(aclDataType t) const { return (bits_ & bit(t)) != 0; }
    constexpr DTypeSet operator|(DTypeSet other) const { return DTypeSet(bits_ | other.bits_); }
    constexpr bool empty() const { return bits_ == 0; }
    // "float32, float16, bfloat16" in aclDataType order.
    std::string text() const;

private:
    constexpr explicit DTypeSet(uint64_t bits) : bits_(bits) {}
    static constexpr uint64_t bit(aclDataType t) {
        const auto v = static_cast<int>(t);
        return v >= 0 && v < 64 ? uint64_t{1} << v : 0;
    }
    uint64_t bits_ = 0;
};

inline constexpr DTypeSet kFloatTypes{ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
inline constexpr DTypeSet kIntegerTypes{ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT32, ACL_INT64};
inline constexpr DTypeSet kNumericTypes = kFloatTypes | kIntegerTypes;
inline constexpr DTypeSet kAllTypes = kNumericTypes | DTypeSet{ACL_BOOL};

// How an operator is computed: the shared primitive it is assembled from, or a hand-written body.
enum class OpFamily : uint8_t {
    Unary,
    Binary,
    Ternary,
    Fill,
    Foreach,
    Reduction,
    Matmul,
    Normalization,
    Softmax,
    Index,
    Loss,
    Attention,
    Layout,
    Random,
    Convolution
};
const char* family_name(OpFamily family);

struct OpInfo {
    const char* api;  // "aclnnAdd": the first phase is <api>GetWorkspaceSize, the second <api>;
                      // for an aclop operator its type ("Fill")
    OpFamily family;
    DTypeSet dtypes;  // the data types of its floating or integer tensors
    Kernel kernel;    // the (main) kernel it launches
    bool aclop = false;  // an operator type of the single-operator path (aclopCompileAndExecute)
};

// Adds an operator (at static initialisation); returns true so that it can initialise a constant.
bool register_op(const OpInfo& info);
// Every registered operator, sorted by API name.
std::vector<OpInfo> registered_ops();
// One line per operator: "<api> <aclnn|aclop> <family> <kernel type> <dtypes>", sorted by name.
std::string registry_text();

}  // namespace npusim::opapi

// For tools: registry_text() into buffer (with its NUL) when size allows; returns the size needed.
extern "C" __attribute__((visibility("default"))) size_t npusim_opapi_registry(char* buffer, size_t size);
