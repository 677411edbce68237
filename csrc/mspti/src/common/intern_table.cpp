#include "common/intern_table.h"

#include "common/hash.h"

namespace mspti {

InternTable::InternTable(uint32_t slot_bits)
    : mask_((1U << slot_bits) - 1U), slots_(new std::atomic<const Entry*>[size_t{1} << slot_bits]) {
    for (uint32_t i = 0; i <= mask_; ++i) slots_[i].store(nullptr, std::memory_order_relaxed);
}

const InternTable::Entry* InternTable::FindSlot(uint64_t key, const std::string_view* text) const {
    uint32_t i = static_cast<uint32_t>(MixKey(key)) & mask_;
    for (uint32_t probes = 0; probes <= mask_; ++probes, i = (i + 1) & mask_) {
        const Entry* e = slots_[i].load(std::memory_order_acquire);
        if (e == nullptr) break;
        if (e->key == key && (text == nullptr || e->text == *text)) return e;
    }
    if (!has_overflow_.load(std::memory_order_acquire)) return nullptr;
    std::lock_guard<std::mutex> lock(mutex_);
    auto range = overflow_.equal_range(key);
    const Entry* found = nullptr;
    for (auto it = range.first; it != range.second; ++it) {
        if (text == nullptr || it->second->text == *text) found = it->second;
    }
    return found;
}

const InternTable::Entry* InternTable::Find(uint64_t key) const { return FindSlot(key, nullptr); }

const InternTable::Entry* InternTable::FindText(uint64_t key, std::string_view text) const {
    return FindSlot(key, &text);
}

const InternTable::Entry* InternTable::Put(uint64_t key, std::string_view text, uint64_t value, bool replace) {
    std::lock_guard<std::mutex> lock(mutex_);
    // Look for an existing entry (same key; same text unless replacing).
    uint32_t i = static_cast<uint32_t>(MixKey(key)) & mask_;
    uint32_t probes = 0;
    for (; probes <= mask_; ++probes, i = (i + 1) & mask_) {
        const Entry* e = slots_[i].load(std::memory_order_relaxed);
        if (e == nullptr) break;
        if (e->key != key) continue;
        if (e->text == text) return e;
        if (replace) {
            storage_.push_back(Entry{key, value, std::string(text)});
            slots_[i].store(&storage_.back(), std::memory_order_release);
            return &storage_.back();
        }
    }
    if (has_overflow_.load(std::memory_order_relaxed)) {
        auto range = overflow_.equal_range(key);
        for (auto it = range.first; it != range.second; ++it) {
            if (it->second->text == text) return it->second;
        }
    }
    storage_.push_back(Entry{key, value, std::string(text)});
    const Entry* entry = &storage_.back();
    // Keep a quarter of the table free so probe sequences stay short.
    if (probes <= mask_ && used_ < (mask_ + 1) / 4 * 3) {
        slots_[i].store(entry, std::memory_order_release);
        ++used_;
    } else {
        overflow_.emplace(key, entry);
        has_overflow_.store(true, std::memory_order_release);
    }
    return entry;
}

}  // namespace mspti
