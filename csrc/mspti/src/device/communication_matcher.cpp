#include "device/communication_matcher.h"

#include <algorithm>

#include "activity/buffer_manager.h"
#include "activity/drop_counter.h"
#include "activity/kinds.h"
#include "device/device_registry.h"
#include "common/host_clock.h"
#include "device/device_time.h"
#include "cann/host_time.h"
#include "reports/stream_syncs.h"
#include "device/stream_task_id.h"

namespace mspti::seam {
namespace {

constexpr uint64_t kUnclaimedLifetimeNs = 2'000'000'000ULL;
constexpr uint64_t kCausalitySlackNs = 1'000'000ULL;

msptiCommunicationDataType DataType(uint32_t raw) {
    if (raw <= MSPTI_ACTIVITY_COMMUNICATION_FP8E8M0 && raw != 13) return static_cast<msptiCommunicationDataType>(raw);
    return MSPTI_ACTIVITY_COMMUNICATION_INVALID_TYPE;
}

}  // namespace

void CommunicationMatcher::AddTask(const communication::TaskEvent& event) {
    const uint32_t chip = devices::Chip(event.device);
    const StreamTask decoded = DecodeStreamTask(event.stream, static_cast<uint16_t>(event.task_info & 0xFFFFU));
    const uint64_t key = devices::IsV6(chip) ? TaskKey(event.device, 0, event.task_info)
                                             : TaskKey(event.device, decoded.stream, decoded.task);
    Op& op = ops_[event.op];
    if (op.tasks.empty()) {
        op.device = event.device;
        op.stream = decoded.stream;
    }
    op.issued_ns = std::max(op.issued_ns, host_time::ToRecordTime(event.track_ts));
    Task task;
    task.key = key;
    // Device times that arrived before the task was claimed, if the device ran it after its track.
    auto u = unclaimed_.find(key);
    if (u != unclaimed_.end()) {
        const uint64_t track_ns = host_time::ToRecordTime(event.track_ts);
        auto& q = u->second;
        while (!q.empty()) {
            Unclaimed candidate = std::move(q.front());
            q.pop_front();
            const uint64_t ran_ns = device_time::ToRecordTime(event.device, candidate.times.start);
            if (ran_ns + kCausalitySlackNs < track_ns) continue;  // an earlier task with the same key
            task = std::move(candidate.times);
            task.key = key;
            break;
        }
        if (q.empty()) unclaimed_.erase(u);
    }
    const bool ended = task.ended;
    op.tasks.push_back(std::move(task));
    if (!ended) by_key_[key].emplace_back(event.op, op.tasks.size() - 1);
}

CommunicationMatcher::Unclaimed& CommunicationMatcher::UnclaimedFor(uint64_t key, bool start) {
    auto& q = unclaimed_[key];
    if (start || q.empty() || q.back().times.ended) {
        q.push_back(Unclaimed{Task{}, host_clock::Now()});
        q.back().times.key = key;
    }
    return q.back();
}

void CommunicationMatcher::ApplySub(Task& t, uint16_t sub_task, bool start, uint64_t count) {
    if (start) {
        t.sub_starts.emplace_back(sub_task, count);
        return;
    }
    for (auto it = t.sub_starts.begin(); it != t.sub_starts.end(); ++it) {
        if (it->first != sub_task) continue;
        const uint64_t sub_start = it->second;
        t.sub_starts.erase(it);
        t.sub_min = t.has_sub ? std::min(t.sub_min, sub_start) : sub_start;
        t.sub_max = t.has_sub ? std::max(t.sub_max, count) : count;
        t.has_sub = true;
        return;
    }
}

void CommunicationMatcher::Sweep(uint64_t now_ns) {
    for (auto it = unclaimed_.begin(); it != unclaimed_.end();) {
        auto& q = it->second;
        while (!q.empty() && q.front().seen_ns + kUnclaimedLifetimeNs < now_ns) q.pop_front();
        it = q.empty() ? unclaimed_.erase(it) : std::next(it);
    }
}

void CommunicationMatcher::FinishOp(const communication::OpEvent& event) {
    auto it = ops_.find(event.op);
    if (it == ops_.end()) return;  // no task of the operator was registered
    it->second.finished = true;
    it->second.info = event;
    TryEmit(event.op);
}

CommunicationMatcher::Task* CommunicationMatcher::OpenTask(uint64_t key, uint64_t* op_id) {
    if (by_key_.empty()) return nullptr;  // the common case: no communication task awaits its device half
    auto it = by_key_.find(key);
    if (it == by_key_.end() || it->second.empty()) return nullptr;
    const auto [op, index] = it->second.front();
    auto o = ops_.find(op);
    if (o == ops_.end() || index >= o->second.tasks.size()) {
        it->second.pop_front();
        return nullptr;
    }
    *op_id = op;
    return &o->second.tasks[index];
}

void CommunicationMatcher::OnTaskSlow(uint32_t device, uint32_t stream, uint32_t task, bool start, uint64_t count) {
    const uint64_t key = TaskKey(device, stream, task);
    uint64_t op = 0;
    Task* t = OpenTask(key, &op);
    if (t == nullptr) {
        // Only worth keeping while communication operators can still claim it.
        if (!activity::Enabled(MSPTI_ACTIVITY_KIND_COMMUNICATION)) return;
        Task& u = UnclaimedFor(key, start).times;
        if (start) {
            u.started = true;
            u.start = count;
        } else {
            u.ended = true;
            u.end = count;
            if (!u.started) {
                u.started = true;
                u.start = count;
            }
        }
        return;
    }
    if (start) {
        if (!t->started) {
            t->started = true;
            t->start = count;
        }
        return;
    }
    t->ended = true;
    t->end = count;
    if (!t->started) {
        t->started = true;
        t->start = count;
    }
    by_key_[key].pop_front();
    if (by_key_[key].empty()) by_key_.erase(key);
    TryEmit(op);
}

void CommunicationMatcher::OnSubTask(uint32_t device, uint32_t stream, uint32_t task, uint16_t sub_task, bool start,
                                     uint64_t count) {
    uint64_t op = 0;
    const uint64_t key = TaskKey(device, stream, task);
    Task* t = OpenTask(key, &op);
    if (t == nullptr) {
        auto u = unclaimed_.find(key);
        if (u != unclaimed_.end() && !u->second.empty() && !u->second.back().times.ended) {
            ApplySub(u->second.back().times, sub_task, start, count);
        }
        return;
    }
    ApplySub(*t, sub_task, start, count);
}

void CommunicationMatcher::TryEmit(uint64_t op_id) {
    auto it = ops_.find(op_id);
    if (it == ops_.end()) return;
    Op& op = it->second;
    if (!op.finished) return;
    uint64_t start = UINT64_MAX;
    uint64_t end = 0;
    for (const Task& t : op.tasks) {
        if (!t.ended) return;
        start = std::min(start, t.has_sub ? t.sub_min : t.start);
        end = std::max(end, t.has_sub ? t.sub_max : t.end);
    }
    const uint64_t start_ns = device_time::ToRecordTime(op.device, start);
    const uint64_t end_ns = device_time::ToRecordTime(op.device, end);
    if (!activity::Enabled(MSPTI_ACTIVITY_KIND_COMMUNICATION) || start_ns == 0 || end_ns == 0) {
        activity::Drops().Add(MSPTI_ACTIVITY_KIND_COMMUNICATION, activity::Enabled(MSPTI_ACTIVITY_KIND_COMMUNICATION)
                                                                     ? MSPTI_DROP_REASON_DEVICE_HALF_LOST
                                                                     : MSPTI_DROP_REASON_KIND_DISABLED);
    } else {
        msptiActivityCommunication record{};
        record.kind = MSPTI_ACTIVITY_KIND_COMMUNICATION;
        record.dataType = DataType(op.info.data_type);
        record.count = op.info.count;
        record.ds.deviceId = op.device;
        record.ds.streamId = op.stream;
        record.start = start_ns;
        record.end = std::max(start_ns, end_ns);
        record.algType = op.info.alg_type;
        record.name = op.info.name;
        record.commName = op.info.comm_name;
        record.correlationId = op.info.correlation_id;
        activity::BufferManager::Instance().Write(record);
    }
    ops_.erase(it);
}

void CommunicationMatcher::ExpireSynced(uint32_t device, uint64_t flush_ns) {
    if (ops_.empty()) return;
    for (auto it = ops_.begin(); it != ops_.end();) {
        Op& op = it->second;
        const uint64_t synced = op.device == device ? stream_syncs::ById(device, op.stream) : 0;
        if (!op.finished || synced == 0 || op.issued_ns >= synced || synced >= flush_ns) {
            ++it;
            continue;
        }
        for (const Task& t : op.tasks) {
            if (t.ended) continue;
            auto k = by_key_.find(t.key);
            if (k == by_key_.end()) continue;
            auto& q = k->second;
            q.erase(std::remove_if(q.begin(), q.end(), [&](const auto& entry) { return entry.first == it->first; }),
                    q.end());
            if (q.empty()) by_key_.erase(k);
        }
        activity::Drops().Add(MSPTI_ACTIVITY_KIND_COMMUNICATION, MSPTI_DROP_REASON_DEVICE_HALF_LOST);
        it = ops_.erase(it);
    }
}

void CommunicationMatcher::DropDevice(uint32_t device) {
    for (auto it = ops_.begin(); it != ops_.end();) {
        if (it->second.device != device) {
            ++it;
            continue;
        }
        if (it->second.finished)
            activity::Drops().Add(MSPTI_ACTIVITY_KIND_COMMUNICATION, MSPTI_DROP_REASON_DEVICE_HALF_LOST);
        it = ops_.erase(it);
    }
    for (auto it = by_key_.begin(); it != by_key_.end();) {
        it = KeyOnDevice(it->first, device) ? by_key_.erase(it) : std::next(it);
    }
    for (auto it = unclaimed_.begin(); it != unclaimed_.end();) {
        it = KeyOnDevice(it->first, device) ? unclaimed_.erase(it) : std::next(it);
    }
}

}  // namespace mspti::seam
