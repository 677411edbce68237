// MsprofGetHashId, MsprofStr2Id and MsprofId2Str over HashIds.
#include "hash_ids.h"

#include <mutex>

#include "callback_table.h"
#include "core/fault_plan.h"
#include "core/immortal.h"
#include "profapi_internal.h"
#include "seam/profapi.h"

namespace npusim::profapi {

uint64_t hash_bytes(const char* data, size_t length) {
    uint64_t h = 0xCBF29CE484222325ULL;
    for (size_t i = 0; i < length; ++i) {
        h ^= static_cast<unsigned char>(data[i]);
        h *= 0x100000001B3ULL;
    }
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDULL;
    h ^= h >> 33;
    h *= 0xC4CEB9FE1A85EC53ULL;
    h ^= h >> 33;
    return h != 0 ? h : 1;
}

HashIds& hash_ids() {
    static Immortal<HashIds> ids;
    return ids.get();
}

uint64_t HashIds::id_of(const char* data, size_t length) {
    if (data == nullptr || length == 0) return 0;
    uint64_t id = 0;
    if (auto callback = callbacks().get<ProfGetHashIdCFunc>(PROFILE_REPORT_GET_HASH_ID_C_CALLBACK)) {
        id = callback(data, length);
    } else {
        id = hash_bytes(data, length);
    }
    if (id != 0) remember(id, data, length);
    return id;
}

void HashIds::remember(uint64_t id, const char* data, size_t length) {
    {
        std::shared_lock<std::shared_mutex> lock(mutex_);
        if (strings_.find(id) != strings_.end()) return;
    }
    std::unique_lock<std::shared_mutex> lock(mutex_);
    strings_.emplace(id, std::string(data, length));
}

const char* HashIds::string_of(uint64_t id) {
    std::shared_lock<std::shared_mutex> lock(mutex_);
    auto it = strings_.find(id);
    return it == strings_.end() ? nullptr : it->second.c_str();
}

uint64_t own_hash_id(const char* data, size_t length) {
    return data == nullptr || length == 0 ? 0 : hash_bytes(data, length);
}

}  // namespace npusim::profapi

NPUSIM_C_EXPORT uint64_t MsprofGetHashId(const char* hashInfo, size_t length) {
    NPUSIM_FAULT_RETURN_ARGS("MsprofGetHashId", uint64_t, hashInfo, length);
    return npusim::profapi::hash_ids().id_of(hashInfo, length);
}

NPUSIM_C_EXPORT uint64_t MsprofStr2Id(const char* hashInfo, size_t length) {
    NPUSIM_FAULT_RETURN_ARGS("MsprofStr2Id", uint64_t, hashInfo, length);
    return npusim::profapi::hash_ids().id_of(hashInfo, length);
}

// CANN declares the result as char*; the string belongs to libprofapi and lives
// until the process ends. Callers must not write through it.
NPUSIM_C_EXPORT char* MsprofId2Str(uint64_t id) {
    if (NPUSIM_FAULT_ARGS("MsprofId2Str", id).fail) return nullptr;
    return const_cast<char*>(npusim::profapi::hash_ids().string_of(id));
}
