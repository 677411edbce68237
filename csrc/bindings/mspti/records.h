// Activity records in a compact, GIL-free form: the consumer thread converts the records of a
// completed buffer into these (strings become ids of a string table), then turns a whole batch
// into Python objects under one GIL acquisition.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "mspti/mspti_activity.h"

namespace mspti_py {

// Record kinds 1..12 are msptiActivityKind values; this one is an assembled mstx range.
constexpr uint32_t kRangeKind = 64;
constexpr uint32_t kMaxKind = MSPTI_ACTIVITY_KIND_RUNTIME_API;

// A string id: 0 is "", ids with kArenaBit set are offsets into the batch's arena (strings that
// did not get a table entry), others index the interned table.
constexpr uint32_t kArenaBit = 0x80000000U;

// One record of any kind. Which fields are meaningful depends on `kind` (see objects.cpp).
struct CompactRecord {
    uint32_t kind = 0;
    uint32_t e0 = 0;  // flag | dataType | memoryOperationType | copyKind | externalKind | memset value
    uint32_t e1 = 0;  // sourceKind | memoryKind
    uint32_t u0 = 0;  // deviceId | processId
    uint32_t u1 = 0;  // streamId | threadId
    uint32_t u2 = 0;  // MEMORY: streamId (u0 processId, u1 deviceId)
    uint64_t start = 0;  // start | timestamp
    uint64_t end = 0;
    uint64_t id = 0;           // marker / range id | externalId
    uint64_t correlation = 0;  // correlationId
    uint64_t count = 0;        // count | bytes
    uint64_t address = 0;
    double bandwidth = 0.0;
    uint32_t s0 = 0;  // name
    uint32_t s1 = 0;  // type | domain | commName
    uint32_t s2 = 0;  // algType | commName (COMMUNICATION)
    uint8_t flag_bool = 0;  // isAsync
};

// Interned strings, written only by the consumer thread. A bounded number of distinct strings
// gets an id for the life of the process (kernel, op, domain and group names repeat); past the
// bound, strings are copied into the batch arena instead.
class StringTable {
public:
    static constexpr size_t kMaxInterned = 1U << 16;

    StringTable() { strings_.emplace_back(); }

    uint32_t Intern(const char* text, std::string* arena) {
        if (text == nullptr || *text == '\0') {
            return 0;
        }
        std::string_view view(text);
        auto found = index_.find(view);
        if (found != index_.end()) {
            return found->second;
        }
        if (strings_.size() >= kMaxInterned) {
            auto offset = static_cast<uint32_t>(arena->size());
            arena->append(view);
            arena->push_back('\0');
            return kArenaBit | offset;
        }
        strings_.emplace_back(view);
        auto id = static_cast<uint32_t>(strings_.size() - 1);
        index_.emplace(std::string_view(strings_.back()), id);
        return id;
    }

    // Only for ids below Size(); stable for the life of the table.
    const std::string& Get(uint32_t id) const { return strings_[id]; }
    size_t Size() const { return strings_.size(); }

private:
    std::deque<std::string> strings_;  // deque: elements never move, so the index's views stay valid
    std::unordered_map<std::string_view, uint32_t> index_;
};

// Records converted from one or more buffers, waiting for delivery.
struct Batch {
    std::vector<CompactRecord> records;
    std::string arena;
    uint64_t last_ticket = 0;  // the newest buffer whose records are in (or were skipped from) here

    void Clear() {
        records.clear();
        arena.clear();
    }
};

}  // namespace mspti_py
