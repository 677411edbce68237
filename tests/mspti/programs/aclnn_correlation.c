/*
 * Correlation of aclnn operators: aclnnAdd and aclnnMatmul in a loop, with KERNEL, API, NODE_API,
 * ACL_API and RUNTIME_API enabled. Each operator computes, launches each of its kernels through
 * aclrtLaunchKernelWithHostArgs and after each launch reports a node launch (level 10000, type 5) whose
 * interval contains that launch call; the node-level records must carry the launch call's
 * correlation id.
 *
 * argv[1] = iterations (default 8), argv[2] = threads running the loop (default 1),
 * argv[3] = "first" to run the very first operators of the process with profiling on (kernel
 * binaries are loaded inside the operator), "warm" to run each operator once before subscribing.
 *
 * Built with -DMSPTI_DLOPEN the program does not link libmspti: it opens it with dlopen
 * (RTLD_LOCAL), so nothing of CANN's is interposed.
 */
#define _GNU_SOURCE
#include <acl/acl.h>
#include <aclnnop/aclnn_add.h>
#include <aclnnop/aclnn_matmul.h>
#include <dlfcn.h>
#include <unistd.h>

#include "mspti/mspti.h"
#include "mspti/mspti_ext.h"

#ifdef MSPTI_DLOPEN
/* The msPTI functions this program and collector.h use, resolved from the dlopen'ed library. */
static struct {
    __typeof__(&msptiActivityRegisterCallbacks) register_callbacks;
    __typeof__(&msptiActivityGetNextRecord) get_next_record;
    __typeof__(&msptiActivityGetDroppedRecords) get_dropped;
    __typeof__(&msptiActivityEnable) enable;
    __typeof__(&msptiActivityFlushAll) flush_all;
    __typeof__(&msptiSubscribe) subscribe;
    __typeof__(&msptiUnsubscribe) unsubscribe;
} g_mspti;

static int load_mspti(void) {
    void* lib = dlopen("libmspti.so", RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) return 0;
    g_mspti.register_callbacks = (__typeof__(g_mspti.register_callbacks))dlsym(lib, "msptiActivityRegisterCallbacks");
    g_mspti.get_next_record = (__typeof__(g_mspti.get_next_record))dlsym(lib, "msptiActivityGetNextRecord");
    g_mspti.get_dropped = (__typeof__(g_mspti.get_dropped))dlsym(lib, "msptiActivityGetDroppedRecords");
    g_mspti.enable = (__typeof__(g_mspti.enable))dlsym(lib, "msptiActivityEnable");
    g_mspti.flush_all = (__typeof__(g_mspti.flush_all))dlsym(lib, "msptiActivityFlushAll");
    g_mspti.subscribe = (__typeof__(g_mspti.subscribe))dlsym(lib, "msptiSubscribe");
    g_mspti.unsubscribe = (__typeof__(g_mspti.unsubscribe))dlsym(lib, "msptiUnsubscribe");
    return g_mspti.register_callbacks != NULL && g_mspti.get_next_record != NULL && g_mspti.get_dropped != NULL &&
           g_mspti.enable != NULL && g_mspti.flush_all != NULL && g_mspti.subscribe != NULL &&
           g_mspti.unsubscribe != NULL;
}

#define msptiActivityRegisterCallbacks g_mspti.register_callbacks
#define msptiActivityGetNextRecord g_mspti.get_next_record
#define msptiActivityGetDroppedRecords g_mspti.get_dropped
#define msptiActivityEnable g_mspti.enable
#define msptiActivityFlushAll g_mspti.flush_all
#define msptiSubscribe g_mspti.subscribe
#define msptiUnsubscribe g_mspti.unsubscribe
#endif

#include "collector.h"

typedef struct {
    void* dev;
    aclTensor* tensor;
} Tensor;

static Tensor make_tensor(int64_t rows, int64_t cols, aclDataType dtype) {
    const int64_t shape[2] = {rows, cols};
    const int64_t strides[2] = {cols, 1};
    const size_t n = (size_t)(rows * cols);
    const size_t bytes = n * (dtype == ACL_FLOAT16 ? 2 : sizeof(float));
    Tensor t = {NULL, NULL};
    void* host = calloc(1, bytes);
    if (host == NULL) abort();
    if (dtype == ACL_FLOAT) {
        for (size_t i = 0; i < n; ++i) ((float*)host)[i] = 0.5f * (float)(i % 7);
    } else {
        for (size_t i = 0; i < n; ++i) ((uint16_t*)host)[i] = 0x3C00; /* 1.0 in IEEE half precision */
    }
    CHECK_EQ(aclrtMalloc(&t.dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    CHECK_EQ(aclrtMemcpy(t.dev, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    free(host);
    t.tensor = aclCreateTensor(shape, 2, dtype, strides, 0, ACL_FORMAT_ND, shape, 2, t.dev);
    CHECK(t.tensor != NULL);
    return t;
}

static void free_tensor(Tensor* t) {
    aclDestroyTensor(t->tensor);
    CHECK_EQ(aclrtFree(t->dev), ACL_SUCCESS);
}

typedef struct {
    Tensor a, b, sum, w, prod, half, half_out;
    aclScalar* alpha;
    aclrtStream stream;
} Workload;

static void workload_init(Workload* w) {
    CHECK_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    CHECK_EQ(aclrtCreateStream(&w->stream), ACL_SUCCESS);
    w->a = make_tensor(16, 32, ACL_FLOAT);
    w->b = make_tensor(16, 32, ACL_FLOAT);
    w->sum = make_tensor(16, 32, ACL_FLOAT);
    w->w = make_tensor(32, 24, ACL_FLOAT);
    w->prod = make_tensor(16, 24, ACL_FLOAT);
    w->half = make_tensor(16, 32, ACL_FLOAT16);
    w->half_out = make_tensor(16, 32, ACL_FLOAT16);
    const float alpha = 1.0f;
    w->alpha = aclCreateScalar((void*)&alpha, ACL_FLOAT);
    CHECK(w->alpha != NULL);
}

static void workload_fini(Workload* w) {
    CHECK_EQ(aclrtSynchronizeStream(w->stream), ACL_SUCCESS);
    free_tensor(&w->a);
    free_tensor(&w->b);
    free_tensor(&w->sum);
    free_tensor(&w->w);
    free_tensor(&w->prod);
    free_tensor(&w->half);
    free_tensor(&w->half_out);
    aclDestroyScalar(w->alpha);
    CHECK_EQ(aclrtDestroyStream(w->stream), ACL_SUCCESS);
}

/* One aclnnAdd, one aclnnMatmul (one kernel each) and one aclnnAdd of a float16 and a float32 tensor
 * into a float16 one (three kernels: Cast, Add, Cast, each with its own node report); the workspace
 * (if any) is allocated between the two phases. */
static void run_ops(Workload* w) {
    uint64_t size = 0;
    aclOpExecutor* exec = NULL;
    void* ws = NULL;
    CHECK_EQ(aclnnAddGetWorkspaceSize(w->a.tensor, w->b.tensor, w->alpha, w->sum.tensor, &size, &exec), 0);
    if (size > 0) CHECK_EQ(aclrtMalloc(&ws, size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    CHECK_EQ(aclnnAdd(ws, size, exec, w->stream), 0);
    if (ws != NULL) CHECK_EQ(aclrtFree(ws), ACL_SUCCESS);
    ws = NULL;
    CHECK_EQ(aclnnMatmulGetWorkspaceSize(w->sum.tensor, w->w.tensor, w->prod.tensor, 0, &size, &exec), 0);
    if (size > 0) CHECK_EQ(aclrtMalloc(&ws, size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    CHECK_EQ(aclnnMatmul(ws, size, exec, w->stream), 0);
    if (ws != NULL) CHECK_EQ(aclrtFree(ws), ACL_SUCCESS);
    ws = NULL;
    CHECK_EQ(aclnnAddGetWorkspaceSize(w->half.tensor, w->a.tensor, w->alpha, w->half_out.tensor, &size, &exec), 0);
    if (size > 0) CHECK_EQ(aclrtMalloc(&ws, size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    CHECK_EQ(aclnnAdd(ws, size, exec, w->stream), 0);
    if (ws != NULL) CHECK_EQ(aclrtFree(ws), ACL_SUCCESS);
}

/* Whether the process resolves aclrtLaunchKernelWithHostArgs to msPTI's wrapper. */
static int launch_interposed(void) {
    Dl_info info;
    void* fn = dlsym(RTLD_DEFAULT, "aclrtLaunchKernelWithHostArgs");
    return fn != NULL && dladdr(fn, &info) != 0 && info.dli_fname != NULL && strstr(info.dli_fname, "libmspti") != NULL;
}

static int g_iterations = 8;

static void* worker(void* arg) {
    (void)arg;
    Workload w;
    workload_init(&w);
    for (int i = 0; i < g_iterations; ++i) run_ops(&w);
    workload_fini(&w);
    return NULL;
}

int main(int argc, char** argv) {
    g_iterations = argc > 1 ? atoi(argv[1]) : 8;
    const int threads = argc > 2 ? atoi(argv[2]) : 1;
    const int warm = argc > 3 && strcmp(argv[3], "warm") == 0;
    if (threads < 1 || threads > 8) {
        printf("E threads must be 1..8\n");
        return 1;
    }
#ifdef MSPTI_DLOPEN
    if (!load_mspti()) {
        const char* error = dlerror();
        printf("E cannot load libmspti.so: %s\n", error != NULL ? error : "a function is missing");
        return 1;
    }
#endif
    CHECK_EQ(aclInit(NULL), ACL_SUCCESS);
    if (warm) {
        Workload w;
        workload_init(&w);
        run_ops(&w);
        workload_fini(&w);
    }
    msptiSubscriberHandle sub = NULL;
    CHECK_EQ(msptiSubscribe(&sub, NULL, NULL), MSPTI_SUCCESS);
    CHECK(collector_register());
    const msptiActivityKind kinds[] = {MSPTI_ACTIVITY_KIND_KERNEL, MSPTI_ACTIVITY_KIND_API,
                                       MSPTI_ACTIVITY_KIND_NODE_API, MSPTI_ACTIVITY_KIND_ACL_API,
                                       MSPTI_ACTIVITY_KIND_RUNTIME_API};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; ++i) CHECK_EQ(msptiActivityEnable(kinds[i]), MSPTI_SUCCESS);

    pthread_t tids[8];
    for (int t = 0; t < threads; ++t) CHECK_EQ(pthread_create(&tids[t], NULL, worker, NULL), 0);
    for (int t = 0; t < threads; ++t) CHECK_EQ(pthread_join(tids[t], NULL), 0);

    CHECK_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    CHECK_EQ(msptiUnsubscribe(sub), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityFlushAll(1), MSPTI_SUCCESS);
    collector_summary();
    printf("P pid=%d interposed=%d\n", (int)getpid(), launch_interposed());
    return 0;
}
