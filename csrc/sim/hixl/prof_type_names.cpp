#include "prof_type_names.h"

#include <cstdlib>
#include <cstring>

#include "core/log.h"
#include "seam/profapi.h"

namespace hixl::prof {

namespace {

uint32_t ordinal(HixlProfType api) { return static_cast<uint32_t>(api) - static_cast<uint32_t>(kProfTypeStart); }

TypeIdScheme read_scheme() {
    const char* text = std::getenv("NPU_SIM_HIXL_TYPE_IDS");
    TypeIdScheme scheme = TypeIdScheme::Rfc;
    if (text != nullptr && *text != '\0' && !parse_type_id_scheme(text, scheme)) {
        npusim::log_message(npusim::LogLevel::Warn, "NPU_SIM_HIXL_TYPE_IDS=%s is not 'rfc' or 'shipped'; using 'rfc'",
                            text);
    }
    return scheme;
}

}  // namespace

bool parse_type_id_scheme(const char* text, TypeIdScheme& out) {
    out = TypeIdScheme::Rfc;
    if (std::strcmp(text, "rfc") == 0) return true;
    if (std::strcmp(text, "shipped") == 0) {
        out = TypeIdScheme::Shipped;
        return true;
    }
    return false;
}

TypeIdScheme type_id_scheme() {
    static const TypeIdScheme scheme = read_scheme();
    return scheme;
}

uint32_t type_id(HixlProfType api, TypeIdScheme scheme) {
    if (scheme == TypeIdScheme::Shipped) return MSPROF_REPORT_ACL_OTHERS_BASE_TYPE + kShippedOffset + ordinal(api);
    return MSPROF_REPORT_ACL_HIXL_BASE_TYPE + ordinal(api);
}

const char* type_name(HixlProfType api, TypeIdScheme scheme) {
    const bool read = api == HixlProfTypeRead;
    if (scheme == TypeIdScheme::Shipped) return read ? "hixlOpBatchRead" : "hixlOpBatchWrite";
    return read ? "HixlProfTypeRead" : "HixlProfTypeWrite";
}

Status register_prof_types() {
    const TypeIdScheme scheme = type_id_scheme();
    for (HixlProfType api : {HixlProfTypeRead, HixlProfTypeWrite}) {
        const uint32_t id = type_id(api, scheme);
        const int32_t rc = MsprofRegTypeInfo(MSPROF_REPORT_ACL_LEVEL, id, type_name(api, scheme));
        if (rc != PROFAPI_SUCCESS) {
            npusim::log_message(npusim::LogLevel::Error, "HIXL profiling: registering api type 0x%x failed: %d", id,
                                rc);
            return FAILED;
        }
    }
    return SUCCESS;
}

}  // namespace hixl::prof
