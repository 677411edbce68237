// A workload for fault injection: run with libmspti.so preloaded and NPU_SIM_FAULTS set.
//
// It subscribes, enables every activity kind and the runtime callbacks, then does host work
// (allocations, copies, fills, host markers, external correlation), device work (kernel
// launches, a device marker) and optionally HCCL collectives on two ranks, and flushes. It
// tolerates every CANN failure (a failed call is counted, and dependent work is skipped) and it
// knows what it did, so it prints what msPTI owes it:
//   K kind=<k> nominal=<n> expected=<n> delivered=<n> dropped=<n> r1=<n> .. r6=<n>
//       nominal: what a run without faults owes (-1 when only the simulator knows it); expected: what
//       this run produced (successful calls; for the API kinds, the API reports of the kind's level
//       the simulated libprofapi handed to msPTI); made: API reports CANN made (API kinds only);
//       delivered, dropped in all and by reason (mspti_ext.h)
//   M expected=<n> delivered=<n> nominal=<n> host_expected=<n> host_delivered=<n> host_nominal=<n>
//       MARKER records split by source: device halves (marks on a stream) and host marks
//   A <msPTI call> <result>                              only for results other than documented
//   F function=<f> calls=<n> injected=<n>                the fault site's figures (one line per function
//                                                        of argv[1], a comma-separated list; injected is
//                                                        the process's total)
//   W <CANN call> <error>                                CANN failures the workload tolerated
//   C enter=<n> exit=<n> unpaired=<n>                    callbacks
// argv[1] = the faulted function (for the figures), argv[2] = 1 to run the HCCL part,
// argv[3] = how many sessions (subscribe ... unsubscribe) to run, default 1.
// With argv[1] = "--fault-points" it prints the simulator's fault points ("P <name>", the list scanned
// from its sources at build time) and exits.
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "core/fakes.h"
#include "core/fault_plan.h"
#include "hccl/hccl.h"
#include "mspti/mspti.h"
#include "mspti/mspti_ext.h"
#include "mstx/ms_tools_ext.h"
#include "profapi/profapi_internal.h"
#include "seam/profapi.h"

namespace {

constexpr int kKinds = MSPTI_ACTIVITY_KIND_COUNT;

std::mutex g_mutex;
uint64_t g_delivered[kKinds] = {};
uint64_t g_device_markers = 0;  // MARKER records of source DEVICE, among g_delivered[MARKER]
uint64_t g_host_markers = 0;    // and of source HOST
std::atomic<uint64_t> g_enter{0}, g_exit{0};
thread_local int t_depth = 0;
std::atomic<int> g_unpaired{0};

void Request(uint8_t** buffer, size_t* size, size_t* max_records) {
    *size = 256 * 1024;
    *buffer = static_cast<uint8_t*>(std::malloc(*size));
    *max_records = 0;
}

void Complete(uint8_t* buffer, size_t size, size_t valid) {
    if (buffer == nullptr) return;
    std::lock_guard<std::mutex> lock(g_mutex);
    if (valid > size) std::printf("A complete validSize %zu > size %zu\n", valid, size);
    msptiActivity* r = nullptr;
    msptiResult rc;
    while ((rc = msptiActivityGetNextRecord(buffer, valid, &r)) == MSPTI_SUCCESS) {
        if (r->kind > 0 && r->kind < kKinds) g_delivered[r->kind]++;
        if (r->kind == MSPTI_ACTIVITY_KIND_MARKER) {
            const auto source = reinterpret_cast<const msptiActivityMarker*>(r)->sourceKind;
            if (source == MSPTI_ACTIVITY_SOURCE_KIND_DEVICE) ++g_device_markers;
            if (source == MSPTI_ACTIVITY_SOURCE_KIND_HOST) ++g_host_markers;
        }
    }
    if (rc != MSPTI_ERROR_MAX_LIMIT_REACHED) std::printf("A msptiActivityGetNextRecord %d\n", rc);
    std::free(buffer);
}

void Callback(void*, msptiCallbackDomain, msptiCallbackId, const msptiCallbackData* data) {
    if (data->callbackSite == MSPTI_API_ENTER) {
        ++g_enter;
        ++t_depth;
    } else {
        ++g_exit;
        if (--t_depth < 0) {
            ++g_unpaired;
            t_depth = 0;
        }
    }
}

// How long an msPTI call blocked the application ("T <call> <ms>").
template <typename Fn>
msptiResult Timed(const char* what, Fn&& fn) {
    const auto start = std::chrono::steady_clock::now();
    const msptiResult rc = fn();
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
    std::printf("T %s %lld\n", what, static_cast<long long>(ms.count()));
    return rc;
}

// Documented results of the msPTI calls the workload makes.
void Expect(const char* what, msptiResult got, msptiResult want = MSPTI_SUCCESS) {
    if (got != want) std::printf("A %s %d\n", what, static_cast<int>(got));
}

struct Expected {
    std::mutex mutex;
    uint64_t n[kKinds] = {};
    void add(int kind, uint64_t k = 1) {
        std::lock_guard<std::mutex> lock(mutex);
        n[kind] += k;
    }
} g_expected;
std::atomic<uint64_t> g_expected_device_markers{0};
std::atomic<uint64_t> g_expected_host_markers{0};

// What one session owes when no call fails (the loops below use the same figures).
constexpr int kHostRounds = 4;     // HostWork: allocation, 4 copies, 2 fills, synchronize, free
constexpr int kAllocators = 3;     // MiscWork: cached, configured, task-scheduler allocations
constexpr int kHostMarks = 3;      // plus one range (2 records) and the host half of the device mark
constexpr int kLaunches = 9;       // DeviceWork: 6 + V2 + WithHostArgs + WithConfig
constexpr int kRanks = 2;          // HcclWork
constexpr int kCollectives = 10;   // per rank, the barrier not counted
struct Nominal {
    uint64_t n[kKinds] = {};
    uint64_t device_markers = 0, host_markers = 0;
};
Nominal SessionNominal(bool hccl) {
    Nominal nominal;
    nominal.n[MSPTI_ACTIVITY_KIND_MEMORY] = 2 * kHostRounds + 2 * kAllocators + 2 + (hccl ? 4 * kRanks : 0);
    nominal.n[MSPTI_ACTIVITY_KIND_MEMCPY] = 4 * kHostRounds;
    nominal.n[MSPTI_ACTIVITY_KIND_MEMSET] = 2 * kHostRounds;
    nominal.n[MSPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION] = 9 * kHostRounds;
    nominal.n[MSPTI_ACTIVITY_KIND_KERNEL] = kLaunches;
    nominal.n[MSPTI_ACTIVITY_KIND_HCCL] = hccl ? kRanks * kCollectives : 0;
    nominal.n[MSPTI_ACTIVITY_KIND_COMMUNICATION] = hccl ? kRanks * kCollectives : 0;
    nominal.device_markers = 1;
    nominal.host_markers = kHostMarks + 2 + 1;
    return nominal;
}
Nominal g_nominal;

// The API kinds are made from CANN's API reports: one record per report of the kind's level that
// reached msPTI (the simulated libprofapi counts them while fault points count calls).
constexpr struct {
    msptiActivityKind kind;
    uint16_t level;
} kApiKinds[] = {
    {MSPTI_ACTIVITY_KIND_RUNTIME_API, MSPROF_REPORT_RUNTIME_LEVEL},
    {MSPTI_ACTIVITY_KIND_ACL_API, MSPROF_REPORT_ACL_LEVEL},
    {MSPTI_ACTIVITY_KIND_NODE_API, MSPROF_REPORT_NODE_LEVEL},
    {MSPTI_ACTIVITY_KIND_API, MSPROF_REPORT_NODE_LEVEL},  // every node report also gives an API record
};
uint64_t g_api_made[kKinds] = {};

// The application's mstx front end asks libprofapi's InitInjectionMstx for its tool once. Refused, every
// mstx call stays a no-op (mstx's documented behaviour without a tool): no mark is made, none is owed.
bool MstxAttached() { return __atomic_load_n(&mstxDetailCtx.state, __ATOMIC_ACQUIRE) == MSTX_DETAIL_STATE_DONE; }

bool Ok(const char* what, int rc) {
    if (rc != 0) std::printf("W %s %d\n", what, rc);
    return rc == 0;
}

// Host work: every interposed call below is made with one external id pushed (one
// EXTERNAL_CORRELATION record each); successful ones owe a MEMORY / MEMCPY / MEMSET record.
void HostWork(aclrtStream stream) {
    Expect("msptiActivityPushExternalCorrelationId",
           msptiActivityPushExternalCorrelationId(MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, 4242));
    std::vector<uint8_t> host(4096, 7), back(4096);
    for (int i = 0; i < kHostRounds; ++i) {
        void* dev = nullptr;
        g_expected.add(MSPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION);
        if (!Ok("aclrtMalloc", aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST))) continue;
        g_expected.add(MSPTI_ACTIVITY_KIND_MEMORY);
        g_expected.add(MSPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION, 6);
        if (Ok("aclrtMemcpy", aclrtMemcpy(dev, 4096, host.data(), 4096, ACL_MEMCPY_HOST_TO_DEVICE)))
            g_expected.add(MSPTI_ACTIVITY_KIND_MEMCPY);
        if (Ok("aclrtMemcpyAsync", aclrtMemcpyAsync(back.data(), 4096, dev, 4096, ACL_MEMCPY_DEVICE_TO_HOST, stream)))
            g_expected.add(MSPTI_ACTIVITY_KIND_MEMCPY);
        // 2-D copies: 16 rows of 64 bytes out of 256-byte rows.
        if (Ok("aclrtMemcpy2d", aclrtMemcpy2d(dev, 256, host.data(), 256, 64, 16, ACL_MEMCPY_HOST_TO_DEVICE)))
            g_expected.add(MSPTI_ACTIVITY_KIND_MEMCPY);
        if (Ok("aclrtMemcpy2dAsync",
               aclrtMemcpy2dAsync(back.data(), 256, dev, 256, 64, 16, ACL_MEMCPY_DEVICE_TO_HOST, stream)))
            g_expected.add(MSPTI_ACTIVITY_KIND_MEMCPY);
        if (Ok("aclrtMemset", aclrtMemset(dev, 4096, i, 1024))) g_expected.add(MSPTI_ACTIVITY_KIND_MEMSET);
        if (Ok("aclrtMemsetAsync", aclrtMemsetAsync(dev, 4096, i, 512, stream)))
            g_expected.add(MSPTI_ACTIVITY_KIND_MEMSET);
        g_expected.add(MSPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION, 2);
        (void)Ok("aclrtSynchronizeStream", aclrtSynchronizeStream(stream));
        if (Ok("aclrtFree", aclrtFree(dev))) g_expected.add(MSPTI_ACTIVITY_KIND_MEMORY);
    }
    uint64_t last = 0;
    Expect("msptiActivityPopExternalCorrelationId",
           msptiActivityPopExternalCorrelationId(MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, &last));
    if (last != 4242) std::printf("A popped external id %" PRIu64 "\n", last);
    for (int i = 0; i < kHostMarks; ++i) mstxMarkA("fault-host-mark", nullptr);
    const mstxRangeId range = mstxRangeStartA("fault-host-range", nullptr);
    mstxRangeEnd(range);
    if (MstxAttached()) {
        g_expected.add(MSPTI_ACTIVITY_KIND_MARKER, kHostMarks + 2);
        g_expected_host_markers.fetch_add(kHostMarks + 2);
    }
}

// The other interposed runtime functions: each allocation that succeeds owes a MEMORY record,
// and so does each successful release of one.
void MiscWork(aclrtStream stream) {
    void* p = nullptr;
    if (Ok("aclrtMallocHost", aclrtMallocHost(&p, 256))) (void)Ok("aclrtFreeHost", aclrtFreeHost(p));
    const struct {
        const char* name;
        aclError (*fn)(void**);
    } allocators[] = {
        {"aclrtMallocCached", [](void** q) { return aclrtMallocCached(q, 256, ACL_MEM_MALLOC_HUGE_FIRST); }},
        {"aclrtMallocWithCfg", [](void** q) { return aclrtMallocWithCfg(q, 256, ACL_MEM_MALLOC_HUGE_FIRST, nullptr); }},
        {"aclrtMallocForTaskScheduler",
         [](void** q) { return aclrtMallocForTaskScheduler(q, 256, ACL_MEM_MALLOC_HUGE_FIRST, nullptr); }},
    };
    for (const auto& a : allocators) {
        void* q = nullptr;
        if (!Ok(a.name, a.fn(&q))) continue;
        g_expected.add(MSPTI_ACTIVITY_KIND_MEMORY);
        (void)Ok("aclrtMemFlush", aclrtMemFlush(q, 256));
        (void)Ok("aclrtMemInvalidate", aclrtMemInvalidate(q, 256));
        if (Ok("aclrtFree", aclrtFree(q))) g_expected.add(MSPTI_ACTIVITY_KIND_MEMORY);
    }
    size_t free_bytes = 0, total = 0;
    (void)Ok("aclrtGetMemInfo", aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total));
    void* va = nullptr;
    const size_t granule = 2u << 20;
    if (Ok("aclrtReserveMemAddress", aclrtReserveMemAddress(&va, granule, 0, nullptr, 0))) {
        g_expected.add(MSPTI_ACTIVITY_KIND_MEMORY);
        aclrtPhysicalMemProp prop{};
        prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
        aclrtDrvMemHandle handle = nullptr;
        if (Ok("aclrtMallocPhysical", aclrtMallocPhysical(&handle, granule, &prop, 0))) {
            uint64_t shareable = 0;
            if (Ok("aclrtMemExportToShareableHandle",
                   aclrtMemExportToShareableHandle(handle, ACL_MEM_HANDLE_TYPE_NONE, 0, &shareable))) {
                int32_t pid = static_cast<int32_t>(getpid());
                (void)Ok("aclrtMemSetPidToShareableHandle", aclrtMemSetPidToShareableHandle(shareable, &pid, 1));
                aclrtDrvMemHandle imported = nullptr;
                if (Ok("aclrtMemImportFromShareableHandle", aclrtMemImportFromShareableHandle(shareable, 0, &imported)))
                    (void)Ok("aclrtFreePhysical(imported)", aclrtFreePhysical(imported));
            }
            (void)Ok("aclrtFreePhysical", aclrtFreePhysical(handle));
        }
        if (Ok("aclrtReleaseMemAddress", aclrtReleaseMemAddress(va))) g_expected.add(MSPTI_ACTIVITY_KIND_MEMORY);
    }
    aclrtContext ctx = nullptr;
    if (Ok("aclrtCreateContext", aclrtCreateContext(&ctx, 0)))
        (void)Ok("aclrtDestroyContext", aclrtDestroyContext(ctx));
    (void)Ok("aclrtSetDevice(again)", aclrtSetDevice(0));
    (void)stream;
}

void DeviceWork(aclrtStream stream) {
    static const char image[] = "fault workload kernels";
    aclrtBinHandle bin = nullptr;
    aclrtFuncHandle fn = nullptr;
    if (!Ok("aclrtBinaryLoadFromData", aclrtBinaryLoadFromData(image, sizeof image, nullptr, &bin))) return;
    if (!Ok("aclrtBinaryGetFunction", aclrtBinaryGetFunction(bin, "fault_kernel", &fn))) return;
    uint64_t args[2] = {0, 0};
    // Each launch that succeeds owes a KERNEL record; the device mark owes its device half.
    auto launched = [](bool ok) {
        if (ok) g_expected.add(MSPTI_ACTIVITY_KIND_KERNEL);
    };
    for (int i = 0; i < 6; ++i) launched(Ok("aclrtLaunchKernel", aclrtLaunchKernel(fn, 2, args, sizeof args, stream)));
    launched(Ok("aclrtLaunchKernelV2", aclrtLaunchKernelV2(fn, 2, args, sizeof args, nullptr, stream)));
    launched(Ok("aclrtLaunchKernelWithHostArgs",
                aclrtLaunchKernelWithHostArgs(fn, 2, stream, nullptr, args, sizeof args, nullptr, 0)));
    aclrtArgsHandle handle = nullptr;
    if (Ok("aclrtKernelArgsInit", aclrtKernelArgsInit(fn, &handle)) &&
        Ok("aclrtKernelArgsFinalize", aclrtKernelArgsFinalize(handle)))
        launched(
            Ok("aclrtLaunchKernelWithConfig", aclrtLaunchKernelWithConfig(fn, 2, stream, nullptr, handle, nullptr)));
    mstxMarkA("fault-device-mark", stream);
    if (MstxAttached()) {
        g_expected_device_markers.fetch_add(1);
        g_expected_host_markers.fetch_add(1);  // the mark's host half
    }
    // Every synchronisation msPTI notes (for the device halves owed at a flush); none makes a record.
    aclrtEvent event = nullptr;
    if (Ok("aclrtCreateEvent", aclrtCreateEvent(&event))) {
        if (Ok("aclrtRecordEvent", aclrtRecordEvent(event, stream)))
            (void)Ok("aclrtSynchronizeEvent", aclrtSynchronizeEvent(event));
        (void)Ok("aclrtDestroyEvent", aclrtDestroyEvent(event));
    }
    (void)Ok("aclrtSynchronizeStreamWithTimeout", aclrtSynchronizeStreamWithTimeout(stream, 10000));
    (void)Ok("aclrtSynchronizeDevice", aclrtSynchronizeDevice());
    (void)Ok("aclrtSynchronizeStream", aclrtSynchronizeStream(stream));
}

// A collective call owes an HCCL record (msPTI's wrapper records the call, whatever it returned) and,
// when it succeeded, a COMMUNICATION record (the operation CANN ran). A barrier owes neither.
void Collective(bool ok) {
    g_expected.add(MSPTI_ACTIVITY_KIND_HCCL);
    if (ok) g_expected.add(MSPTI_ACTIVITY_KIND_COMMUNICATION);
}

// Two ranks (threads) run every collective msPTI wraps; a rank whose peer failed times out.
void HcclWork() {
    HcclRootInfo root;
    if (!Ok("HcclGetRootInfo", HcclGetRootInfo(&root))) return;
    std::vector<std::thread> ranks;
    for (uint32_t r = 0; r < kRanks; ++r) {
        ranks.emplace_back([&root, r] {
            if (!Ok("aclrtSetDevice(rank)", aclrtSetDevice(static_cast<int32_t>(r)))) return;
            aclrtStream s = nullptr;
            if (!Ok("aclrtCreateStream(rank)", aclrtCreateStream(&s))) return;
            HcclComm comm = nullptr;
            if (!Ok("HcclCommInitRootInfo", HcclCommInitRootInfo(2, &root, r, &comm))) return;
            void* a = nullptr;
            void* b = nullptr;
            if (Ok("aclrtMalloc(rank)", aclrtMalloc(&a, 4096, ACL_MEM_MALLOC_HUGE_FIRST)))
                g_expected.add(MSPTI_ACTIVITY_KIND_MEMORY);
            if (Ok("aclrtMalloc(rank)", aclrtMalloc(&b, 4096, ACL_MEM_MALLOC_HUGE_FIRST)))
                g_expected.add(MSPTI_ACTIVITY_KIND_MEMORY);
            if (a == nullptr || b == nullptr) {
                if (a != nullptr && Ok("aclrtFree(rank)", aclrtFree(a))) g_expected.add(MSPTI_ACTIVITY_KIND_MEMORY);
                if (b != nullptr && Ok("aclrtFree(rank)", aclrtFree(b))) g_expected.add(MSPTI_ACTIVITY_KIND_MEMORY);
                HcclCommDestroy(comm);
                return;
            }
            const uint32_t peer = 1 - r;
            uint64_t counts[2] = {16, 16}, displs[2] = {0, 16};
            HcclSendRecvItem items[2] = {{HCCL_SEND, a, 16, HCCL_DATA_TYPE_FP32, peer},
                                         {HCCL_RECV, b, 16, HCCL_DATA_TYPE_FP32, peer}};
            Collective(Ok("HcclAllReduce", HcclAllReduce(a, b, 64, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, s)));
            Collective(Ok("HcclBroadcast", HcclBroadcast(a, 64, HCCL_DATA_TYPE_FP32, 0, comm, s)));
            Collective(Ok("HcclAllGather", HcclAllGather(a, b, 32, HCCL_DATA_TYPE_FP32, comm, s)));
            Collective(
                Ok("HcclReduceScatter", HcclReduceScatter(a, b, 32, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, s)));
            Collective(Ok("HcclReduce", HcclReduce(a, b, 64, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_MAX, 0, comm, s)));
            Collective(
                Ok("HcclAlltoAll", HcclAlltoAll(a, 16, HCCL_DATA_TYPE_FP32, b, 16, HCCL_DATA_TYPE_FP32, comm, s)));
            Collective(Ok("HcclAlltoAllV", HcclAlltoAllV(a, counts, displs, HCCL_DATA_TYPE_FP32, b, counts, displs,
                                                         HCCL_DATA_TYPE_FP32, comm, s)));
            Ok("HcclBarrier", HcclBarrier(comm, s));
            Collective(Ok("HcclScatter", HcclScatter(a, b, 16, HCCL_DATA_TYPE_FP32, 0, comm, s)));
            if (r == 0) {
                Collective(Ok("HcclSend", HcclSend(a, 16, HCCL_DATA_TYPE_FP32, peer, comm, s)));
            } else {
                Collective(Ok("HcclRecv", HcclRecv(b, 16, HCCL_DATA_TYPE_FP32, peer, comm, s)));
            }
            Collective(Ok("HcclBatchSendRecv", HcclBatchSendRecv(items, 2, comm, s)));
            (void)Ok("aclrtSynchronizeStream(rank)", aclrtSynchronizeStream(s));
            if (Ok("aclrtFree(rank)", aclrtFree(a))) g_expected.add(MSPTI_ACTIVITY_KIND_MEMORY);
            if (Ok("aclrtFree(rank)", aclrtFree(b))) g_expected.add(MSPTI_ACTIVITY_KIND_MEMORY);
            HcclCommDestroy(comm);
            aclrtDestroyStream(s);
        });
    }
    for (auto& t : ranks) t.join();
}

// msPTI's reader thread polls on its own schedule, and a virtual-clock session lasts a few
// milliseconds: a fault planned for prof_channel_poll gets up to 3 s to happen before the flush. So
// does a stall of prof_channel_read: the case checks that a stalled reader does not block the
// application, so the stalled read must be the reader's (a read FlushAll makes itself is synchronous,
// docs/mspti-deviations.md §1, and would be the first read if the reader had not read yet).
void AwaitReaderFault(const char* function) {
    const char* plan = std::getenv("NPU_SIM_FAULTS");
    const bool reader_stall =
        std::strcmp(function, "prof_channel_read") == 0 && plan != nullptr && std::strstr(plan, "stall") != nullptr;
    if (std::strcmp(function, "prof_channel_poll") != 0 && !reader_stall) return;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
    while (npusim::faults_injected() == 0 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

// One session: subscribe, enable every kind and the callback domains, work, flush, unsubscribe.
void Session(const char* function, bool hccl) {
    Expect("msptiActivityRegisterCallbacks", msptiActivityRegisterCallbacks(Request, Complete));
    msptiSubscriberHandle subscriber = nullptr;
    Expect("msptiSubscribe", Timed("msptiSubscribe", [&] { return msptiSubscribe(&subscriber, Callback, nullptr); }));
    Expect("msptiEnableDomain", msptiEnableDomain(1, subscriber, MSPTI_CB_DOMAIN_RUNTIME));
    if (hccl) Expect("msptiEnableDomain(HCCL)", msptiEnableDomain(1, subscriber, MSPTI_CB_DOMAIN_HCCL));
    for (int k = 1; k < kKinds; ++k) {
        // DEVICE_OFFLINE: an open device's collection could not start (docs/mspti-deviations.md §5).
        const msptiResult rc =
            Timed("msptiActivityEnable", [k] { return msptiActivityEnable(static_cast<msptiActivityKind>(k)); });
        if (rc != MSPTI_SUCCESS && rc != MSPTI_ERROR_DEVICE_OFFLINE) std::printf("A msptiActivityEnable %d\n", rc);
    }
    // Every kind is on from here: each API report that reaches msPTI now owes its records.
    npusim::profapi::reset_api_report_counts();
    const Nominal nominal = SessionNominal(hccl);
    for (int k = 1; k < kKinds; ++k) g_nominal.n[k] += nominal.n[k];
    g_nominal.device_markers += nominal.device_markers;
    g_nominal.host_markers += nominal.host_markers;

    aclrtStream stream = nullptr;
    if (Ok("aclrtSetDevice", aclrtSetDevice(0)) && Ok("aclrtCreateStream", aclrtCreateStream(&stream))) {
        HostWork(stream);
        MiscWork(stream);
        DeviceWork(stream);
    }
    if (hccl) HcclWork();
    AwaitReaderFault(function);
    if (stream != nullptr) (void)Ok("aclrtDestroyStream", aclrtDestroyStream(stream));
    for (const auto& api : kApiKinds) {
        const npusim::profapi::ApiReportCounts counts = npusim::profapi::api_report_counts(api.level);
        g_expected.add(api.kind, counts.delivered);
        g_api_made[api.kind] += counts.made;
    }

    Expect("msptiActivityFlushAll", Timed("msptiActivityFlushAll", [] { return msptiActivityFlushAll(1); }));
    Expect("msptiUnsubscribe", Timed("msptiUnsubscribe", [&] { return msptiUnsubscribe(subscriber); }));
    Expect("msptiActivityFlushAll(after unsubscribe)",
           Timed("msptiActivityFlushAll(after unsubscribe)", [] { return msptiActivityFlushAll(1); }));
    (void)Ok("aclrtResetDevice", aclrtResetDevice(0));
}

}  // namespace

// argv[3] = sessions (default 1): a fault on the Nth call needs functions called N times.
int main(int argc, char** argv) {
    const char* function = argc > 1 ? argv[1] : "";
    if (std::strcmp(function, "--fault-points") == 0) {
        for (const std::string& name : npusim::fault_point_functions()) std::printf("P %s\n", name.c_str());
        return 0;
    }
    // The API kinds' figures are counted by the simulator only while fault points count calls.
    npusim::set_call_counting(true);
    const bool hccl = argc > 2 && std::atoi(argv[2]) != 0;
    const int sessions = argc > 3 ? std::max(1, std::atoi(argv[3])) : 1;
    std::setvbuf(stdout, nullptr, _IOLBF, 0);

    (void)Ok("aclInit", aclInit(nullptr));
    for (int i = 0; i < sessions; ++i) Session(function, hccl);

    std::lock_guard<std::mutex> lock(g_mutex);
    // Kinds whose produced count the workload knows: the host kinds, KERNEL, HCCL, COMMUNICATION
    // (successful launches and collectives) and the API kinds (reports handed to msPTI). MARKER's is
    // at least the host marks; its records are split by source ("M"). OVERHEAD is msPTI's own.
    const bool known[kKinds] = {false, true, true, true, true, true, true, true, true, true, true, true, true, false};
    const bool api_kind[kKinds] = {false, false, false, true, false, false, false,
                                   false, false, false, true, true,  true,  false};
    for (int k = 1; k < kKinds; ++k) {
        uint64_t dropped = 0;
        Expect("msptiActivityGetDroppedRecords",
               msptiActivityGetDroppedRecords(static_cast<msptiActivityKind>(k), &dropped));
        const long long nominal =
            k == MSPTI_ACTIVITY_KIND_MARKER || api_kind[k] || !known[k] ? -1LL : static_cast<long long>(g_nominal.n[k]);
        std::printf("K kind=%d nominal=%lld expected=%lld delivered=%" PRIu64 " dropped=%" PRIu64, k, nominal,
                    known[k] ? static_cast<long long>(g_expected.n[k]) : -1LL, g_delivered[k], dropped);
        if (api_kind[k]) std::printf(" made=%" PRIu64, g_api_made[k]);
        // Drops by reason (mspti_ext.h): r1 NO_BUFFER .. r6 KIND_DISABLED.
        for (int reason = 1; reason < MSPTI_DROP_REASON_COUNT; ++reason) {
            uint64_t n = 0;
            Expect("msptiActivityGetDroppedRecordsByReason",
                   msptiActivityGetDroppedRecordsByReason(static_cast<msptiActivityKind>(k),
                                                          static_cast<msptiDropReason>(reason), &n));
            std::printf(" r%d=%" PRIu64, reason, n);
        }
        std::printf("\n");
    }
    std::printf("M expected=%" PRIu64 " delivered=%" PRIu64 " nominal=%" PRIu64 " host_expected=%" PRIu64
                " host_delivered=%" PRIu64 " host_nominal=%" PRIu64 "\n",
                g_expected_device_markers.load(), g_device_markers, g_nominal.device_markers,
                g_expected_host_markers.load(), g_host_markers, g_nominal.host_markers);
    std::printf("C enter=%" PRIu64 " exit=%" PRIu64 " unpaired=%d\n", g_enter.load(), g_exit.load(), g_unpaired.load());
    // One line per faulted function (argv[1] may list several, separated by commas).
    const std::string functions = function;
    for (size_t begin = 0; begin <= functions.size();) {
        const size_t comma = std::min(functions.find(',', begin), functions.size());
        const std::string name = functions.substr(begin, comma - begin);
        std::printf("F function=%s calls=%" PRIu64 " injected=%" PRIu64 "\n", name.c_str(),
                    npusim::fault_site_calls(name), npusim::faults_injected());
        begin = comma + 1;
    }
    return 0;
}
