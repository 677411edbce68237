// Client callbacks that throw C++ exceptions into msPTI (run with libmspti preloaded).
//
//   argv[1] = request-throws       RequestFunc throws on every call
//             request-throws-once  RequestFunc throws on its first call, then hands out buffers
//             complete-throws      CompleteFunc counts the buffer's records, then throws (every buffer)
//             callback-throws      the Callback-API callback throws at every ENTER and EXIT
//
// 5 allocations and 5 frees make 10 MEMORY records; buffers hold 2 records each, so several buffers
// are requested and completed. Prints
//   S memory_delivered=<n> memory_dropped=<n> no_buffer=<n> enter=<n> exit=<n> completes=<n>
// and exits 0 (the process must survive every exception).
#include <acl/acl.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include "mspti/mspti.h"
#include "mspti/mspti_ext.h"

namespace {

std::string g_mode;
uint64_t g_requests = 0;
uint64_t g_completes = 0;
uint64_t g_memory = 0;
uint64_t g_enter = 0;
uint64_t g_exit = 0;

void Request(uint8_t** buffer, size_t* size, size_t* max_records) {
    const uint64_t n = ++g_requests;
    if (g_mode == "request-throws" || (g_mode == "request-throws-once" && n == 1)) {
        throw std::runtime_error("RequestFunc refuses");
    }
    *size = 2 * sizeof(msptiActivityMemory);
    *buffer = static_cast<uint8_t*>(std::malloc(*size));
    *max_records = 0;
}

void Complete(uint8_t* buffer, size_t size, size_t valid) {
    (void)size;
    ++g_completes;
    msptiActivity* record = nullptr;
    while (msptiActivityGetNextRecord(buffer, valid, &record) == MSPTI_SUCCESS) {
        if (record->kind == MSPTI_ACTIVITY_KIND_MEMORY) ++g_memory;
    }
    std::free(buffer);
    if (g_mode == "complete-throws") throw std::runtime_error("CompleteFunc fails");
}

void Callback(void*, msptiCallbackDomain, msptiCallbackId, const msptiCallbackData* data) {
    if (data->callbackSite == MSPTI_API_ENTER) ++g_enter;
    else ++g_exit;
    if (g_mode == "callback-throws") throw std::runtime_error("callback fails");
}

bool Ok(const char* what, aclError rc) {
    if (rc != ACL_SUCCESS) std::printf("E %s returned %d\n", what, rc);
    return rc == ACL_SUCCESS;
}

}  // namespace

int main(int argc, char** argv) {
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    g_mode = argc > 1 ? argv[1] : "";
    if (g_mode != "request-throws" && g_mode != "request-throws-once" && g_mode != "complete-throws" &&
        g_mode != "callback-throws") {
        std::fprintf(stderr,
                     "usage: throwing_callbacks request-throws|request-throws-once|complete-throws|"
                     "callback-throws\n");
        return 2;
    }
    if (!Ok("aclInit", aclInit(nullptr)) || !Ok("aclrtSetDevice", aclrtSetDevice(0))) return 1;
    msptiSubscriberHandle subscriber = nullptr;
    if (msptiSubscribe(&subscriber, Callback, nullptr) != MSPTI_SUCCESS ||
        msptiEnableCallback(1, subscriber, MSPTI_CB_DOMAIN_RUNTIME, MSPTI_CBID_RUNTIME_MALLOC) != MSPTI_SUCCESS ||
        msptiEnableCallback(1, subscriber, MSPTI_CB_DOMAIN_RUNTIME, MSPTI_CBID_RUNTIME_FREE) != MSPTI_SUCCESS ||
        msptiActivityRegisterCallbacks(Request, Complete) != MSPTI_SUCCESS ||
        msptiActivityEnable(MSPTI_ACTIVITY_KIND_MEMORY) != MSPTI_SUCCESS) {
        std::printf("E msPTI set-up failed\n");
        return 1;
    }
    for (int i = 0; i < 5; ++i) {
        void* p = nullptr;
        if (Ok("aclrtMalloc", aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST))) (void)Ok("aclrtFree", aclrtFree(p));
    }
    if (msptiActivityFlushAll(1) != MSPTI_SUCCESS) std::printf("E msptiActivityFlushAll failed\n");
    uint64_t dropped = 0;
    uint64_t no_buffer = 0;
    msptiActivityGetDroppedRecords(MSPTI_ACTIVITY_KIND_MEMORY, &dropped);
    msptiActivityGetDroppedRecordsByReason(MSPTI_ACTIVITY_KIND_MEMORY, MSPTI_DROP_REASON_NO_BUFFER, &no_buffer);
    std::printf("S memory_delivered=%" PRIu64 " memory_dropped=%" PRIu64 " no_buffer=%" PRIu64 " enter=%" PRIu64
                " exit=%" PRIu64 " completes=%" PRIu64 "\n",
                g_memory, dropped, no_buffer, g_enter, g_exit, g_completes);
    msptiUnsubscribe(subscriber);
    return 0;
}
