/* aclnn operators with profiling switched on through libprofapi, as a profiler does it:
 * our own hash callback (type 12) names the ids, the API callback (type 9) prints every
 * node-level (10000) record, and START / STOP commands with PROF_TASK_TIME_MASK switch
 * the node-launch reports on and off for device 0.
 * Workload: Add (alpha 1.2), Add of float16 + float32 into float32 (Cast, then Add),
 * Matmul, then Add again after STOP. Prints "op NAME tid TID" before each op. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_matmul.h"
#include "seam/profapi.h"

#define MAX_NAMES 64
static char g_names[MAX_NAMES][128];
static int g_count;

static uint64_t hash_name(const char* info, size_t len) {
    for (int i = 0; i < g_count; ++i) {
        if (strlen(g_names[i]) == len && memcmp(g_names[i], info, len) == 0) return 1000 + (uint64_t)i;
    }
    if (g_count == MAX_NAMES || len >= 128) return 0;
    memcpy(g_names[g_count], info, len);
    g_names[g_count][len] = '\0';
    return 1000 + (uint64_t)g_count++;
}

static const char* name_of(uint64_t id) {
    return id >= 1000 && id < 1000 + (uint64_t)g_count ? g_names[id - 1000] : "?";
}

static int32_t on_api(uint32_t aging, const struct MsprofApi* api) {
    if (api->level != MSPROF_REPORT_NODE_LEVEL) return 0;
    printf("node level=%u type=%u magic=%x tid=%u name=%s ordered=%d aging=%u\n", api->level, api->type,
           api->magicNumber, api->threadId, name_of(api->itemId), api->beginTime <= api->endTime && api->beginTime > 0,
           aging);
    return 0;
}

static int command(uint32_t type) {
    static struct MsprofCommandHandle cmd;
    memset(&cmd, 0, sizeof cmd);
    cmd.profSwitch = PROF_TASK_TIME_MASK | PROF_ACL_API_MASK;
    cmd.devNums = 1;
    cmd.devIdList[0] = 0;
    cmd.modelId = 0xFFFFFFFFu;
    cmd.type = type;
    return profSetProfCommand(&cmd, sizeof cmd);
}

static aclTensor* tensor(aclDataType dt, const int64_t* dims, uint64_t rank, void** dev) {
    int64_t n = 1;
    for (uint64_t i = 0; i < rank; ++i) n *= dims[i];
    aclrtMalloc(dev, (size_t)n * 4, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemset(*dev, (size_t)n * 4, 0, (size_t)n * 4);
    return aclCreateTensor(dims, rank, dt, NULL, 0, ACL_FORMAT_ND, &n, 1, *dev);
}

static int run_add(aclTensor* a, aclTensor* b, aclTensor* y, aclrtStream stream) {
    float alpha_value = 1.2f;
    aclScalar* alpha = aclCreateScalar(&alpha_value, ACL_FLOAT);
    uint64_t ws = 0;
    aclOpExecutor* ex = NULL;
    int rc = aclnnAddGetWorkspaceSize(a, b, alpha, y, &ws, &ex);
    if (rc == 0) rc = aclnnAdd(NULL, 0, ex, stream);
    aclDestroyScalar(alpha);
    return rc;
}

int main(void) {
    void *cb_hash = (void*)hash_name, *cb_api = (void*)on_api;
    aclrtStream stream = NULL;
    void* d[6];
    const int64_t v8[2] = {4, 2}, m1[2] = {2, 3}, m2[2] = {3, 5}, m3[2] = {2, 5};
    const long tid = syscall(SYS_gettid);
    if (MsprofRegisterProfileCallback(PROFILE_REPORT_GET_HASH_ID_C_CALLBACK, cb_hash, sizeof(void*)) != 0 ||
        MsprofRegisterProfileCallback(PROFILE_REPORT_API_C_CALLBACK, cb_api, sizeof(void*)) != 0) {
        return 3;
    }
    if (aclInit(NULL) != 0 || aclrtSetDevice(0) != 0 || aclrtCreateStream(&stream) != 0) return 3;
    aclTensor *a = tensor(ACL_FLOAT, v8, 2, &d[0]), *h = tensor(ACL_FLOAT16, v8, 2, &d[1]),
              *y = tensor(ACL_FLOAT, v8, 2, &d[2]);
    aclTensor *x1 = tensor(ACL_FLOAT, m1, 2, &d[3]), *x2 = tensor(ACL_FLOAT, m2, 2, &d[4]),
              *x3 = tensor(ACL_FLOAT, m3, 2, &d[5]);
    if (command(PROF_COMMANDHANDLE_TYPE_START) != 0) return 4;
    printf("op add tid %ld\n", tid);
    if (run_add(a, a, y, stream) != 0) return 5;
    printf("op mixed tid %ld\n", tid);
    if (run_add(h, a, y, stream) != 0) return 5;
    printf("op matmul tid %ld\n", tid);
    {
        uint64_t ws = 0;
        aclOpExecutor* ex = NULL;
        if (aclnnMatmulGetWorkspaceSize(x1, x2, x3, 1, &ws, &ex) != 0 || aclnnMatmul(NULL, 0, ex, stream) != 0)
            return 5;
    }
    if (command(PROF_COMMANDHANDLE_TYPE_STOP) != 0) return 4;
    printf("op stopped tid %ld\n", tid);
    if (run_add(a, a, y, stream) != 0) return 5;
    aclrtSynchronizeStream(stream);
    printf("end\n");
    aclDestroyTensor(a), aclDestroyTensor(h), aclDestroyTensor(y), aclDestroyTensor(x1), aclDestroyTensor(x2),
        aclDestroyTensor(x3);
    for (int i = 0; i < 6; ++i) aclrtFree(d[i]);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
