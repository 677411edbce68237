#include "activity/correlation.h"

#include <atomic>

#include "activity/external_correlation.h"

namespace mspti::activity {
namespace {

std::atomic<uint64_t> g_next_id{1};

constexpr uint32_t kRecentGroups = 16;

struct Group {
    uint64_t id;
    uint64_t start_ts;  // call entry (scopes) or first track (implicit groups)
    uint64_t track_ts;  // first kernel task track, 0 if none
};

// Plain data, so it needs no thread-exit destructor and stays usable until the thread is gone.
struct ThreadCorrelation {
    uint64_t scope_id;
    uint64_t implicit_id;
    uint64_t implicit_start;
    Group recent[kRecentGroups];
    uint32_t next;
};

thread_local ThreadCorrelation t_corr{};

Group* FindGroup(uint64_t id) {
    for (auto& g : t_corr.recent) {
        if (g.id == id) return &g;
    }
    return nullptr;
}

void AddGroup(uint64_t id, uint64_t start_ts, uint64_t track_ts) {
    t_corr.recent[t_corr.next % kRecentGroups] = Group{id, start_ts, track_ts};
    ++t_corr.next;
}

}  // namespace

uint64_t AllocateCorrelationId() {
    const uint64_t id = g_next_id.fetch_add(1, std::memory_order_relaxed);
    ReportExternalCorrelation(id);
    return id;
}

CorrelationScope::CorrelationScope(uint64_t cann_now) : id_(AllocateCorrelationId()), previous_(t_corr.scope_id) {
    t_corr.scope_id = id_;
    AddGroup(id_, cann_now, 0);
}

CorrelationScope::~CorrelationScope() { t_corr.scope_id = previous_; }

uint64_t CurrentScopeId() { return t_corr.scope_id; }

uint64_t CorrelationForTrack(uint64_t cann_ts) {
    if (t_corr.scope_id != 0) {
        Group* g = FindGroup(t_corr.scope_id);
        if (g != nullptr && g->track_ts == 0) g->track_ts = cann_ts;
        return t_corr.scope_id;
    }
    if (t_corr.implicit_id == 0) {
        t_corr.implicit_id = AllocateCorrelationId();
        t_corr.implicit_start = cann_ts;
        AddGroup(t_corr.implicit_id, cann_ts, cann_ts);
    }
    return t_corr.implicit_id;
}

uint64_t CorrelationForApi(uint64_t begin, uint64_t end) {
    if (t_corr.scope_id != 0) return t_corr.scope_id;

    const Group* with_track = nullptr;
    const Group* any = nullptr;
    // Walk from the oldest to the newest entry so the earliest match wins.
    for (uint32_t i = 0; i < kRecentGroups; ++i) {
        const Group& g = t_corr.recent[(t_corr.next + i) % kRecentGroups];
        if (g.id == 0) continue;
        if (with_track == nullptr && g.track_ts != 0 && g.track_ts >= begin && g.track_ts <= end) with_track = &g;
        if (any == nullptr && g.start_ts >= begin && g.start_ts <= end) any = &g;
    }
    if (with_track != nullptr) return with_track->id;
    if (any != nullptr) return any->id;
    const uint64_t id = AllocateCorrelationId();
    AddGroup(id, begin, 0);
    return id;
}

void NoteApiReport(uint64_t end) {
    if (t_corr.scope_id == 0 && t_corr.implicit_id != 0 && end >= t_corr.implicit_start) t_corr.implicit_id = 0;
}

}  // namespace mspti::activity
