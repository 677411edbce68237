// hccl_allreduce: every rank fills a buffer on its own device, the ranks all-reduce it (sum),
// and each rank checks the result — the shape of CANN's HCCL samples.
//
//   hccl_allreduce [--processes] [RANKS] [COUNT]
//
// By default the ranks are threads of this process; with --processes each rank is a child
// process. Rank 0 creates the root info (HcclGetRootInfo) and hands it to the other ranks,
// which all join with HcclCommInitRootInfo. Rank r's element i is (r + 1) * (i % 7 + 1), so the
// sum over R ranks is R (R + 1) / 2 * (i % 7 + 1).
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "hccl/hccl.h"

#define CHECK_ACL(call)                                                                \
    do {                                                                               \
        const aclError rc_ = (call);                                                   \
        if (rc_ != ACL_SUCCESS) {                                                      \
            std::fprintf(stderr, "%s failed with %d\n", #call, static_cast<int>(rc_)); \
            return false;                                                              \
        }                                                                              \
    } while (0)

#define CHECK_HCCL(call)                                                                                             \
    do {                                                                                                             \
        const HcclResult rc_ = (call);                                                                               \
        if (rc_ != HCCL_SUCCESS) {                                                                                   \
            std::fprintf(stderr, "%s failed with %d (%s)\n", #call, static_cast<int>(rc_), HcclGetErrorString(rc_)); \
            return false;                                                                                            \
        }                                                                                                            \
    } while (0)

namespace {

bool run_rank(uint32_t rank, uint32_t ranks, const HcclRootInfo& root, uint64_t count) {
    CHECK_ACL(aclrtSetDevice(static_cast<int32_t>(rank)));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    HcclComm comm = nullptr;
    CHECK_HCCL(HcclCommInitRootInfo(ranks, &root, rank, &comm));

    const size_t bytes = count * sizeof(float);
    std::vector<float> host(count);
    for (uint64_t i = 0; i < count; ++i) host[i] = float(rank + 1) * float(i % 7 + 1);
    void* send = nullptr;
    void* recv = nullptr;
    CHECK_ACL(aclrtMalloc(&send, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&recv, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMemcpy(send, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));

    CHECK_HCCL(HcclAllReduce(send, recv, count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream));
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK_ACL(aclrtMemcpy(host.data(), bytes, recv, bytes, ACL_MEMCPY_DEVICE_TO_HOST));

    const float ranks_sum = float(ranks) * float(ranks + 1) / 2.0f;
    bool ok = true;
    for (uint64_t i = 0; i < count && ok; ++i) {
        const float want = ranks_sum * float(i % 7 + 1);
        if (std::fabs(host[i] - want) > 1e-3f * want) {
            std::fprintf(stderr, "rank %u: element %llu is %f, expected %f\n", rank, (unsigned long long)i, host[i],
                         want);
            ok = false;
        }
    }
    char name[COMM_NAME_MAX_LENGTH] = {};
    HcclGetCommName(comm, name);
    std::printf("rank %u: all-reduce of %llu floats on device %u in %s: %s\n", rank, (unsigned long long)count, rank,
                name, ok ? "correct" : "WRONG");
    std::fflush(stdout);

    CHECK_ACL(aclrtFree(send));
    CHECK_ACL(aclrtFree(recv));
    CHECK_HCCL(HcclCommDestroy(comm));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(static_cast<int32_t>(rank)));
    return ok;
}

bool run_threads(uint32_t ranks, uint64_t count) {
    HcclRootInfo root;
    CHECK_HCCL(HcclGetRootInfo(&root));
    std::vector<int> ok(ranks, 0);
    std::vector<std::thread> threads;
    for (uint32_t r = 0; r < ranks; ++r) {
        threads.emplace_back([&, r] { ok[r] = run_rank(r, ranks, root, count) ? 1 : 0; });
    }
    for (auto& t : threads) t.join();
    for (int v : ok) {
        if (!v) return false;
    }
    return true;
}

// One child process per rank. Children are forked before any runtime call; rank 0 writes the
// root info into a pipe per peer.
bool run_processes(uint32_t ranks, uint64_t count) {
    std::vector<int> pipes(2 * ranks);
    for (uint32_t r = 0; r < ranks; ++r) {
        if (pipe(&pipes[2 * r]) != 0) return false;
    }
    std::vector<pid_t> children;
    for (uint32_t r = 0; r < ranks; ++r) {
        const pid_t pid = fork();
        if (pid < 0) return false;
        if (pid == 0) {
            HcclRootInfo root;
            bool ok = false;
            if (r == 0) {
                if (HcclGetRootInfo(&root) == HCCL_SUCCESS) {
                    ok = true;
                    for (uint32_t peer = 1; peer < ranks; ++peer) {
                        ok = ok && write(pipes[2 * peer + 1], root.internal, sizeof root.internal) ==
                                       static_cast<ssize_t>(sizeof root.internal);
                    }
                }
            } else {
                size_t got = 0;
                while (got < sizeof root.internal) {
                    const ssize_t n = read(pipes[2 * r], root.internal + got, sizeof root.internal - got);
                    if (n <= 0) break;
                    got += size_t(n);
                }
                ok = got == sizeof root.internal;
            }
            ok = ok && aclInit(nullptr) == ACL_SUCCESS && run_rank(r, ranks, root, count);
            // exit(), not _exit(): the rank's own exit handlers run, so a profiler preloaded into
            // the process (msPTI, a trace collector) flushes the rank's records.
            std::exit(ok ? 0 : 1);
        }
        children.push_back(pid);
    }
    bool ok = true;
    for (pid_t pid : children) {
        int status = 0;
        ok = waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0 && ok;
    }
    return ok;
}

}  // namespace

int main(int argc, char** argv) {
    bool processes = false;
    std::vector<std::string> args;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--processes") == 0) processes = true;
        else args.emplace_back(argv[i]);
    }
    const uint32_t ranks = args.size() > 0 ? static_cast<uint32_t>(std::atoi(args[0].c_str())) : 8;
    const uint64_t count = args.size() > 1 ? std::strtoull(args[1].c_str(), nullptr, 10) : 1 << 20;
    if (ranks == 0) return 2;
    bool ok;
    if (processes) {
        ok = run_processes(ranks, count);
    } else {
        if (aclInit(nullptr) != ACL_SUCCESS) return 3;
        ok = run_threads(ranks, count);
        aclFinalize();
    }
    std::printf("hccl_allreduce: %s\n", ok ? "OK" : "FAILED");
    return ok ? 0 : 1;
}
