// Strings that live as long as the process, found by a 64-bit key without a
// lock.
//
// Records point at names (kernel names, marker messages, type names) long after
// the buffer is gone, so every string msPTI puts in a record is stored here and
// never freed. Lookups run on recording threads and must not take a lock
// shared between threads: entries are immutable and published into an
// open-addressing table of atomic pointers; writers (new names are rare)
// serialise on a mutex. When the table fills up, further entries go to a
// locked overflow map.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace mspti {

class InternTable {
public:
    struct Entry {
        uint64_t key;
        uint64_t value;  // free for the owner (e.g. the hash id assigned to a text)
        std::string text;
    };

    explicit InternTable(uint32_t slot_bits = 14);
    InternTable(const InternTable&) = delete;
    InternTable& operator=(const InternTable&) = delete;

    // The newest entry stored under `key`, or nullptr.
    const Entry* Find(uint64_t key) const;
    // The entry stored under `key` whose text equals `text`, or nullptr.
    const Entry* FindText(uint64_t key, std::string_view text) const;

    // Stores `text` under `key`. With `replace`, a different text under the same key replaces the
    // old entry for Find (the old entry stays valid). Without, an entry with equal key and text is
    // reused and one with a different text is added beside it (see FindText).
    const Entry* Put(uint64_t key, std::string_view text, uint64_t value, bool replace);

private:
    const Entry* FindSlot(uint64_t key, const std::string_view* text) const;

    uint32_t mask_;
    std::unique_ptr<std::atomic<const Entry*>[]> slots_;
    std::atomic<bool> has_overflow_{false};
    uint32_t used_ = 0;

    mutable std::mutex mutex_;
    std::deque<Entry> storage_;
    std::unordered_multimap<uint64_t, const Entry*> overflow_;
};

}  // namespace mspti
