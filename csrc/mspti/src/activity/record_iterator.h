// msptiActivityGetNextRecord: walks a completed buffer from the record pointer
// the caller passes (no hidden cursor), checking every record's kind and that
// the whole record lies within the valid bytes.
#pragma once

#include <cstddef>
#include <cstdint>

#include "mspti/mspti_activity.h"

namespace mspti::activity {

msptiResult NextRecord(uint8_t* buffer, size_t valid_bytes, msptiActivity** record);

}  // namespace mspti::activity
