// A profiling tool written the way CANN's msPTI samples are (a helper part that turns records into
// text, an activity part that drives aclnnAdd), using every declaration of the newer API. Built
// against the toolkit's include/mspti with #include "mspti.h".
#include <acl/acl.h>
#include <aclnnop/aclnn_add.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <vector>

#include "mspti.h"

namespace {

// ---------------------------------------------------------------- helper part

const char* KindName(msptiActivityKind kind) {
    static const std::map<msptiActivityKind, const char*> names = {
        {MSPTI_ACTIVITY_KIND_KERNEL, "KERNEL"},   {MSPTI_ACTIVITY_KIND_API, "API"},
        {MSPTI_ACTIVITY_KIND_MEMORY, "MEMORY"},   {MSPTI_ACTIVITY_KIND_MEMCPY, "MEMCPY"},
        {MSPTI_ACTIVITY_KIND_MEMSET, "MEMSET"},   {MSPTI_ACTIVITY_KIND_OVERHEAD, "OVERHEAD"},
        {MSPTI_ACTIVITY_KIND_ACL_API, "ACL_API"}, {MSPTI_ACTIVITY_KIND_RUNTIME_API, "RUNTIME_API"},
    };
    auto it = names.find(kind);
    return it == names.end() ? "OTHER" : it->second;
}

const char* ResultName(msptiResult result) {
    const char* text = nullptr;
    return msptiGetResultString(result, &text) == MSPTI_SUCCESS ? text : "<unknown result>";
}

const char* OverheadName(msptiActivityOverheadKind kind) {
    switch (kind) {
        case MSPTI_ACTIVITY_OVERHEAD_UNKNOWN: return "UNKNOWN";
        case MSPTI_ACTIVITY_OVERHEAD_MSPTI_RESOURCE: return "MSPTI_RESOURCE";
        case MSPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_REQUEST: return "ACTIVITY_BUFFER_REQUEST";
        case MSPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_FLUSH: return "ACTIVITY_BUFFER_FLUSH";
    }
    return "<unknown>";
}

const char* ObjectName(msptiActivityObjectKind kind) {
    switch (kind) {
        case MSPTI_ACTIVITY_OBJECT_UNKNOWN: return "UNKNOWN";
        case MSPTI_ACTIVITY_OBJECT_PROCESS: return "PROCESS";
        case MSPTI_ACTIVITY_OBJECT_THREAD: return "THREAD";
        case MSPTI_ACTIVITY_OBJECT_DEVICE: return "DEVICE";
        default: return "<unknown>";
    }
}

const char* MemoryKindName(msptiActivityMemoryKind kind) {
    switch (kind) {
        case MSPTI_ACTIVITY_MEMORY_DEVICE: return "DEVICE";
        case MSPTI_ACTIVITY_MEMORY_HOST: return "HOST";
        case MSPTI_ACTIVITY_MEMORY_MANAGED: return "MANAGED";
        default: return "UNKNOWN";
    }
}

void Print(const msptiActivity* record) {
    switch (record->kind) {
        case MSPTI_ACTIVITY_KIND_OVERHEAD: {
            auto* o = reinterpret_cast<const msptiActivityOverhead*>(record);
            const msptiActivityObjectKind object = o->objectKind;
            const uint64_t start = o->start, end = o->end, corr = o->correlationId;
            if (object == MSPTI_ACTIVITY_OBJECT_DEVICE) {
                std::printf(
                    "[%s] overheadKind: %s, objectKind: %s, deviceId: %u, streamId: %u, start: %llu, "
                    "end: %llu, correlationId: %llu, data: %p\n",
                    KindName(o->kind), OverheadName(o->overheadKind), ObjectName(object), o->objectId.ds.deviceId,
                    o->objectId.ds.streamId, (unsigned long long)start, (unsigned long long)end,
                    (unsigned long long)corr, o->overheadData);
            } else {
                std::printf(
                    "[%s] overheadKind: %s, objectKind: %s, processId: %u, threadId: %u, start: %llu, "
                    "end: %llu, correlationId: %llu, data: %p\n",
                    KindName(o->kind), OverheadName(o->overheadKind), ObjectName(object), o->objectId.pt.processId,
                    o->objectId.pt.threadId, (unsigned long long)start, (unsigned long long)end,
                    (unsigned long long)corr, o->overheadData);
            }
            break;
        }
        case MSPTI_ACTIVITY_KIND_KERNEL: {
            auto* k = reinterpret_cast<const msptiActivityKernel*>(record);
            std::printf("[%s] name: %s, start: %llu, end: %llu\n", KindName(k->kind), k->name,
                        (unsigned long long)k->start, (unsigned long long)k->end);
            break;
        }
        case MSPTI_ACTIVITY_KIND_MEMORY: {
            auto* m = reinterpret_cast<const msptiActivityMemory*>(record);
            std::printf("[%s] memoryKind: %s, bytes: %llu\n", KindName(m->kind), MemoryKindName(m->memoryKind),
                        (unsigned long long)m->bytes);
            break;
        }
        default: std::printf("[%s]\n", KindName(record->kind)); break;
    }
}

constexpr size_t kBufferSize = 4 * 1024 * 1024;

void OnRequest(uint8_t** buffer, size_t* size, size_t* maxNumRecords) {
    *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferSize));
    *size = *buffer != nullptr ? kBufferSize : 0;
    *maxNumRecords = 0;
}

void OnComplete(uint8_t* buffer, size_t, size_t validSize) {
    msptiActivity* record = nullptr;
    while (msptiActivityGetNextRecord(buffer, validSize, &record) == MSPTI_SUCCESS) Print(record);
    std::free(buffer);
}

uint64_t g_epoch = 0;

uint64_t SteadyTimestamp() {
    const auto now = std::chrono::steady_clock::now().time_since_epoch();
    return g_epoch + static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(now).count());
}

bool g_failed = false;

void Expect(bool ok, const char* what) {
    if (!ok) {
        std::printf("sample: FAILED %s\n", what);
        g_failed = true;
    }
}

// ---------------------------------------------------------------- activity part

msptiSubscriberHandle g_subscriber = nullptr;

void ShowAttributes() {
    uint32_t channelSize = 0;
    size_t valueSize = sizeof channelSize;
    msptiResult ret = msptiActivityGetAttribute(MSPTI_ACTIVITY_ATTR_CHANNEL_BUFFER_SIZE, &valueSize, &channelSize);
    std::printf("channel buffer: %u (%s)\n", channelSize, ResultName(ret));
    channelSize = 6 * 1024 * 1024;
    ret = msptiActivitySetAttribute(MSPTI_ACTIVITY_ATTR_CHANNEL_BUFFER_SIZE, &valueSize, &channelSize);
    Expect(ret == MSPTI_SUCCESS, "set CHANNEL_BUFFER_SIZE");
    uint32_t tooLarge = 64 * 1024 * 1024;
    ret = msptiActivitySetAttribute(MSPTI_ACTIVITY_ATTR_CHANNEL_BUFFER_SIZE, &valueSize, &tooLarge);
    Expect(ret == MSPTI_ERROR_INVALID_PARAMETER, "CHANNEL_BUFFER_SIZE range");
    size_t tooSmall = 1;
    ret = msptiActivitySetAttribute(MSPTI_ACTIVITY_ATTR_CHANNEL_BUFFER_SIZE, &tooSmall, &channelSize);
    Expect(ret == MSPTI_ERROR_PARAMETER_SIZE_NOT_SUFFICIENT, "value size check");
    ret = msptiActivitySetAttribute(MSPTI_ACTIVITY_ATTR_FORCE_INT, &valueSize, &channelSize);
    Expect(ret == MSPTI_ERROR_INVALID_PARAMETER, "unknown attribute");

    msptiTimestampCallbackFunc callback = SteadyTimestamp;
    valueSize = sizeof callback;
    ret = msptiActivitySetAttribute(MSPTI_ACTIVITY_ATTR_TIMESTAMP_CALLBACK, &valueSize, &callback);
    Expect(ret == MSPTI_SUCCESS, "set TIMESTAMP_CALLBACK");
    callback = nullptr;
    ret = msptiActivityGetAttribute(MSPTI_ACTIVITY_ATTR_TIMESTAMP_CALLBACK, &valueSize, &callback);
    Expect(ret == MSPTI_SUCCESS && callback == SteadyTimestamp, "get TIMESTAMP_CALLBACK");
}

void ShowApi() {
    uint32_t version = 0;
    msptiResult ret = msptiGetVersion(&version);
    std::printf("version: %u (%s)\n", version, ResultName(ret));
    size_t structSize = 0;
    ret = msptiActivityGetStructSize(MSPTI_ACTIVITY_KIND_OVERHEAD, version, &structSize);
    Expect(ret == MSPTI_SUCCESS && structSize == sizeof(msptiActivityOverhead), "struct size");
    ret = msptiActivityGetStructSize(MSPTI_ACTIVITY_KIND_COUNT, version, &structSize);
    Expect(ret == MSPTI_ERROR_INVALID_KIND, "struct size of COUNT");
    std::vector<msptiActivityKind> kinds(MSPTI_ACTIVITY_KIND_COUNT);
    uint32_t bufferSize = MSPTI_ACTIVITY_KIND_COUNT;
    uint32_t count = 0;
    ret = msptiActivityGetEnabledKinds(g_subscriber, kinds.data(), &bufferSize, &count);
    std::printf("enabled kinds: %u (%s)\n", count, ResultName(ret));
    for (uint32_t i = 0; i < count && i < bufferSize; ++i) std::printf("  %s\n", KindName(kinds[i]));
    size_t dropped = 0;
    ret = msptiActivityGetNumDroppedRecords(nullptr, 0, &dropped);
    std::printf("dropped: %zu (%s)\n", dropped, ResultName(ret));
    uint64_t timestamp = 0;
    ret = msptiGetTimestamp(&timestamp);
    Expect(ret == MSPTI_SUCCESS && timestamp > g_epoch, "timestamp from the callback");
    std::printf("result codes: %s / %s / %s\n", ResultName(MSPTI_ERROR_NOT_INITIALIZED),
                ResultName(MSPTI_ERROR_INVALID_KIND), ResultName(MSPTI_ERROR_PARAMETER_SIZE_NOT_SUFFICIENT));
}

void RunAdd(aclrtStream stream) {
    const int64_t shape[2] = {4, 2};
    const int64_t strides[2] = {2, 1};
    std::vector<float> self = {0, 1, 2, 3, 4, 5, 6, 7}, other = {1, 1, 1, 2, 2, 2, 3, 3}, out(8, 0.0f);
    std::vector<float>* hosts[3] = {&self, &other, &out};
    void* dev[3] = {};
    aclTensor* tensors[3] = {};
    for (int i = 0; i < 3; ++i) {
        Expect(aclrtMalloc(&dev[i], 32, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
        Expect(aclrtMemcpy(dev[i], 32, hosts[i]->data(), 32, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS, "memcpy");
        tensors[i] = aclCreateTensor(shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 2, dev[i]);
    }
    float alphaValue = 1.0f;
    aclScalar* alpha = aclCreateScalar(&alphaValue, ACL_FLOAT);
    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    Expect(aclnnAddGetWorkspaceSize(tensors[0], tensors[1], alpha, tensors[2], &workspaceSize, &executor) == 0,
           "aclnnAddGetWorkspaceSize");
    void* workspace = nullptr;
    if (workspaceSize > 0) aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
    Expect(aclnnAdd(workspace, workspaceSize, executor, stream) == 0, "aclnnAdd");
    Expect(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "synchronize");
    Expect(aclrtMemcpy(out.data(), 32, dev[2], 32, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS, "copy back");
    Expect(out[7] == 10.0f, "aclnnAdd result");
    for (auto* t : tensors) aclDestroyTensor(t);
    aclDestroyScalar(alpha);
    for (auto* d : dev) aclrtFree(d);
    if (workspace != nullptr) aclrtFree(workspace);
}

}  // namespace

int main() {
    g_epoch = 3000000000000000000ULL;
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);

    msptiSubscribe(&g_subscriber, nullptr, nullptr);
    msptiActivityRegisterCallbacks(OnRequest, OnComplete);
    ShowAttributes();
    // The timestamp callback goes in before any kind is enabled.
    Expect(msptiActivityRegisterTimestampCallback(SteadyTimestamp) == MSPTI_SUCCESS, "register timestamp callback");
    for (msptiActivityKind kind : {MSPTI_ACTIVITY_KIND_OVERHEAD, MSPTI_ACTIVITY_KIND_KERNEL, MSPTI_ACTIVITY_KIND_API,
                                   MSPTI_ACTIVITY_KIND_MEMCPY, MSPTI_ACTIVITY_KIND_MEMORY, MSPTI_ACTIVITY_KIND_MEMSET,
                                   MSPTI_ACTIVITY_KIND_ACL_API, MSPTI_ACTIVITY_KIND_RUNTIME_API}) {
        Expect(msptiActivityEnable(kind) == MSPTI_SUCCESS, KindName(kind));
    }
    ShowApi();
    RunAdd(stream);
    ShowApi();
    msptiUnsubscribe(g_subscriber);
    msptiActivityFlushAll(1);
    msptiActivityFlushAll(1);

    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    std::printf("sample: %s\n", g_failed ? "failed" : "done");
    return g_failed ? 1 : 0;
}
