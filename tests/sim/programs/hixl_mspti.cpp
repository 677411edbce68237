// End to end: msPTI collects HIXL transfers as ACL_API records.
//
// Subscribes, enables MSPTI_ACTIVITY_KIND_ACL_API, opens device 0 (msPTI then sends its
// START to the CANN modules), runs one sync READ and one async WRITE between two engines of
// this process, flushes, and prints every ACL_API record and the wall-clock window of each
// transfer as JSON lines for tests/sim/test_hixl_mspti.py.
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "acl/acl.h"
#include "hixl/hixl.h"
#include "hixl/hixl_sim.h"
#include "mspti/mspti.h"

using namespace hixl;

namespace {

constexpr size_t kBufferSize = 1 << 20;

void request_buffer(uint8_t** buffer, size_t* size, size_t* max_records) {
    *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferSize));
    *size = kBufferSize;
    *max_records = 0;
}

void complete_buffer(uint8_t* buffer, size_t size, size_t valid) {
    (void)size;
    msptiActivity* record = nullptr;
    while (msptiActivityGetNextRecord(buffer, valid, &record) == MSPTI_SUCCESS) {
        if (record->kind != MSPTI_ACTIVITY_KIND_ACL_API) continue;
        const auto* api = reinterpret_cast<const msptiActivityApi*>(record);
        std::printf("{\"kind\":\"acl_api\",\"name\":\"%s\",\"start\":%" PRIu64 ",\"end\":%" PRIu64
                    ",\"pid\":%u,\"tid\":%u}\n",
                    api->name != nullptr ? api->name : "", api->start, api->end, api->pt.processId, api->pt.threadId);
    }
    std::free(buffer);
}

void on_callback(void*, msptiCallbackDomain, msptiCallbackId, const msptiCallbackData*) {}

uint64_t realtime_ns() {
    timespec ts{};
    clock_gettime(CLOCK_REALTIME, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1000000000ULL + static_cast<uint64_t>(ts.tv_nsec);
}

void print_window(const char* name, Status status, uint64_t before, uint64_t after, size_t bytes) {
    std::printf("{\"kind\":\"transfer\",\"name\":\"%s\",\"status\":%u,\"before\":%" PRIu64 ",\"after\":%" PRIu64
                ",\"bytes\":%zu,\"pid\":%d,\"tid\":%ld}\n",
                name, status, before, after, bytes, getpid(), syscall(SYS_gettid));
}

int fail(const char* what) {
    std::fprintf(stderr, "failed at %s\n", what);
    return 2;
}

}  // namespace

int main() {
    msptiSubscriberHandle subscriber = nullptr;
    if (msptiActivityRegisterCallbacks(request_buffer, complete_buffer) != MSPTI_SUCCESS) return fail("callbacks");
    if (msptiSubscribe(&subscriber, on_callback, nullptr) != MSPTI_SUCCESS) return fail("subscribe");
    if (msptiActivityEnable(MSPTI_ACTIVITY_KIND_ACL_API) != MSPTI_SUCCESS) return fail("enable");
    if (aclrtSetDevice(0) != ACL_SUCCESS) return fail("aclrtSetDevice");

    const size_t n = 1 << 20;
    std::vector<unsigned char> a_mem(n, 1), b_mem(n, 2);
    Hixl a, b;
    AscendString b_name;
    MemDesc ma{}, mb{};
    ma.addr = reinterpret_cast<uintptr_t>(a_mem.data());
    ma.len = n;
    mb.addr = reinterpret_cast<uintptr_t>(b_mem.data());
    mb.len = n;
    MemHandle ha = nullptr, hb = nullptr;
    if (a.Initialize("127.0.0.1:0", {}) != SUCCESS || b.Initialize("127.0.0.1:0", {}) != SUCCESS ||
        sim::GetListenEngine(b, b_name) != SUCCESS || a.RegisterMem(ma, MEM_HOST, ha) != SUCCESS ||
        b.RegisterMem(mb, MEM_HOST, hb) != SUCCESS || a.Connect(b_name) != SUCCESS) {
        return fail("engines");
    }
    const std::vector<TransferOpDesc> descs = {{ma.addr, mb.addr, n}};

    uint64_t before = realtime_ns();
    Status st = a.TransferSync(b_name, READ, descs);
    print_window("sync_read", st, before, realtime_ns(), n);

    before = realtime_ns();
    TransferReq req = nullptr;
    st = a.TransferAsync(b_name, WRITE, descs, TransferArgs{}, req);
    TransferStatus status = TransferStatus::WAITING;
    while (st == SUCCESS && status == TransferStatus::WAITING) st = a.GetTransferStatus(req, status);
    print_window("async_write", st, before, realtime_ns(), n);

    std::fflush(stdout);
    msptiActivityFlushAll(1);
    std::fflush(stdout);
    msptiActivityDisable(MSPTI_ACTIVITY_KIND_ACL_API);
    msptiUnsubscribe(subscriber);
    a.Finalize();
    b.Finalize();
    return 0;
}
