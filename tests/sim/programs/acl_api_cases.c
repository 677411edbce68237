/*
 * The ACL runtime API, one scenario per argv[1]: success paths and error paths.
 *
 * Every check that fails prints "FAIL <case>:<line>: ..." and the program
 * exits 1; a scenario that passes prints "ok". Some scenarios also print
 * "key=value" lines for the test to compare with the SoC table.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "acl/acl.h"

static int g_failures = 0;

#define EXPECT(cond)                                               \
    do {                                                           \
        if (!(cond)) {                                             \
            printf("FAIL %s:%d: %s\n", __func__, __LINE__, #cond); \
            ++g_failures;                                          \
        }                                                          \
    } while (0)

#define EXPECT_RC(call, want)                                                                      \
    do {                                                                                           \
        const int rc_ = (int)(call);                                                               \
        if (rc_ != (int)(want)) {                                                                  \
            printf("FAIL %s:%d: %s = %d, want %d\n", __func__, __LINE__, #call, rc_, (int)(want)); \
            ++g_failures;                                                                          \
        }                                                                                          \
    } while (0)

#define OK(call) EXPECT_RC(call, ACL_SUCCESS)

#define MIB ((size_t)1 << 20)

static void* const BOGUS = (void*)(uintptr_t)0x1234;  /* never a handle */

static const unsigned char kImage[] = {0x7f, 'E', 'L', 'F', 1, 2, 3, 4};

static aclrtFuncHandle load_function(const char* name, aclrtBinHandle* bin_out) {
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle fn = NULL;
    OK(aclrtBinaryLoadFromData(kImage, sizeof kImage, NULL, &bin));
    OK(aclrtBinaryGetFunction(bin, name, &fn));
    if (bin_out) *bin_out = bin;
    return fn;
}

static void fill_pattern(unsigned char* p, size_t n, unsigned seed) {
    for (size_t i = 0; i < n; ++i) p[i] = (unsigned char)((i * 131u + seed) & 0xFF);
}

/* ------------------------------------------------------------------ init */

static void case_init(void) {
    EXPECT_RC(aclFinalize(), ACL_ERROR_UNINITIALIZE);
    EXPECT_RC(aclInit("/nonexistent/acl.json"), ACL_ERROR_INVALID_FILE);
    EXPECT_RC(aclInit("/tmp"), ACL_ERROR_INVALID_FILE); /* a directory is not a config file */
    char path[] = "/tmp/acl_cfg_XXXXXX";
    const int fd = mkstemp(path);
    EXPECT(fd >= 0);
    EXPECT(write(fd, "{}", 2) == 2);
    close(fd);
    OK(aclInit(path));
    EXPECT_RC(aclInit(path), ACL_ERROR_REPEAT_INITIALIZE);
    EXPECT_RC(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE);
    OK(aclFinalize());
    EXPECT_RC(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
    OK(aclInit(NULL)); /* a finalised process may initialise again */
    OK(aclFinalize());
    OK(aclInit(""));
    unlink(path);

    int32_t major = -1, minor = -1, patch = -1;
    EXPECT_RC(aclrtGetVersion(NULL, &minor, &patch), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtGetVersion(&major, NULL, &patch), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtGetVersion(&major, &minor, NULL), ACL_ERROR_INVALID_PARAM);
    OK(aclrtGetVersion(&major, &minor, &patch));
    EXPECT(major == 1 && minor == 17 && patch == 0);
    aclrtRunMode mode = ACL_DEVICE;
    EXPECT_RC(aclrtGetRunMode(NULL), ACL_ERROR_INVALID_PARAM);
    OK(aclrtGetRunMode(&mode));
    EXPECT(mode == ACL_HOST);
    const char* soc = aclrtGetSocName();
    EXPECT(soc != NULL);
    printf("soc=%s\n", soc ? soc : "(null)");
    OK(aclFinalize());
}

/* ------------------------------------------------------------------ devices */

static void case_device(void) {
    int32_t dev = -1;
    uint32_t count = 0;
    EXPECT_RC(aclrtGetDevice(NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtGetDevice(&dev), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_RC(aclrtGetDeviceCount(NULL), ACL_ERROR_INVALID_PARAM);
    OK(aclrtGetDeviceCount(&count));
    printf("count=%u\n", count);
    EXPECT_RC(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_RC(aclrtSetDevice((int32_t)count), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_RC(aclrtResetDevice((int32_t)count), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_RC(aclrtResetDevice(-5), ACL_ERROR_RT_INVALID_DEVICEID);

    /* Everything that needs a device says so while none is current. */
    aclrtStream stream = NULL;
    aclrtEvent event = NULL;
    void* ptr = NULL;
    char host[16] = {0};
    size_t free_bytes = 0, total = 0;
    aclrtBinHandle bin = NULL;
    EXPECT_RC(aclrtSynchronizeDevice(), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_RC(aclrtCreateStream(&stream), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_RC(aclrtCreateEvent(&event), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_RC(aclrtMalloc(&ptr, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_RC(aclrtMemcpy(host, 16, host + 8, 8, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_RC(aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_RC(aclrtSynchronizeStream(NULL), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_RC(aclrtBinaryLoadFromData(kImage, sizeof kImage, NULL, &bin), ACL_ERROR_RT_CONTEXT_NULL);
    aclrtContext ctx = NULL;
    EXPECT_RC(aclrtGetCurrentContext(&ctx), ACL_ERROR_RT_CONTEXT_NULL);

    OK(aclrtSetDevice(1));
    OK(aclrtGetDevice(&dev));
    EXPECT(dev == 1);
    OK(aclrtSetDevice(2));
    OK(aclrtGetDevice(&dev));
    EXPECT(dev == 2);
    OK(aclrtSynchronizeDevice());
    OK(aclrtResetDevice(2));
    EXPECT_RC(aclrtGetDevice(&dev), ACL_ERROR_RT_CONTEXT_NULL);
    OK(aclrtResetDevice(3)); /* never opened: harmless */
    OK(aclrtResetDevice(1));

    int32_t logic = -1, phy = -1;
    OK(aclrtGetLogicDevIdByUserDevId(1, &logic));
    EXPECT(logic == 1);
    OK(aclrtGetPhyDevIdByLogicDevId(1, &phy));
    EXPECT(phy == 1);
    EXPECT_RC(aclrtGetLogicDevIdByUserDevId(1, NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtGetPhyDevIdByLogicDevId(1, NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtGetLogicDevIdByUserDevId((int32_t)count, &logic), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_RC(aclrtGetPhyDevIdByLogicDevId(-1, &phy), ACL_ERROR_RT_INVALID_DEVICEID);
}

static void case_device_info(void) {
    static const struct {
        const char* key;
        aclrtDevAttr attr;
    } kAttrs[] = {
        {"aicore", ACL_DEV_ATTR_AICORE_CORE_NUM},       {"cube", ACL_DEV_ATTR_CUBE_CORE_NUM},
        {"vector", ACL_DEV_ATTR_VECTOR_CORE_NUM},       {"aicpu", ACL_DEV_ATTR_AICPU_CORE_NUM},
        {"memory", ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE}, {"l2", ACL_DEV_ATTR_L2_CACHE_SIZE},
        {"hd_connect", ACL_DEV_ATTR_HD_CONNECT_TYPE},   {"npu_arch", ACL_DEV_ATTR_NPU_ARCH},
        {"phy_chip", ACL_DEV_ATTR_PHY_CHIP_ID},         {"is_virtual", ACL_DEV_ATTR_IS_VIRTUAL},
    };
    for (size_t i = 0; i < sizeof kAttrs / sizeof kAttrs[0]; ++i) {
        int64_t v = -1;
        OK(aclrtGetDeviceInfo(1, kAttrs[i].attr, &v));
        printf("%s=%lld\n", kAttrs[i].key, (long long)v);
    }
    static const struct {
        const char* key;
        aclDeviceInfo info;
    } kCaps[] = {{"cap_aicore", ACL_DEVICE_INFO_AI_CORE_NUM},
                 {"cap_vector", ACL_DEVICE_INFO_VECTOR_CORE_NUM},
                 {"cap_l2", ACL_DEVICE_INFO_L2_SIZE}};
    for (size_t i = 0; i < sizeof kCaps / sizeof kCaps[0]; ++i) {
        int64_t v = -1;
        OK(aclGetDeviceCapability(0, kCaps[i].info, &v));
        printf("%s=%lld\n", kCaps[i].key, (long long)v);
    }
    int64_t v = 0;
    uint32_t count = 0;
    OK(aclrtGetDeviceCount(&count));
    EXPECT_RC(aclrtGetDeviceInfo(count, ACL_DEV_ATTR_AICORE_CORE_NUM, &v), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_RC(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtGetDeviceInfo(0, (aclrtDevAttr)999, &v), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_WARP_SIZE, &v), ACL_ERROR_FEATURE_UNSUPPORTED);
    EXPECT_RC(aclGetDeviceCapability(count, ACL_DEVICE_INFO_L2_SIZE, &v), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_RC(aclGetDeviceCapability(0, ACL_DEVICE_INFO_L2_SIZE, NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclGetDeviceCapability(0, (aclDeviceInfo)7, &v), ACL_ERROR_INVALID_PARAM);
}

static void case_topology(void) {
    uint32_t count = 0;
    OK(aclrtGetDeviceCount(&count));
    for (uint32_t a = 0; a < count; ++a) {
        for (uint32_t b = 0; b < count; ++b) {
            if (a == b) continue;
            uint64_t v = 0;
            OK(aclrtGetDevicesTopo(a, b, &v));
            printf("topo %u %u 0x%llx\n", a, b, (unsigned long long)v);
        }
    }
    uint64_t v = 0;
    EXPECT_RC(aclrtGetDevicesTopo(0, 0, &v), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtGetDevicesTopo(0, 1, NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtGetDevicesTopo(0, count, &v), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_RC(aclrtGetDevicesTopo(count, 0, &v), ACL_ERROR_RT_INVALID_DEVICEID);
}

/* ------------------------------------------------------------------ contexts */

static void case_context(void) {
    aclrtContext c1 = NULL, p0 = NULL, cur = NULL;
    int32_t dev = -1, sid = -1;
    EXPECT_RC(aclrtCreateContext(NULL, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtCreateContext(&c1, 99), ACL_ERROR_RT_INVALID_DEVICEID);
    OK(aclrtCreateContext(&c1, 1));
    OK(aclrtGetDevice(&dev));
    EXPECT(dev == 1);
    OK(aclrtGetCurrentContext(&cur));
    EXPECT(cur == c1);
    /* A created context has its own default stream. */
    OK(aclrtStreamGetId(NULL, &sid));
    EXPECT(sid != 0);
    void* mem = NULL;
    OK(aclrtMalloc(&mem, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMemsetAsync(mem, 4096, 1, 4096, NULL));
    OK(aclrtSynchronizeStream(NULL));

    OK(aclrtSetDevice(0));
    OK(aclrtGetCurrentContext(&p0));
    EXPECT(p0 != NULL && p0 != c1);
    OK(aclrtStreamGetId(NULL, &sid));
    EXPECT(sid == 0);
    OK(aclrtSetCurrentContext(c1));
    OK(aclrtGetDevice(&dev));
    EXPECT(dev == 1);
    OK(aclrtSetCurrentContext(p0));
    OK(aclrtGetDevice(&dev));
    EXPECT(dev == 0);
    EXPECT_RC(aclrtSetCurrentContext(NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtSetCurrentContext(BOGUS), ACL_ERROR_INVALID_RESOURCE_HANDLE);
    EXPECT_RC(aclrtGetCurrentContext(NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtDestroyContext(NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtDestroyContext(BOGUS), ACL_ERROR_INVALID_RESOURCE_HANDLE);
    EXPECT_RC(aclrtDestroyContext(p0), ACL_ERROR_INVALID_PARAM); /* a device's own context */

    OK(aclrtSetCurrentContext(c1));
    OK(aclrtFree(mem));
    OK(aclrtDestroyContext(c1));
    EXPECT_RC(aclrtGetCurrentContext(&cur), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_RC(aclrtDestroyContext(c1), ACL_ERROR_INVALID_RESOURCE_HANDLE);
    EXPECT_RC(aclrtSetCurrentContext(c1), ACL_ERROR_INVALID_RESOURCE_HANDLE);
    OK(aclrtResetDevice(0));
}

/* ------------------------------------------------------------------ streams */

static void case_stream(void) {
    OK(aclrtSetDevice(0));
    aclrtStream s1 = NULL, s2 = NULL;
    int32_t id1 = -1, id2 = -1, id0 = -1;
    EXPECT_RC(aclrtCreateStream(NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtCreateStreamWithConfig(NULL, 0, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtCreateStreamWithConfig(&s1, 8, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtCreateStreamWithConfig(&s1, 0, 0x1000), ACL_ERROR_INVALID_PARAM);
    OK(aclrtCreateStream(&s1));
    OK(aclrtCreateStreamWithConfig(&s2, 3, ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC));
    OK(aclrtStreamGetId(s1, &id1));
    OK(aclrtStreamGetId(s2, &id2));
    OK(aclrtStreamGetId(NULL, &id0));
    EXPECT(id1 > 0 && id2 > 0 && id1 != id2 && id0 == 0);
    EXPECT_RC(aclrtStreamGetId(s1, NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtStreamGetId(BOGUS, &id1), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_RC(aclrtSynchronizeStream(BOGUS), ACL_ERROR_RT_PARAM_INVALID);
    OK(aclrtSynchronizeStream(s1));
    OK(aclrtSynchronizeStream(NULL));
    EXPECT_RC(aclrtSynchronizeStreamWithTimeout(s1, -2), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtSynchronizeStreamWithTimeout(BOGUS, 10), ACL_ERROR_RT_PARAM_INVALID);
    OK(aclrtSynchronizeStreamWithTimeout(s1, -1));
    OK(aclrtSynchronizeStreamWithTimeout(s1, 1000));
    EXPECT_RC(aclrtDestroyStream(NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtDestroyStream(BOGUS), ACL_ERROR_RT_PARAM_INVALID);
    OK(aclrtDestroyStream(s1));
    EXPECT_RC(aclrtDestroyStream(s1), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_RC(aclrtSynchronizeStream(s1), ACL_ERROR_RT_PARAM_INVALID);
    aclrtFuncHandle fn = load_function("noop_kernel", NULL);
    EXPECT_RC(aclrtLaunchKernel(fn, 1, NULL, 0, s1), ACL_ERROR_RT_PARAM_INVALID);
    OK(aclrtLaunchKernel(fn, 1, NULL, 0, s2));
    OK(aclrtDestroyStream(s2));

    /* Stream ids run out, then come back when streams are destroyed. */
    static aclrtStream many[4096];
    int created = 0;
    aclError rc = ACL_SUCCESS;
    while (created < 4096 && (rc = aclrtCreateStream(&many[created])) == ACL_SUCCESS) ++created;
    EXPECT_RC(rc, ACL_ERROR_RT_NO_STREAM_RESOURCE);
    printf("streams=%d\n", created);
    for (int i = 0; i < created; ++i) OK(aclrtDestroyStream(many[i]));
    OK(aclrtCreateStream(&s1));
    OK(aclrtDestroyStream(s1));
    OK(aclrtResetDevice(0));
}

/* ------------------------------------------------------------------ events */

static void case_event(void) {
    OK(aclrtSetDevice(0));
    aclrtStream s = NULL;
    aclrtEvent e1 = NULL, e2 = NULL, e3 = NULL;
    OK(aclrtCreateStream(&s));
    EXPECT_RC(aclrtCreateEvent(NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtCreateEventWithFlag(&e1, 0x80000), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtCreateEventExWithFlag(NULL, ACL_EVENT_SYNC), ACL_ERROR_INVALID_PARAM);
    OK(aclrtCreateEvent(&e1));
    OK(aclrtCreateEventWithFlag(&e2, ACL_EVENT_TIME_LINE));
    OK(aclrtCreateEventExWithFlag(&e3, ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE));

    uint32_t id1 = 0, id2 = 0;
    OK(aclrtGetEventId(e1, &id1));
    OK(aclrtGetEventId(e2, &id2));
    EXPECT(id1 != id2);
    EXPECT_RC(aclrtGetEventId(e1, NULL), ACL_ERROR_INVALID_PARAM);

    /* Never recorded. */
    aclrtEventStatus st = ACL_EVENT_STATUS_RESERVED;
    aclrtEventRecordedStatus rst = ACL_EVENT_RECORDED_STATUS_COMPLETE;
    uint64_t ts = 0;
    float ms = -1;
    OK(aclrtQueryEvent(e1, &st));
    EXPECT(st == ACL_EVENT_STATUS_COMPLETE);
    OK(aclrtQueryEventStatus(e1, &rst));
    EXPECT(rst == ACL_EVENT_RECORDED_STATUS_NOT_READY);
    EXPECT_RC(aclrtEventGetTimestamp(e1, &ts), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID);
    EXPECT_RC(aclrtEventElapsedTime(&ms, e1, e2), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID);
    OK(aclrtSynchronizeEvent(e1));
    OK(aclrtStreamWaitEvent(s, e1)); /* waiting for an unrecorded event does not block */

    /* Recorded behind a long kernel: not complete until synchronised (virtual clock). */
    aclrtFuncHandle fn = load_function("matmul_big", NULL);
    OK(aclrtRecordEvent(e1, s));
    for (int i = 0; i < 10; ++i) OK(aclrtLaunchKernel(fn, 20, NULL, 0, s));
    OK(aclrtRecordEvent(e2, s));
    OK(aclrtQueryEvent(e2, &st));
    EXPECT(st == ACL_EVENT_STATUS_NOT_READY);
    OK(aclrtQueryEventStatus(e2, &rst));
    EXPECT(rst == ACL_EVENT_RECORDED_STATUS_NOT_READY);
    OK(aclrtSynchronizeEvent(e2));
    OK(aclrtQueryEvent(e2, &st));
    EXPECT(st == ACL_EVENT_STATUS_COMPLETE);
    OK(aclrtQueryEventStatus(e2, &rst));
    EXPECT(rst == ACL_EVENT_RECORDED_STATUS_COMPLETE);
    uint64_t t1 = 0, t2 = 0;
    OK(aclrtEventGetTimestamp(e1, &t1));
    OK(aclrtEventGetTimestamp(e2, &t2));
    EXPECT(t1 > 0 && t2 > t1);
    OK(aclrtEventElapsedTime(&ms, e1, e2));
    EXPECT(ms > 0.3f && ms < 1.0f); /* ten ~38 us kernels */
    EXPECT_RC(aclrtEventElapsedTime(&ms, e2, e1), ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL);
    EXPECT_RC(aclrtEventElapsedTime(NULL, e1, e2), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtEventElapsedTime(&ms, NULL, e2), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtEventElapsedTime(&ms, BOGUS, e2), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_RC(aclrtEventGetTimestamp(e1, NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtQueryEvent(e1, NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtQueryEventStatus(e1, NULL), ACL_ERROR_INVALID_PARAM);

    /* Reset makes it unrecorded again. */
    OK(aclrtResetEvent(e2, s));
    OK(aclrtQueryEventStatus(e2, &rst));
    EXPECT(rst == ACL_EVENT_RECORDED_STATUS_NOT_READY);
    EXPECT_RC(aclrtEventGetTimestamp(e2, &ts), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID);
    EXPECT_RC(aclrtResetEvent(e2, BOGUS), ACL_ERROR_RT_PARAM_INVALID);

    /* Unknown and NULL events. */
    EXPECT_RC(aclrtRecordEvent(BOGUS, s), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_RC(aclrtRecordEvent(NULL, s), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtRecordEvent(e1, BOGUS), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_RC(aclrtStreamWaitEvent(s, BOGUS), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_RC(aclrtStreamWaitEvent(BOGUS, e1), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_RC(aclrtSynchronizeEvent(BOGUS), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_RC(aclrtQueryEvent(BOGUS, &st), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_RC(aclrtQueryEventStatus(BOGUS, &rst), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_RC(aclrtEventGetTimestamp(BOGUS, &ts), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_RC(aclrtGetEventId(BOGUS, &id1), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_RC(aclrtResetEvent(BOGUS, s), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_RC(aclrtDestroyEvent(BOGUS), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_RC(aclrtDestroyEvent(NULL), ACL_ERROR_INVALID_PARAM);

    OK(aclrtDestroyEvent(e3));
    EXPECT_RC(aclrtDestroyEvent(e3), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_RC(aclrtRecordEvent(e3, s), ACL_ERROR_RT_PARAM_INVALID);
    OK(aclrtDestroyEvent(e1));
    OK(aclrtDestroyEvent(e2));
    OK(aclrtDestroyStream(s));
    OK(aclrtResetDevice(0));
}

/* ------------------------------------------------------------------ memory */

static void case_memory(void) {
    OK(aclrtSetDevice(0));
    void* p = NULL;
    EXPECT_RC(aclrtMalloc(NULL, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtMalloc(&p, 64, (aclrtMemMallocPolicy)99), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtMalloc(&p, 64, (aclrtMemMallocPolicy)0x40000), ACL_ERROR_INVALID_PARAM);

    size_t free0 = 0, total = 0, free1 = 0, total_ddr = 0, free_ddr = 0;
    EXPECT_RC(aclrtGetMemInfo(ACL_HBM_MEM, NULL, &total), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtGetMemInfo(ACL_HBM_MEM, &free0, NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtGetMemInfo((aclrtMemAttr)99, &free0, &total), ACL_ERROR_INVALID_PARAM);
    OK(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total));
    OK(aclrtGetMemInfo(ACL_DDR_MEM, &free_ddr, &total_ddr));
    EXPECT(total == total_ddr && free0 == free_ddr && free0 == total);
    printf("total=%zu\n", total);

    /* Alignment of each allocator. */
    const size_t sizes[] = {1, 100, 4096, 2 * MIB + 3};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
        void *a = NULL, *b = NULL, *c = NULL, *d = NULL, *e = NULL;
        OK(aclrtMalloc(&a, sizes[i], ACL_MEM_MALLOC_HUGE_FIRST | ACL_MEM_TYPE_HIGH_BAND_WIDTH));
        OK(aclrtMallocCached(&b, sizes[i], ACL_MEM_MALLOC_NORMAL_ONLY));
        OK(aclrtMallocAlign32(&c, sizes[i], ACL_MEM_MALLOC_HUGE_ONLY));
        OK(aclrtMallocWithCfg(&d, sizes[i], ACL_MEM_MALLOC_HUGE_FIRST, NULL));
        OK(aclrtMallocForTaskScheduler(&e, sizes[i], ACL_MEM_MALLOC_HUGE_FIRST, NULL));
        EXPECT((uintptr_t)a % 512 == 0 && (uintptr_t)b % 512 == 0 && (uintptr_t)c % 32 == 0);
        EXPECT((uintptr_t)d % 512 == 0 && (uintptr_t)e % 512 == 0);
        memset(a, 0xAB, sizes[i]); /* device memory is real memory */
        OK(aclrtFree(a));
        OK(aclrtFree(b));
        OK(aclrtFree(c));
        OK(aclrtFree(d));
        OK(aclrtFree(e));
    }

    /* Accounting. */
    OK(aclrtMalloc(&p, 1024 * MIB, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total));
    EXPECT(free0 - free1 == 1024 * MIB);
    OK(aclrtFree(p));
    OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total));
    EXPECT(free1 == free0);

    /* Out of device memory. */
    EXPECT_RC(aclrtMalloc(&p, total + 1, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
    void *half1 = NULL, *half2 = NULL;
    OK(aclrtMalloc(&half1, total / 2, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMalloc(&half2, total / 2, ACL_MEM_MALLOC_HUGE_FIRST));
    EXPECT_RC(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
    OK(aclrtFree(half1));
    OK(aclrtFree(half2));

    /* A configured allocation on another device. */
    aclrtMallocAttribute attr;
    memset(&attr, 0, sizeof attr);
    attr.attr = ACL_RT_MEM_ATTR_DEVICE_ID;
    attr.value.deviceId = 1;
    aclrtMallocConfig cfg = {&attr, 1};
    OK(aclrtMallocWithCfg(&p, MIB, ACL_MEM_MALLOC_HUGE_FIRST, &cfg));
    OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total));
    EXPECT(free1 == free0); /* counted on device 1, not the current device */
    OK(aclrtSetDevice(1));
    OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total));
    EXPECT(free0 - free1 == MIB);
    OK(aclrtFree(p));
    OK(aclrtResetDevice(1));
    OK(aclrtSetDevice(0));
    attr.value.deviceId = 999;
    EXPECT_RC(aclrtMallocWithCfg(&p, MIB, ACL_MEM_MALLOC_HUGE_FIRST, &cfg), ACL_ERROR_RT_INVALID_DEVICEID);
    attr.attr = (aclrtMallocAttrType)42;
    EXPECT_RC(aclrtMallocForTaskScheduler(&p, MIB, ACL_MEM_MALLOC_HUGE_FIRST, &cfg), ACL_ERROR_INVALID_PARAM);
    aclrtMallocConfig broken = {NULL, 1};
    EXPECT_RC(aclrtMallocWithCfg(&p, MIB, ACL_MEM_MALLOC_HUGE_FIRST, &broken), ACL_ERROR_INVALID_PARAM);
    attr.attr = ACL_RT_MEM_ATTR_MODULE_ID;
    attr.value.moduleId = 3;
    OK(aclrtMallocWithCfg(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST, &cfg));
    OK(aclrtFree(p));

    /* Frees of the wrong thing. */
    void *dev = NULL, *host = NULL;
    int on_stack = 0;
    OK(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMallocHost(&host, 4096));
    EXPECT_RC(aclrtFree(NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtFree(host), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_RC(aclrtFree(&on_stack), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_RC(aclrtFree((char*)dev + 16), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_RC(aclrtFreeHost(dev), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_RC(aclrtFreeHost(NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtMallocHost(NULL, 64), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtMallocHost(&host, 0), ACL_ERROR_INVALID_PARAM);

    /* Cache maintenance checks its range. */
    OK(aclrtMemFlush(dev, 4096));
    OK(aclrtMemInvalidate(dev, 4096));
    OK(aclrtMemFlush(host, 4096));
    EXPECT_RC(aclrtMemFlush(NULL, 16), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtMemInvalidate(dev, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtMemFlush(dev, 4097), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_RC(aclrtMemInvalidate(&on_stack, 4), ACL_ERROR_RT_PARAM_INVALID);

    OK(aclrtFree(dev));
    EXPECT_RC(aclrtFree(dev), ACL_ERROR_RT_PARAM_INVALID); /* double free */
    OK(aclrtFreeHost(host));
    EXPECT_RC(aclrtFreeHost(host), ACL_ERROR_RT_PARAM_INVALID);
    OK(aclrtResetDevice(0));
}

/* ------------------------------------------------------------------ virtual memory */

static void case_vmm(void) {
    OK(aclrtSetDevice(0));
    const size_t gran = 2 * MIB;
    void* va = NULL;
    EXPECT_RC(aclrtReserveMemAddress(NULL, gran, 0, NULL, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtReserveMemAddress(&va, 0, 0, NULL, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtReserveMemAddress(&va, gran, 3, NULL, 0), ACL_ERROR_INVALID_PARAM);
    OK(aclrtReserveMemAddress(&va, 3 * gran, gran, NULL, 0));
    EXPECT((uintptr_t)va % gran == 0);

    size_t free0 = 0, free1 = 0, total = 0;
    OK(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total));
    aclrtPhysicalMemProp prop;
    memset(&prop, 0, sizeof prop);
    prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    aclrtDrvMemHandle h = NULL, h2 = NULL;
    EXPECT_RC(aclrtMallocPhysical(NULL, gran, &prop, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtMallocPhysical(&h, gran, NULL, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtMallocPhysical(&h, 0, &prop, 0), ACL_ERROR_INVALID_PARAM);
    prop.location.id = 99;
    EXPECT_RC(aclrtMallocPhysical(&h, gran, &prop, 0), ACL_ERROR_RT_INVALID_DEVICEID);
    prop.location.id = 0;
    prop.location.type = (aclrtMemLocationType)7;
    EXPECT_RC(aclrtMallocPhysical(&h, gran, &prop, 0), ACL_ERROR_INVALID_PARAM);
    prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    prop.allocationType = (aclrtMemAllocationType)5;
    EXPECT_RC(aclrtMallocPhysical(&h, gran, &prop, 0), ACL_ERROR_INVALID_PARAM);
    prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    EXPECT_RC(aclrtMallocPhysical(&h, total + 1, &prop, 0), ACL_ERROR_RT_MEMORY_ALLOCATION);
    OK(aclrtMallocPhysical(&h, gran, &prop, 0));
    OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total));
    EXPECT(free0 - free1 == gran);

    /* The same physical memory mapped twice: both views share bytes. */
    char* base = (char*)va;
    EXPECT_RC(aclrtMapMem(NULL, gran, 0, h, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtMapMem(va, 0, 0, h, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtMapMem(va, gran, 0, NULL, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtMapMem(va, gran, 0, BOGUS, 0), ACL_ERROR_INVALID_RESOURCE_HANDLE);
    EXPECT_RC(aclrtMapMem(base + 1, gran, 0, h, 0), ACL_ERROR_INVALID_PARAM);       /* unaligned */
    EXPECT_RC(aclrtMapMem(va, gran, 4096, h, 0), ACL_ERROR_INVALID_PARAM);          /* past the end */
    EXPECT_RC(aclrtMapMem(base + 3 * gran, gran, 0, h, 0), ACL_ERROR_RT_PARAM_INVALID); /* outside */
    OK(aclrtMapMem(va, gran, 0, h, 0));
    EXPECT_RC(aclrtMapMem(base + gran / 2, gran / 2, 0, h, 0), ACL_ERROR_RT_PARAM_INVALID); /* overlap */
    OK(aclrtMapMem(base + gran, gran, 0, h, 0));

    unsigned char src[4096], back[4096];
    fill_pattern(src, sizeof src, 3);
    OK(aclrtMemcpy(va, gran, src, sizeof src, ACL_MEMCPY_HOST_TO_DEVICE));
    OK(aclrtMemcpy(back, sizeof back, base + gran, sizeof back, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(memcmp(src, back, sizeof src) == 0);
    /* The third granule is reserved but not mapped: no copy may touch it (and nothing crashes). */
    EXPECT_RC(aclrtMemcpy(base + 2 * gran, gran, src, sizeof src, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_RC(aclrtMemcpy(back, sizeof back, base + 2 * gran, sizeof back, ACL_MEMCPY_HOST_TO_HOST),
              ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_RC(aclrtMemset(base + 2 * gran, gran, 0, 16), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_RC(aclrtFree(va), ACL_ERROR_RT_PARAM_INVALID);                /* a mapping is not an allocation */
    EXPECT_RC(aclrtReleaseMemAddress(va), ACL_ERROR_RT_PARAM_INVALID);   /* still mapped */

    /* Shareable handles, within this process. */
    uint64_t share = 0, share_again = 0;
    EXPECT_RC(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 0, NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtMemExportToShareableHandle(h, (aclrtMemHandleType)5, 0, &share), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtMemExportToShareableHandle(BOGUS, ACL_MEM_HANDLE_TYPE_NONE, 0, &share),
              ACL_ERROR_INVALID_RESOURCE_HANDLE);
    OK(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 0, &share));
    OK(aclrtMemExportToShareableHandle(h, ACL_MEM_HANDLE_TYPE_NONE, 0, &share_again));
    EXPECT(share != 0 && share == share_again);
    int32_t pids[2] = {(int32_t)getpid(), 1};
    OK(aclrtMemSetPidToShareableHandle(share, pids, 2));
    EXPECT_RC(aclrtMemSetPidToShareableHandle(share, NULL, 1), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtMemSetPidToShareableHandle(share, pids, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtMemSetPidToShareableHandle(share + 1000, pids, 1), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_RC(aclrtMemImportFromShareableHandle(share, 0, NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtMemImportFromShareableHandle(share, 99, &h2), ACL_ERROR_RT_INVALID_DEVICEID);
    const uint64_t foreign = ((uint64_t)(uint32_t)(getpid() + 1) << 32) | 1;
    EXPECT_RC(aclrtMemImportFromShareableHandle(foreign, 0, &h2), ACL_ERROR_FEATURE_UNSUPPORTED);
    OK(aclrtMemImportFromShareableHandle(share, 0, &h2));
    EXPECT(h2 != h);
    void* va2 = NULL;
    OK(aclrtReserveMemAddress(&va2, gran, 0, NULL, 0));
    OK(aclrtMapMem(va2, gran, 0, h2, 0));
    OK(aclrtMemcpy(back, sizeof back, va2, sizeof back, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(memcmp(src, back, sizeof src) == 0);

    /* Tear down. Physical memory is counted until its last handle and mapping are gone. */
    EXPECT_RC(aclrtUnmapMem(NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtUnmapMem(base + 4096), ACL_ERROR_RT_PARAM_INVALID);
    OK(aclrtUnmapMem(va));
    EXPECT_RC(aclrtUnmapMem(va), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_RC(aclrtMemcpy(va, gran, src, sizeof src, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
    OK(aclrtUnmapMem(base + gran));
    OK(aclrtFreePhysical(h));
    EXPECT_RC(aclrtFreePhysical(h), ACL_ERROR_INVALID_RESOURCE_HANDLE);
    EXPECT_RC(aclrtFreePhysical(NULL), ACL_ERROR_INVALID_PARAM);
    OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total));
    EXPECT(free0 - free1 == gran); /* h2 and its mapping still hold it */
    OK(aclrtUnmapMem(va2));
    OK(aclrtFreePhysical(h2));
    OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total));
    EXPECT(free1 == free0);
    EXPECT_RC(aclrtMemImportFromShareableHandle(share, 0, &h2), ACL_ERROR_RT_PARAM_INVALID); /* freed */
    EXPECT_RC(aclrtReleaseMemAddress(NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtReleaseMemAddress(base + 4096), ACL_ERROR_RT_PARAM_INVALID);
    OK(aclrtReleaseMemAddress(va));
    OK(aclrtReleaseMemAddress(va2));
    EXPECT_RC(aclrtReleaseMemAddress(va), ACL_ERROR_RT_PARAM_INVALID);

    /* Host-located physical memory is not device memory. */
    prop.location.type = ACL_MEM_LOCATION_TYPE_HOST;
    OK(aclrtMallocPhysical(&h, gran, &prop, 0));
    OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total));
    EXPECT(free1 == free0);
    OK(aclrtFreePhysical(h));
    OK(aclrtResetDevice(0));
}

/* ------------------------------------------------------------------ copies */

static int same(const void* a, const void* b, size_t n) { return memcmp(a, b, n) == 0; }

static void case_copy(void) {
    OK(aclrtSetDevice(0));
    const size_t n = 64 * 1024;
    aclrtStream s = NULL;
    OK(aclrtCreateStream(&s));
    void *d1 = NULL, *d2 = NULL, *pinned = NULL, *d_other = NULL;
    OK(aclrtMalloc(&d1, n, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMalloc(&d2, n, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMallocHost(&pinned, n));
    OK(aclrtSetDevice(1));
    OK(aclrtMalloc(&d_other, n, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtSetDevice(0));
    unsigned char* src = malloc(n);
    unsigned char* dst = malloc(n);
    const aclrtMemcpyKind h2d_kinds[] = {ACL_MEMCPY_HOST_TO_DEVICE, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE,
                                         ACL_MEMCPY_DEFAULT};
    const aclrtMemcpyKind d2d_kinds[] = {ACL_MEMCPY_DEVICE_TO_DEVICE, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE,
                                         ACL_MEMCPY_INTER_DEVICE_TO_DEVICE, ACL_MEMCPY_DEFAULT};
    const aclrtMemcpyKind d2h_kinds[] = {ACL_MEMCPY_DEVICE_TO_HOST, ACL_MEMCPY_DEFAULT};
    const aclrtMemcpyKind h2h_kinds[] = {ACL_MEMCPY_HOST_TO_HOST, ACL_MEMCPY_DEFAULT};
    unsigned seed = 10;
    for (int async = 0; async < 2; ++async) {
        for (size_t i = 0; i < 3; ++i) {
            for (size_t j = 0; j < 4; ++j) {
                for (size_t k = 0; k < 2; ++k) {
                    fill_pattern(src, n, ++seed);
                    memset(dst, 0, n);
                    void* second = j == 2 ? d_other : d2; /* inter-device copies go to device 1 */
                    if (async) {
                        OK(aclrtMemcpyAsync(d1, n, src, n, h2d_kinds[i], s));
                        OK(aclrtMemcpyAsync(second, n, d1, n, d2d_kinds[j], s));
                        OK(aclrtMemcpyAsync(dst, n, second, n, d2h_kinds[k], s));
                        OK(aclrtSynchronizeStream(s));
                    } else {
                        OK(aclrtMemcpy(d1, n, src, n, h2d_kinds[i]));
                        OK(aclrtMemcpy(second, n, d1, n, d2d_kinds[j]));
                        OK(aclrtMemcpy(dst, n, second, n, d2h_kinds[k]));
                    }
                    if (!same(src, dst, n))
                        printf("FAIL copy round trip async=%d kinds %zu/%zu/%zu\n", async, i, j, k), ++g_failures;
                }
            }
        }
        for (size_t i = 0; i < 2; ++i) {
            fill_pattern(src, n, ++seed);
            if (async) {
                OK(aclrtMemcpyAsync(pinned, n, src, n, h2h_kinds[i], NULL));
                OK(aclrtMemcpyAsync(dst, n, pinned, n, h2h_kinds[i], NULL));
                OK(aclrtSynchronizeStream(NULL));
            } else {
                OK(aclrtMemcpy(pinned, n, src, n, h2h_kinds[i]));
                OK(aclrtMemcpy(dst, n, pinned, n, h2h_kinds[i]));
            }
            EXPECT(same(src, dst, n));
        }
    }
    /* Pinned host memory works as the host side of device copies. */
    fill_pattern((unsigned char*)pinned, n, 99);
    OK(aclrtMemcpy(d1, n, pinned, n, ACL_MEMCPY_HOST_TO_DEVICE));
    OK(aclrtMemcpy(dst, n, d1, n, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(same(pinned, dst, n));

    /* Overlapping device ranges copy like memmove. */
    fill_pattern(src, n, 5);
    OK(aclrtMemcpy(d1, n, src, n, ACL_MEMCPY_HOST_TO_DEVICE));
    OK(aclrtMemcpy((char*)d1 + 16, n - 16, d1, n - 16, ACL_MEMCPY_DEVICE_TO_DEVICE));
    OK(aclrtMemcpy(dst, n, d1, n, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(same(dst, src, 16) && same(dst + 16, src, n - 16));

    /* destMax larger than count copies count bytes only. */
    memset(dst, 0x11, n);
    OK(aclrtMemcpy(dst, n, d2, 100, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(dst[100] == 0x11);
    free(src);
    free(dst);
    OK(aclrtFree(d1));
    OK(aclrtFree(d2));
    OK(aclrtFree(d_other));
    OK(aclrtFreeHost(pinned));
    OK(aclrtDestroyStream(s));
    OK(aclrtResetDevice(0));
}

static void case_copy_errors(void) {
    OK(aclrtSetDevice(0));
    aclrtStream s = NULL;
    OK(aclrtCreateStream(&s));
    void *d = NULL, *pinned = NULL, *freed = NULL, *va = NULL;
    OK(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMallocHost(&pinned, 4096));
    OK(aclrtMalloc(&freed, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtFree(freed));
    OK(aclrtReserveMemAddress(&va, 2 * MIB, 0, NULL, 0));
    static unsigned char host[8192];
    for (int async = 0; async < 2; ++async) {
#define COPY(dst_, max_, src_, count_, kind_) \
    (async ? aclrtMemcpyAsync(dst_, max_, src_, count_, kind_, s) : aclrtMemcpy(dst_, max_, src_, count_, kind_))
        EXPECT_RC(COPY(NULL, 16, host, 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
        EXPECT_RC(COPY(d, 16, NULL, 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
        EXPECT_RC(COPY(d, 16, host, 17, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM); /* count > destMax */
        EXPECT_RC(COPY(d, 16, host, 16, (aclrtMemcpyKind)99), ACL_ERROR_INVALID_PARAM);
        EXPECT_RC(COPY(d, 16, host, 16, (aclrtMemcpyKind)-1), ACL_ERROR_INVALID_PARAM);
        /* The wrong kind of memory on a side. */
        EXPECT_RC(COPY(host, 16, host + 64, 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
        EXPECT_RC(COPY(pinned, 16, host, 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
        EXPECT_RC(COPY(host, 16, host + 64, 16, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
        EXPECT_RC(COPY(d, 16, host, 16, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
        EXPECT_RC(COPY(host, 16, d, 16, ACL_MEMCPY_INTER_DEVICE_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
        /* Past the end of an allocation, freed memory, an unmapped reservation. */
        EXPECT_RC(COPY(d, 8192, host, 4097, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
        EXPECT_RC(COPY((char*)d + 4000, 200, host, 200, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
        EXPECT_RC(COPY(host, 8192, d, 4097, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
        EXPECT_RC(COPY(freed, 16, host, 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
        EXPECT_RC(COPY(va, 16, host, 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
        EXPECT_RC(COPY(va, 16, host, 16, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
        EXPECT_RC(COPY(pinned, 8192, host, 4097, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
        /* Nothing to copy is fine, but the kind still has to be valid. */
        OK(COPY(d, 16, host, 0, ACL_MEMCPY_HOST_TO_DEVICE));
        EXPECT_RC(COPY(d, 16, host, 0, (aclrtMemcpyKind)42), ACL_ERROR_INVALID_PARAM);
#undef COPY
    }
    EXPECT_RC(aclrtMemcpyAsync(d, 16, host, 16, ACL_MEMCPY_HOST_TO_DEVICE, BOGUS), ACL_ERROR_RT_PARAM_INVALID);
    OK(aclrtReleaseMemAddress(va));
    OK(aclrtFree(d));
    OK(aclrtFreeHost(pinned));
    OK(aclrtDestroyStream(s));
    OK(aclrtResetDevice(0));
}

static void case_copy2d(void) {
    OK(aclrtSetDevice(0));
    aclrtStream s = NULL;
    OK(aclrtCreateStream(&s));
    enum { W = 100, H = 7, SP = 128, DP = 256 };
    unsigned char src[SP * H], back[SP * H], dev_image[DP * H];
    void* d = NULL;
    OK(aclrtMalloc(&d, DP * H, ACL_MEM_MALLOC_HUGE_FIRST));
    for (int async = 0; async < 2; ++async) {
        fill_pattern(src, sizeof src, 40 + async);
        OK(aclrtMemset(d, DP * H, 0xEE, DP * H));
        memset(back, 0x33, sizeof back);
        if (async) {
            OK(aclrtMemcpy2dAsync(d, DP, src, SP, W, H, ACL_MEMCPY_HOST_TO_DEVICE, s));
            OK(aclrtMemcpy2dAsync(back, SP, d, DP, W, H, ACL_MEMCPY_DEVICE_TO_HOST, s));
            OK(aclrtSynchronizeStream(s));
        } else {
            OK(aclrtMemcpy2d(d, DP, src, SP, W, H, ACL_MEMCPY_HOST_TO_DEVICE));
            OK(aclrtMemcpy2d(back, SP, d, DP, W, H, ACL_MEMCPY_DEVICE_TO_HOST));
        }
        OK(aclrtMemcpy(dev_image, sizeof dev_image, d, DP * H, ACL_MEMCPY_DEVICE_TO_HOST));
        for (int r = 0; r < H; ++r) {
            EXPECT(same(back + r * SP, src + r * SP, W));                      /* each row arrived */
            EXPECT(back[r * SP + W] == 0x33);                                  /* padding untouched */
            EXPECT(same(dev_image + r * DP, src + r * SP, W));
            EXPECT(dev_image[r * DP + W] == 0xEE && dev_image[r * DP + DP - 1] == 0xEE);
        }
    }
    /* A device-to-device 2-D copy with the same pitch on both sides. */
    void* d2 = NULL;
    OK(aclrtMalloc(&d2, DP * H, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMemcpy2d(d2, DP, d, DP, W, H, ACL_MEMCPY_DEVICE_TO_DEVICE));
    unsigned char image2[DP * H];
    OK(aclrtMemcpy(image2, sizeof image2, d2, DP * H, ACL_MEMCPY_DEVICE_TO_HOST));
    for (int r = 0; r < H; ++r) EXPECT(same(image2 + r * DP, dev_image + r * DP, W));

    EXPECT_RC(aclrtMemcpy2d(NULL, DP, src, SP, W, H, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtMemcpy2d(d, DP, NULL, SP, W, H, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtMemcpy2d(d, W - 1, src, SP, W, H, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtMemcpy2d(d, DP, src, W - 1, W, H, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtMemcpy2d(d, DP, src, SP, 0, H, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtMemcpy2d(d, DP, src, SP, W, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtMemcpy2d(d, DP, src, SP, W, H, (aclrtMemcpyKind)77), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtMemcpy2d(d, SIZE_MAX / 2, src, SP, W, H, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtMemcpy2d(d, DP, src, SP, W, H + 1, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_RC(aclrtMemcpy2d(src, SP, d, DP, W, H, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_RC(aclrtMemcpy2dAsync(d, DP, src, SP, W, H, ACL_MEMCPY_HOST_TO_DEVICE, BOGUS), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_RC(aclrtMemcpy2dAsync(d, DP, src, SP, W + DP, H, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_ERROR_INVALID_PARAM);
    OK(aclrtFree(d));
    OK(aclrtFree(d2));
    OK(aclrtDestroyStream(s));
    OK(aclrtResetDevice(0));
}

static void case_memset(void) {
    OK(aclrtSetDevice(0));
    aclrtStream s = NULL;
    OK(aclrtCreateStream(&s));
    const size_t n = 8192;
    void *d = NULL, *pinned = NULL;
    OK(aclrtMalloc(&d, n, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMallocHost(&pinned, n));
    unsigned char* back = malloc(n);
    const int32_t values[] = {0, 0x7F, 0x1FF, -1, 0x12345678};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; ++i) {
        OK(aclrtMemset(d, n, 0, n));
        OK(aclrtMemset(d, n, values[i], n / 2));
        OK(aclrtMemsetAsync((char*)d + n / 2, n / 2, values[i] + 1, n / 4, s));
        OK(aclrtSynchronizeStream(s));
        OK(aclrtMemcpy(back, n, d, n, ACL_MEMCPY_DEVICE_TO_HOST));
        int good = 1;
        for (size_t j = 0; j < n; ++j) {
            const unsigned char want = j < n / 2           ? (unsigned char)(values[i] & 0xFF)
                                       : j < n / 2 + n / 4 ? (unsigned char)((values[i] + 1) & 0xFF)
                                                           : 0;
            good = good && back[j] == want;
        }
        if (!good) printf("FAIL memset value %d\n", values[i]), ++g_failures;
    }
    OK(aclrtMemset(pinned, n, 0x42, n)); /* pinned host memory can be filled too */
    EXPECT(((unsigned char*)pinned)[n - 1] == 0x42);
    int on_stack[4];
    EXPECT_RC(aclrtMemset(NULL, n, 0, n), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtMemset(d, n - 1, 0, n), ACL_ERROR_INVALID_PARAM); /* count > maxCount */
    EXPECT_RC(aclrtMemset(d, 2 * n, 0, n + 1), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_RC(aclrtMemset(on_stack, sizeof on_stack, 0, sizeof on_stack), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_RC(aclrtMemsetAsync(NULL, n, 0, n, s), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtMemsetAsync(d, 1, 0, 2, s), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtMemsetAsync(d, n, 0, n, BOGUS), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_RC(aclrtMemsetAsync(on_stack, 16, 0, 16, s), ACL_ERROR_RT_PARAM_INVALID);
    OK(aclrtMemset(d, n, 0, 0));
    OK(aclrtMemsetAsync(d, n, 0, 0, s));
    free(back);
    OK(aclrtFree(d));
    OK(aclrtFreeHost(pinned));
    OK(aclrtDestroyStream(s));
    OK(aclrtResetDevice(0));
}

/* ------------------------------------------------------------------ host functions */

static int g_calls = 0;
static long g_callback_tid = 0;
static void on_stream(void* arg) {
    g_calls += *(int*)arg;
    g_callback_tid = (long)syscall(SYS_gettid);
}

static void case_host_func(void) {
    OK(aclrtSetDevice(0));
    aclrtStream s = NULL;
    OK(aclrtCreateStream(&s));
    int one = 1, ten = 10;
    OK(aclrtLaunchCallback(on_stream, &one, ACL_CALLBACK_BLOCK, s));
    OK(aclrtLaunchCallback(on_stream, &one, ACL_CALLBACK_NO_BLOCK, NULL));
    OK(aclrtLaunchHostFunc(s, on_stream, &ten));
    EXPECT(g_calls == 12);
    EXPECT(g_callback_tid == (long)syscall(SYS_gettid)); /* run eagerly on the caller's thread */
    EXPECT_RC(aclrtLaunchCallback(NULL, &one, ACL_CALLBACK_BLOCK, s), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtLaunchCallback(on_stream, &one, (aclrtCallbackBlockType)5, s), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtLaunchCallback(on_stream, &one, ACL_CALLBACK_BLOCK, BOGUS), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_RC(aclrtLaunchHostFunc(s, NULL, &one), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtLaunchHostFunc(BOGUS, on_stream, &one), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT(g_calls == 12); /* failed launches run nothing */
    OK(aclrtSynchronizeStream(s));
    OK(aclrtDestroyStream(s));
    OK(aclrtResetDevice(0));
}

/* ------------------------------------------------------------------ kernels */

static void case_kernel(void) {
    OK(aclrtSetDevice(0));
    aclrtBinHandle bin = NULL, bin2 = NULL;
    aclrtFuncHandle f1 = NULL, f2 = NULL, f3 = NULL;
    EXPECT_RC(aclrtBinaryLoadFromData(NULL, 4, NULL, &bin), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtBinaryLoadFromData(kImage, 0, NULL, &bin), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtBinaryLoadFromData(kImage, sizeof kImage, NULL, NULL), ACL_ERROR_INVALID_PARAM);

    /* Load options. */
    aclrtBinaryLoadOption opt;
    memset(&opt, 0, sizeof opt);
    aclrtBinaryLoadOptions opts = {&opt, 1};
    const uint32_t magics[] = {ACL_RT_BINARY_MAGIC_ELF_AICORE, ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE,
                               ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE};
    for (size_t i = 0; i < 3; ++i) {
        opt.type = ACL_RT_BINARY_LOAD_OPT_MAGIC;
        opt.value.magic = magics[i];
        OK(aclrtBinaryLoadFromData(kImage, sizeof kImage, &opts, &bin));
        OK(aclrtBinaryUnLoad(bin));
    }
    opt.value.magic = 0xDEADBEEF;
    EXPECT_RC(aclrtBinaryLoadFromData(kImage, sizeof kImage, &opts, &bin), ACL_ERROR_INVALID_PARAM);
    opt.type = ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE;
    opt.value.cpuKernelMode = 1;
    OK(aclrtBinaryLoadFromData(kImage, sizeof kImage, &opts, &bin));
    OK(aclrtBinaryUnLoad(bin));
    opt.value.cpuKernelMode = 7;
    EXPECT_RC(aclrtBinaryLoadFromData(kImage, sizeof kImage, &opts, &bin), ACL_ERROR_INVALID_PARAM);
    opt.type = ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD;
    opt.value.isLazyLoad = 1;
    OK(aclrtBinaryLoadFromData(kImage, sizeof kImage, &opts, &bin));
    OK(aclrtBinaryUnLoad(bin));
    opt.value.isLazyLoad = 2;
    EXPECT_RC(aclrtBinaryLoadFromData(kImage, sizeof kImage, &opts, &bin), ACL_ERROR_INVALID_PARAM);
    opt.type = (aclrtBinaryLoadOptionType)9;
    EXPECT_RC(aclrtBinaryLoadFromData(kImage, sizeof kImage, &opts, &bin), ACL_ERROR_INVALID_PARAM);
    aclrtBinaryLoadOptions broken = {NULL, 1};
    EXPECT_RC(aclrtBinaryLoadFromData(kImage, sizeof kImage, &broken, &bin), ACL_ERROR_INVALID_PARAM);
    aclrtBinaryLoadOptions none = {NULL, 0};
    OK(aclrtBinaryLoadFromData(kImage, sizeof kImage, &none, &bin));
    OK(aclrtBinaryUnLoad(bin));

    /* From a file. */
    char path[] = "/tmp/acl_kernel_XXXXXX";
    const int fd = mkstemp(path);
    EXPECT(fd >= 0 && write(fd, kImage, sizeof kImage) == (ssize_t)sizeof kImage);
    close(fd);
    EXPECT_RC(aclrtBinaryLoadFromFile(NULL, NULL, &bin), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtBinaryLoadFromFile(path, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtBinaryLoadFromFile("/nonexistent/kernel.o", NULL, &bin), ACL_ERROR_INVALID_FILE);
    EXPECT_RC(aclrtBinaryLoadFromFile("/tmp", NULL, &bin), ACL_ERROR_INVALID_FILE);
    OK(aclrtBinaryLoadFromFile(path, NULL, &bin2));
    unlink(path);

    /* Functions. */
    OK(aclrtBinaryLoadFromData(kImage, sizeof kImage, NULL, &bin));
    EXPECT_RC(aclrtBinaryGetFunction(bin, NULL, &f1), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtBinaryGetFunction(bin, "", &f1), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtBinaryGetFunction(bin, "k", NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtBinaryGetFunction(NULL, "k", &f1), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtBinaryGetFunction(BOGUS, "k", &f1), ACL_ERROR_INVALID_RESOURCE_HANDLE);
    OK(aclrtBinaryGetFunction(bin, "add_custom", &f1));
    OK(aclrtBinaryGetFunction(bin, "add_custom", &f2));
    OK(aclrtBinaryGetFunction(bin, "mul_custom", &f3));
    EXPECT(f1 == f2 && f1 != f3);
    OK(aclrtBinaryGetFunction(bin2, "add_custom", &f2));
    EXPECT(f2 != f1); /* a function belongs to its binary */
    aclrtFuncHandle fe = NULL, fe2 = NULL;
    OK(aclrtBinaryGetFunctionByEntry(bin, 0x1000, &fe));
    OK(aclrtBinaryGetFunctionByEntry(bin, 0x1000, &fe2));
    EXPECT(fe == fe2 && fe != f1);
    EXPECT_RC(aclrtBinaryGetFunctionByEntry(bin, 0x1000, NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtBinaryGetFunctionByEntry(BOGUS, 0x1000, &fe), ACL_ERROR_INVALID_RESOURCE_HANDLE);
    OK(aclrtLaunchKernel(fe, 2, NULL, 0, NULL));

    /* Unloading takes the functions with it. */
    EXPECT_RC(aclrtBinaryUnLoad(NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtBinaryUnLoad(BOGUS), ACL_ERROR_INVALID_RESOURCE_HANDLE);
    OK(aclrtBinaryUnLoad(bin));
    EXPECT_RC(aclrtBinaryUnLoad(bin), ACL_ERROR_INVALID_RESOURCE_HANDLE);
    EXPECT_RC(aclrtBinaryGetFunction(bin, "add_custom", &f1), ACL_ERROR_INVALID_RESOURCE_HANDLE);
    EXPECT_RC(aclrtLaunchKernel(f1, 1, NULL, 0, NULL), ACL_ERROR_INVALID_RESOURCE_HANDLE);
    OK(aclrtLaunchKernel(f2, 1, NULL, 0, NULL)); /* the other binary's function still works */
    OK(aclrtBinaryUnLoad(bin2));
    OK(aclrtSynchronizeDevice());
    OK(aclrtResetDevice(0));
}

static void case_launch(void) {
    OK(aclrtSetDevice(0));
    aclrtStream s = NULL;
    OK(aclrtCreateStream(&s));
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle fn = load_function("softmax_kernel", &bin);
    aclrtFuncHandle other = NULL;
    OK(aclrtBinaryGetFunction(bin, "relu_kernel", &other));
    uint64_t args[4] = {1, 2, 3, 4};

    OK(aclrtLaunchKernel(fn, 8, args, sizeof args, s));
    OK(aclrtLaunchKernel(fn, 100000, args, sizeof args, NULL)); /* more blocks than cores */
    OK(aclrtLaunchKernel(fn, 1, NULL, 0, s));
    EXPECT_RC(aclrtLaunchKernel(fn, 0, args, sizeof args, s), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtLaunchKernel(NULL, 1, args, sizeof args, s), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtLaunchKernel(BOGUS, 1, args, sizeof args, s), ACL_ERROR_INVALID_RESOURCE_HANDLE);
    EXPECT_RC(aclrtLaunchKernel(fn, 1, NULL, 16, s), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtLaunchKernel(fn, 1, args, sizeof args, BOGUS), ACL_ERROR_RT_PARAM_INVALID);

    /* V2 and launch configurations. */
    aclrtLaunchKernelAttr attrs[3];
    memset(attrs, 0, sizeof attrs);
    attrs[0].id = ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE;
    attrs[0].value.engineType = ACL_RT_ENGINE_TYPE_AIC;
    attrs[1].id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT;
    attrs[1].value.timeout = 10;
    attrs[2].id = ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE;
    aclrtLaunchKernelCfg cfg = {attrs, 3};
    OK(aclrtLaunchKernelV2(fn, 4, args, sizeof args, NULL, s));
    OK(aclrtLaunchKernelV2(fn, 4, args, sizeof args, &cfg, s));
    attrs[0].value.engineType = ACL_RT_ENGINE_TYPE_AIV;
    OK(aclrtLaunchKernelV2(fn, 4, args, sizeof args, &cfg, s));
    attrs[0].value.engineType = (aclrtEngineType)5;
    EXPECT_RC(aclrtLaunchKernelV2(fn, 4, args, sizeof args, &cfg, s), ACL_ERROR_INVALID_PARAM);
    attrs[0].value.engineType = ACL_RT_ENGINE_TYPE_AIC;
    attrs[2].id = (aclrtLaunchKernelAttrId)99;
    EXPECT_RC(aclrtLaunchKernelV2(fn, 4, args, sizeof args, &cfg, s), ACL_ERROR_INVALID_PARAM);
    attrs[2].id = ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE;
    aclrtLaunchKernelCfg broken = {NULL, 2};
    EXPECT_RC(aclrtLaunchKernelV2(fn, 4, args, sizeof args, &broken, s), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtLaunchKernelV2(fn, 0, args, sizeof args, &cfg, s), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtLaunchKernelV2(fn, 1, NULL, 8, &cfg, s), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtLaunchKernelV2(BOGUS, 1, args, sizeof args, &cfg, s), ACL_ERROR_INVALID_RESOURCE_HANDLE);

    /* Host arguments with placeholders. */
    aclrtPlaceHolderInfo ph[2] = {{0, 16}, {8, 24}};
    OK(aclrtLaunchKernelWithHostArgs(fn, 2, s, NULL, args, sizeof args, ph, 2));
    OK(aclrtLaunchKernelWithHostArgs(fn, 2, s, &cfg, args, sizeof args, NULL, 0));
    ph[1].addrOffset = 30; /* the address slot would end past the arguments */
    EXPECT_RC(aclrtLaunchKernelWithHostArgs(fn, 2, s, NULL, args, sizeof args, ph, 2), ACL_ERROR_INVALID_PARAM);
    ph[1].addrOffset = 8;
    ph[1].dataOffset = 33;
    EXPECT_RC(aclrtLaunchKernelWithHostArgs(fn, 2, s, NULL, args, sizeof args, ph, 2), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtLaunchKernelWithHostArgs(fn, 2, s, NULL, args, sizeof args, NULL, 1), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtLaunchKernelWithHostArgs(fn, 2, s, NULL, NULL, 8, NULL, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtLaunchKernelWithHostArgs(fn, 0, s, NULL, args, sizeof args, NULL, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtLaunchKernelWithHostArgs(fn, 1, BOGUS, NULL, args, sizeof args, NULL, 0),
              ACL_ERROR_RT_PARAM_INVALID);

    /* Argument lists. */
    aclrtArgsHandle al = NULL, al_other = NULL;
    aclrtParamHandle p = NULL, p2 = NULL;
    EXPECT_RC(aclrtKernelArgsInit(NULL, &al), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtKernelArgsInit(fn, NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtKernelArgsInit(BOGUS, &al), ACL_ERROR_INVALID_RESOURCE_HANDLE);
    OK(aclrtKernelArgsInit(fn, &al));
    OK(aclrtKernelArgsInit(other, &al_other));
    EXPECT_RC(aclrtKernelArgsAppend(al, NULL, 8, &p), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtKernelArgsAppend(al, args, 8, NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtKernelArgsAppend(NULL, args, 8, &p), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtKernelArgsAppend(BOGUS, args, 8, &p), ACL_ERROR_INVALID_RESOURCE_HANDLE);
    OK(aclrtKernelArgsAppend(al, &args[0], 8, &p));
    OK(aclrtKernelArgsAppend(al, &args[1], 8, &p2));
    EXPECT(p != NULL && p2 != NULL && p != p2);
    EXPECT_RC(aclrtLaunchKernelWithConfig(fn, 2, s, NULL, al, NULL), ACL_ERROR_INVALID_PARAM); /* not finalised */
    EXPECT_RC(aclrtKernelArgsFinalize(NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtKernelArgsFinalize(BOGUS), ACL_ERROR_INVALID_RESOURCE_HANDLE);
    OK(aclrtKernelArgsFinalize(al));
    OK(aclrtKernelArgsFinalize(al_other));
    EXPECT_RC(aclrtKernelArgsAppend(al, &args[2], 8, &p), ACL_ERROR_INVALID_PARAM); /* finalised */
    OK(aclrtLaunchKernelWithConfig(fn, 2, s, NULL, al, NULL));
    OK(aclrtLaunchKernelWithConfig(fn, 2, NULL, &cfg, al, NULL));
    EXPECT_RC(aclrtLaunchKernelWithConfig(fn, 2, s, NULL, al_other, NULL), ACL_ERROR_INVALID_PARAM); /* not its list */
    EXPECT_RC(aclrtLaunchKernelWithConfig(fn, 2, s, NULL, NULL, NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtLaunchKernelWithConfig(fn, 2, s, NULL, BOGUS, NULL), ACL_ERROR_INVALID_RESOURCE_HANDLE);
    EXPECT_RC(aclrtLaunchKernelWithConfig(fn, 0, s, NULL, al, NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtLaunchKernelWithConfig(fn, 2, BOGUS, NULL, al, NULL), ACL_ERROR_RT_PARAM_INVALID);
    OK(aclrtSynchronizeStream(s));

    /* The binary owns its argument lists. */
    OK(aclrtBinaryUnLoad(bin));
    EXPECT_RC(aclrtKernelArgsFinalize(al), ACL_ERROR_INVALID_RESOURCE_HANDLE);
    EXPECT_RC(aclrtLaunchKernelWithConfig(fn, 2, s, NULL, al, NULL), ACL_ERROR_INVALID_RESOURCE_HANDLE);
    OK(aclrtDestroyStream(s));
    OK(aclrtResetDevice(0));
}

static void case_prof_trace(void) {
    OK(aclrtSetDevice(0));
    aclrtStream s = NULL;
    OK(aclrtCreateStream(&s));
    unsigned char data[18] = {0};
    const uint64_t index_id = 7, model_id = 1;
    const uint16_t tag = 11;
    memcpy(data, &index_id, 8);
    memcpy(data + 8, &model_id, 8);
    memcpy(data + 16, &tag, 2);
    OK(aclrtProfTrace(data, 18, s));
    OK(aclrtProfTrace(data, 18, NULL));
    EXPECT_RC(aclrtProfTrace(NULL, 18, s), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtProfTrace(data, 17, s), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtProfTrace(data, 40, s), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtProfTrace(data, -1, s), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtProfTrace(data, 18, BOGUS), ACL_ERROR_RT_PARAM_INVALID);
    OK(aclrtSynchronizeStream(s));
    OK(aclrtDestroyStream(s));
    OK(aclrtResetDevice(0));
}

/* ------------------------------------------------------------------ threads */

struct worker {
    int32_t device;
    int32_t seen;
    int ok;
};

static void* worker_main(void* arg) {
    struct worker* w = arg;
    int32_t dev = -1;
    w->ok = aclrtGetDevice(&dev) == ACL_ERROR_RT_CONTEXT_NULL; /* a new thread has no device */
    w->ok = w->ok && aclrtSetDevice(w->device) == ACL_SUCCESS;
    aclrtStream s = NULL;
    w->ok = w->ok && aclrtCreateStream(&s) == ACL_SUCCESS;
    aclrtFuncHandle fn = NULL;
    aclrtBinHandle bin = NULL;
    w->ok = w->ok && aclrtBinaryLoadFromData(kImage, sizeof kImage, NULL, &bin) == ACL_SUCCESS;
    w->ok = w->ok && aclrtBinaryGetFunction(bin, "worker_kernel", &fn) == ACL_SUCCESS;
    for (int i = 0; i < 1000 && w->ok; ++i) w->ok = aclrtLaunchKernel(fn, 2, NULL, 0, s) == ACL_SUCCESS;
    w->ok = w->ok && aclrtSynchronizeStream(s) == ACL_SUCCESS && aclrtGetDevice(&w->seen) == ACL_SUCCESS;
    w->ok = w->ok && aclrtDestroyStream(s) == ACL_SUCCESS && aclrtBinaryUnLoad(bin) == ACL_SUCCESS;
    w->ok = w->ok && aclrtResetDevice(w->device) == ACL_SUCCESS;
    return NULL;
}

static void case_threads(void) {
    OK(aclrtSetDevice(3));
    enum { N = 4 };
    pthread_t threads[N];
    struct worker workers[N];
    for (int i = 0; i < N; ++i) {
        workers[i].device = i % 2;
        workers[i].seen = -1;
        workers[i].ok = 0;
        EXPECT(pthread_create(&threads[i], NULL, worker_main, &workers[i]) == 0);
    }
    for (int i = 0; i < N; ++i) {
        pthread_join(threads[i], NULL);
        EXPECT(workers[i].ok);
        EXPECT(workers[i].seen == workers[i].device);
    }
    int32_t dev = -1;
    OK(aclrtGetDevice(&dev));
    EXPECT(dev == 3); /* other threads' devices are theirs */
    OK(aclrtResetDevice(3));
}

/* ------------------------------------------------------------------ stream status */

/* Enough kernels that the stream's tail lies well past the virtual clock of the next calls. */
static void launch_many(aclrtFuncHandle fn, aclrtStream s) {
    uint64_t args[4] = {1, 2, 3, 4};
    for (int i = 0; i < 64; ++i) OK(aclrtLaunchKernel(fn, 100000, args, sizeof args, s));
}

static void case_stream_query(void) {
    aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
    EXPECT_RC(aclrtStreamQuery(NULL, &status), ACL_ERROR_RT_CONTEXT_NULL); /* no device on the thread */
    OK(aclrtSetDevice(0));
    aclrtStream s = NULL;
    OK(aclrtCreateStream(&s));
    OK(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE)); /* CANN's names of the two modes */
    OK(aclrtSetStreamFailureMode(s, ACL_CONTINUE_ON_FAILURE));
    EXPECT_RC(aclrtStreamQuery(s, NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtStreamQuery(BOGUS, &status), ACL_ERROR_RT_PARAM_INVALID);
    OK(aclrtStreamQuery(s, &status));
    EXPECT(status == ACL_STREAM_STATUS_COMPLETE); /* nothing issued */
    aclrtFuncHandle fn = load_function("softmax_kernel", NULL);
    launch_many(fn, s);
    OK(aclrtStreamQuery(s, &status));
    EXPECT(status == ACL_STREAM_STATUS_NOT_READY); /* its kernels have not run yet (virtual clock) */
    status = ACL_STREAM_STATUS_RESERVED;
    OK(aclrtStreamQuery(NULL, &status));
    EXPECT(status == ACL_STREAM_STATUS_COMPLETE); /* the default stream has no work */
    OK(aclrtStreamQuery(s, &status));
    EXPECT(status == ACL_STREAM_STATUS_NOT_READY); /* a query does not wait */
    OK(aclrtSynchronizeStream(s));
    OK(aclrtStreamQuery(s, &status));
    EXPECT(status == ACL_STREAM_STATUS_COMPLETE);
    launch_many(fn, NULL);
    OK(aclrtStreamQuery(NULL, &status));
    EXPECT(status == ACL_STREAM_STATUS_NOT_READY);
    OK(aclrtSynchronizeDevice());
    OK(aclrtStreamQuery(NULL, &status));
    EXPECT(status == ACL_STREAM_STATUS_COMPLETE);
    OK(aclrtDestroyStream(s));
    OK(aclrtResetDevice(0));
}

/* ------------------------------------------------------------------ forced reset */

static void case_reset_force(void) {
    EXPECT_RC(aclrtResetDeviceForce(-1), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_RC(aclrtResetDeviceForce(99), ACL_ERROR_RT_INVALID_DEVICEID);
    OK(aclrtResetDeviceForce(1)); /* a device that is not open: harmless */
    for (int i = 0; i < 3; ++i) OK(aclrtSetDevice(0));
    aclrtStream s = NULL;
    OK(aclrtCreateStream(&s));
    launch_many(load_function("softmax_kernel", NULL), s);
    aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
    /* A plain reset closes one of the three opens: the device stays open and nothing waits. */
    OK(aclrtResetDevice(0));
    OK(aclrtStreamQuery(s, &status));
    EXPECT(status == ACL_STREAM_STATUS_NOT_READY);
    /* The forced reset closes the other two: the device's work is finished, as at its last close. */
    OK(aclrtSetDevice(0));
    OK(aclrtResetDeviceForce(0));
    int32_t dev = -1;
    EXPECT_RC(aclrtGetDevice(&dev), ACL_ERROR_RT_CONTEXT_NULL); /* the thread no longer has it */
    OK(aclrtStreamQuery(s, &status));
    EXPECT(status == ACL_STREAM_STATUS_COMPLETE);
    OK(aclrtResetDevice(0)); /* nothing left open */
    OK(aclrtResetDeviceForce(0));
}

/* ------------------------------------------------------------------ device error query */

static void case_error_verbose(void) {
    /* Prints what the query gives; the test compares it with the SoC (310B has no such query). */
    aclrtErrorInfo info;
    memset(&info, 0xA5, sizeof info);
    printf("null=%d\n", (int)aclrtGetErrorVerbose(0, NULL));
    printf("bad_device=%d\n", (int)aclrtGetErrorVerbose(99, &info));
    printf("not_open=%d\n", (int)aclrtGetErrorVerbose(1, &info));
    OK(aclrtSetDevice(0));
    memset(&info, 0xA5, sizeof info);
    const aclError rc = aclrtGetErrorVerbose(0, &info);
    printf("open=%d\n", (int)rc);
    if (rc == ACL_SUCCESS)
        printf("info=%d,%u,%u\n", (int)info.errorType, (unsigned)info.tryRepair, (unsigned)info.hasDetail);
    OK(aclrtResetDevice(0));
}

/* ------------------------------------------------------------------ invalid configuration */

static void case_config_error(void) {
    /* The configuration is broken (the test sets NPU_SIM_SOC to an unknown name): every call fails. */
    int32_t dev = 0;
    uint32_t count = 0;
    void* p = NULL;
    aclrtStream s = NULL;
    EXPECT_RC(aclInit(NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtSetDevice(0), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtGetDevice(&dev), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtGetDeviceCount(&count), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtCreateStream(&s), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclrtLaunchKernel(BOGUS, 1, NULL, 0, NULL), ACL_ERROR_INVALID_PARAM);
    EXPECT_RC(aclFinalize(), ACL_ERROR_INVALID_PARAM);
    EXPECT(aclrtGetSocName() == NULL);
}

/* ------------------------------------------------------------------ main */

static const struct {
    const char* name;
    void (*run)(void);
} kCases[] = {
    {"init", case_init},
    {"device", case_device},
    {"device_info", case_device_info},
    {"topology", case_topology},
    {"context", case_context},
    {"stream", case_stream},
    {"event", case_event},
    {"memory", case_memory},
    {"vmm", case_vmm},
    {"copy", case_copy},
    {"copy_errors", case_copy_errors},
    {"copy2d", case_copy2d},
    {"memset", case_memset},
    {"host_func", case_host_func},
    {"kernel", case_kernel},
    {"launch", case_launch},
    {"prof_trace", case_prof_trace},
    {"threads", case_threads},
    {"config_error", case_config_error},
    {"stream_query", case_stream_query},
    {"reset_force", case_reset_force},
    {"error_verbose", case_error_verbose},
};

int main(int argc, char** argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s CASE\n", argv[0]);
        return 2;
    }
    for (size_t i = 0; i < sizeof kCases / sizeof kCases[0]; ++i) {
        if (strcmp(argv[1], kCases[i].name) == 0) {
            kCases[i].run();
            if (g_failures == 0) printf("ok\n");
            return g_failures == 0 ? 0 : 1;
        }
    }
    fprintf(stderr, "unknown case %s\n", argv[1]);
    return 2;
}
