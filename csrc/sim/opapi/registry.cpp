#include "opapi/registry.h"

#include <algorithm>
#include <cstring>
#include <mutex>

#include "core/export.h"
#include "core/immortal.h"
#include "nnopbase/dtype.h"

namespace npusim::opapi {

namespace {

// Written by static initialisers while libopapi loads (one thread); the mutex keeps a library
// loaded from several threads at once correct as well.
struct Registry {
    std::mutex mutex;
    std::vector<OpInfo> ops;
};

Registry& registry() {
    static Immortal<Registry> instance;
    return instance.get();
}

}  // namespace

std::string DTypeSet::text() const {
    std::string text;
    for (int v = 0; v < 64; ++v) {
        const auto t = static_cast<aclDataType>(v);
        if (!has(t)) continue;
        if (!text.empty()) text += ",";
        text += nn::dtype_name(t);
    }
    return text;
}

const char* family_name(OpFamily family) {
    switch (family) {
        case OpFamily::Unary: return "unary";
        case OpFamily::Binary: return "binary";
        case OpFamily::Ternary: return "ternary";
        case OpFamily::Fill: return "fill";
        case OpFamily::Foreach: return "foreach";
        case OpFamily::Reduction: return "reduction";
        case OpFamily::Matmul: return "matmul";
        case OpFamily::Normalization: return "normalization";
        case OpFamily::Softmax: return "softmax";
        case OpFamily::Index: return "index";
        case OpFamily::Loss: return "loss";
        case OpFamily::Attention: return "attention";
        case OpFamily::Layout: return "layout";
        case OpFamily::Random: return "random";
        case OpFamily::Convolution: return "convolution";
    }
    return "unknown";
}

bool register_op(const OpInfo& info) {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    r.ops.push_back(info);
    return true;
}

std::vector<OpInfo> registered_ops() {
    Registry& r = registry();
    std::vector<OpInfo> ops;
    {
        std::lock_guard<std::mutex> lock(r.mutex);
        ops = r.ops;
    }
    std::sort(ops.begin(), ops.end(), [](const OpInfo& a, const OpInfo& b) { return std::string(a.api) < b.api; });
    return ops;
}

std::string registry_text() {
    std::string text;
    for (const OpInfo& op : registered_ops()) {
        text += std::string(op.api) + " " + (op.aclop ? "aclop" : "aclnn") + " " + family_name(op.family) + " " +
                kernel_spec(op.kernel).type + " " + op.dtypes.text() + "\n";
    }
    return text;
}

}  // namespace npusim::opapi

// The registry as text for tools (`npu-sim ops`, through ctypes): copies registry_text() and its
// terminating NUL into buffer when size allows; returns the size that takes.
NPUSIM_C_EXPORT size_t npusim_opapi_registry(char* buffer, size_t size) {
    const std::string text = npusim::opapi::registry_text();
    if (buffer != nullptr && size > text.size()) std::memcpy(buffer, text.c_str(), text.size() + 1);
    return text.size() + 1;
}
