// (level, typeId) -> name registrations (MsprofRegTypeInfo) and the
// REG_TYPE_INFO_C callback (type 11).
//
// Deliberate superset of CANN: real libprofapi only forwards a registration to
// callback 11 and keeps nothing, so names registered before a profiler attached
// are lost (CANN modules re-register their names at START instead). Here every
// registration is recorded, and registering callback 11 replays them all in
// first-registration order, standing in for those re-registrations so that a
// late profiler still resolves every name. Recording, forwarding and replay run
// under one recursive mutex, so a name is never delivered out of order or missed
// by a registration racing with it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "seam/profapi.h"

namespace npusim::profapi {

class TypeNames {
public:
    // Records the name (a later registration of the same key replaces it) and forwards it.
    int32_t register_name(uint16_t level, uint32_t type_id, const char* name);
    // Registers (or, with nullptr, removes) callback 11 and replays every recorded name.
    void register_callback(ProfRegTypeInfoCFunc callback);

    std::string lookup(uint16_t level, uint32_t type_id);
    size_t size();

private:
    struct Entry {
        uint16_t level;
        uint32_t type_id;
        std::string name;
    };
    std::recursive_mutex mutex_;
    std::vector<Entry> entries_;                             // first-registration order
    std::map<std::pair<uint16_t, uint32_t>, size_t> index_;  // key -> position in entries_
};

TypeNames& type_names();

}  // namespace npusim::profapi
