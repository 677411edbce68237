/*
 * What the runtime reports to a profiler. The program plays the profiler
 * itself: it registers libprofapi's report callbacks (API 9, compact 4, type
 * names 11), switches device 0 on with a START command (ACL_API | TASK_TIME |
 * RUNTIME_API), runs a little work, switches it off again, and prints every
 * record it received, tagged with the phase it arrived in:
 *   reg LEVEL TYPE NAME
 *   api PHASE LEVEL TYPE THREAD BEGIN END CALLBACK_THREAD
 *   track PHASE LEVEL TYPE THREAD TIMESTAMP DEVICE STREAM TASK TASKTYPE HASH CALLBACK_THREAD
 *   memcpy PHASE LEVEL TYPE THREAD TIMESTAMP BYTES MAX_BYTES DIRECTION CALLBACK_THREAD
 *   device CHIP DEVICE OPEN          (device state callback 16, in call order)
 * Phases: 0 before START, 1 while started, 2 after STOP.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "acl/acl.h"
#include "seam/profapi.h"

static int g_phase = 0;

static long tid(void) { return (long)syscall(SYS_gettid); }

static int32_t on_api(uint32_t aging, const struct MsprofApi* api) {
    (void)aging;
    printf("api %d %u %u %u %llu %llu %ld\n", g_phase, api->level, api->type, api->threadId,
           (unsigned long long)api->beginTime, (unsigned long long)api->endTime, tid());
    return 0;
}

static int32_t on_compact(uint32_t aging, const void* data, uint32_t length) {
    (void)aging;
    if (length != sizeof(struct MsprofCompactInfo)) {
        printf("bad_compact_length %u\n", length);
        return PROFAPI_ERROR;
    }
    struct MsprofCompactInfo info;
    memcpy(&info, data, sizeof info);
    if (info.level == MSPROF_REPORT_RUNTIME_LEVEL && info.type == MSPROF_REPORT_RUNTIME_MEMCPY_INFO_TYPE) {
        const struct MsprofMemcpyInfo* m = &info.data.memcpyInfo;
        printf("memcpy %d %u %u %u %llu %llu %llu %u %ld\n", g_phase, info.level, info.type, info.threadId,
               (unsigned long long)info.timeStamp, (unsigned long long)m->dataSize, (unsigned long long)m->maxSize,
               m->memcpyDirection, tid());
        return 0;
    }
    const struct MsprofRuntimeTrack* t = &info.data.runtimeTrack;
    printf("track %d %u %u %u %llu %u %u %u %llu %llu %ld\n", g_phase, info.level, info.type, info.threadId,
           (unsigned long long)info.timeStamp, t->deviceId, t->streamId, t->taskId, (unsigned long long)t->taskType,
           (unsigned long long)t->kernelName, tid());
    return 0;
}

static int32_t on_type_name(uint16_t level, uint32_t type, const char* name, size_t len) {
    printf("reg %u %u %.*s\n", level, type, (int)len, name);
    return 0;
}

static int32_t on_device_state(void* para, uint32_t len) {
    if (len != sizeof(struct ProfSetDevPara)) {
        printf("bad_device_state_length %u\n", len);
        return PROFAPI_ERROR;
    }
    const struct ProfSetDevPara* p = para;
    printf("device %u %u %d\n", p->chipId, p->deviceId, p->isOpen ? 1 : 0);
    return 0;
}

static int command(uint32_t type, uint64_t bits) {
    static struct MsprofCommandHandle cmd; /* 5 KiB: not on the stack */
    memset(&cmd, 0, sizeof cmd);
    cmd.profSwitch = bits;
    cmd.devNums = 1;
    cmd.devIdList[0] = 0;
    cmd.modelId = 0xFFFFFFFFu;
    cmd.type = type;
    return profSetProfCommand(&cmd, (uint32_t)sizeof cmd);
}

#define CHECK(call)                                                  \
    do {                                                             \
        const int rc_ = (int)(call);                                 \
        if (rc_ != 0) {                                              \
            printf("FAIL line %d: %s = %d\n", __LINE__, #call, rc_); \
            return 1;                                                \
        }                                                            \
    } while (0)

int main(void) {
    CHECK(MsprofRegisterProfileCallback(PROFILE_REPORT_API_C_CALLBACK, (void*)on_api, sizeof(void*)));
    CHECK(MsprofRegisterProfileCallback(PROFILE_REPORT_COMPACT_CALLBACK, (void*)on_compact, sizeof(void*)));
    CHECK(MsprofRegisterProfileCallback(PROFILE_REPORT_REG_TYPE_INFO_C_CALLBACK, (void*)on_type_name, sizeof(void*)));
    CHECK(MsprofRegisterProfileCallback(PROFILE_DEVICE_STATE_C_CALLBACK, (void*)on_device_state, sizeof(void*)));

    static const unsigned char image[] = {1, 2, 3};
    aclrtStream s = NULL;
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle fn = NULL;
    int32_t stream_id = -1;
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&s));
    CHECK(aclrtStreamGetId(s, &stream_id));
    CHECK(aclrtBinaryLoadFromData(image, sizeof image, NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "kern_alpha", &fn));
    CHECK(aclrtLaunchKernel(fn, 4, NULL, 0, s)); /* profiling off: nothing reported */

    CHECK(command(PROF_COMMANDHANDLE_TYPE_START, PROF_ACL_API_MASK | PROF_TASK_TIME_MASK | PROF_RUNTIME_API_MASK));
    g_phase = 1;
    for (int i = 0; i < 3; ++i) CHECK(aclrtLaunchKernel(fn, 4, NULL, 0, s));
    unsigned char trace[18] = {0};
    CHECK(aclrtProfTrace(trace, 18, s));
    void* d = NULL;
    static unsigned char host[4096];
    CHECK(aclrtMalloc(&d, sizeof host, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpyAsync(d, sizeof host, host, sizeof host, ACL_MEMCPY_HOST_TO_DEVICE, s));
    CHECK(aclrtMemcpyAsync(host, sizeof host, d, 1000, ACL_MEMCPY_DEVICE_TO_HOST, s));
    CHECK(aclrtMemsetAsync(d, sizeof host, 7, 512, s));
    CHECK(aclrtMemcpy(host, sizeof host, d, 64,
                      ACL_MEMCPY_DEVICE_TO_HOST)); /* synchronous: a memcpy task inside the call */
    CHECK(aclrtSynchronizeStream(s));
    /* Device 1 is not started: its launch is an API call on a profiled process, but no task track. */
    CHECK(aclrtSetDevice(1));
    CHECK(aclrtLaunchKernel(fn, 4, NULL, 0, NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(command(PROF_COMMANDHANDLE_TYPE_STOP, PROF_ACL_API_MASK | PROF_TASK_TIME_MASK | PROF_RUNTIME_API_MASK));
    g_phase = 2;
    CHECK(aclrtLaunchKernel(fn, 4, NULL, 0, s));
    CHECK(aclrtSynchronizeStream(s));

    printf("tid=%ld\n", tid());
    printf("stream=%d\n", stream_id);
    printf("hash=%llu\n", (unsigned long long)MsprofGetHashId("kern_alpha", strlen("kern_alpha")));
    CHECK(aclrtFree(d));
    CHECK(aclrtResetDevice(1));
    printf("reset 0 of 2\n");
    CHECK(aclrtResetDevice(0)); /* device 0 was set twice: still open */
    printf("reset 0 of 2\n");
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    return 0;
}
