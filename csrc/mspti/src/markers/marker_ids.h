// One process-wide sequence of marker ids (starting at 1), shared by mstx marks
// and ranges and by the hidden device markers that time HCCL operations.
#pragma once

#include <cstdint>

namespace mspti::markers {

uint64_t NextMarkerId();

// fork(), in the child: ids issued so far are the parent's markers, whose device halves may still
// be in the driver's channel (the child must neither deliver nor count them).
void MarkForkBoundary();
// True for an id the parent issued before the fork this process (a child) came from.
bool IssuedBeforeFork(uint64_t id);

}  // namespace mspti::markers
