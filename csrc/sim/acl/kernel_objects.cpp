#include "acl/kernel_objects.h"

#include "core/immortal.h"
#include "acl/runtime_state.h"
#include "seam/profapi.h"

namespace acl {

uint64_t Function::hash_id() const {
    uint64_t h = hash_.load(std::memory_order_relaxed);
    if (h == 0) {
        // Racing threads compute the same id; either store wins.
        h = MsprofGetHashId(name.c_str(), name.size());
        hash_.store(h, std::memory_order_relaxed);
    }
    return h;
}

HandleTable<Binary>& binaries() {
    static npusim::Immortal<HandleTable<Binary>> table(kBinaryTag);
    return table.get();
}

HandleTable<Function>& functions() {
    static npusim::Immortal<HandleTable<Function>> table(kFunctionTag);
    return table.get();
}

HandleTable<KernelArgs>& kernel_args() {
    static npusim::Immortal<HandleTable<KernelArgs>> table(kArgsTag);
    return table.get();
}

void* get_function(void* binary_handle, Binary& binary, const std::string& name) {
    std::lock_guard<std::mutex> lock(binary.mutex);
    auto it = binary.functions.find(name);
    if (it != binary.functions.end()) return it->second;
    auto fn = std::make_unique<Function>();
    fn->name = name;
    fn->binary = binary_handle;
    fn->cost = &platform().config().kernel_costs.lookup(name);
    // The cost table's core type describes the kernel better than the binary's load options.
    fn->core = fn->cost->core != npusim::CoreType::Inherit ? fn->cost->core : binary.core;
    void* handle = functions().insert(std::move(fn));
    if (handle != nullptr) binary.functions.emplace(name, handle);
    return handle;
}

bool unload_binary(void* binary_handle) {
    std::unique_ptr<Binary> binary = binaries().erase(binary_handle);
    if (!binary) return false;
    std::lock_guard<std::mutex> lock(binary->mutex);
    for (void* args : binary->args) kernel_args().erase(args);
    for (const auto& entry : binary->functions) functions().erase(entry.second);
    return true;
}

}  // namespace acl
