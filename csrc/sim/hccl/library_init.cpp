// What libhccl sets up when it is loaded: the collective executor, the data step and the
// barrier it lends libhcomm, and its profiling command handle (module 3).
#include "collective_exec.h"
#include "data_step.h"
#include "hccl_reporter.h"
#include "hcomm/comm_api.h"
#include "hcomm/exchange.h"
#include "op_runner.h"

namespace hccl {

namespace {

// HcclBarrier: a collective that moves nothing. CANN reports no operation for it; the
// device still runs (and logs) its task.
HcclResult barrier(HcclComm comm, aclrtStream stream) {
    CollectiveCall call;
    call.desc.kind = OpKind::Barrier;
    call.item_name = "hcom_barrier_";
    call.report = false;
    return run_collective(comm, stream, call);
}

__attribute__((constructor)) void load_hccl() {
    npusim::hcomm::set_collective_executor(execute_collective);
    npusim::hcomm::set_data_step(run_data_step);
    npusim::hcomm::set_barrier(barrier);
    prof::install();
}

}  // namespace

}  // namespace hccl
