#include "markers/domains.h"

#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>

#include "common/no_destructor.h"
#include "common/string_pool.h"

namespace mspti::markers {
namespace {

constexpr size_t kMaxDomains = 4096;
constexpr const char* kDefaultName = "default";

struct Registry {
    std::mutex mutex;
    Domain table[kMaxDomains];  // [0] is the default domain
    size_t used = 1;
    std::unordered_map<std::string, size_t> by_name;
    std::set<std::string> disabled;
    Registry() { table[0].name = kDefaultName; }
};

Registry& GetRegistry() {
    static NoDestructor<Registry> registry;
    return registry.get();
}

}  // namespace

bool ValidName(const char* s) { return s != nullptr && strnlen(s, kMaxNameLength) < kMaxNameLength; }

Domain& DefaultDomain() { return GetRegistry().table[0]; }

Domain* CreateDomain(const char* name) {
    if (!ValidName(name) || std::strcmp(name, kDefaultName) == 0) return nullptr;
    Registry& r = GetRegistry();
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.by_name.find(name);
    if (it != r.by_name.end()) {
        Domain& d = r.table[it->second];
        d.destroyed.store(false, std::memory_order_release);  // creating again revives it
        return &d;
    }
    if (r.used == kMaxDomains) return nullptr;
    Domain& d = r.table[r.used];
    d.name = InternString(name);
    d.enabled.store(r.disabled.count(name) == 0, std::memory_order_release);
    r.by_name.emplace(name, r.used);
    ++r.used;
    return &d;
}

void DestroyDomain(Domain* domain) {
    if (domain != nullptr && domain != &DefaultDomain()) domain->destroyed.store(true, std::memory_order_release);
}

Domain* FromHandle(const void* handle) {
    if (handle == nullptr) return &DefaultDomain();
    Registry& r = GetRegistry();
    const auto* first = reinterpret_cast<const char*>(&r.table[0]);
    const auto* p = static_cast<const char*>(handle);
    if (p < first || p >= first + sizeof r.table) return nullptr;
    if ((p - first) % sizeof(Domain) != 0) return nullptr;
    return const_cast<Domain*>(reinterpret_cast<const Domain*>(p));
}

msptiResult SetDomainEnabled(const char* name, bool enabled) {
    if (!ValidName(name)) return MSPTI_ERROR_INVALID_PARAMETER;
    Registry& r = GetRegistry();
    std::lock_guard<std::mutex> lock(r.mutex);
    if (enabled) {
        r.disabled.erase(name);
    } else {
        r.disabled.insert(name);
    }
    if (std::strcmp(name, kDefaultName) == 0) {
        r.table[0].enabled.store(enabled, std::memory_order_release);
    } else {
        auto it = r.by_name.find(name);
        if (it != r.by_name.end()) r.table[it->second].enabled.store(enabled, std::memory_order_release);
    }
    return MSPTI_SUCCESS;
}

}  // namespace mspti::markers
