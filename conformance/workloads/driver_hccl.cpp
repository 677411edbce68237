// The driver's HCCL commands: communicators of a single-process job and their collectives.
#include "driver_common.h"

#ifdef CONFORMANCE_HAVE_HCCL
namespace conformance::driver {

// One communicator per rank of a single-process job (HcclCommInitAll over devices 0..N-1), and per
// rank a pair of 1 MiB device buffers allocated on first use (on the calling thread's device).
constexpr size_t kHcclBufferBytes = 1u << 20;
static std::mutex g_hccl_mutex;
static std::vector<HcclComm> g_comms;
static std::map<int, std::pair<void*, void*>> g_hccl_buffers;

// NULL when there is no communicator for the rank (hccl_init_all failed or was not called).
static HcclComm comm_arg(const std::string& word) {
    std::lock_guard<std::mutex> lock(g_hccl_mutex);
    auto rank = static_cast<size_t>(to_int(word));
    return rank < g_comms.size() ? g_comms[rank] : nullptr;
}

static bool have_comm(HcclComm comm, const char* function, const Args& args) {
    if (comm != nullptr) return true;
    Json event("call");
    event.str("fn", function).boolean("no_communicator", true).num("tid", conformance::thread_id());
    if (!args.label.empty()) event.str("label", args.label);
    conformance::emit(event);
    return false;
}

static std::pair<void*, void*> hccl_buffers(int rank) {
    std::lock_guard<std::mutex> lock(g_hccl_mutex);
    auto found = g_hccl_buffers.find(rank);
    if (found != g_hccl_buffers.end()) return found->second;
    std::pair<void*, void*> buffers{nullptr, nullptr};
    if (auto malloc_fn = RESOLVE(aclrtMalloc); malloc_fn != nullptr) {
        malloc_fn(&buffers.first, kHcclBufferBytes, ACL_MEM_MALLOC_HUGE_FIRST);
        malloc_fn(&buffers.second, kHcclBufferBytes, ACL_MEM_MALLOC_HUGE_FIRST);
    }
    g_hccl_buffers[rank] = buffers;
    return buffers;
}

void cmd_hccl_init_all(const Args& args) {
    auto count = static_cast<uint32_t>(to_int(args.at(0)));
    std::vector<int32_t> devices(count);
    for (uint32_t i = 0; i < count; ++i) devices[i] = static_cast<int32_t>(i);
    std::vector<HcclComm> comms(count, nullptr);
    ACL_CALL(HcclCommInitAll, args, count, devices.data(), comms.data());
    call.json().num("ranks", count);
    if (result == 0) {
        std::lock_guard<std::mutex> lock(g_hccl_mutex);
        g_comms = comms;
    }
    call.emit();
}

void cmd_hccl_comm_name(const Args& args) {
    HcclComm comm = comm_arg(args.at(0));
    if (!have_comm(comm, "HcclGetCommName", args)) return;
    char name[512] = {0};
    ACL_CALL(HcclGetCommName, args, comm, name);
    call.json().inum("rank", to_int(args.at(0))).str("name", name);
    uint32_t size = 0;
    if (auto rank_size = RESOLVE(HcclGetRankSize); rank_size != nullptr) rank_size(comm, &size);
    call.json().num("rank_size", size);
    call.emit();
}

static void hccl_annotate(Call& call, const Args& args, uint64_t count) {
    call.json().inum("rank", to_int(args.at(0))).str("stream", args.at(1)).inum("stream_id", stream_id_of(args.at(1)));
    call.json().num("count", count).num("dtype_bytes", 4);
}

void cmd_hccl_collective(const std::string& op, const Args& args) {
    int rank = static_cast<int>(to_int(args.at(0)));
    HcclComm comm = comm_arg(args.at(0));
    if (!have_comm(comm, ("hccl_" + op).c_str(), args)) return;
    aclrtStream stream = stream_arg(args.at(1));
    auto [send, recv] = hccl_buffers(rank);
    if (op == "barrier") {
        ACL_CALL(HcclBarrier, args, comm, stream);
        hccl_annotate(call, args, 0);
        call.emit();
        return;
    }
    auto count = static_cast<uint64_t>(to_int(args.at(2)));
    if (op == "allreduce") {
        ACL_CALL(HcclAllReduce, args, send, recv, count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream);
        hccl_annotate(call, args, count);
        call.emit();
    } else if (op == "broadcast") {
        auto root = static_cast<uint32_t>(to_int(args.opt(3, "0")));
        ACL_CALL(HcclBroadcast, args, send, count, HCCL_DATA_TYPE_FP32, root, comm, stream);
        hccl_annotate(call, args, count);
        call.emit();
    } else if (op == "allgather") {
        ACL_CALL(HcclAllGather, args, send, recv, count, HCCL_DATA_TYPE_FP32, comm, stream);
        hccl_annotate(call, args, count);
        call.emit();
    } else if (op == "reducescatter") {
        ACL_CALL(HcclReduceScatter, args, send, recv, count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream);
        hccl_annotate(call, args, count);
        call.emit();
    } else {
        die("unknown HCCL operation " + op);
    }
}

void cmd_hccl_destroy(const Args& args) {
    std::vector<HcclComm> comms;
    {
        std::lock_guard<std::mutex> lock(g_hccl_mutex);
        comms.swap(g_comms);
    }
    for (HcclComm comm : comms) {
        ACL_CALL(HcclCommDestroy, args, comm);
        call.emit();
    }
}

}  // namespace conformance::driver
#endif  // CONFORMANCE_HAVE_HCCL
