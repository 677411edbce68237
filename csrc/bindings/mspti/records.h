// Activity records in a compact, GIL-free form: the consumer thread converts the records of a
// completed buffer into these (strings become ids of a string table), then turns a whole batch
// into Python objects under one GIL acquisition.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "mspti/mspti_activity.h"
#include "mspti_schema/record_schema.h"

namespace mspti_py {

// Record kinds 1..12 are msptiActivityKind values; this one is an assembled mstx range.
constexpr uint32_t kRangeKind = 64;
constexpr uint32_t kMaxKind = MSPTI_ACTIVITY_KIND_RUNTIME_API;

// A string id: 0 is "", ids with kArenaBit set are offsets into the batch's arena (strings that
// did not get a table entry), others index the interned table.
constexpr uint32_t kArenaBit = 0x80000000U;

// One record of any kind: a copy of the C record's bytes (its size from the record schema) in which
// each string field (the schema's string offsets) holds a string id in place of the pointer, so the
// record outlives its buffer. ObjectFactory turns it into a Python object by the schema's field table.
struct CompactRecord {
    uint32_t kind = 0;       // the record's kind, or kRangeKind (then `bytes` are the START marker's)
    uint64_t range_end = 0;  // kRangeKind: the END marker's timestamp
    alignas(8) unsigned char bytes[mspti_schema::kMaxRecordSize] = {};

    template <typename T>
    T At(size_t offset) const {
        T value;
        std::memcpy(&value, bytes + offset, sizeof value);
        return value;
    }
    template <typename T>
    void Put(size_t offset, T value) {
        std::memcpy(bytes + offset, &value, sizeof value);
    }
    uint32_t StringAt(size_t offset) const { return At<uint32_t>(offset); }
};

// The marker fields the delivery engine's range assembly and routing read.
inline uint32_t MarkerFlag(const CompactRecord& r) { return r.At<uint32_t>(offsetof(msptiActivityMarker, flag)); }
inline uint32_t MarkerSource(const CompactRecord& r) {
    return r.At<uint32_t>(offsetof(msptiActivityMarker, sourceKind));
}
inline uint64_t MarkerId(const CompactRecord& r) { return r.At<uint64_t>(offsetof(msptiActivityMarker, id)); }
inline uint64_t MarkerTime(const CompactRecord& r) { return r.At<uint64_t>(offsetof(msptiActivityMarker, timestamp)); }
constexpr size_t kMarkerName = offsetof(msptiActivityMarker, name);
constexpr size_t kMarkerDomain = offsetof(msptiActivityMarker, domain);

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
