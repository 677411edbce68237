// The registry of activity kinds: which kinds exist, their record sizes, which
// are switched on, and what each needs from the environment.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "common/call_gate.h"
#include "mspti/mspti_activity.h"
#include "mspti/mspti_callback.h"
#define MSPTI_SCHEMA_CHECK_LAYOUTS
#define MSPTI_SCHEMA_CHECK_OVERHEAD
#include "mspti_schema/record_schema.h"

namespace mspti::activity {

constexpr uint32_t kKindSlots = MSPTI_ACTIVITY_KIND_COUNT;
static_assert(kKindSlots <= 64, "KindSwitches keeps one bit per kind in a 64-bit word");

constexpr bool IsValidKind(int64_t kind) {
    return kind > MSPTI_ACTIVITY_KIND_INVALID && kind < MSPTI_ACTIVITY_KIND_COUNT;
}

// The size of a record of `kind` in a buffer, 0 for an unknown kind (inline: a client's record walk
// asks it twice per record), and the largest record: both from the record schema, whose static_asserts
// check them against this header.
constexpr size_t RecordSize(int64_t kind) { return mspti_schema::RecordSize(kind); }
constexpr size_t kMaxRecordSize = mspti_schema::kMaxRecordSize;

// Kinds whose records come only from interposed aclrt*/Hccl* functions.
constexpr bool NeedsInterposition(msptiActivityKind kind) {
    return kind == MSPTI_ACTIVITY_KIND_HCCL || kind == MSPTI_ACTIVITY_KIND_MEMORY ||
           kind == MSPTI_ACTIVITY_KIND_MEMSET || kind == MSPTI_ACTIVITY_KIND_MEMCPY;
}

// The switches (msptiActivityEnable/Disable, msptiActivityIsEnabled) and whether a kind produces
// records now: a switched-on kind produces records unless collection is halted, which it is from
// msptiUnsubscribe to the next msptiSubscribe (the switches stay on across, and collection restarts
// at the next subscribe). Before the first subscription nothing is halted: the interposed host kinds
// need no subscriber. Producing() is what every record site checks: one load, as before.
class KindSwitches {
public:
    bool IsEnabled(int64_t kind) const {
        return IsValidKind(kind) && enabled_[static_cast<size_t>(kind)].load(std::memory_order_acquire);
    }
    // One word for all kinds: a traced launch asks several times.
    bool Producing(int64_t kind) const {
        return IsValidKind(kind) && ((producing_mask_.load(std::memory_order_acquire) >> kind) & 1U) != 0;
    }
    // The whole word (bit k: Producing(k)), for a path that asks about several kinds at once.
    uint64_t ProducingMask() const { return producing_mask_.load(std::memory_order_acquire); }
    void Set(msptiActivityKind kind, bool on) {
        Writer writer(*this);
        const auto k = static_cast<size_t>(kind);
        enabled_[k].store(on, std::memory_order_release);
        producing_[k].store(on && !halted_, std::memory_order_release);
        UpdateGate();
    }
    // Unsubscribe (true, after its drain) and Subscribe (false, before collection starts).
    void SetHalted(bool halted) {
        Writer writer(*this);
        halted_ = halted;
        for (size_t k = 0; k < kKindSlots; ++k) {
            producing_[k].store(!halted && enabled_[k].load(std::memory_order_relaxed), std::memory_order_release);
        }
        UpdateGate();
    }

private:
    // Under Writer: the interposers' gate follows whether any kind produces records.
    void UpdateGate() {
        uint64_t mask = 0;
        for (size_t k = 0; k < kKindSlots; ++k) {
            if (producing_[k].load(std::memory_order_relaxed)) mask |= uint64_t{1} << k;
        }
        producing_mask_.store(mask, std::memory_order_release);
        call_gate::Set(call_gate::kKinds, mask != 0);
    }

    // Serialises the writers (Enable/Disable and Subscribe/Unsubscribe hold different locks).
    struct Writer {
        explicit Writer(KindSwitches& s) : s_(s) {
            while (s_.writing_.exchange(true, std::memory_order_acquire)) {}
        }
        ~Writer() { s_.writing_.store(false, std::memory_order_release); }
        Writer(const Writer&) = delete;
        Writer& operator=(const Writer&) = delete;
        KindSwitches& s_;
    };

    std::atomic<bool> enabled_[kKindSlots] = {};
    std::atomic<bool> producing_[kKindSlots] = {};
    std::atomic<uint64_t> producing_mask_{0};  // bit k: producing_[k], for Producing
    std::atomic<bool> writing_{false};
    bool halted_ = false;  // guarded by writing_
};

// Constant-initialised and trivially destructible: usable at any time, with no initialisation guard.
inline KindSwitches& Kinds() {
    static KindSwitches switches;
    return switches;
}

// Whether records of `kind` are made now (switched on, and collection not halted by Unsubscribe).
inline bool Enabled(msptiActivityKind kind) { return Kinds().Producing(kind); }

// The same for several kinds in one load: EnabledMask() & KindBit(k) is Enabled(k).
constexpr uint64_t KindBit(msptiActivityKind kind) { return uint64_t{1} << static_cast<unsigned>(kind); }
inline uint64_t EnabledMask() { return Kinds().ProducingMask(); }

}  // namespace mspti::activity
