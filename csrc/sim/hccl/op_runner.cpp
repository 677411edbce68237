#include "op_runner.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "algorithm_select.h"
#include "core/clock.h"
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
        const double v = npusim::TimingModel::builtin().soc(soc.name).hccl_api_ns;
        return v > 0 ? static_cast<uint64_t>(std::llround(v)) : soc.host_api_ns;
    }();
    return ns;
}

struct OpContext {
    std::shared_ptr<Communicator> comm;
    npusim::Device* device = nullptr;
    npusim::Stream* stream = nullptr;
    uint64_t t0 = 0;
    uint64_t host_ns = 0;
    uint64_t earliest = 0;
    npusim::TaskRecord task;
    bool scheduled = false;
};

HcclResult begin(HcclComm handle, aclrtStream stream, OpContext& ctx) {
    npusim::Platform& platform = npusim::Platform::instance();
    if (!platform.ok()) return HCCL_E_RUNTIME;
    if (handle == nullptr) return HCCL_E_PTR;
    ctx.comm = npusim::hcomm::find_comm(handle);
    if (!ctx.comm) return HCCL_E_PARA;
    ctx.device = platform.device(ctx.comm->device());
    if (ctx.device == nullptr) return HCCL_E_RUNTIME;
    ctx.stream = stream == nullptr ? ctx.device->default_stream() : platform.resolve_stream(stream);
    if (ctx.stream == nullptr || ctx.stream->device() != ctx.comm->device()) return HCCL_E_PARA;
    npusim::Clock& clock = platform.clock();
    ctx.t0 = clock.now();
    ctx.host_ns = hccl_api_ns(ctx.device->soc());
    clock.spend(ctx.host_ns);
    ctx.earliest = ctx.device->earliest_start(*ctx.stream);
    return HCCL_SUCCESS;
}

// Schedules the operation's task: called when the ranks agree (AgreedFn), so ranks in one
// process are scheduled at the same moment of the simulated clock.
void schedule(OpContext& ctx, uint64_t start_ns, double duration_ns) {
    npusim::TaskDesc desc;
    desc.kind = npusim::TaskKind::Collective;
    desc.duration_ns = static_cast<uint64_t>(std::llround(std::max(0.0, duration_ns)));
    desc.not_before_ns = start_ns;
    desc.stars_task_type = prof::kStarsSdma;
    ctx.task = ctx.device->schedule(*ctx.stream, desc);
    ctx.scheduled = true;
}

// Back on the calling thread: the reports, then the device logs.
void finish(OpContext& ctx, const prof::OpReport* report) {
    if (!ctx.scheduled) return;
    if (report != nullptr) prof::report_op(*report, ctx.task);
    // A collective runs as one FFTS+ task with one data-movement sub-task.
    ctx.device->emit_task_logs(ctx.task, prof::kStarsSdma, 1);
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
    OpContext ctx;
    if (HcclResult st = begin(comm, stream, ctx); st != HCCL_SUCCESS) return st;
    const uint32_t p = ctx.comm->size(), r = ctx.comm->rank();
    Plan plan;
    const auto agreed = [&](const Outcome& o) {
        const double bytes = model_bytes(call.desc, p, o.agreed);
        plan = plan_collective(call.desc.kind, *ctx.comm, ctx.device->soc().chip_type, bytes);
        double duration = plan_cost_ns(plan, primitive_of(call.desc.kind), bytes);
        if (p == 1 && bytes > 0) duration = double(ctx.device->device_copy_ns(static_cast<uint64_t>(bytes)));
        schedule(ctx, o.start_ns, duration);
    };
    const Outcome o = ctx.comm->collective(encode(call.desc), ctx.earliest, call.in, call.desc.input_bytes(r, p),
                                           call.out, call.desc.output_bytes(r, p), agreed);
    if (o.status != HCCL_SUCCESS) return o.status;
    prof::OpReport report;
    report.item_name = call.item_name;
    report.dtype = call.desc.dtype;
    report.count = call.report_count;
    report.algorithm = plan.name;
    report.group = ctx.comm->name();
    report.t0 = ctx.t0;
    report.host_ns = ctx.host_ns;
    finish(ctx, call.report ? &report : nullptr);
    return HCCL_SUCCESS;
}

HcclResult run_p2p(HcclComm comm, aclrtStream stream, const P2PCall& call) {
    OpContext ctx;
    if (HcclResult st = begin(comm, stream, ctx); st != HCCL_SUCCESS) return st;
    const uint32_t p = ctx.comm->size(), me = ctx.comm->rank();
    for (const auto& item : call.items) {
        if (item.peer >= p || item.peer == me) return HCCL_E_PARA;
    }
    const auto agreed = [&](const Outcome& o) {
        // Sends and receives proceed at once; each direction takes its messages one after another.
        double sending = 0, receiving = 0;
        for (const auto& item : call.items) {
            double t = point_to_point_ns(double(item.bytes), link_between(*ctx.comm, me, item.peer));
            if (const npusim::HcclTiming* h = topology_timing(ctx.comm->topology()))
                t += staging_ns(double(item.bytes), h->staging_bytes, h->staging_chunk_ns);
            (item.send ? sending : receiving) += t;
        }
        schedule(ctx, o.start_ns, std::max(sending, receiving));
    };
    const Outcome o = ctx.comm->p2p(ctx.earliest, call.items, agreed);
    if (o.status != HCCL_SUCCESS) return o.status;
    prof::OpReport report;
    report.item_name = call.item_name;
    report.dtype = call.report_dtype;
    report.count = call.report_count;
    report.algorithm = "P2P";
    report.group = ctx.comm->name();
    report.t0 = ctx.t0;
    report.host_ns = ctx.host_ns;
    finish(ctx, &report);
    return HCCL_SUCCESS;
}

}  // namespace hccl
