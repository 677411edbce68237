// MsprofRegTypeInfo over TypeNames.
#include "type_names.h"

#include <cstring>

#include "callback_table.h"
#include "core/fault_plan.h"
#include "core/log.h"
#include "core/immortal.h"
#include "profapi_internal.h"

namespace npusim::profapi {

TypeNames& type_names() {
    static Immortal<TypeNames> names;
    return names.get();
}

int32_t TypeNames::register_name(uint16_t level, uint32_t type_id, const char* name) {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    const auto key = std::make_pair(level, type_id);
    auto it = index_.find(key);
    if (it == index_.end()) {
        index_.emplace(key, entries_.size());
        entries_.push_back(Entry{level, type_id, name});
    } else {
        entries_[it->second].name = name;
    }
    if (auto callback = callbacks().get<ProfRegTypeInfoCFunc>(PROFILE_REPORT_REG_TYPE_INFO_C_CALLBACK)) {
        return callback(level, type_id, name, std::strlen(name));
    }
    return PROFAPI_SUCCESS;
}

void TypeNames::register_callback(ProfRegTypeInfoCFunc callback) {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    callbacks().set(PROFILE_REPORT_REG_TYPE_INFO_C_CALLBACK, reinterpret_cast<void*>(callback));
    if (callback == nullptr) return;
    // Iterate over a copy: the callback may register further names re-entrantly.
    const std::vector<Entry> snapshot = entries_;
    for (const Entry& e : snapshot) (void)callback(e.level, e.type_id, e.name.c_str(), e.name.size());
}

std::string TypeNames::lookup(uint16_t level, uint32_t type_id) {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    auto it = index_.find(std::make_pair(level, type_id));
    return it == index_.end() ? std::string() : entries_[it->second].name;
}

size_t TypeNames::size() {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    return entries_.size();
}

std::string type_name(uint16_t level, uint32_t type_id) { return type_names().lookup(level, type_id); }
size_t type_name_count() { return type_names().size(); }

}  // namespace npusim::profapi

NPUSIM_C_EXPORT int32_t MsprofRegTypeInfo(uint16_t level, uint32_t typeId, const char* typeName) {
    NPUSIM_FAULT_RETURN_ARGS("MsprofRegTypeInfo", int32_t, level, typeId, typeName);
    if (typeName == nullptr) {
        npusim::log_message(npusim::LogLevel::Error, "MsprofRegTypeInfo: no name for level %u type %u",
                            static_cast<unsigned>(level), typeId);
        return PROFAPI_ERROR;
    }
    return npusim::profapi::type_names().register_name(level, typeId, typeName);
}
