#include "cann/name_cache.h"

#include <cstring>

#include "common/hash.h"
#include "common/no_destructor.h"

namespace mspti::seam {
namespace {

constexpr uint64_t TypeKey(uint16_t level, uint32_t type_id) { return (uint64_t{level} << 32) | type_id; }

}  // namespace

namespace {
LazyInstance<NameCache> g_cache;
}  // namespace

NameCache& NameCache::Instance() { return g_cache.get(); }
const NameCache* NameCache::IfCreated() { return g_cache.IfCreated(); }

void NameCache::RegisterType(uint16_t level, uint32_t type_id, std::string_view name) {
    std::lock_guard<std::mutex> lock(assign_mutex_);  // the array and the table agree on the newest name
    const InternTable::Entry* e = types_.Put(TypeKey(level, type_id), name, 0, /*replace=*/true);
    const int row = FastRow(level);
    if (row >= 0 && type_id < kFastTypes) {
        if (level == MSPROF_REPORT_RUNTIME_LEVEL) {
            kernel_[type_id].store(StartsWithKernel(e->text.c_str()), std::memory_order_release);
        }
        fast_[row][type_id].store(e->text.c_str(), std::memory_order_release);
    }
    if (row >= 0) registered_[row].fetch_add(1, std::memory_order_release);
}

bool NameCache::StartsWithKernel(const char* name) {
    static constexpr char kPrefix[] = "KERNEL";
    return name != nullptr && std::strncmp(name, kPrefix, sizeof kPrefix - 1) == 0;
}

const char* NameCache::SlowTypeName(uint16_t level, uint32_t type_id) const {
    const InternTable::Entry* e = types_.Find(TypeKey(level, type_id));
    return e != nullptr ? e->text.c_str() : nullptr;
}

uint64_t NameCache::HashId(std::string_view text) {
    const uint64_t text_key = HashString(text);
    if (const InternTable::Entry* e = by_text_.FindText(text_key, text)) return e->value;
    std::lock_guard<std::mutex> lock(assign_mutex_);
    if (const InternTable::Entry* e = by_text_.FindText(text_key, text)) return e->value;
    uint64_t id = text_key;
    for (;;) {
        if (id == 0) id = 1;  // 0 means "no name" in CANN's reports
        const InternTable::Entry* taken = by_id_.Find(id);
        if (taken == nullptr) break;
        ++id;
    }
    by_id_.Put(id, text, id, false);
    by_text_.Put(text_key, text, id, false);
    return id;
}

const char* NameCache::SlowHashText(uint64_t id) const {
    const InternTable::Entry* e = by_id_.Find(id);
    if (e == nullptr) return nullptr;
    recent_ids_[id & (kRecentIds - 1)].store(e, std::memory_order_release);
    return e->text.c_str();
}

}  // namespace mspti::seam
