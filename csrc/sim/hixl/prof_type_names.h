// The HIXL API types reported at ACL level (20000) and their registered names.
//
// Two id schemes exist: the RFC's dedicated base MSPROF_REPORT_ACL_HIXL_BASE_TYPE
// (0x0C0000 + the API's ordinal: 0x0C0001 read, 0x0C0002 write), and the one the
// shipped HIXL library uses, the OTHERS base plus 0x9000 (0x049001 read, 0x049002
// write). NPU_SIM_HIXL_TYPE_IDS=rfc|shipped selects the one reported (default rfc);
// names are registered for the ids reported: "HixlProfTypeRead"/"HixlProfTypeWrite"
// in the RFC scheme, "hixlOpBatchRead"/"hixlOpBatchWrite" (the shipped library's
// names) in the shipped scheme.
#pragma once

#include <cstdint>

#include "hixl/hixl_types.h"

namespace hixl {

enum HixlProfType : uint32_t { kProfTypeStart = 0x10000000U, HixlProfTypeRead, HixlProfTypeWrite, kProfTypeEnd };

inline HixlProfType prof_type_of(TransferOp op) { return op == READ ? HixlProfTypeRead : HixlProfTypeWrite; }

namespace prof {

enum class TypeIdScheme { Rfc, Shipped };

constexpr uint32_t kShippedOffset = 0x9000U;

// The scheme in use, read from the environment once.
TypeIdScheme type_id_scheme();
// NPU_SIM_HIXL_TYPE_IDS value -> scheme; false (and Rfc) for an unknown value.
bool parse_type_id_scheme(const char* text, TypeIdScheme& out);

uint32_t type_id(HixlProfType api, TypeIdScheme scheme);
const char* type_name(HixlProfType api, TypeIdScheme scheme);

// MsprofRegTypeInfo(ACL level, id, name) for every API type of the scheme in use;
// FAILED (with a log line) when one registration fails.
Status register_prof_types();

}  // namespace prof
}  // namespace hixl
