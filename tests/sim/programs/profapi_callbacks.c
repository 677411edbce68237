/* Drives libprofapi's callback protocol; prints what each callback receives. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "seam/profapi.h"

/* Not in seam/profapi.h: CANN's id <-> string helpers and the runtime's device-state registration. */
uint64_t MsprofStr2Id(const char* hashInfo, size_t length);
char* MsprofId2Str(uint64_t id);
int32_t profRegDeviceStateCallback(int32_t (*callback)(void* devState, uint32_t len));

static uint32_t tid(void) { return (uint32_t)syscall(SYS_gettid); }

static void hex(const char* tag, const void* data, size_t n) {
    const unsigned char* p = (const unsigned char*)data;
    printf("%s ", tag);
    for (size_t i = 0; i < n; ++i) printf("%02x", p[i]);
    printf("\n");
}

static int32_t g_result = 0;
static int g_api, g_event, g_compact, g_additional;
static const void* g_sent;

static int32_t on_api(uint32_t aging, const struct MsprofApi* api) {
    ++g_api;
    printf("api aging=%u same_ptr=%d tid_ok=%d\n", aging, (const void*)api == g_sent, api->threadId == tid());
    hex("api-bytes", api, sizeof *api);
    return g_result;
}
static int32_t on_event(uint32_t aging, const struct MsprofEvent* event) {
    ++g_event;
    printf("event aging=%u same_ptr=%d tid_ok=%d\n", aging, (const void*)event == g_sent, event->threadId == tid());
    hex("event-bytes", event, sizeof *event);
    return g_result;
}
static int32_t on_compact(uint32_t aging, const void* data, uint32_t length) {
    ++g_compact;
    printf("compact aging=%u len=%u same_ptr=%d tid_ok=%d\n", aging, length, data == g_sent,
           ((const struct MsprofCompactInfo*)data)->threadId == tid());
    hex("compact-bytes", data, length);
    return g_result;
}
static int32_t on_additional(uint32_t aging, const void* data, uint32_t length) {
    ++g_additional;
    printf("additional aging=%u len=%u same_ptr=%d tid_ok=%d\n", aging, length, data == g_sent,
           ((const struct MsprofAdditionalInfo*)data)->threadId == tid());
    hex("additional-bytes", data, length);
    return g_result;
}

static int reg(int32_t type, void* cb) { return MsprofRegisterProfileCallback(type, cb, sizeof(void*)); }

static struct MsprofApi make_api(void) {
    struct MsprofApi api;
    memset(&api, 0, sizeof api);
    api.magicNumber = MSPROF_REPORT_DATA_MAGIC_NUM;
    api.level = MSPROF_REPORT_RUNTIME_LEVEL;
    api.type = MSPROF_REPORT_RUNTIME_API_BASE_TYPE + 3;
    api.threadId = tid();
    api.beginTime = 111;
    api.endTime = 222;
    api.itemId = 0xABCDEF;
    return api;
}

static void report_all(void) {
    struct MsprofApi api = make_api();
    g_sent = &api;
    printf("rc api=%d\n", MsprofReportApi(1, &api));

    struct MsprofEvent event;
    memset(&event, 0, sizeof event);
    event.magicNumber = MSPROF_REPORT_DATA_MAGIC_NUM;
    event.level = MSPROF_REPORT_ACL_LEVEL;
    event.type = 0x030001;
    event.threadId = tid();
    event.requestId = 9;
    event.timeStamp = 333;
    event.eventFlag = ~0ULL;
    event.itemId = 44;
    g_sent = &event;
    printf("rc event=%d\n", MsprofReportEvent(0, &event));

    struct MsprofCompactInfo compact;
    memset(&compact, 0, sizeof compact);
    compact.magicNumber = MSPROF_REPORT_DATA_MAGIC_NUM;
    compact.level = MSPROF_REPORT_RUNTIME_LEVEL;
    compact.type = MSPROF_REPORT_RUNTIME_TASK_TRACK_TYPE;
    compact.threadId = tid();
    compact.dataLen = sizeof(struct MsprofRuntimeTrack);
    compact.timeStamp = 444;
    compact.data.runtimeTrack.deviceId = 1;
    compact.data.runtimeTrack.streamId = 2;
    compact.data.runtimeTrack.taskId = 3;
    compact.data.runtimeTrack.taskType = 0;
    compact.data.runtimeTrack.kernelName = 0x1122334455667788ULL;
    g_sent = &compact;
    printf("rc compact=%d\n", MsprofReportCompactInfo(1, &compact, sizeof compact));

    struct MsprofAdditionalInfo additional;
    memset(&additional, 0, sizeof additional);
    additional.magicNumber = MSPROF_REPORT_DATA_MAGIC_NUM;
    additional.level = MSPROF_REPORT_NODE_LEVEL;
    additional.type = 1;
    additional.threadId = tid();
    additional.dataLen = 3;
    additional.timeStamp = 555;
    memcpy(additional.data, "\x01\x02\x03", 3);
    g_sent = &additional;
    printf("rc additional=%d\n", MsprofReportAdditionalInfo(0, &additional, sizeof additional));
}

static int routing(void) {
    printf("tid=%u\n", tid());
    printf("reg=%d %d %d %d\n", reg(PROFILE_REPORT_API_C_CALLBACK, (void*)on_api),
           reg(PROFILE_REPORT_EVENT_C_CALLBACK, (void*)on_event),
           reg(PROFILE_REPORT_COMPACT_CALLBACK, (void*)on_compact),
           reg(PROFILE_REPORT_ADDITIONAL_CALLBACK, (void*)on_additional));
    report_all();
    g_result = 7; /* a callback's result is the report's result */
    struct MsprofApi api = make_api();
    g_sent = &api;
    printf("rc api-with-7=%d\n", MsprofReportApi(1, &api));
    printf("calls api=%d event=%d compact=%d additional=%d\n", g_api, g_event, g_compact, g_additional);
    return 0;
}

static int unregister(void) {
    reg(PROFILE_REPORT_API_C_CALLBACK, (void*)on_api);
    reg(PROFILE_REPORT_COMPACT_CALLBACK, (void*)on_compact);
    report_all();
    printf("unreg=%d %d\n", reg(PROFILE_REPORT_API_C_CALLBACK, NULL), reg(PROFILE_REPORT_COMPACT_CALLBACK, NULL));
    report_all();
    printf("calls api=%d event=%d compact=%d additional=%d\n", g_api, g_event, g_compact, g_additional);
    return 0;
}

static int lengths(void) {
    printf("reg len=4 -> %d\n", MsprofRegisterProfileCallback(PROFILE_REPORT_API_C_CALLBACK, (void*)on_api, 4));
    printf("reg len=16 -> %d\n", MsprofRegisterProfileCallback(PROFILE_REPORT_API_C_CALLBACK, (void*)on_api, 16));
    printf("reg type=-1 -> %d\n", reg(-1, (void*)on_api));
    printf("reg type=17 -> %d\n", reg(PROFILE_CALLBACK_TYPE_COUNT, (void*)on_api));
    printf("reg type=0 -> %d\n", reg(PROFILE_CTRL_CALLBACK, (void*)on_api));
    printf("reg type=16 null -> %d\n", reg(PROFILE_DEVICE_STATE_C_CALLBACK, NULL));
    reg(PROFILE_REPORT_API_C_CALLBACK, (void*)on_api);
    reg(PROFILE_REPORT_EVENT_C_CALLBACK, (void*)on_event);
    reg(PROFILE_REPORT_COMPACT_CALLBACK, (void*)on_compact);
    reg(PROFILE_REPORT_ADDITIONAL_CALLBACK, (void*)on_additional);
    unsigned char buf[512];
    memset(buf, 0, sizeof buf);
    printf("api null -> %d\n", MsprofReportApi(0, NULL));
    printf("event null -> %d\n", MsprofReportEvent(0, NULL));
    printf("compact null -> %d\n", MsprofReportCompactInfo(0, NULL, 64));
    printf("compact 63 -> %d\n", MsprofReportCompactInfo(0, buf, 63));
    printf("compact 65 -> %d\n", MsprofReportCompactInfo(0, buf, 65));
    printf("compact 256 -> %d\n", MsprofReportCompactInfo(0, buf, 256));
    printf("additional null -> %d\n", MsprofReportAdditionalInfo(0, NULL, 256));
    printf("additional 255 -> %d\n", MsprofReportAdditionalInfo(0, buf, 255));
    printf("additional 64 -> %d\n", MsprofReportAdditionalInfo(0, buf, 64));
    printf("calls api=%d event=%d compact=%d additional=%d\n", g_api, g_event, g_compact, g_additional);
    return 0;
}

static int32_t on_device(void* para, uint32_t len) {
    const struct ProfSetDevPara* p = (const struct ProfSetDevPara*)para;
    printf("dev cb=1 chip=%u dev=%u open=%d len=%u\n", p->chipId, p->deviceId, (int)p->isOpen, len);
    return 0;
}
static int32_t on_device2(void* para, uint32_t len) {
    const struct ProfSetDevPara* p = (const struct ProfSetDevPara*)para;
    printf("dev cb=2 chip=%u dev=%u open=%d len=%u\n", p->chipId, p->deviceId, (int)p->isOpen, len);
    return 5; /* a failing profiler does not change the device state */
}

static int devices(void) {
    printf("notify=%d\n", MsprofNotifySetDevice(5, 0, true));
    MsprofNotifySetDevice(5, 3, true);
    MsprofNotifySetDevice(5, 1, true);
    MsprofNotifySetDevice(5, 1, false);
    MsprofNotifySetDevice(7, 63, true);
    printf("notify dev=64 -> %d\n", MsprofNotifySetDevice(5, 64, true));
    printf("-- register 16\n");
    printf("reg=%d\n", reg(PROFILE_DEVICE_STATE_C_CALLBACK, (void*)on_device));
    printf("-- live\n");
    MsprofNotifySetDevice(5, 2, true);
    MsprofNotifySetDevice(5, 3, false);
    printf("-- profRegDeviceStateCallback\n");
    printf("reg2=%d\n", profRegDeviceStateCallback(on_device2));
    printf("-- live2\n");
    printf("notify=%d\n", MsprofNotifySetDevice(5, 4, true));
    printf("-- unregister\n");
    reg(PROFILE_DEVICE_STATE_C_CALLBACK, NULL);
    MsprofNotifySetDevice(5, 5, true);
    printf("-- end\n");
    return 0;
}

static int32_t g_type_result = 0;
static int32_t on_type(uint16_t level, uint32_t typeId, const char* name, size_t len) {
    printf("type level=%u id=0x%x name=%s len=%zu\n", (unsigned)level, typeId, name, len);
    return g_type_result;
}

static int typeinfo(void) {
    printf("before=%d\n", MsprofRegTypeInfo(MSPROF_REPORT_RUNTIME_LEVEL, 0, "KERNEL_AICORE"));
    MsprofRegTypeInfo(MSPROF_REPORT_ACL_LEVEL, 0x030001, "aclrtSetDevice");
    MsprofRegTypeInfo(MSPROF_REPORT_RUNTIME_LEVEL, 1, "KERNEL_AICPU");
    MsprofRegTypeInfo(MSPROF_REPORT_RUNTIME_LEVEL, 0, "KERNEL_AICORE_V2"); /* replaces, keeps its place */
    printf("null name -> %d\n", MsprofRegTypeInfo(MSPROF_REPORT_RUNTIME_LEVEL, 2, NULL));
    printf("-- register 11\n");
    printf("reg=%d\n", reg(PROFILE_REPORT_REG_TYPE_INFO_C_CALLBACK, (void*)on_type));
    printf("-- live\n");
    g_type_result = 3;
    printf("live=%d\n", MsprofRegTypeInfo(MSPROF_REPORT_HCCL_NODE_LEVEL, MSPROF_REPORT_HCCL_MASTER_TYPE, "master"));
    printf("-- again\n");
    g_type_result = 0;
    reg(PROFILE_REPORT_REG_TYPE_INFO_C_CALLBACK, (void*)on_type);
    printf("-- unregister\n");
    reg(PROFILE_REPORT_REG_TYPE_INFO_C_CALLBACK, NULL);
    printf("after=%d\n", MsprofRegTypeInfo(MSPROF_REPORT_RUNTIME_LEVEL, 9, "quiet"));
    printf("-- end\n");
    return 0;
}

static const char* g_hash_seen;
static uint64_t on_hash(const char* info, size_t len) {
    g_hash_seen = info;
    printf("hash cb len=%zu\n", len);
    return 1000 + len;
}

static int hash(void) {
    const char* hello = "hello";
    const uint64_t a = MsprofGetHashId(hello, 5);
    printf("own hello=%llu\n", (unsigned long long)a);
    printf("own hello-again=%llu\n", (unsigned long long)MsprofGetHashId("hello", 5));
    printf("own world=%llu\n", (unsigned long long)MsprofGetHashId("world", 5));
    printf("own hell=%llu\n", (unsigned long long)MsprofGetHashId("hello", 4));
    printf("own a-nul-b=%llu\n", (unsigned long long)MsprofGetHashId("a\0b", 3));
    printf("own a=%llu\n", (unsigned long long)MsprofGetHashId("a", 1));
    printf("str2id hello=%llu\n", (unsigned long long)MsprofStr2Id("hello", 5));
    printf("null=%llu empty=%llu\n", (unsigned long long)MsprofGetHashId(NULL, 3),
           (unsigned long long)MsprofGetHashId("x", 0));
    const char* back = MsprofId2Str(a);
    printf("id2str hello=%s stable=%d\n", back ? back : "(null)", back == MsprofId2Str(a));
    const char* hell = MsprofId2Str(MsprofGetHashId("hello", 4));
    printf("id2str hell=%s\n", hell ? hell : "(null)");
    printf("id2str unknown=%s zero=%s\n", MsprofId2Str(12345) ? "set" : "(null)", MsprofId2Str(0) ? "set" : "(null)");
    printf("-- register 12\n");
    reg(PROFILE_REPORT_GET_HASH_ID_C_CALLBACK, (void*)on_hash);
    const char* abc = "abc";
    const uint64_t f = MsprofGetHashId(abc, 3);
    printf("fwd abc=%llu same_ptr=%d\n", (unsigned long long)f, g_hash_seen == abc);
    printf("fwd str2id=%llu\n", (unsigned long long)MsprofStr2Id("abcdef", 6));
    printf("fwd null=%llu\n", (unsigned long long)MsprofGetHashId(NULL, 0));
    back = MsprofId2Str(f);
    printf("id2str fwd=%s\n", back ? back : "(null)");
    printf("-- unregister\n");
    reg(PROFILE_REPORT_GET_HASH_ID_C_CALLBACK, NULL);
    printf("own hello=%llu\n", (unsigned long long)MsprofGetHashId("hello", 5));
    return 0;
}

static int sys_time(void) {
    uint64_t prev = MsprofSysCycleTime();
    int monotonic = 1;
    for (int i = 0; i < 1000; ++i) {
        const uint64_t now = MsprofSysCycleTime();
        if (now < prev) monotonic = 0;
        prev = now;
    }
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    const uint64_t raw = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
    const uint64_t t = MsprofSysCycleTime();
    printf("monotonic=%d\n", monotonic);
    printf("time=%llu raw=%llu\n", (unsigned long long)t, (unsigned long long)raw);
    return 0;
}

int main(int argc, char** argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    const char* mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "routing") == 0) return routing();
    if (strcmp(mode, "unregister") == 0) return unregister();
    if (strcmp(mode, "lengths") == 0) return lengths();
    if (strcmp(mode, "devices") == 0) return devices();
    if (strcmp(mode, "typeinfo") == 0) return typeinfo();
    if (strcmp(mode, "hash") == 0) return hash();
    if (strcmp(mode, "time") == 0) return sys_time();
    fprintf(stderr, "unknown mode '%s'\n", mode);
    return 2;
}
