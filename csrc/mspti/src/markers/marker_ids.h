// One process-wide sequence of marker ids (starting at 1), shared by mstx marks
// and ranges and by the hidden device markers that time HCCL operations.
#pragma once

#include <cstdint>

namespace mspti::markers {

uint64_t NextMarkerId();

}  // namespace mspti::markers
