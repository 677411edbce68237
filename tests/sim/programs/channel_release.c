/*
 * When device logs become readable. A long kernel is queued, then a profiler trace behind it
 * (aclrtProfTrace, as an msPTI device marker issues it); then, in the order the vendor's msPTI
 * does it, the caller would register the marker id. Before the stream has run, neither channel
 * may hand out the trace: the program reads, flushes and polls and prints what it got. Then it
 * synchronises and reads again. A second phase queues more work on two streams and stops the
 * channels without synchronising: the stop releases everything.
 *
 *   channel_release            (the long kernel's cost comes from NPU_SIM_KERNEL_COSTS)
 *
 * Output lines:
 *   EARLY <channel> <read bytes> <flush pending> <poll ready>   right after aclrtProfTrace
 *   NOW <device time>                                             SYS_COUNT at that moment
 *   T <phase> <indexId> <timestamp> <now at read>                 a step trace
 *   S <phase> <stream> <task> <funcType> <timestamp> <now at read> a STARS log
 */
#include <string.h>

#include "channel_program.h"

static unsigned long long device_now(void) {
    int64_t v = 0;
    CHECK(halGetDeviceInfo(0, MODULE_TYPE_SYSTEM, INFO_TYPE_SYS_COUNT, &v) == 0);
    return (unsigned long long)v;
}

static int start_tsfw_channel(void) {
    struct prof_start_para p = {PROF_TS_TYPE, 20, 1, NULL, 0};
    return prof_drv_start(0, PROF_CHANNEL_TS_FW, &p);
}

static void trace(aclrtStream stream, unsigned long long id) {
    unsigned char data[18] = {0};
    unsigned long long model = 8;
    unsigned short tag = 11;
    memcpy(data, &id, 8);
    memcpy(data + 8, &model, 8);
    memcpy(data + 16, &tag, 2);
    CHECK(aclrtProfTrace(data, sizeof data, stream) == ACL_SUCCESS);
}

static int ready_on(unsigned channel, int timeout) {
    struct prof_poll_info info[8];
    int n = prof_channel_poll(info, 8, timeout);
    CHECK(n >= 0);
    int found = 0;
    for (int i = 0; i < n; ++i) found |= info[i].device_id == 0 && info[i].channel_id == channel;
    return found;
}

/* Reads a channel until it returns nothing, printing every record; 7-byte pieces split records. */
static void drain(int phase, unsigned channel) {
    static unsigned char buf[1 << 16];
    size_t fill = 0;
    const size_t size = channel == PROF_CHANNEL_TS_FW ? sizeof(struct TsStepTrace) : sizeof(struct StarsSocLog);
    for (;;) {
        int n = prof_channel_read(0, channel, (char*)buf + fill, 7);
        CHECK(n >= 0);
        if (n == 0) break;
        fill += (size_t)n;
        CHECK(fill < sizeof buf);
    }
    CHECK(fill % size == 0);
    const unsigned long long now = device_now();
    for (size_t at = 0; at < fill; at += size) {
        if (channel == PROF_CHANNEL_TS_FW) {
            struct TsStepTrace r;
            memcpy(&r, buf + at, sizeof r);
            printf("T %d %llu %llu %llu\n", phase, (unsigned long long)r.indexId, (unsigned long long)r.timestamp, now);
        } else {
            struct StarsSocLog r;
            memcpy(&r, buf + at, sizeof r);
            printf("S %d %u %u %u %llu %llu\n", phase, r.streamId, r.taskId, STARS_HEAD_FUNC_TYPE(r.head),
                   (unsigned long long)r.timestamp, now);
        }
    }
}

int main(void) {
    static const char image[] = "channel-release: long_kernel empty_kernel";
    CHECK(aclInit(NULL) == ACL_SUCCESS);
    CHECK(aclrtSetDevice(0) == ACL_SUCCESS);
    aclrtStream a = NULL, b = NULL;
    CHECK(aclrtCreateStream(&a) == ACL_SUCCESS);
    CHECK(aclrtCreateStream(&b) == ACL_SUCCESS);
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle long_fn = NULL, short_fn = NULL;
    CHECK(aclrtBinaryLoadFromData(image, sizeof image, NULL, &bin) == ACL_SUCCESS);
    CHECK(aclrtBinaryGetFunction(bin, "long_kernel", &long_fn) == ACL_SUCCESS);
    CHECK(aclrtBinaryGetFunction(bin, "empty_kernel", &short_fn) == ACL_SUCCESS);
    CHECK(start_tsfw_channel() == PROF_OK);
    CHECK(start_stars_channel(0) == PROF_OK);
    uint64_t args[2] = {0, 0};

    /* Phase 1: a long kernel, then the trace behind it; the vendor registers the id only now. */
    CHECK(aclrtLaunchKernel(long_fn, 1, args, sizeof args, a) == ACL_SUCCESS);
    trace(a, 41);
    unsigned char scratch[64];
    const unsigned channels[2] = {PROF_CHANNEL_TS_FW, PROF_CHANNEL_STARS_SOC_LOG};
    for (int i = 0; i < 2; ++i) {
        unsigned pending = 0;
        CHECK(halProfDataFlush(0, channels[i], &pending) == 0);
        const int got = prof_channel_read(0, channels[i], (char*)scratch, sizeof scratch);
        const int ready = ready_on(channels[i], 0);
        printf("EARLY %u %d %u %d\n", channels[i], got, pending, ready);
        if (channels[i] == PROF_CHANNEL_STARS_SOC_LOG && got > 0) {
            /* Only the long kernel's begin may have been due (wall clock): keep it for the check. */
            struct StarsSocLog r;
            memcpy(&r, scratch, sizeof r);
            printf("S 1 %u %u %u %llu %llu\n", r.streamId, r.taskId, STARS_HEAD_FUNC_TYPE(r.head),
                   (unsigned long long)r.timestamp, device_now());
        }
    }
    printf("NOW %llu\n", device_now());
    CHECK(aclrtSynchronizeStream(a) == ACL_SUCCESS);
    CHECK(ready_on(PROF_CHANNEL_TS_FW, 1));
    drain(1, PROF_CHANNEL_TS_FW);
    drain(1, PROF_CHANNEL_STARS_SOC_LOG);

    /* Phase 2: a long kernel on stream a, short ones on stream b written after it, a trace on
     * each; no synchronisation: stopping the channels releases everything, in device order. */
    CHECK(aclrtLaunchKernel(long_fn, 1, args, sizeof args, a) == ACL_SUCCESS);
    trace(a, 42);
    for (int i = 0; i < 3; ++i) CHECK(aclrtLaunchKernel(short_fn, 1, args, sizeof args, b) == ACL_SUCCESS);
    trace(b, 43);
    CHECK(prof_stop(0, PROF_CHANNEL_TS_FW) == PROF_OK);
    CHECK(prof_stop(0, PROF_CHANNEL_STARS_SOC_LOG) == PROF_OK);
    drain(2, PROF_CHANNEL_TS_FW);
    drain(2, PROF_CHANNEL_STARS_SOC_LOG);
    CHECK(aclrtSynchronizeDevice() == ACL_SUCCESS);
    CHECK(aclrtDestroyStream(a) == ACL_SUCCESS);
    CHECK(aclrtDestroyStream(b) == ACL_SUCCESS);
    CHECK(aclrtResetDevice(0) == ACL_SUCCESS);
    CHECK(aclFinalize() == ACL_SUCCESS);
    return 0;
}
