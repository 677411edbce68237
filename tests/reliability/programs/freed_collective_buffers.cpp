// A synchronisation that fails while a collective is in flight, after which the application frees
// the collective's buffers, as real code does after a failed synchronize. Run with
// NPU_SIM_FAULTS=aclrtSynchronizeStream:error=507000@1 and NPU_SIM_DEVICES=2.
//
// Rank 0 issues HcclAllReduce; its peer, rank 1, has not issued its own yet, so the operation waits
// in rank 0's progress thread. Rank 0's aclrtSynchronizeStream fails (the planned fault), rank 0
// frees both buffers and allocates and fills others of the same size (reusing the freed memory);
// only then does rank 1 issue its HcclAllReduce. The collective must not read or write rank 0's
// freed memory (ASan: heap-use-after-free; plain builds: a corrupted heap). Prints
//   S sync0=<rank 0's first synchronize> sync1=<rank 1's synchronize> reused_intact=<0|1>
// reused_intact: the blocks allocated after the free still hold what rank 0 wrote into them.
// With the argument "queued", rank 0 also issues an asynchronous copy, a fill and an aclnnAdd to the
// stream behind the collective (queued behind its hold, stream_queue.h) and frees their buffers
// too: the queued work must not touch them either when it runs, once the peer has come.
// Ranks as processes (the peer-to-peer data path): run twice with FREED_RANK=0 and FREED_RANK=1,
// FREED_DIR naming a directory both use for the root info and for rank 0's "freed" mark; rank 0
// prints `S sync0=... reused_intact=...`, rank 1 `S sync1=...` (the fault plan goes to rank 0 only).
#include <acl/acl.h>
#include <aclnnop/aclnn_add.h>
#include <hccl/hccl.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr uint64_t kCount = 4096;  // floats: 16 KiB buffers, heap blocks of the host allocator
constexpr size_t kBytes = kCount * sizeof(float);

std::atomic<bool> g_freed{false};
std::atomic<int> g_sync0{-1}, g_sync1{-1};
std::atomic<bool> g_intact{false};
bool g_queued = false;  // rank 0 also queues a copy and a fill behind the collective
std::string g_dir;      // process mode: the directory of the root info and the "freed" mark

void mark_freed() {
    g_freed = true;
    if (!g_dir.empty()) std::ofstream(g_dir + "/freed") << "1\n";
}

bool freed() { return g_freed || (!g_dir.empty() && std::ifstream(g_dir + "/freed").good()); }

bool Ok(const char* what, int rc) {
    if (rc != 0) std::printf("W %s %d\n", what, rc);
    return rc == 0;
}

void Rank(const HcclRootInfo* root, uint32_t r) {
    if (!Ok("aclrtSetDevice", aclrtSetDevice(static_cast<int32_t>(r)))) return;
    aclrtStream stream = nullptr;
    HcclComm comm = nullptr;
    if (!Ok("aclrtCreateStream", aclrtCreateStream(&stream)) ||
        !Ok("HcclCommInitRootInfo", HcclCommInitRootInfo(2, root, r, &comm)))
        return;
    void* in = nullptr;
    void* out = nullptr;
    if (!Ok("aclrtMalloc", aclrtMalloc(&in, kBytes, ACL_MEM_MALLOC_HUGE_FIRST)) ||
        !Ok("aclrtMalloc", aclrtMalloc(&out, kBytes, ACL_MEM_MALLOC_HUGE_FIRST)))
        return;
    std::vector<float> ones(kCount, 1.0f);
    (void)Ok("aclrtMemcpy", aclrtMemcpy(in, kBytes, ones.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    if (r == 0) {
        (void)Ok("HcclAllReduce", HcclAllReduce(in, out, kCount, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream));
        std::vector<void*> queued;  // buffers of the work queued behind the collective
        if (g_queued) {
            for (int i = 0; i < 6; ++i) {
                void* p = nullptr;
                if (Ok("aclrtMalloc(queued)", aclrtMalloc(&p, kBytes, ACL_MEM_MALLOC_HUGE_FIRST))) queued.push_back(p);
            }
            if (queued.size() == 6) {
                (void)Ok("aclrtMemcpy", aclrtMemcpy(queued[0], kBytes, ones.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
                (void)Ok("aclrtMemcpyAsync",
                         aclrtMemcpyAsync(queued[1], kBytes, queued[0], kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, stream));
                (void)Ok("aclrtMemsetAsync", aclrtMemsetAsync(queued[2], kBytes, 0x11, kBytes, stream));
                // out = a + b: its result is computed when the stream reaches its kernel.
                const int64_t shape[] = {static_cast<int64_t>(kCount)};
                const int64_t strides[] = {1};
                aclTensor* t[3] = {};
                for (int i = 0; i < 3; ++i) {
                    t[i] = aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, queued[3 + i]);
                }
                float one = 1.0f;
                aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
                uint64_t workspace = 0;
                aclOpExecutor* executor = nullptr;
                if (Ok("aclnnAddGetWorkspaceSize",
                       aclnnAddGetWorkspaceSize(t[0], t[1], alpha, t[2], &workspace, &executor))) {
                    (void)Ok("aclnnAdd", aclnnAdd(nullptr, 0, executor, stream));
                }
                for (aclTensor* x : t) (void)Ok("aclDestroyTensor", aclDestroyTensor(x));
                (void)Ok("aclDestroyScalar", aclDestroyScalar(alpha));
            }
        }
        g_sync0 = aclrtSynchronizeStream(stream);  // the planned failure, with the peer still absent
        (void)Ok("aclrtFree", aclrtFree(in));
        (void)Ok("aclrtFree", aclrtFree(out));
        for (void* p : queued) (void)Ok("aclrtFree(queued)", aclrtFree(p));
        // New blocks of the same size take the freed memory back; fill them with a known pattern.
        std::vector<void*> reused;
        for (int i = 0; i < 12; ++i) {
            void* p = nullptr;
            if (Ok("aclrtMalloc(reuse)", aclrtMalloc(&p, kBytes, ACL_MEM_MALLOC_HUGE_FIRST))) {
                std::memset(p, 0x5a, kBytes);
                reused.push_back(p);
            }
        }
        mark_freed();
        // The application goes on with the stream; the collective completes with the peer's call.
        const aclError again = aclrtSynchronizeStream(stream);
        (void)again;
        bool intact = true;
        for (void* p : reused) {
            const auto* bytes = static_cast<const unsigned char*>(p);
            for (size_t i = 0; i < kBytes; ++i) intact = intact && bytes[i] == 0x5a;
            (void)Ok("aclrtFree(reuse)", aclrtFree(p));
        }
        g_intact = intact;
    } else {
        while (!freed()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        (void)Ok("HcclAllReduce", HcclAllReduce(in, out, kCount, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream));
        g_sync1 = aclrtSynchronizeStream(stream);
        (void)Ok("aclrtFree", aclrtFree(in));
        (void)Ok("aclrtFree", aclrtFree(out));
    }
    (void)Ok("HcclCommDestroy", HcclCommDestroy(comm));
    (void)Ok("aclrtDestroyStream", aclrtDestroyStream(stream));
}

}  // namespace

int main(int argc, char** argv) {
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    g_queued = argc > 1 && std::strcmp(argv[1], "queued") == 0;
    if (!Ok("aclInit", aclInit(nullptr))) return 1;
    HcclRootInfo root;
    if (const char* rank = std::getenv("FREED_RANK")) {
        const char* dir = std::getenv("FREED_DIR");
        if (dir == nullptr) return 2;
        g_dir = dir;
        const std::string path = g_dir + "/root_info";
        const uint32_t r = std::strcmp(rank, "0") == 0 ? 0 : 1;
        if (r == 0) {
            if (!Ok("HcclGetRootInfo", HcclGetRootInfo(&root))) return 1;
            std::ofstream(path + ".tmp", std::ios::binary).write(reinterpret_cast<const char*>(&root), sizeof root);
            if (std::rename((path + ".tmp").c_str(), path.c_str()) != 0) return 1;
        } else {
            for (;;) {
                std::ifstream in(path, std::ios::binary);
                if (in.read(reinterpret_cast<char*>(&root), sizeof root)) break;
                std::this_thread::sleep_for(std::chrono::milliseconds(5));
            }
        }
        Rank(&root, r);
        if (r == 0) std::printf("S sync0=%d reused_intact=%d\n", g_sync0.load(), g_intact.load() ? 1 : 0);
        else std::printf("S sync1=%d\n", g_sync1.load());
        return 0;
    }
    if (!Ok("HcclGetRootInfo", HcclGetRootInfo(&root))) return 1;
    std::thread r0(Rank, &root, 0u), r1(Rank, &root, 1u);
    r0.join();
    r1.join();
    std::printf("S sync0=%d sync1=%d reused_intact=%d\n", g_sync0.load(), g_sync1.load(), g_intact.load() ? 1 : 0);
    return 0;
}
