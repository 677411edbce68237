// What HCCL reports to a profiler, and when the device logs its tasks.
//
//   hccl_reports NRANKS SWITCH OP...
//
// The program plays the profiler: it registers libprofapi's callbacks (API 9, compact 4,
// type names 11, hash ids 12), starts channel 50 (STARS logs) on every device and sends a
// START with SWITCH (hex) for devices 0..NRANKS-1; then each rank (a thread) runs the OPs
// (allreduce broadcast allgather reducescatter reduce alltoall alltoallv scatter sendrecv batch
// barrier stop stagger), "stop" sending a STOP for its device; "OP:COUNT" sets the element count
// (with HCCL_SIM_DATA=0 buffers are not touched, so counts may exceed the 1 MiB buffers);
// "stagger" makes ranks 0 and 1 exchange 64 Mi floats first (the others idle), so their
// streams are ready later than the others'. Every callback gets a global sequence
// number; at each callback the channels are drained, so a STARS log carries the sequence
// number of the first callback after it was written. Output (in sequence order):
//   A SEQ LEVEL TYPE TID BEGIN END ITEM                     API record
//   K SEQ TID TS DEVICE STREAM TASK TASKTYPE KERNELHASH     task track (5000/802)
//   O SEQ TID TS DTYPE ALGHASH COUNT GROUPHASH              HCCL op info (10000/10)
//   C SEQ LEVEL TYPE TID                                    any other compact record
//   S SEQ DEVICE FUNC STREAM TASK TIMESTAMP                 STARS log
//   T LEVEL TYPE NAME                                       type-name registration
//   H ID STRING                                             hash-id request
//   Q RANK TID NAME                                         a rank's thread and communicator
//   X RANK OP STATUS                                        an operation's result
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "hccl/hccl.h"
#include "seam/device_log.h"
#include "seam/hal.h"
#include "seam/profapi.h"

namespace {

std::mutex g_mutex;
uint64_t g_seq = 0;
std::vector<std::string> g_lines;
std::map<uint64_t, std::string> g_hashes;
uint32_t g_devices = 0;

uint32_t tid() { return static_cast<uint32_t>(syscall(SYS_gettid)); }

void emit(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
void emit(const char* fmt, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    g_lines.emplace_back(buf);
}

bool g_wide = false;  // chip type 15: 32-byte logs without a stream id (printed as 0)

// Called with g_mutex held.
void drain(uint64_t seq) {
    const int size = g_wide ? 32 : 64;
    for (uint32_t d = 0; d < g_devices; ++d) {
        char buf[64 * 256];
        for (;;) {
            const int n = prof_channel_read(d, PROF_CHANNEL_STARS_SOC_LOG, buf, sizeof buf);
            if (n <= 0) break;
            for (int off = 0; off + size <= n; off += size) {
                if (g_wide) {
                    StarsSocLogV6 log;
                    std::memcpy(&log, buf + off, sizeof log);
                    emit("S %llu %u %u 0 %u %llu", (unsigned long long)seq, d, STARS_HEAD_FUNC_TYPE(log.head),
                         log.taskId, (unsigned long long)log.timestamp);
                } else {
                    StarsSocLog log;
                    std::memcpy(&log, buf + off, sizeof log);
                    emit("S %llu %u %u %u %u %llu", (unsigned long long)seq, d, STARS_HEAD_FUNC_TYPE(log.head),
                         log.streamId, log.taskId, (unsigned long long)log.timestamp);
                }
            }
        }
    }
}

int32_t on_api(uint32_t, const MsprofApi* api) {
    std::lock_guard<std::mutex> lock(g_mutex);
    const uint64_t seq = ++g_seq;
    drain(seq);
    emit("A %llu %u %u %u %llu %llu %llu", (unsigned long long)seq, api->level, api->type, api->threadId,
         (unsigned long long)api->beginTime, (unsigned long long)api->endTime, (unsigned long long)api->itemId);
    return 0;
}

int32_t on_compact(uint32_t, const void* data, uint32_t length) {
    if (length != sizeof(MsprofCompactInfo)) return PROFAPI_ERROR;
    MsprofCompactInfo c;
    std::memcpy(&c, data, sizeof c);
    std::lock_guard<std::mutex> lock(g_mutex);
    const uint64_t seq = ++g_seq;
    drain(seq);
    if (c.level == MSPROF_REPORT_RUNTIME_LEVEL && c.type == MSPROF_REPORT_RUNTIME_TASK_TRACK_TYPE) {
        const MsprofRuntimeTrack& t = c.data.runtimeTrack;
        emit("K %llu %u %llu %u %u %u %llu %llu", (unsigned long long)seq, c.threadId, (unsigned long long)c.timeStamp,
             t.deviceId, t.streamId, t.taskId, (unsigned long long)t.taskType, (unsigned long long)t.kernelName);
    } else if (c.level == MSPROF_REPORT_NODE_LEVEL && c.type == MSPROF_REPORT_NODE_HCCL_OP_INFO_TYPE) {
        MsprofHcclOpInfo o;
        std::memcpy(&o, &c.data.hcclopInfo, sizeof o);
        emit("O %llu %u %llu %u %llu %llu %llu", (unsigned long long)seq, c.threadId, (unsigned long long)c.timeStamp,
             o.dataType, (unsigned long long)o.algType, (unsigned long long)o.count, (unsigned long long)o.groupName);
    } else {
        emit("C %llu %u %u %u", (unsigned long long)seq, c.level, c.type, c.threadId);
    }
    return 0;
}

int32_t on_type_name(uint16_t level, uint32_t type, const char* name, size_t len) {
    std::lock_guard<std::mutex> lock(g_mutex);
    emit("T %u %u %.*s", level, type, (int)len, name);
    return 0;
}

uint64_t on_hash(const char* info, size_t len) {
    // The profiler's own id: FNV-1a over the bytes.
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < len; ++i) h = (h ^ uint8_t(info[i])) * 0x100000001b3ULL;
    std::lock_guard<std::mutex> lock(g_mutex);
    g_hashes[h] = std::string(info, len);
    return h;
}

void command(uint32_t type, uint64_t bits, uint32_t first, uint32_t count) {
    MsprofCommandHandle cmd;
    std::memset(&cmd, 0, sizeof cmd);
    cmd.profSwitch = bits;
    cmd.devNums = count;
    for (uint32_t i = 0; i < count; ++i) cmd.devIdList[i] = first + i;
    cmd.modelId = 0xFFFFFFFFu;
    cmd.type = type;
    profSetProfCommand(&cmd, sizeof cmd);
}

struct Buffers {
    void* a = nullptr;
    void* b = nullptr;
    Buffers() {
        aclrtMalloc(&a, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST);
        aclrtMalloc(&b, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST);
    }
    ~Buffers() {
        aclrtFree(a);
        aclrtFree(b);
    }
};

HcclResult run(const std::string& spec, HcclComm comm, aclrtStream s, uint32_t r, uint32_t p, Buffers& buf) {
    const size_t colon = spec.find(':');
    const std::string op = spec.substr(0, colon);
    const uint64_t n = colon == std::string::npos ? 1024 : std::strtoull(spec.c_str() + colon + 1, nullptr, 10);
    if (op == "allreduce") return HcclAllReduce(buf.a, buf.b, n, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, s);
    if (op == "broadcast") return HcclBroadcast(buf.a, n, HCCL_DATA_TYPE_INT8, 0, comm, s);
    const uint64_t m = colon == std::string::npos ? 64 : n;
    if (op == "allgather") return HcclAllGather(buf.a, buf.b, m, HCCL_DATA_TYPE_FP16, comm, s);
    if (op == "reducescatter")
        return HcclReduceScatter(buf.a, buf.b, m, HCCL_DATA_TYPE_BFP16, HCCL_REDUCE_MAX, comm, s);
    if (op == "reduce") return HcclReduce(buf.a, buf.b, n, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, 0, comm, s);
    const uint64_t k = colon == std::string::npos ? 16 : n;
    if (op == "alltoall") return HcclAlltoAll(buf.a, k, HCCL_DATA_TYPE_INT64, buf.b, k, HCCL_DATA_TYPE_INT64, comm, s);
    if (op == "alltoallv") {
        std::vector<uint64_t> c(p, 8), d(p);
        for (uint32_t j = 0; j < p; ++j) d[j] = 8 * j;
        return HcclAlltoAllV(buf.a, c.data(), d.data(), HCCL_DATA_TYPE_UINT8, buf.b, c.data(), d.data(),
                             HCCL_DATA_TYPE_UINT8, comm, s);
    }
    if (op == "scatter") return HcclScatter(buf.a, buf.b, 32, HCCL_DATA_TYPE_FP64, 0, comm, s);
    if (op == "sendrecv") {
        const uint32_t peer = r ^ 1u;
        if (r % 2 == 0) return HcclSend(buf.a, 100, HCCL_DATA_TYPE_INT16, peer, comm, s);
        return HcclRecv(buf.b, 100, HCCL_DATA_TYPE_INT16, peer, comm, s);
    }
    if (op == "batch") {
        HcclSendRecvItem items[2] = {{HCCL_SEND, buf.a, 10, HCCL_DATA_TYPE_FP32, (r + 1) % p},
                                     {HCCL_RECV, buf.b, 10, HCCL_DATA_TYPE_FP32, (r + p - 1) % p}};
        return HcclBatchSendRecv(items, 2, comm, s);
    }
    if (op == "barrier") return HcclBarrier(comm, s);
    if (op == "stagger") {
        if (r > 1) return HCCL_SUCCESS;
        HcclSendRecvItem items[2] = {{HCCL_SEND, buf.a, 64ull << 20, HCCL_DATA_TYPE_FP32, r ^ 1u},
                                     {HCCL_RECV, buf.b, 64ull << 20, HCCL_DATA_TYPE_FP32, r ^ 1u}};
        return HcclBatchSendRecv(items, 2, comm, s);
    }
    if (op == "stop") {
        command(PROF_COMMANDHANDLE_TYPE_STOP, 0, r, 1);
        return HCCL_SUCCESS;
    }
    return HCCL_E_NOT_SUPPORT;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) return 2;
    const auto p = static_cast<uint32_t>(std::atoi(argv[1]));
    const uint64_t bits = std::strtoull(argv[2], nullptr, 16);
    std::vector<std::string> ops(argv + 3, argv + argc);
    g_devices = p;

    MsprofRegisterProfileCallback(PROFILE_REPORT_API_C_CALLBACK, reinterpret_cast<void*>(on_api), sizeof(void*));
    MsprofRegisterProfileCallback(PROFILE_REPORT_COMPACT_CALLBACK, reinterpret_cast<void*>(on_compact), sizeof(void*));
    MsprofRegisterProfileCallback(PROFILE_REPORT_REG_TYPE_INFO_C_CALLBACK, reinterpret_cast<void*>(on_type_name),
                                  sizeof(void*));
    MsprofRegisterProfileCallback(PROFILE_REPORT_GET_HASH_ID_C_CALLBACK, reinterpret_cast<void*>(on_hash),
                                  sizeof(void*));
    if (aclInit(nullptr) != ACL_SUCCESS) return 3;
    int64_t version = 0;
    halGetDeviceInfo(0, MODULE_TYPE_SYSTEM, INFO_TYPE_VERSION, &version);
    g_wide = ((version >> 8) & 0xFF) == SEAM_CHIP_TYPE_950;
    for (uint32_t d = 0; d < p; ++d) {
        StarsSocLogConfig cfg{};
        cfg.acsqTask = 1;
        prof_start_para para{};
        para.user_data = &cfg;
        para.user_data_size = sizeof cfg;
        prof_drv_start(d, PROF_CHANNEL_STARS_SOC_LOG, &para);
    }
    command(PROF_COMMANDHANDLE_TYPE_START, bits, 0, p);

    HcclRootInfo info;
    if (HcclGetRootInfo(&info) != HCCL_SUCCESS) return 4;
    std::vector<std::string> out(p);
    std::vector<std::thread> threads;
    for (uint32_t r = 0; r < p; ++r) {
        threads.emplace_back([&, r] {
            aclrtSetDevice(int32_t(r));
            aclrtStream s = nullptr;
            aclrtCreateStream(&s);
            HcclComm comm = nullptr;
            if (HcclCommInitRootInfo(p, &info, r, &comm) != HCCL_SUCCESS) return;
            char name[128] = {};
            HcclGetCommName(comm, name);
            out[r] += "Q " + std::to_string(r) + " " + std::to_string(tid()) + " " + name + "\n";
            Buffers buf;
            for (const auto& op : ops) {
                const HcclResult st = run(op, comm, s, r, p, buf);
                out[r] += "X " + std::to_string(r) + " " + op + " " + std::to_string(int(st)) + "\n";
            }
            aclrtSynchronizeStream(s);
            HcclCommDestroy(comm);
            aclrtDestroyStream(s);
        });
    }
    for (auto& t : threads) t.join();
    {
        std::lock_guard<std::mutex> lock(g_mutex);
        drain(++g_seq);
        for (const auto& l : g_lines) std::printf("%s\n", l.c_str());
        for (const auto& [id, s] : g_hashes) std::printf("H %llu %s\n", (unsigned long long)id, s.c_str());
    }
    for (const auto& o : out) std::fputs(o.c_str(), stdout);
    return 0;
}
