// HCCL operations as stream operations: the call enqueues and returns, the device task waits
// for every rank's stream, the result is there once the stream has run it.
//
//   hccl_async nonblocking   two ranks as threads: rank 1 calls only once rank 0's all-reduce
//                            has returned (so a call that waited for its peers would time out)
//                            and rank 0's synchronisation with a 200 ms timeout has given up
//   hccl_async processes     the same with the ranks in two processes (rank 1 forked)
//   hccl_async peer_exits    two processes; rank 1 (forked) joins, then ends without calling
//                            once rank 0's all-reduce is enqueued: rank 0's synchronisation
//                            fails (no hang), the communicator names the error
//   hccl_async single_thread HcclCommInitAll over two devices, both ranks driven from one
//                            thread: two all-reduces, an all-gather, a kernel and a copy of
//                            the result per rank, then one synchronisation per stream
//   hccl_async mismatch      HcclCommInitAll from one thread; the ranks' all-reduce counts
//                            differ: both calls enqueue, both synchronisations fail
//   hccl_async fork_child    HcclCommInitAll from one thread, one all-reduce pair; then a
//                            forked child calls rank 0's all-reduce alone: its
//                            synchronisation fails at the execution timeout (no hang)
//   hccl_async ordering      two ranks as threads; rank 1's stream is busy with kernels first;
//                            on each rank: event, all-reduce, event, a copy of the result on the
//                            same stream, a kernel, event (device timestamps printed)
//   hccl_async behind       two ranks as threads; rank 1's stream is busy with kernels first
//                            and rank 1 calls its all-reduce only once rank 0 has issued, behind
//                            its all-reduce on the same stream: a kernel, an asynchronous copy of
//                            the result, events, an aclrtStreamWaitEvent from a second stream and
//                            a kernel there; every call returns at once, the events are not
//                            complete, synchronisation then gives the right data and the device
//                            times of the work after the collective
//   hccl_async behind_op    HcclCommInitAll from one thread: rank 0's all-reduce, then an aclnnMul
//                            of its output by itself on the same stream, both issued before rank 1
//                            has issued anything; the product is computed behind the collective
//
// Output: "key=value" lines. Buffers hold FP32 values; rank r's input element i is r + 1 + i.
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_mul.h"
#include "hccl/hccl.h"

namespace {

constexpr uint64_t kCount = 256;

std::atomic<int> g_failures{0};

#define OK(call)                                                                  \
    do {                                                                          \
        const int rc_ = static_cast<int>(call);                                   \
        if (rc_ != 0) {                                                           \
            std::printf("FAIL %s:%d: %s = %d\n", __func__, __LINE__, #call, rc_); \
            ++g_failures;                                                         \
        }                                                                         \
    } while (0)

double now_ms() {
    using namespace std::chrono;
    return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

struct Buffer {
    void* ptr = nullptr;
    size_t bytes = 0;
    explicit Buffer(size_t n) : bytes(n) { OK(aclrtMalloc(&ptr, n, ACL_MEM_MALLOC_HUGE_FIRST)); }
    ~Buffer() { aclrtFree(ptr); }
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    void upload(const std::vector<float>& v) {
        OK(aclrtMemcpy(ptr, bytes, v.data(), v.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    }
    std::vector<float> download() const {
        std::vector<float> v(bytes / 4);
        OK(aclrtMemcpy(v.data(), bytes, ptr, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
        return v;
    }
};

std::vector<float> input(uint32_t rank, uint64_t n) {
    std::vector<float> v(n);
    for (uint64_t i = 0; i < n; ++i) v[i] = float(rank + 1 + i);
    return v;
}

// True when every element is the sum over `p` ranks of their inputs.
bool is_sum(const std::vector<float>& v, uint32_t p) {
    for (uint64_t i = 0; i < v.size(); ++i) {
        float want = 0;
        for (uint32_t r = 0; r < p; ++r) want += float(r + 1 + i);
        if (v[i] != want) return false;
    }
    return true;
}

// One rank's all-reduce, as the scenarios run it. `before_peer` runs right after the call
// returned (rank 0 lets rank 1 go there); the output is checked after synchronising.
struct AllReduceRun {
    int call = -1, sync = -1;
    double call_ms = 0;
    bool untouched_at_return = false, result_ok = false;
};

// `peek`: only for the rank whose peer has not called yet (otherwise the peek would race with the
// operation writing the output).
template <typename AfterCall>
AllReduceRun allreduce_once(HcclComm comm, uint32_t rank, aclrtStream s, bool peek, AfterCall&& after_call) {
    AllReduceRun run;
    Buffer in(kCount * 4), out(kCount * 4);
    in.upload(input(rank, kCount));
    out.upload(std::vector<float>(kCount, -1.0f));
    const double t0 = now_ms();
    run.call = HcclAllReduce(in.ptr, out.ptr, kCount, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, s);
    run.call_ms = now_ms() - t0;
    // Device memory of the simulator is host memory: look without a stream operation. The peer
    // has not called yet (when `after_call` releases it), so the operation cannot have run.
    if (peek) run.untouched_at_return = static_cast<const float*>(out.ptr)[0] == -1.0f;
    after_call();
    run.sync = aclrtSynchronizeStream(s);
    run.result_ok = is_sum(out.download(), 2);
    return run;
}

void print_run(const char* who, const AllReduceRun& r) {
    std::printf("%s_call=%d\n%s_call_ms=%.1f\n%s_untouched=%d\n%s_sync=%d\n%s_result=%d\n", who, r.call, who, r.call_ms,
                who, int(r.untouched_at_return), who, r.sync, who, int(r.result_ok));
}

// Waits (up to 20 s) for `flag`; false when it never came.
bool wait_flag(const std::atomic<bool>& flag) {
    const double until = now_ms() + 20000;
    while (!flag.load()) {
        if (now_ms() > until) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return true;
}

// Two ranks on threads, each on its device with a stream and a communicator of the two:
// `body(rank, comm, stream)` runs on each.
template <typename Body>
void two_ranks(Body&& body) {
    HcclRootInfo root;
    OK(HcclGetRootInfo(&root));
    std::vector<std::thread> ranks;
    for (uint32_t r = 0; r < 2; ++r) {
        ranks.emplace_back([&, r] {
            OK(aclrtSetDevice(int32_t(r)));
            aclrtStream s = nullptr;
            OK(aclrtCreateStream(&s));
            HcclComm comm = nullptr;
            OK(HcclCommInitRootInfo(2, &root, r, &comm));
            body(r, comm, s);
            OK(HcclCommDestroy(comm));
            OK(aclrtDestroyStream(s));
        });
    }
    for (auto& t : ranks) t.join();
}

int nonblocking() {
    std::atomic<bool> rank0_returned{false};
    AllReduceRun runs[2];
    int waited = 1, timed_sync = -1;
    two_ranks([&](uint32_t r, HcclComm comm, aclrtStream s) {
        if (r == 0) {
            runs[0] = allreduce_once(comm, 0, s, true, [&] {
                // A bounded synchronisation gives up while the peer is away.
                timed_sync = aclrtSynchronizeStreamWithTimeout(s, 200);
                rank0_returned = true;
            });
        } else {
            waited = wait_flag(rank0_returned) ? 1 : 0;  // the peer calls only once rank 0's call returned
            runs[1] = allreduce_once(comm, 1, s, false, [] {});
        }
    });
    std::printf("peer_released=%d\ntimed_sync=%d\n", waited, timed_sync);
    print_run("rank0", runs[0]);
    print_run("rank1", runs[1]);
    return 0;
}

// Reads exactly n bytes, waiting up to 20 s; false on timeout or end of file.
bool read_exact(int fd, void* buf, size_t n) {
    auto* p = static_cast<char*>(buf);
    const double until = now_ms() + 20000;
    while (n > 0) {
        pollfd pfd{fd, POLLIN, 0};
        const int left = int(until - now_ms());
        if (left <= 0 || ::poll(&pfd, 1, left) <= 0) return false;
        const ssize_t got = ::read(fd, p, n);
        if (got <= 0) return false;
        p += got;
        n -= size_t(got);
    }
    return true;
}

int processes() {
    int info_pipe[2], go_pipe[2];
    if (::pipe(info_pipe) != 0 || ::pipe(go_pipe) != 0) return 5;
    std::fflush(stdout);
    const pid_t child = ::fork();
    if (child < 0) return 6;
    if (child == 0) {
        // Rank 1: joins once rank 0's process has published the root info, calls its all-reduce
        // only once rank 0's call has returned, exits 0 when its own result is right.
        HcclRootInfo root;
        if (!read_exact(info_pipe[0], &root, sizeof root)) ::_exit(10);
        if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(1) != ACL_SUCCESS) ::_exit(11);
        aclrtStream s = nullptr;
        HcclComm comm = nullptr;
        if (aclrtCreateStream(&s) != ACL_SUCCESS || HcclCommInitRootInfo(2, &root, 1, &comm) != HCCL_SUCCESS)
            ::_exit(12);
        char go = 0;
        if (!read_exact(go_pipe[0], &go, 1)) ::_exit(13);
        const AllReduceRun run = allreduce_once(comm, 1, s, false, [] {});
        HcclCommDestroy(comm);
        ::_exit(run.call == 0 && run.sync == 0 && run.result_ok ? 0 : 14);
    }
    if (aclInit(nullptr) != ACL_SUCCESS) return 3;
    HcclRootInfo root;
    OK(HcclGetRootInfo(&root));
    if (::write(info_pipe[1], &root, sizeof root) != ssize_t(sizeof root)) return 7;
    OK(aclrtSetDevice(0));
    aclrtStream s = nullptr;
    HcclComm comm = nullptr;
    OK(aclrtCreateStream(&s));
    OK(HcclCommInitRootInfo(2, &root, 0, &comm));
    // No peek here: the peer is ordered after it only through a pipe and a socket, which a race
    // detector cannot see. That the call returned is shown by the peer calling at all.
    const AllReduceRun run = allreduce_once(comm, 0, s, false, [&] {
        const char go = 1;
        if (::write(go_pipe[1], &go, 1) != 1) ++g_failures;
    });
    int status = 0;
    ::waitpid(child, &status, 0);
    OK(HcclCommDestroy(comm));
    print_run("rank0", run);
    std::printf("rank1_exit=%d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return 0;
}

int peer_exits() {
    int info_pipe[2], go_pipe[2];
    if (::pipe(info_pipe) != 0 || ::pipe(go_pipe) != 0) return 5;
    std::fflush(stdout);
    const pid_t child = ::fork();
    if (child < 0) return 6;
    if (child == 0) {
        HcclRootInfo root;
        if (!read_exact(info_pipe[0], &root, sizeof root)) ::_exit(10);
        if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(1) != ACL_SUCCESS) ::_exit(11);
        HcclComm comm = nullptr;
        if (HcclCommInitRootInfo(2, &root, 1, &comm) != HCCL_SUCCESS) ::_exit(12);
        char go = 0;
        if (!read_exact(go_pipe[0], &go, 1)) ::_exit(13);
        ::_exit(0);  // the process ends with its rank's part never issued
    }
    if (aclInit(nullptr) != ACL_SUCCESS) return 3;
    HcclRootInfo root;
    OK(HcclGetRootInfo(&root));
    if (::write(info_pipe[1], &root, sizeof root) != ssize_t(sizeof root)) return 7;
    OK(aclrtSetDevice(0));
    aclrtStream s = nullptr;
    HcclComm comm = nullptr;
    OK(aclrtCreateStream(&s));
    OK(HcclCommInitRootInfo(2, &root, 0, &comm));
    Buffer in(kCount * 4), out(kCount * 4);
    const int call = HcclAllReduce(in.ptr, out.ptr, kCount, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, s);
    const char go = 1;
    if (::write(go_pipe[1], &go, 1) != 1) ++g_failures;
    const double t0 = now_ms();
    const int sync = aclrtSynchronizeStream(s);
    const double waited = now_ms() - t0;
    HcclResult async = HCCL_SUCCESS;
    OK(HcclGetCommAsyncError(comm, &async));
    int status = 0;
    ::waitpid(child, &status, 0);
    std::printf("call=%d\nsync=%d\nsync_ms=%.0f\nasync=%d\nrank1_exit=%d\n", call, sync, waited, int(async),
                WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    // The stream is usable again: its error was returned once.
    std::printf("sync_again=%d\n", aclrtSynchronizeStream(s));
    OK(HcclCommDestroy(comm));
    return 0;
}

// aclrtSynchronizeDeviceWithTimeout (torch_npu's torch.npu.synchronize) waits, as
// aclrtSynchronizeDevice does, for a collective held on one of the device's streams: a bounded wait
// gives up while the peer is away, an unbounded one returns once the peer has come and the
// operation has run (its output holds the sum; read without a stream operation).
int device_sync() {
    std::atomic<bool> rank0_called{false};
    int timed = -1, unbounded = -1, call = -1, waited = 1;
    bool result_ok = false;
    two_ranks([&](uint32_t r, HcclComm comm, aclrtStream s) {
        Buffer in(kCount * 4), out(kCount * 4);
        in.upload(input(r, kCount));
        out.upload(std::vector<float>(kCount, -1.0f));
        if (r == 0) {
            call = HcclAllReduce(in.ptr, out.ptr, kCount, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, s);
            timed = aclrtSynchronizeDeviceWithTimeout(200);
            rank0_called = true;
            unbounded = aclrtSynchronizeDeviceWithTimeout(-1);
            const auto* got = static_cast<const float*>(out.ptr);
            result_ok = is_sum(std::vector<float>(got, got + kCount), 2);
        } else {
            waited = wait_flag(rank0_called) ? 1 : 0;
            std::this_thread::sleep_for(std::chrono::milliseconds(300));  // rank 0 is in its wait by now
            OK(HcclAllReduce(in.ptr, out.ptr, kCount, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, s));
            OK(aclrtSynchronizeStream(s));
        }
    });
    std::printf("peer_released=%d\ncall=%d\ntimed_device_sync=%d\ndevice_sync=%d\nresult=%d\n", waited, call, timed,
                unbounded, int(result_ok));
    return 0;
}

int single_thread() {
    int32_t devices[2] = {0, 1};
    HcclComm comms[2] = {nullptr, nullptr};
    OK(HcclCommInitAll(2, devices, comms));
    aclrtStream streams[2] = {nullptr, nullptr};
    std::vector<std::unique_ptr<Buffer>> owned;  // freed below, after the streams ran
    auto make = [&](size_t n) {
        owned.push_back(std::make_unique<Buffer>(n));
        return owned.back().get();
    };
    Buffer *in[2], *mid[2], *out[2], *gathered[2], *copied[2];
    static const unsigned char kImage[] = {1, 2, 3, 4};
    aclrtBinHandle bin = nullptr;
    aclrtFuncHandle busy = nullptr;
    for (uint32_t r = 0; r < 2; ++r) {
        OK(aclrtSetDevice(int32_t(r)));
        if (r == 0) {
            OK(aclrtBinaryLoadFromData(kImage, sizeof kImage, nullptr, &bin));
            OK(aclrtBinaryGetFunction(bin, "busy_matmul", &busy));
        }
        OK(aclrtCreateStream(&streams[r]));
        in[r] = make(kCount * 4);
        mid[r] = make(kCount * 4);
        out[r] = make(kCount * 4);
        gathered[r] = make(2 * kCount * 4);
        copied[r] = make(kCount * 4);
        in[r]->upload(input(r, kCount));
    }
    // Rank 0's three operations are all enqueued before rank 1 has issued any: each call returns.
    aclrtEvent issued;
    OK(aclrtCreateEvent(&issued));
    OK(aclrtRecordEvent(issued, streams[1]));
    OK(aclrtSynchronizeEvent(issued));
    uint64_t issued_at = 0;
    OK(aclrtEventGetTimestamp(issued, &issued_at));
    std::printf("issued0=%llu\n", (unsigned long long)issued_at);
    OK(aclrtDestroyEvent(issued));
    int calls = 0;
    for (uint32_t r = 0; r < 2; ++r) {
        OK(aclrtSetDevice(int32_t(r)));
        calls |=
            HcclAllReduce(in[r]->ptr, mid[r]->ptr, kCount, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comms[r], streams[r]);
        // The second all-reduce reads the first one's output: it runs after it on the stream.
        calls |=
            HcclAllReduce(mid[r]->ptr, out[r]->ptr, kCount, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comms[r], streams[r]);
        calls |= HcclAllGather(in[r]->ptr, gathered[r]->ptr, kCount, HCCL_DATA_TYPE_FP32, comms[r], streams[r]);
        // Work behind them is queued too (rank 1 has not issued yet): its times are fixed at issue.
        calls |= aclrtLaunchKernel(busy, 20, nullptr, 0, streams[r]);
        calls |= aclrtMemcpyAsync(copied[r]->ptr, copied[r]->bytes, out[r]->ptr, out[r]->bytes,
                                  ACL_MEMCPY_DEVICE_TO_DEVICE, streams[r]);
    }
    std::printf("calls=%d\n", calls);
    aclrtEvent ends[2];
    for (uint32_t r = 0; r < 2; ++r) {
        OK(aclrtSetDevice(int32_t(r)));
        OK(aclrtCreateEvent(&ends[r]));
        OK(aclrtRecordEvent(ends[r], streams[r]));
    }
    for (uint32_t r = 0; r < 2; ++r) {
        OK(aclrtSetDevice(int32_t(r)));
        std::printf("sync%u=%d\n", r, aclrtSynchronizeStream(streams[r]));
        uint64_t end = 0;
        OK(aclrtEventGetTimestamp(ends[r], &end));
        std::printf("end%u=%llu\n", r, (unsigned long long)end);
        OK(aclrtDestroyEvent(ends[r]));
        const std::vector<float> o = out[r]->download(), g = gathered[r]->download(), c = copied[r]->download();
        bool ok = true;
        for (uint64_t i = 0; i < kCount; ++i) {
            ok = ok && o[i] == 2.0f * float(1 + i + 2 + i) && c[i] == o[i];  // the sum of the sums of both ranks
            ok = ok && g[i] == float(1 + i) && g[kCount + i] == float(2 + i);
        }
        std::printf("result%u=%d\n", r, int(ok));
    }
    owned.clear();
    for (uint32_t r = 0; r < 2; ++r) {
        OK(HcclCommDestroy(comms[r]));
        OK(aclrtSetDevice(int32_t(r)));
        OK(aclrtDestroyStream(streams[r]));
    }
    return 0;
}

int mismatch() {
    int32_t devices[2] = {0, 1};
    HcclComm comms[2] = {nullptr, nullptr};
    OK(HcclCommInitAll(2, devices, comms));
    aclrtStream streams[2] = {nullptr, nullptr};
    std::vector<std::unique_ptr<Buffer>> in, out;
    for (uint32_t r = 0; r < 2; ++r) {
        OK(aclrtSetDevice(int32_t(r)));
        OK(aclrtCreateStream(&streams[r]));
        in.push_back(std::make_unique<Buffer>(kCount * 4));
        out.push_back(std::make_unique<Buffer>(kCount * 4));
        const int call = HcclAllReduce(in[r]->ptr, out[r]->ptr, kCount - r, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM,
                                       comms[r], streams[r]);
        std::printf("call%u=%d\n", r, call);
    }
    for (uint32_t r = 0; r < 2; ++r) {
        OK(aclrtSetDevice(int32_t(r)));
        HcclResult async = HCCL_SUCCESS;
        std::printf("sync%u=%d\n", r, aclrtSynchronizeStream(streams[r]));
        OK(HcclGetCommAsyncError(comms[r], &async));
        std::printf("async%u=%d\n", r, int(async));
    }
    for (uint32_t r = 0; r < 2; ++r) {
        OK(HcclCommDestroy(comms[r]));
        OK(aclrtSetDevice(int32_t(r)));
        OK(aclrtDestroyStream(streams[r]));
    }
    return 0;
}

int fork_child() {
    int32_t devices[2] = {0, 1};
    HcclComm comms[2] = {nullptr, nullptr};
    OK(HcclCommInitAll(2, devices, comms));
    aclrtStream streams[2] = {nullptr, nullptr};
    std::vector<std::unique_ptr<Buffer>> bufs;
    for (uint32_t r = 0; r < 2; ++r) {
        OK(aclrtSetDevice(int32_t(r)));
        OK(aclrtCreateStream(&streams[r]));
        bufs.push_back(std::make_unique<Buffer>(kCount * 4));
        OK(HcclAllReduce(bufs[r]->ptr, bufs[r]->ptr, kCount, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comms[r],
                         streams[r]));
    }
    for (uint32_t r = 0; r < 2; ++r) {
        OK(aclrtSetDevice(int32_t(r)));
        OK(aclrtSynchronizeStream(streams[r]));
    }
    std::fflush(stdout);
    const pid_t child = ::fork();
    if (child == 0) {
        // The progress threads are the parent's; rank 1 has no thread here to call.
        OK(aclrtSetDevice(0));
        const int call = HcclAllReduce(bufs[0]->ptr, bufs[0]->ptr, kCount, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM,
                                       comms[0], streams[0]);
        const int sync = aclrtSynchronizeStream(streams[0]);
        std::printf("child_call=%d\nchild_sync=%d\n", call, sync);
        std::fflush(stdout);
        ::_exit(0);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    std::printf("child_exit=%d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    bufs.clear();
    for (uint32_t r = 0; r < 2; ++r) {
        OK(HcclCommDestroy(comms[r]));
        OK(aclrtSetDevice(int32_t(r)));
        OK(aclrtDestroyStream(streams[r]));
    }
    return 0;
}

uint64_t stamp(aclrtEvent e) {
    uint64_t t = 0;
    OK(aclrtEventGetTimestamp(e, &t));
    return t;
}

int ordering() {
    HcclRootInfo root;
    OK(HcclGetRootInfo(&root));
    static const unsigned char kImage[] = {1, 2, 3, 4};
    std::vector<std::string> lines(2);
    std::vector<std::thread> ranks;
    for (uint32_t r = 0; r < 2; ++r) {
        ranks.emplace_back([&, r] {
            OK(aclrtSetDevice(int32_t(r)));
            aclrtStream s = nullptr;
            OK(aclrtCreateStream(&s));
            HcclComm comm = nullptr;
            OK(HcclCommInitRootInfo(2, &root, r, &comm));
            aclrtBinHandle bin = nullptr;
            aclrtFuncHandle busy = nullptr;
            OK(aclrtBinaryLoadFromData(kImage, sizeof kImage, nullptr, &bin));
            OK(aclrtBinaryGetFunction(bin, "busy_matmul", &busy));
            aclrtEvent e[4];
            for (auto& ev : e) OK(aclrtCreateEvent(&ev));
            Buffer in(kCount * 4), out(kCount * 4), copy(kCount * 4);
            in.upload(input(r, kCount));
            if (r == 1) {
                for (int i = 0; i < 20; ++i) OK(aclrtLaunchKernel(busy, 20, nullptr, 0, s));  // the slow rank
            }
            OK(aclrtRecordEvent(e[0], s));
            OK(HcclAllReduce(in.ptr, out.ptr, kCount, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, s));
            OK(aclrtRecordEvent(e[1], s));
            // A copy of the result on the same stream sees the result (it is issued behind it).
            OK(aclrtMemcpyAsync(copy.ptr, copy.bytes, out.ptr, out.bytes, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
            OK(aclrtLaunchKernel(busy, 20, nullptr, 0, s));
            OK(aclrtRecordEvent(e[2], s));
            OK(aclrtSynchronizeStream(s));
            char buf[256];
            std::snprintf(buf, sizeof buf,
                          "r%u_before=%llu\nr%u_after_collective=%llu\nr%u_after_kernel=%llu\nr%u_copy=%d\n", r,
                          (unsigned long long)stamp(e[0]), r, (unsigned long long)stamp(e[1]), r,
                          (unsigned long long)stamp(e[2]), r, int(is_sum(copy.download(), 2)));
            lines[r] = buf;
            for (auto& ev : e) OK(aclrtDestroyEvent(ev));
            OK(HcclCommDestroy(comm));
            OK(aclrtDestroyStream(s));
        });
    }
    for (auto& t : ranks) t.join();
    for (const auto& l : lines) std::fputs(l.c_str(), stdout);
    return 0;
}

// Device time of one launch of `fn`: between two events recorded around it behind 20 launches
// already queued on `s`, so that the three tasks follow each other on the device and no host time
// between the calls (a slow host: a sanitizer build, a loaded machine, the wall clock) enters it.
uint64_t kernel_span(aclrtFuncHandle fn, aclrtStream s) {
    aclrtEvent a, b;
    OK(aclrtCreateEvent(&a));
    OK(aclrtCreateEvent(&b));
    for (int i = 0; i < 20; ++i) OK(aclrtLaunchKernel(fn, 20, nullptr, 0, s));
    OK(aclrtRecordEvent(a, s));
    OK(aclrtLaunchKernel(fn, 20, nullptr, 0, s));
    OK(aclrtRecordEvent(b, s));
    OK(aclrtSynchronizeStream(s));
    const uint64_t span = stamp(b) - stamp(a);
    OK(aclrtDestroyEvent(a));
    OK(aclrtDestroyEvent(b));
    return span;
}

int behind() {
    HcclRootInfo root;
    OK(HcclGetRootInfo(&root));
    static const unsigned char kImage[] = {1, 2, 3, 4};
    std::atomic<bool> rank0_issued{false};
    std::vector<std::string> lines(2);
    std::vector<std::thread> ranks;
    for (uint32_t r = 0; r < 2; ++r) {
        ranks.emplace_back([&, r] {
            OK(aclrtSetDevice(int32_t(r)));
            aclrtStream s = nullptr, s2 = nullptr;
            OK(aclrtCreateStream(&s));
            OK(aclrtCreateStream(&s2));
            HcclComm comm = nullptr;
            OK(HcclCommInitRootInfo(2, &root, r, &comm));
            aclrtBinHandle bin = nullptr;
            aclrtFuncHandle busy = nullptr;
            OK(aclrtBinaryLoadFromData(kImage, sizeof kImage, nullptr, &bin));
            OK(aclrtBinaryGetFunction(bin, "busy_matmul", &busy));
            Buffer in(kCount * 4), out(kCount * 4), copy(kCount * 4);
            in.upload(input(r, kCount));
            out.upload(std::vector<float>(kCount, -1.0f));
            copy.upload(std::vector<float>(kCount, -1.0f));
            char buf[768];
            if (r == 1) {
                for (int i = 0; i < 20; ++i) OK(aclrtLaunchKernel(busy, 20, nullptr, 0, s));  // the slow rank
                aclrtEvent before;
                OK(aclrtCreateEvent(&before));
                OK(aclrtRecordEvent(before, s));
                const int waited = wait_flag(rank0_issued) ? 1 : 0;  // calls only once rank 0 has issued
                OK(HcclAllReduce(in.ptr, out.ptr, kCount, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, s));
                OK(aclrtSynchronizeStream(s));
                std::snprintf(buf, sizeof buf, "peer_released=%d\nr1_before=%llu\nr1_result=%d\n", waited,
                              (unsigned long long)stamp(before), int(is_sum(out.download(), 2)));
                OK(aclrtDestroyEvent(before));
            } else {
                const uint64_t span = kernel_span(busy, s);
                aclrtEvent e_mid, e_end, e_other;
                OK(aclrtCreateEvent(&e_mid));
                OK(aclrtCreateEvent(&e_end));
                OK(aclrtCreateEvent(&e_other));
                OK(HcclAllReduce(in.ptr, out.ptr, kCount, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, s));
                // Everything below is issued while the peer has not called: none of it may wait.
                const double t0 = now_ms();
                OK(aclrtRecordEvent(e_mid, s));
                OK(aclrtLaunchKernel(busy, 20, nullptr, 0, s));
                OK(aclrtMemcpyAsync(copy.ptr, copy.bytes, out.ptr, out.bytes, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
                OK(aclrtRecordEvent(e_end, s));
                OK(aclrtStreamWaitEvent(s2, e_end));
                OK(aclrtLaunchKernel(busy, 20, nullptr, 0, s2));
                OK(aclrtRecordEvent(e_other, s2));
                const double issue_ms = now_ms() - t0;
                aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_COMPLETE;
                OK(aclrtQueryEventStatus(e_end, &status));
                float ms = 0;
                const int elapsed = aclrtEventElapsedTime(&ms, e_mid, e_end);
                // Device memory of the simulator is host memory: look without a stream operation.
                const bool untouched =
                    static_cast<const float*>(out.ptr)[0] == -1.0f && static_cast<const float*>(copy.ptr)[0] == -1.0f;
                rank0_issued = true;
                const int sync_event = aclrtSynchronizeEvent(e_other);  // waits for both streams' work
                const int sync = aclrtSynchronizeStream(s);
                std::snprintf(buf, sizeof buf,
                              "issue_ms=%.1f\nnot_ready=%d\nelapsed=%d\nuntouched=%d\nsync_event=%d\nsync=%d\n"
                              "span=%llu\nr0_mid=%llu\nr0_end=%llu\nr0_other=%llu\nr0_result=%d\nr0_copy=%d\n",
                              issue_ms, int(status == ACL_EVENT_RECORDED_STATUS_NOT_READY), elapsed, int(untouched),
                              sync_event, sync, (unsigned long long)span, (unsigned long long)stamp(e_mid),
                              (unsigned long long)stamp(e_end), (unsigned long long)stamp(e_other),
                              int(is_sum(out.download(), 2)), int(is_sum(copy.download(), 2)));
                OK(aclrtDestroyEvent(e_mid));
                OK(aclrtDestroyEvent(e_end));
                OK(aclrtDestroyEvent(e_other));
            }
            lines[r] = buf;
            OK(HcclCommDestroy(comm));
            OK(aclrtDestroyStream(s2));
            OK(aclrtDestroyStream(s));
        });
    }
    for (auto& t : ranks) t.join();
    for (const auto& l : lines) std::fputs(l.c_str(), stdout);
    return 0;
}

aclTensor* vector_tensor(void* data) {
    const int64_t dims[1] = {int64_t(kCount)};
    const int64_t strides[1] = {1};
    return aclCreateTensor(dims, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, dims, 1, data);
}

int behind_op() {
    int32_t devices[2] = {0, 1};
    HcclComm comms[2] = {nullptr, nullptr};
    OK(HcclCommInitAll(2, devices, comms));
    aclrtStream streams[2] = {nullptr, nullptr};
    std::vector<std::unique_ptr<Buffer>> in, out, squared;
    for (uint32_t r = 0; r < 2; ++r) {
        OK(aclrtSetDevice(int32_t(r)));
        OK(aclrtCreateStream(&streams[r]));
        in.push_back(std::make_unique<Buffer>(kCount * 4));
        out.push_back(std::make_unique<Buffer>(kCount * 4));
        squared.push_back(std::make_unique<Buffer>(kCount * 4));
        in[r]->upload(input(r, kCount));
        out[r]->upload(std::vector<float>(kCount, -1.0f));
    }
    // Rank 0's all-reduce and the operator behind it, then rank 1's all-reduce: an operator that
    // computed at its call would square the -1s (and one that waited would wait for rank 1 for ever).
    int calls = 0;
    for (uint32_t r = 0; r < 2; ++r) {
        OK(aclrtSetDevice(int32_t(r)));
        calls |=
            HcclAllReduce(in[r]->ptr, out[r]->ptr, kCount, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comms[r], streams[r]);
        if (r != 0) continue;
        aclTensor* x = vector_tensor(out[r]->ptr);
        aclTensor* y = vector_tensor(squared[r]->ptr);
        uint64_t workspace = 0;
        aclOpExecutor* executor = nullptr;
        calls |= aclnnMulGetWorkspaceSize(x, x, y, &workspace, &executor);
        calls |= aclnnMul(nullptr, 0, executor, streams[r]);
        OK(aclDestroyTensor(x));  // the operator's computation does not need the descriptions
        OK(aclDestroyTensor(y));
        // The stream is held behind the collective until rank 1 issues: not ready, and asking does not wait.
        aclrtStreamStatus held = ACL_STREAM_STATUS_RESERVED;
        const aclError queried = aclrtStreamQuery(streams[r], &held);
        std::printf("query_held=%d,%d\n", queried, int(held));
    }
    std::printf("calls=%d\n", calls);
    for (uint32_t r = 0; r < 2; ++r) {
        OK(aclrtSetDevice(int32_t(r)));
        std::printf("sync%u=%d\n", r, aclrtSynchronizeStream(streams[r]));
        aclrtStreamStatus done = ACL_STREAM_STATUS_RESERVED;
        const aclError queried = aclrtStreamQuery(streams[r], &done);
        std::printf("query_synced%u=%d,%d\n", r, queried, int(done));
    }
    OK(aclrtSetDevice(0));
    const std::vector<float> sum = out[0]->download(), sq = squared[0]->download();
    bool ok = is_sum(sum, 2);
    for (uint64_t i = 0; i < kCount; ++i) ok = ok && sq[i] == sum[i] * sum[i];
    std::printf("squared=%d\n", int(ok));
    in.clear();
    out.clear();
    squared.clear();
    for (uint32_t r = 0; r < 2; ++r) {
        OK(HcclCommDestroy(comms[r]));
        OK(aclrtSetDevice(int32_t(r)));
        OK(aclrtDestroyStream(streams[r]));
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) return 2;
    const std::string mode = argv[1];
    // The processes scenario forks first; each process initialises on its own.
    if (mode != "processes" && mode != "peer_exits" && aclInit(nullptr) != ACL_SUCCESS) return 3;
    int rc = 4;
    if (mode == "nonblocking") rc = nonblocking();
    else if (mode == "processes") rc = processes();
    else if (mode == "peer_exits") rc = peer_exits();
    else if (mode == "single_thread") rc = single_thread();
    else if (mode == "device_sync") rc = device_sync();
    else if (mode == "ordering") rc = ordering();
    else if (mode == "behind") rc = behind();
    else if (mode == "behind_op") rc = behind_op();
    else if (mode == "mismatch") rc = mismatch();
    else if (mode == "fork_child") rc = fork_child();
    std::printf("failures=%d\n", g_failures.load());
    std::fflush(stdout);
    return rc;
}
