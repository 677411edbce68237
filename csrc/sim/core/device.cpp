#include "core/device.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstring>

#include "core/channels.h"
#include "core/clock.h"
#include "seam/device_log.h"
#include "seam/hal.h"

namespace npusim {

namespace {

// Stores `value` at `at` (a field of a log written in place, at any alignment).
template <typename T>
void put(char* at, T value) {
    std::memcpy(at, &value, sizeof value);
}

// Zeroes `N` bytes (a multiple of 16) in 16-byte stores. A memset of the two logs' size compiles, on
// x86-64, to a string instruction that costs a counted instruction per 8 bytes (the
// launch_instructions benchmark) and starts slowly; the empty asm keeps the compiler from merging
// the stores back into one such memset.
template <size_t N>
void zero_in_place(char* out) {
    static_assert(N % 16 == 0, "whole 16-byte stores");
    using Bytes16 = unsigned char __attribute__((vector_size(16)));
    const Bytes16 zero{};
    for (size_t i = 0; i < N; i += 16) {
        std::memcpy(out + i, &zero, sizeof zero);
        __asm__("" : : "r"(out));
    }
}

// A task's begin and end logs of type `Log`, written straight into the STARS channel
// (ChannelHub::emit): zeroed, then the fields set (`ids` writes the task's identity fields), with no
// log built aside and copied in on the launch path.
template <typename Log, typename Ids>
void emit_begin_end(ChannelHub& channels, uint32_t device, const TaskRecord& task, uint16_t begin, uint16_t end,
                    Ids&& ids) {
    channels.emit(device, PROF_CHANNEL_STARS_SOC_LOG, 2 * sizeof(Log), [&](char* out) {
        zero_in_place<2 * sizeof(Log)>(out);
        for (int i = 0; i < 2; ++i) {
            char* log = out + i * sizeof(Log);
            put(log + offsetof(Log, head), i == 0 ? begin : end);
            ids(log);
            put(log + offsetof(Log, timestamp), i == 0 ? task.start_ns : task.end_ns);
        }
    });
}

uint64_t splitmix64(uint64_t& state) {
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

uint64_t ns_for_bytes(uint64_t bytes, double gbps) {
    // GB/s is bytes per ns.
    return gbps > 0 ? static_cast<uint64_t>(std::ceil(static_cast<double>(bytes) / gbps)) : 0;
}

}  // namespace

Device::Device(uint32_t id, const SocSpec& soc, uint64_t seed, double jitter_pct, Clock& clock, ChannelHub& channels)
    : id_(id),
      soc_(soc),
      clock_(clock),
      channels_(channels),
      jitter_pct_(jitter_pct),
      rng_(seed ^ (0xD1B54A32D192ED03ULL * (id + 1))),
      cube_free_(std::max<uint32_t>(soc.aic, 1), 0),
      vector_free_(std::max<uint32_t>(soc.aiv, 1), 0),
      aicpu_free_(std::max<uint32_t>(soc.aicpu, 1), 0) {
    owned_.push_back(std::make_unique<Stream>(id, 0, 0, 0));
    streams_[0].store(owned_.back().get(), std::memory_order_release);
}

Device::~Device() = default;

Stream* Device::create_stream(uint32_t priority, uint32_t flags) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (uint16_t sid = 1; sid < Stream::kMaxStreams; ++sid) {
        if (streams_[sid].load(std::memory_order_relaxed) == nullptr) {
            owned_.push_back(std::make_unique<Stream>(id_, sid, priority, flags));
            streams_[sid].store(owned_.back().get(), std::memory_order_release);
            return owned_.back().get();
        }
    }
    return nullptr;
}

bool Device::destroy_stream(Stream* stream) {
    if (stream == nullptr || stream->device() != id_ || stream->id() == 0) return false;
    std::lock_guard<std::mutex> lock(mutex_);
    Stream* expected = stream;
    // The Stream object stays owned (a late use of a destroyed handle reads stale but valid memory).
    return streams_[stream->id()].compare_exchange_strong(expected, nullptr, std::memory_order_acq_rel);
}

Stream* Device::stream_by_id(uint16_t sid) const {
    return sid < Stream::kMaxStreams ? streams_[sid].load(std::memory_order_acquire) : nullptr;
}

std::vector<Stream*> Device::streams() const {
    std::vector<Stream*> out;
    for (const auto& slot : streams_) {
        if (Stream* s = slot.load(std::memory_order_acquire)) out.push_back(s);
    }
    return out;
}

[[gnu::always_inline]] inline double Device::draw_uniform() {
    return static_cast<double>(splitmix64(rng_) >> 11) * (1.0 / 9007199254740992.0);  // [0, 1)
}

[[gnu::always_inline]] inline uint64_t Device::apply_jitter(uint64_t ns, double u) const {
    if (jitter_pct_ <= 0 || ns == 0) return ns;
    const double factor = 1.0 + jitter_pct_ / 100.0 * (2.0 * u - 1.0);
    return std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(static_cast<double>(ns) * factor)));
}

uint64_t Device::jittered(uint64_t ns) {
    if (jitter_pct_ <= 0 || ns == 0) return ns;
    return apply_jitter(ns, draw_uniform());
}

uint64_t Device::acquire_cores(std::vector<uint64_t>& cores, uint32_t count, uint64_t ready, uint64_t duration) {
    // `cores` holds the cores' free times in ascending order, so the k earliest-free cores, which run
    // the task, are its first k; the task starts when the last of them is free. Cores are
    // interchangeable: only the multiset of free times matters. The k new free times (all equal)
    // move to their sorted place among the others, usually the end (a stream's tasks start after
    // its previous task has ended): one move of the free times before that place over the taken
    // ones, instead of a selection over every core.
    const auto k = static_cast<std::ptrdiff_t>(std::min<size_t>(std::max<uint32_t>(count, 1), cores.size()));
    const uint64_t start = std::max(ready, cores[static_cast<size_t>(k - 1)]);
    const uint64_t free_at = start + duration;
    const auto first = cores.begin();
    const auto place = cores.back() <= free_at ? cores.end() : std::upper_bound(first + k, cores.end(), free_at);
    std::copy(first + k, place, first);
    std::fill(place - k, place, free_at);
    return start;
}

uint64_t Device::earliest_start(const Stream& stream) const { return earliest_start(stream, clock_.now()); }

uint64_t Device::earliest_start(const Stream& stream, uint64_t submit_ns) const {
    std::lock_guard<std::mutex> lock(mutex_);
    const uint64_t tail = stream.tail_ns_.load(std::memory_order_relaxed);
    uint64_t ready = submit_ns + soc_.launch_latency_ns;
    if (tail != 0) ready = std::max(ready, tail + soc_.task_gap_ns);
    return ready;
}

// Under mutex_. Inlined into schedule(): it is on every launch.
[[gnu::always_inline]] inline TaskRecord Device::place(Stream& stream, const TaskDesc& desc, uint64_t submit_ns,
                                                       uint64_t duration, uint32_t task_id) {
    TaskRecord rec;
    rec.device = id_;
    rec.stream_id = stream.id();
    rec.submit_ns = submit_ns;
    rec.task_id = task_id;
    const uint64_t tail = stream.tail_ns_.load(std::memory_order_relaxed);
    uint64_t ready = std::max(rec.submit_ns + soc_.launch_latency_ns, desc.not_before_ns);
    if (tail != 0) ready = std::max(ready, tail + soc_.task_gap_ns);
    uint64_t start = ready;
    if (desc.kind == TaskKind::Kernel) {
        switch (desc.core) {
            case CoreType::AIC: start = acquire_cores(cube_free_, desc.block_dim, ready, duration); break;
            case CoreType::AICPU: start = acquire_cores(aicpu_free_, desc.block_dim, ready, duration); break;
            case CoreType::MIX: {
                // A mixed kernel needs its cube cores and their vector pairs at the same time.
                const uint64_t cube_ready = acquire_cores(cube_free_, desc.block_dim, ready, duration);
                start = acquire_cores(vector_free_, desc.block_dim * 2, cube_ready, duration);
                break;
            }
            case CoreType::AIV:
            case CoreType::Inherit: start = acquire_cores(vector_free_, desc.block_dim, ready, duration); break;
        }
    }
    rec.start_ns = start;
    const uint64_t work = std::max(start, desc.work_not_before_ns);
    if (desc.work_not_before_ns != 0) rec.work_ns = work;
    rec.end_ns = work + duration;
    stream.tail_ns_.store(rec.end_ns, std::memory_order_release);
    stream.tasks_.fetch_add(1, std::memory_order_relaxed);
    return rec;
}

TaskRecord Device::schedule(Stream& stream, const TaskDesc& desc) {
    // Submitted now, placed once a collective holding the stream is (one load when none does): the
    // time the host waits for the collective's peers is not the task's (the other ranks' threads
    // move the virtual clock meanwhile).
    const uint64_t submit = clock_.now();
    if (!stream.queue_.idle()) stream.queue_.wait_idle();
    std::lock_guard<std::mutex> lock(mutex_);
    const uint64_t duration = jittered(desc.duration_ns);
    // Chip type 15 logs carry no stream id, so its task ids are unique per device; the others are per stream.
    const uint32_t task_id = wide_task_ids() ? next_wide_task_id_++ : (stream.next_task_id_++ & 0xFFFFu);
    return place(stream, desc, submit, duration, task_id);
}

TaskReservation Device::reserve(Stream& stream) {
    TaskReservation r;
    std::lock_guard<std::mutex> lock(mutex_);
    r.submit_ns = clock_.now();
    r.task_id = wide_task_ids() ? next_wide_task_id_++ : (stream.next_task_id_++ & 0xFFFFu);
    if (jitter_pct_ > 0) r.jitter_u = draw_uniform();
    return r;
}

TaskRecord Device::schedule_reserved(Stream& stream, const TaskDesc& desc, const TaskReservation& reservation) {
    std::lock_guard<std::mutex> lock(mutex_);
    return place(stream, desc, reservation.submit_ns, apply_jitter(desc.duration_ns, reservation.jitter_u),
                 reservation.task_id);
}

uint32_t Device::reserve_task_id(Stream& stream) {
    std::lock_guard<std::mutex> lock(mutex_);
    return wide_task_ids() ? next_wide_task_id_++ : (stream.next_task_id_++ & 0xFFFFu);
}

void Device::emit_task_logs(const TaskRecord& task, uint16_t stars_task_type, uint16_t ffts_subtasks) {
    if (!channels_.active(id_, PROF_CHANNEL_STARS_SOC_LOG)) return;
    const uint16_t begin = STARS_HEAD(STARS_FUNC_TYPE_BEGIN, 0, stars_task_type);
    const uint16_t end = STARS_HEAD(STARS_FUNC_TYPE_END, 0, stars_task_type);
    if (wide_task_ids()) {
        emit_begin_end<StarsSocLogV6>(channels_, id_, task, begin, end, [&](char* log) {
            put(log + offsetof(StarsSocLogV6, taskId), static_cast<uint32_t>(task.task_id));
        });
        return;
    }
    if (ffts_subtasks == 0) {
        emit_begin_end<StarsSocLog>(channels_, id_, task, begin, end, [&](char* log) {
            put(log + offsetof(StarsSocLog, streamId), static_cast<uint16_t>(task.stream_id));
            put(log + offsetof(StarsSocLog, taskId), static_cast<uint16_t>(task.task_id));
        });
        return;
    }
    StarsSocLog logs[2]{};
    for (int i = 0; i < 2; ++i) {
        logs[i].head = i == 0 ? begin : end;
        logs[i].streamId = task.stream_id;
        logs[i].taskId = static_cast<uint16_t>(task.task_id);
        logs[i].timestamp = i == 0 ? task.start_ns : task.end_ns;
    }
    // Order on the device: task begin, each sub-task's begin and end, task end.
    constexpr uint16_t kMaxSubtasks = 8;
    const uint16_t n = ffts_subtasks < kMaxSubtasks ? ffts_subtasks : kMaxSubtasks;
    char bytes[sizeof(StarsSocLog) * 2 + sizeof(FftsPlusLog) * 2 * kMaxSubtasks];
    size_t at = 0;
    std::memcpy(bytes + at, &logs[0], sizeof logs[0]);
    at += sizeof logs[0];
    const uint64_t from = task.work_ns != 0 ? task.work_ns : task.start_ns;
    const uint64_t span = task.end_ns - from;
    for (uint16_t sub = 0; sub < n; ++sub) {
        for (int edge = 0; edge < 2; ++edge) {
            FftsPlusLog f{};
            f.head = STARS_HEAD(edge == 0 ? STARS_FUNC_TYPE_FFTS_BEGIN : STARS_FUNC_TYPE_FFTS_END, 0, stars_task_type);
            f.streamId = task.stream_id;
            f.taskId = static_cast<uint16_t>(task.task_id);
            f.timestamp = from + span * (sub + edge) / n;
            f.subTaskType = sub;  // low byte: which engine runs it (0 cube, 1 vector, ...)
            f.subTaskId = sub;
            std::memcpy(bytes + at, &f, sizeof f);
            at += sizeof f;
        }
    }
    std::memcpy(bytes + at, &logs[1], sizeof logs[1]);
    at += sizeof logs[1];
    channels_.push(id_, PROF_CHANNEL_STARS_SOC_LOG, bytes, at);
}

namespace {

// PMU events the model counts (msprof's numbering, Ascend/msprof 9ba1ac7 metric_calculator_group/),
// from the terms of the kernel's modelled time; every other event counts 0 (Device::pmu_event_counted).
constexpr uint16_t kEventVec = 0x8;          // vector pipe busy cycles
constexpr uint16_t kEventScalar = 0x9;       // scalar pipe busy cycles
constexpr uint16_t kEventMac = 0xA;          // cube pipe busy cycles
constexpr uint16_t kEventMte2 = 0xC;         // GM -> on-chip moves
constexpr uint16_t kEventCubeFp = 0x416;     // cube cycles of a chip that counts cube and vector cores apart
constexpr uint16_t kEventCubeFp16 = 0x49;    // cube cycles computing fp16 (and bf16)
constexpr uint16_t kEventCubeInt8 = 0x4a;    // cube cycles computing int8
constexpr uint16_t kEventVecFp32 = 0x4b;     // vector cycles computing fp32
constexpr uint16_t kEventVecFp16 = 0x4c;     // vector cycles computing fp16 (128 lanes)
constexpr uint16_t kEventVecInt32 = 0x4e;    // vector cycles computing int32
constexpr uint16_t kEventVecMisc = 0x4f;     // vector cycles of other types
constexpr uint16_t kEventMainMemRead = 0x12; // main memory traffic, in msprof's bandwidth units
constexpr uint16_t kEventReadMainMemData = 0x50d;  // main memory traffic, in msprof's data units
constexpr uint16_t kCountedEvents[] = {kEventVec,
                                       kEventScalar,
                                       kEventMac,
                                       kEventMte2,
                                       kEventCubeFp,
                                       kEventCubeFp16,
                                       kEventCubeInt8,
                                       kEventVecFp32,
                                       kEventVecFp16,
                                       kEventVecInt32,
                                       kEventVecMisc,
                                       kEventMainMemRead,
                                       kEventReadMainMemData};
// Bytes per count of the memory events: msprof turns a count into GB/s as count x pipe size x scale /
// (cycles / frequency) / 2^33 (Memory: main_mem_read_bw, pipe size 8, scale 8), so a count is 8 bytes
// of 2^30-byte gigabytes; and into KB as count x 0.125 (MemoryAccess: read_main_memory_datas), 128 bytes.
constexpr uint64_t kMainMemReadBytes = 8;
constexpr uint64_t kReadMainMemDataBytes = 128;

// The vector arithmetic event that counts a data type's vector cycles; the cube's in `cube_event`.
uint16_t vector_event(ComputeDtype dtype) {
    switch (dtype) {
        case ComputeDtype::Fp16: return kEventVecFp16;
        case ComputeDtype::Fp32: return kEventVecFp32;
        case ComputeDtype::Int32: return kEventVecInt32;
        case ComputeDtype::Int8:
        case ComputeDtype::Other: return kEventVecMisc;
    }
    return kEventVecMisc;
}

// 0: the cube has no arithmetic event for the type (fp32 and int32 matmuls).
uint16_t cube_event(ComputeDtype dtype) {
    switch (dtype) {
        case ComputeDtype::Fp16: return kEventCubeFp16;
        case ComputeDtype::Int8: return kEventCubeInt8;
        default: return 0;
    }
}

// What one event counts on a context. Pipe events: the share of the modelled time that the term the
// event's pipe does takes (compute: the cube or vector pipe, and the arithmetic event of its data type;
// memory: MTE2; the fixed overhead: the scalar pipe), of the task's cycles. Memory traffic events: the
// memory term's bytes. A body without named terms (a fixed-duration entry) counts on no pipe.
uint64_t pmu_count(uint16_t event, bool cube, bool owns_work, const KernelTime& t, uint64_t total_cycles) {
    const uint64_t modelled = t.total_ns();
    if (modelled == 0) return 0;
    uint64_t ns = 0;
    switch (event) {
        case kEventMac:
        case kEventCubeFp: ns = owns_work && cube ? t.compute_ns : 0; break;
        case kEventVec: ns = owns_work && !cube ? t.compute_ns : 0; break;
        case kEventCubeFp16:
        case kEventCubeInt8: ns = owns_work && cube && cube_event(t.dtype) == event ? t.compute_ns : 0; break;
        case kEventVecFp32:
        case kEventVecFp16:
        case kEventVecInt32:
        case kEventVecMisc: ns = owns_work && !cube && vector_event(t.dtype) == event ? t.compute_ns : 0; break;
        case kEventMte2: ns = owns_work ? t.memory_ns : 0; break;
        case kEventScalar: ns = t.overhead_ns; break;
        case kEventMainMemRead: return owns_work ? t.bytes / kMainMemReadBytes : 0;
        case kEventReadMainMemData: return owns_work ? t.bytes / kReadMainMemDataBytes : 0;
        default: return 0;
    }
    return static_cast<uint64_t>(static_cast<double>(total_cycles) * static_cast<double>(ns) /
                                 static_cast<double>(modelled));
}

}  // namespace

bool Device::pmu_event_counted(uint16_t event) {
    for (uint16_t counted : kCountedEvents) {
        if (counted == event) return true;
    }
    return false;
}

void Device::program_pmu(const uint16_t* aic_events, const uint16_t* aiv_events) {
    for (size_t i = 0; i < kPmuCounters; ++i) {
        aic_events_[i].store(aic_events[i], std::memory_order_relaxed);
        aiv_events_[i].store(aiv_events[i], std::memory_order_relaxed);
    }
}

void Device::emit_pmu(const TaskRecord& task, const TaskDesc& desc) {
    if (desc.kind != TaskKind::Kernel || desc.core == CoreType::AICPU || wide_task_ids() ||
        !channels_.active(id_, PROF_CHANNEL_FFTS_PROFILE)) {
        return;
    }
    // The counters count at the AI Core clock over the task's span (after an in-task wait), summed over
    // the cores the kernel's blocks ran on, as CANN's total cycles are the sum over the task's blocks:
    // the model prices a launch's work spread over min(blocks, cores) cores, each busy for the whole
    // span (Device::place), so a record counts that many spans' cycles. The pipe counters scale with
    // them (pmu_count), so the ratios stay each term's share of the modelled time.
    const uint64_t from = task.work_ns != 0 ? task.work_ns : task.start_ns;
    const uint64_t span_ns = task.end_ns > from ? task.end_ns - from : 0;
    const uint64_t span_cycles = span_ns * soc_.cube_mhz / 1000u;
    const bool mix = desc.core == CoreType::MIX;
    const bool cube_task = desc.core == CoreType::AIC;
    const int contexts = mix ? 2 : 1;
    const uint64_t blocks = std::max<uint32_t>(desc.block_dim, 1);
    const uint64_t cube_cores = std::max<uint32_t>(soc_.aic, 1);
    const uint64_t vector_cores = std::max<uint32_t>(soc_.aiv, 1);
    channels_.emit(id_, PROF_CHANNEL_FFTS_PROFILE, contexts * sizeof(ContextPmu), [&](char* out) {
        if (contexts == 2) {
            zero_in_place<2 * sizeof(ContextPmu)>(out);
        } else {
            zero_in_place<sizeof(ContextPmu)>(out);
        }
        for (int c = 0; c < contexts; ++c) {
            char* rec = out + c * sizeof(ContextPmu);
            // A mixed kernel's cube context (0) does the modelled work; its vector context only pays
            // the overhead (the model prices a mixed kernel at the cube's peak).
            const bool cube = mix ? c == 0 : cube_task;
            const bool owns_work = !mix || c == 0;
            put(rec + offsetof(ContextPmu, head), static_cast<uint16_t>(FFTS_PMU_FUNC_TYPE_CONTEXT));
            put(rec + offsetof(ContextPmu, streamId), static_cast<uint16_t>(task.stream_id));
            put(rec + offsetof(ContextPmu, taskId), static_cast<uint16_t>(task.task_id));
            put(rec + offsetof(ContextPmu, subTaskType),
                static_cast<uint16_t>(mix ? (c == 0 ? FFTS_SUBTASK_MIX_AIC : FFTS_SUBTASK_MIX_AIV) : 0));
            put(rec + offsetof(ContextPmu, subTaskId), static_cast<uint16_t>(mix ? c : 0));
            const uint16_t ffts_type = mix ? FFTS_TYPE_FFTS_PLUS : cube ? FFTS_TYPE_AIC_ONLY : FFTS_TYPE_AIV_ONLY;
            put(rec + offsetof(ContextPmu, fftsType), static_cast<uint16_t>(ffts_type << 13));
            // A mixed kernel's vector context counts one vector core per block, as msprof divides its
            // cycles by the task's Block Num.
            const uint64_t cycles = span_cycles * std::min(blocks, cube ? cube_cores : vector_cores);
            put(rec + offsetof(ContextPmu, totalCycle), cycles);
            const auto& events = cube ? aic_events_ : aiv_events_;
            for (size_t i = 0; i < kPmuCounters; ++i) {
                const uint16_t event = events[i].load(std::memory_order_relaxed);
                put(rec + offsetof(ContextPmu, pmuList) + i * sizeof(uint64_t),
                    pmu_count(event, cube, owns_work, desc.pipes, cycles));
            }
            put(rec + offsetof(ContextPmu, timeList), from);
            put(rec + offsetof(ContextPmu, timeList) + sizeof(uint64_t), task.end_ns);
        }
    });
}

void Device::emit_step_trace(const TaskRecord& task, uint64_t index_id, uint64_t model_id, uint16_t tag_id) {
    if (!channels_.active(id_, PROF_CHANNEL_TS_FW)) return;
    if (wide_task_ids()) {
        TsStepTraceV6 r{};
        r.rptType = TS_RPT_TYPE_STEP_TRACE;
        r.bufSize = sizeof r;
        r.timestamp = task.start_ns;
        r.indexId = index_id;
        r.modelId = model_id;
        r.tagId = tag_id;
        r.streamId = task.stream_id;
        r.taskId = task.task_id;
        channels_.push(id_, PROF_CHANNEL_TS_FW, &r, sizeof r);
        return;
    }
    TsStepTrace r{};
    r.rptType = TS_RPT_TYPE_STEP_TRACE;
    r.bufSize = sizeof r;
    r.timestamp = task.start_ns;
    r.indexId = index_id;
    r.modelId = model_id;
    r.streamId = task.stream_id;
    r.taskId = static_cast<uint16_t>(task.task_id);
    r.tagId = tag_id;
    channels_.push(id_, PROF_CHANNEL_TS_FW, &r, sizeof r);
}

KernelTime Device::kernel_time(const KernelCost& cost, CoreType core, uint32_t block_dim) const {
    // Every kernel pays the fixed device overhead, fixed-duration entries included.
    KernelTime t;
    t.overhead_ns = soc_.task_overhead_ns;
    if (cost.duration_ns != 0) {
        t.body_ns = cost.duration_ns;
        return t;
    }
    const double blocks = std::max<uint32_t>(block_dim, 1);
    const double flops = cost.per_block ? cost.flops * blocks : cost.flops;
    const double bytes = cost.per_block ? cost.bytes * blocks : cost.bytes;
    double peak = 0;  // FLOPs per ns of the cores the launch occupies
    switch (core) {
        case CoreType::AIC:
        case CoreType::MIX: peak = soc_.cube_flops_per_ns() * std::min(blocks, double(soc_.aic)) / soc_.aic; break;
        case CoreType::AICPU:
            peak = std::min(blocks, double(std::max<uint32_t>(soc_.aicpu, 1)));
            break;  // ~1 GFLOP/s each
        case CoreType::AIV:
        case CoreType::Inherit:
            peak = soc_.vector_flops_per_ns() * std::min(blocks, double(std::max<uint32_t>(soc_.aiv, 1))) /
                   std::max<uint32_t>(soc_.aiv, 1);
            break;
    }
    // The duration is the larger term rounded up; rounding each term up gives the same maximum.
    t.compute_ns = static_cast<uint64_t>(std::ceil(peak > 0 ? flops / peak : 0));
    t.memory_ns = static_cast<uint64_t>(std::ceil(bytes / soc_.hbm_gbps));
    t.bytes = static_cast<uint64_t>(std::llround(bytes));
    t.body_ns = std::max(t.compute_ns, t.memory_ns);
    return t;
}

uint64_t Device::host_link_ns(uint64_t bytes) const {
    return soc_.memcpy_fixed_ns + ns_for_bytes(bytes, soc_.host_link_gbps);
}

uint64_t Device::device_copy_ns(uint64_t bytes) const {
    // A copy reads and writes device memory.
    return soc_.task_overhead_ns + ns_for_bytes(2 * bytes, soc_.hbm_gbps);
}

uint64_t Device::memset_ns(uint64_t bytes) const { return soc_.task_overhead_ns + ns_for_bytes(bytes, soc_.hbm_gbps); }

bool Device::reserve_memory(uint64_t bytes) {
    uint64_t cur = memory_in_use_.load();
    do {
        if (bytes > soc_.memory_bytes || cur > soc_.memory_bytes - bytes) return false;
    } while (!memory_in_use_.compare_exchange_weak(cur, cur + bytes));
    return true;
}

void Device::release_memory(uint64_t bytes) { memory_in_use_.fetch_sub(bytes); }

uint64_t Device::busy_until_ns() const {
    uint64_t latest = 0;
    for (const auto& slot : streams_) {
        if (Stream* s = slot.load(std::memory_order_acquire)) latest = std::max(latest, s->tail_ns());
    }
    return latest;
}

bool Device::settle_for(int64_t ms, int32_t& error) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    error = 0;
    for (const auto& slot : streams_) {
        Stream* s = slot.load(std::memory_order_acquire);
        if (s == nullptr) continue;
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (!s->queue_.wait_idle_for(std::max<int64_t>(left.count(), 0))) return false;
        const int32_t e = s->queue_.take_error();
        if (error == 0) error = e;
    }
    return true;
}

int32_t Device::settle() {
    int32_t first = 0;
    for (const auto& slot : streams_) {
        Stream* s = slot.load(std::memory_order_acquire);
        if (s == nullptr) continue;
        s->queue_.wait_idle();
        const int32_t e = s->queue_.take_error();
        if (first == 0) first = e;
    }
    return first;
}

}  // namespace npusim
