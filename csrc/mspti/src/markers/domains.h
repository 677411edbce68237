// mstx domains and the marker-domain switches of the Activity API.
//
// Domains are looked up by exact name. A name can be disabled before its domain
// exists; the default domain (the non-domain mstx calls) is named "default".
// Handles point into a fixed table, so a handle coming back from libprofapi is
// checked without a lock.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "mspti/mspti_result.h"

namespace mspti::markers {

struct Domain {
    const char* name = nullptr;  // interned
    std::atomic<bool> enabled{true};
    std::atomic<bool> destroyed{false};
};

constexpr size_t kMaxNameLength = 255;  // names and messages must be shorter

// The default domain.
Domain& DefaultDomain();
// A named domain (created on first use); nullptr for invalid names and for "default".
Domain* CreateDomain(const char* name);
void DestroyDomain(Domain* domain);
// The domain a handle designates: the default domain for nullptr, nullptr for a foreign pointer.
Domain* FromHandle(const void* handle);

msptiResult SetDomainEnabled(const char* name, bool enabled);

// strlen(s) < kMaxNameLength, without reading further.
bool ValidName(const char* s);

}  // namespace mspti::markers
