// Device markers: asks the runtime (aclrtProfTrace) to put a marker task on a
// stream; when the device executes it, a step-trace record with the marker id,
// the flag and tag 11 comes back on channel 44.
#pragma once

#include <cstdint>

namespace mspti::markers {

constexpr uint16_t kMarkerTag = 11;

bool ProfTrace(uint64_t id, uint64_t flag, void* stream);

}  // namespace mspti::markers
