// The callbacks msPTI registers with libprofapi (MsprofRegisterProfileCallback), each with exactly
// the type CANN calls it through (seam/profapi.h). CANN calls them synchronously on the reporting thread.
#pragma once

#include <cstddef>
#include <cstdint>

#include "seam/profapi.h"

namespace mspti::seam::handlers {

int32_t OnCompact(uint32_t aging, const void* data, uint32_t length);       // 4
int32_t OnAdditional(uint32_t aging, const void* data, uint32_t length);    // 5 (accepted, unused)
int32_t OnApi(uint32_t aging, const MsprofApi* api);                         // 9
int32_t OnEvent(uint32_t aging, const MsprofEvent* event);                   // 10 (accepted, unused)
int32_t OnRegTypeInfo(uint16_t level, uint32_t type_id, const char* name, size_t length);  // 11
uint64_t OnGetHashId(const char* info, size_t length);                      // 12
int8_t OnHostFreqIsEnable();                                                // 13
int32_t OnDeviceState(void* para, uint32_t length);                         // 16

}  // namespace mspti::seam::handlers
