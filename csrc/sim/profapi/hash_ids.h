// String <-> id registry behind MsprofGetHashId / MsprofStr2Id / MsprofId2Str.
//
// With a hash callback (type 12) registered the profiler chooses the id, as in
// CANN; otherwise libprofapi computes its own. Either way the string is kept for
// the life of the process so that MsprofId2Str can hand out a stable char*.
// Lookups of already-known strings take only a shared lock.
#pragma once

#include <cstddef>
#include <cstdint>
#include <shared_mutex>
#include <string>
#include <unordered_map>

namespace npusim::profapi {

// 64-bit FNV-1a finished with the MurmurHash3 avalanche step; never 0 for
// non-empty input (0 means "no id" to CANN's consumers).
uint64_t hash_bytes(const char* data, size_t length);

class HashIds {
public:
    // The id of the string, 0 for null or empty input.
    uint64_t id_of(const char* data, size_t length);
    // The string behind an id, or nullptr when the id was never handed out.
    const char* string_of(uint64_t id);

private:
    void remember(uint64_t id, const char* data, size_t length);

    std::shared_mutex mutex_;
    // Node-based: a stored string never moves, so its c_str() stays valid. Entries are
    // never erased or replaced; on a collision the first string keeps the id.
    std::unordered_map<uint64_t, std::string> strings_;
};

HashIds& hash_ids();

}  // namespace npusim::profapi
