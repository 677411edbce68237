// Open mstx ranges: what a range end needs to know about its start (domain,
// whether a device marker was placed and on which stream). Lock-free and
// allocation-free for up to 65536 ranges open at once.
#pragma once

#include <cstdint>

namespace mspti::markers {

struct Domain;

struct OpenRange {
    Domain* domain;
    void* stream;  // the stream of the start's device marker, nullptr for a host-only range
};

void AddRange(uint64_t id, const OpenRange& range);
// Removes and returns the range; false for an unknown (or already ended) id.
bool TakeRange(uint64_t id, OpenRange* range);

}  // namespace mspti::markers
