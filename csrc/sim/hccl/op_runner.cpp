#include "op_runner.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include "algorithm_select.h"
#include "core/clock.h"
#include "core/memory.h"
#include "core/platform.h"
#include "core/timing_model.h"
#include "dtype.h"
#include "hccl_reporter.h"
#include "hcomm/communicator.h"

namespace hccl {

using npusim::hcomm::Communicator;
using npusim::hcomm::Outcome;

namespace {

// Host cost of one HCCL call (timing.toml hccl_api_ns; the ACL cost when the table has none). The SoC
// is fixed for the process, so the lookup happens once.
uint64_t hccl_api_ns(const npusim::SocSpec& soc) {
    static const uint64_t ns = [&soc] {
        const double v = npusim::TimingModel::active().soc(soc.name).hccl_api_ns;
        return v > 0 ? static_cast<uint64_t>(std::llround(v)) : soc.host_api_ns;
    }();
    return ns;
}

// ACL's codes for a failed collective task, returned by the stream's next synchronisation: the
// peers did not arrive within the execution timeout (CANN: "fftsplus timeout", EI0002), or the
// task failed otherwise (arguments that disagree between ranks, a transport error).
constexpr int32_t kAclTaskTimeout = 507048;    // ACL_ERROR_RT_FFTS_PLUS_TIMEOUT
constexpr int32_t kAclTaskException = 507049;  // ACL_ERROR_RT_FFTS_PLUS_EXCEPTION

// The application's buffers an enqueued operation reads or writes, kept alive until it is done
// (MemoryRegistry::pin_all): a synchronisation that fails while the operation waits for its peers
// returns at once, and the application may then free the buffers.
std::vector<npusim::MemoryPin> pin_buffers(std::initializer_list<const void*> buffers) {
    return npusim::Platform::instance().memory().pin_all(buffers);
}

int32_t stream_error(HcclResult st) {
    if (st == HCCL_SUCCESS) return 0;
    return st == HCCL_E_TIMEOUT ? kAclTaskTimeout : kAclTaskException;
}

// One enqueued operation as its progress job sees it. The communicator is not owned: its
// destructor drains the jobs first.
struct OpContext {
    Communicator* comm = nullptr;
    npusim::Device* device = nullptr;
    npusim::Stream* stream = nullptr;
    uint64_t t0 = 0;
    uint64_t host_ns = 0;
    npusim::TaskReservation reservation;
    uint64_t ticket = 0;
    npusim::TaskRecord task;
    bool scheduled = false;
};

HcclResult begin(HcclComm handle, aclrtStream stream, std::shared_ptr<Communicator>& comm, OpContext& ctx) {
    npusim::Platform& platform = npusim::Platform::instance();
    if (!platform.ok()) return HCCL_E_RUNTIME;
    if (handle == nullptr) return HCCL_E_PTR;
    comm = npusim::hcomm::find_comm(handle);
    if (!comm) return HCCL_E_PARA;
    ctx.comm = comm.get();
    ctx.device = platform.device(comm->device());
    if (ctx.device == nullptr) return HCCL_E_RUNTIME;
    ctx.stream = stream == nullptr ? ctx.device->default_stream() : platform.resolve_stream(stream);
    if (ctx.stream == nullptr || ctx.stream->device() != comm->device()) return HCCL_E_PARA;
    npusim::Clock& clock = platform.clock();
    ctx.t0 = clock.now();
    ctx.host_ns = hccl_api_ns(ctx.device->soc());
    clock.spend(ctx.host_ns);
    return HCCL_SUCCESS;
}

// At enqueue, on the calling thread: the task id, submission time and jitter draw of the
// operation's task, and the hold that keeps later work on the stream behind it.
npusim::TaskRecord reserve(OpContext& ctx) {
    ctx.reservation = ctx.device->reserve(*ctx.stream);
    ctx.ticket = ctx.stream->queue().hold();
    npusim::TaskRecord rec;
    rec.device = ctx.device->id();
    rec.stream_id = ctx.stream->id();
    rec.task_id = ctx.reservation.task_id;
    rec.submit_ns = ctx.reservation.submit_ns;
    return rec;
}

// On the progress thread, once everything issued to the stream before the operation is placed:
// the device time the stream could start it.
uint64_t earliest(OpContext& ctx) {
    ctx.stream->queue().wait_turn(ctx.ticket);
    return ctx.device->earliest_start(*ctx.stream, ctx.reservation.submit_ns);
}

// Places the operation's task: called when the ranks agree (AgreedFn). The task begins when
// this rank's stream reaches it and waits inside until every rank's stream has (`start_ns`, the
// latest of the ranks' readiness); its modelled work follows, so its span is the wait for the
// slowest rank plus the modelled time, and the ranks' work starts at the same device time.
void schedule(OpContext& ctx, uint64_t start_ns, double duration_ns) {
    npusim::TaskDesc desc;
    desc.kind = npusim::TaskKind::Collective;
    desc.duration_ns = static_cast<uint64_t>(std::llround(std::max(0.0, duration_ns)));
    desc.work_not_before_ns = start_ns;
    desc.stars_task_type = prof::kStarsSdma;
    ctx.task = ctx.device->schedule_reserved(*ctx.stream, desc, ctx.reservation);
    ctx.scheduled = true;
}

// Back on the progress thread once the data is final: the device logs, then the stream goes on.
// A failed operation leaves no device task; its error waits for the stream's next synchronisation.
void finish(OpContext& ctx, HcclResult status) {
    if (status == HCCL_SUCCESS && ctx.scheduled) {
        // A collective runs as one FFTS+ task with one data-movement sub-task.
        ctx.device->emit_task_logs(ctx.task, prof::kStarsSdma, 1);
    }
    if (status != HCCL_SUCCESS) ctx.comm->note_async_error(status);
    ctx.stream->queue().release(ctx.ticket, stream_error(status));
}

// The bytes the cost model charges (the primitive's full vector, see cost_model.h).
double model_bytes(const OpDesc& d, uint32_t p, uint64_t agreed) {
    const double es = double(dtype_size(d.dtype));
    auto sum = [](const std::vector<uint64_t>& v) {
        double s = 0;
        for (uint64_t x : v) s += double(x);
        return s;
    };
    switch (d.kind) {
        case OpKind::AllReduce:
        case OpKind::Reduce:
        case OpKind::Broadcast: return double(d.count) * es;
        case OpKind::AllGather:
        case OpKind::ReduceScatter:
        case OpKind::AlltoAll:
        case OpKind::Scatter: return double(p) * double(d.count) * es;
        case OpKind::AllGatherV: return sum(d.recv_counts) * es;
        case OpKind::ReduceScatterV: return sum(d.send_counts) * es;
        case OpKind::AlltoAllV: return double(agreed);
        case OpKind::Barrier: return 0;
    }
    return 0;
}

// The bytes this rank alone knows an operation moves: the cost model's figure, except for
// AlltoAllV, whose volume the ranks agree on (the largest any rank sends or receives); the
// algorithm reported at enqueue is chosen from this rank's share.
double local_model_bytes(const OpDesc& d, uint32_t p) {
    if (d.kind != OpKind::AlltoAllV) return model_bytes(d, p, 0);
    uint64_t sent = 0, received = 0;
    for (uint64_t x : d.send_counts) sent += x;
    for (uint64_t x : d.recv_counts) received += x;
    return double(std::max(sent, received)) * double(dtype_size(d.dtype));
}

}  // namespace

HcclResult check_buffer(const void* buf, uint64_t count, uint32_t dtype) {
    if (!valid_dtype(dtype)) return HCCL_E_PARA;
    if (count > 0 && buf == nullptr) return HCCL_E_PTR;
    return HCCL_SUCCESS;
}

bool fits(uint64_t count, uint32_t dtype, uint64_t factor) {
    const uint64_t es = dtype_size(dtype);
    if (es == 0 || factor == 0) return true;
    return count <= uint64_t(std::numeric_limits<int64_t>::max()) / es / factor;
}

uint32_t comm_size(HcclComm comm) {
    auto c = npusim::hcomm::find_comm(comm);
    return c ? c->size() : 0;
}

uint32_t comm_rank(HcclComm comm) {
    auto c = npusim::hcomm::find_comm(comm);
    return c ? c->rank() : 0;
}

HcclResult run_collective(HcclComm comm, aclrtStream stream, const CollectiveCall& call) {
    std::shared_ptr<Communicator> owner;
    OpContext ctx;
    if (HcclResult st = begin(comm, stream, owner, ctx); st != HCCL_SUCCESS) return st;
    const uint32_t p = ctx.comm->size(), r = ctx.comm->rank();
    const uint32_t chip = ctx.device->soc().chip_type;
    const npusim::TaskRecord track = reserve(ctx);
    if (call.report) {
        prof::OpReport report;
        report.item_name = call.item_name;
        report.dtype = call.desc.dtype;
        report.count = call.report_count;
        report.algorithm = plan_collective(call.desc, *ctx.comm, chip, local_model_bytes(call.desc, p)).name;
        report.group = ctx.comm->name();
        report.t0 = ctx.t0;
        report.host_ns = ctx.host_ns;
        prof::report_op(report, track);
    }
    ctx.comm->enqueue([ctx, desc = call.desc, in = call.in, out = call.out, p, r, chip,
                       pins = pin_buffers({call.in, call.out})]() mutable {
        const auto agreed = [&](const Outcome& o) {
            const double bytes = model_bytes(desc, p, o.agreed);
            const Plan plan = plan_collective(desc, *ctx.comm, chip, bytes);
            double duration = plan_cost_ns(plan, primitive_of(desc.kind), bytes);
            if (p == 1 && bytes > 0) duration = double(ctx.device->device_copy_ns(static_cast<uint64_t>(bytes)));
            schedule(ctx, o.start_ns, duration);
        };
        const uint64_t ready = earliest(ctx);
        const Outcome o =
            ctx.comm->collective(encode(desc), ready, in, desc.input_bytes(r, p), out, desc.output_bytes(r, p), agreed);
        finish(ctx, o.status);
        pins.clear();
    });
    return HCCL_SUCCESS;
}

HcclResult run_p2p(HcclComm comm, aclrtStream stream, const P2PCall& call) {
    std::shared_ptr<Communicator> owner;
    OpContext ctx;
    if (HcclResult st = begin(comm, stream, owner, ctx); st != HCCL_SUCCESS) return st;
    const uint32_t p = ctx.comm->size(), me = ctx.comm->rank();
    for (const auto& item : call.items) {
        if (item.peer >= p || item.peer == me) return HCCL_E_PARA;
    }
    const npusim::TaskRecord track = reserve(ctx);
    prof::OpReport report;
    report.item_name = call.item_name;
    report.dtype = call.report_dtype;
    report.count = call.report_count;
    report.algorithm = "P2P";
    report.group = ctx.comm->name();
    report.t0 = ctx.t0;
    report.host_ns = ctx.host_ns;
    prof::report_op(report, track);
    std::vector<npusim::MemoryPin> pins;
    for (const auto& item : call.items) {
        for (npusim::MemoryPin& pin : pin_buffers({item.src, item.dst})) pins.push_back(std::move(pin));
    }
    ctx.comm->enqueue([ctx, items = call.items, me, pins = std::move(pins)]() mutable {
        const auto agreed = [&](const Outcome& o) {
            // Sends and receives proceed at once; each direction takes its messages one after another.
            double sending = 0, receiving = 0;
            for (const auto& item : items) {
                double t = point_to_point_ns(double(item.bytes), link_between(*ctx.comm, me, item.peer));
                if (const npusim::HcclTiming* h = topology_timing(ctx.comm->topology()))
                    t += staging_ns(double(item.bytes), h->staging_bytes, h->staging_chunk_ns);
                (item.send ? sending : receiving) += t;
            }
            schedule(ctx, o.start_ns, std::max(sending, receiving));
        };
        const uint64_t ready = earliest(ctx);
        const Outcome o = ctx.comm->p2p(ready, items, agreed);
        finish(ctx, o.status);
        pins.clear();
    });
    return HCCL_SUCCESS;
}

}  // namespace hccl
