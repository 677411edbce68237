// Destroying and querying communicators, error strings, process-wide settings, barrier hand-off.
#include <atomic>
#include <cstring>

#include "comm_api.h"
#include "communicator.h"

namespace npusim::hcomm {

namespace {
std::atomic<int32_t> g_deterministic{0};
std::atomic<BarrierFn> g_barrier{nullptr};
}  // namespace

HcclResult destroy_comm(HcclComm comm) {
    auto c = unregister_comm(comm);
    if (!c) return comm == nullptr ? HCCL_E_PTR : HCCL_E_PARA;
    c->leave();
    return HCCL_SUCCESS;
}

HcclResult rank_size(HcclComm comm, uint32_t* size) {
    if (size == nullptr) return HCCL_E_PTR;
    auto c = find_comm(comm);
    if (!c) return comm == nullptr ? HCCL_E_PTR : HCCL_E_PARA;
    *size = c->size();
    return HCCL_SUCCESS;
}

HcclResult rank_id(HcclComm comm, uint32_t* rank) {
    if (rank == nullptr) return HCCL_E_PTR;
    auto c = find_comm(comm);
    if (!c) return comm == nullptr ? HCCL_E_PTR : HCCL_E_PARA;
    *rank = c->rank();
    return HCCL_SUCCESS;
}

HcclResult comm_name(HcclComm comm, char* name) {
    if (name == nullptr) return HCCL_E_PTR;
    auto c = find_comm(comm);
    if (!c) return comm == nullptr ? HCCL_E_PTR : HCCL_E_PARA;
    const size_t n = std::min<size_t>(c->name().size(), COMM_NAME_MAX_LENGTH - 1);
    std::memcpy(name, c->name().data(), n);
    name[n] = '\0';
    return HCCL_SUCCESS;
}

HcclResult async_error(HcclComm comm, HcclResult* error) {
    if (error == nullptr) return HCCL_E_PTR;
    const auto c = find_comm(comm);
    if (!c) return comm == nullptr ? HCCL_E_PTR : HCCL_E_PARA;
    *error = c->async_error();  // the first failure of an enqueued operation (peer timeout, transport, ...)
    return HCCL_SUCCESS;
}

const char* error_string(HcclResult code) {
    switch (code) {
        case HCCL_SUCCESS: return "success";
        case HCCL_E_PARA: return "parameter error";
        case HCCL_E_PTR: return "empty pointer";
        case HCCL_E_MEMORY: return "memory error";
        case HCCL_E_INTERNAL: return "internal error";
        case HCCL_E_NOT_SUPPORT: return "not supported";
        case HCCL_E_NOT_FOUND: return "not found";
        case HCCL_E_UNAVAIL: return "resource unavailable";
        case HCCL_E_SYSCALL: return "system call error";
        case HCCL_E_TIMEOUT: return "timeout";
        case HCCL_E_OPEN_FILE_FAILURE: return "cannot open file";
        case HCCL_E_TCP_CONNECT: return "tcp connect error";
        case HCCL_E_ROCE_CONNECT: return "roce connect error";
        case HCCL_E_TCP_TRANSFER: return "tcp transfer error";
        case HCCL_E_ROCE_TRANSFER: return "roce transfer error";
        case HCCL_E_RUNTIME: return "runtime error";
        case HCCL_E_DRV: return "driver error";
        case HCCL_E_PROFILING: return "profiling error";
        case HCCL_E_CCE: return "cce error";
        case HCCL_E_NETWORK: return "network error";
        case HCCL_E_AGAIN: return "try again";
        case HCCL_E_REMOTE: return "remote error";
        case HCCL_E_SUSPENDING: return "suspending";
        case HCCL_E_OPRETRY_FAIL: return "operation retry failed";
        case HCCL_E_OOM: return "out of memory";
        case HCCL_E_IN_STATUS: return "in status";
        default: return "unknown error";
    }
}

HcclResult set_config(HcclConfig config, HcclConfigValue value) {
    if (config != HCCL_DETERMINISTIC) return HCCL_E_PARA;
    if (value.value != 0 && value.value != 1) return HCCL_E_PARA;
    g_deterministic.store(value.value);  // reductions are deterministic either way
    return HCCL_SUCCESS;
}

HcclResult get_config(HcclConfig config, HcclConfigValue* value) {
    if (value == nullptr) return HCCL_E_PTR;
    if (config != HCCL_DETERMINISTIC) return HCCL_E_PARA;
    value->value = g_deterministic.load();
    return HCCL_SUCCESS;
}

void set_barrier(BarrierFn fn) { g_barrier.store(fn); }

HcclResult barrier(HcclComm comm, aclrtStream stream) {
    BarrierFn fn = g_barrier.load();
    if (fn == nullptr) {
        (void)collective_executor();  // loads libhccl, which registers the barrier
        fn = g_barrier.load();
    }
    return fn != nullptr ? fn(comm, stream) : HCCL_E_NOT_SUPPORT;
}

// The fields before HCCL_COMM_CONFIG_OP_EXPANSION_MODE are honoured (buffer size, the
// deterministic flag — the simulator's reductions are deterministic anyway — and the name).
// hcclExecTimeOut and hcclAlgo are read too, but the capability is a count of fields in
// CANN's order, and the fields between (expansion mode, world rank id, job id, ...) are not
// modelled, so they cannot be claimed.
uint32_t config_capability() { return HCCL_COMM_CONFIG_OP_EXPANSION_MODE; }

}  // namespace npusim::hcomm
