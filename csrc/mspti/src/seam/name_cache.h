// The names CANN registers with msPTI:
//  - type info (profapi callback 11): (level, type id) -> name, e.g. the task
//    type names ("KERNEL_AICORE", ...) and the API names of each report level;
//  - hash info (profapi callback 12): CANN hands msPTI a string and gets an id
//    back that it later reports instead of the string (kernel names, node
//    names, communicator names). The id is msPTI's own hash of the string; when
//    two strings collide, the later one gets the next free id, so an id always
//    names exactly one string.
// Lookups are lock-free (they run inside CANN's reporting calls).
#pragma once

#include <cstdint>
#include <mutex>
#include <string_view>

#include "common/intern_table.h"

namespace mspti::seam {

class NameCache {
public:
    static NameCache& Instance();

    void RegisterType(uint16_t level, uint32_t type_id, std::string_view name);
    // nullptr when CANN has not registered the type.
    const char* TypeName(uint16_t level, uint32_t type_id) const;

    uint64_t HashId(std::string_view text);
    // nullptr for an id msPTI did not hand out.
    const char* HashText(uint64_t id) const;

    NameCache() = default;
    NameCache(const NameCache&) = delete;
    NameCache& operator=(const NameCache&) = delete;

private:
    InternTable types_{12};
    InternTable by_id_{14};
    InternTable by_text_{14};
    std::mutex assign_mutex_;
};

}  // namespace mspti::seam
