/*
 * HCCL's communicator API and argument checks, one process. Prints "key=value" lines:
 *   hccl_api_cases api        queries, error strings, argument errors, configuration
 *   hccl_api_cases exec_timeout  a 2-rank communicator whose hcclExecTimeOut is 1 s; rank 1
 *                             never calls: rank 0's all-reduce fails after about a second
 *   hccl_api_cases faults     one all-reduce on a 2-rank HcclCommInitAll communicator (used
 *                             with NPU_SIM_FAULTS)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acl/acl.h"
#include "hccl/hccl.h"

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct Args {
    HcclComm comm;
    int device;
    int result;
    int sync;
};

static void* allreduce_thread(void* p) {
    struct Args* a = p;
    aclrtSetDevice(a->device);
    void *s = NULL, *r = NULL;
    aclrtMalloc(&s, 64, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&r, 64, ACL_MEM_MALLOC_HUGE_FIRST);
    a->result = HcclAllReduce(s, r, 16, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, a->comm, NULL);
    /* The call enqueues; a failure of the operation on the device (a peer that never came)
       surfaces at synchronisation, and the communicator tells which HCCL error it was. */
    a->sync = a->result == HCCL_SUCCESS ? aclrtSynchronizeStream(NULL) : 0;
    if (a->sync != 0) {
        HcclResult async = HCCL_SUCCESS;
        HcclGetCommAsyncError(a->comm, &async);
        a->result = async;
    }
    aclrtFree(s);
    aclrtFree(r);
    return NULL;
}

static int api(void) {
    int32_t devices[2] = {0, 1};
    HcclComm comms[2] = {NULL, NULL};
    printf("init_all=%d\n", HcclCommInitAll(2, devices, comms));
    uint32_t size = 0, id0 = 9, id1 = 9;
    HcclGetRankSize(comms[0], &size);
    HcclGetRankId(comms[0], &id0);
    HcclGetRankId(comms[1], &id1);
    printf("size=%u ids=%u,%u\n", size, id0, id1);
    char n0[COMM_NAME_MAX_LENGTH], n1[COMM_NAME_MAX_LENGTH];
    memset(n0, 'x', sizeof n0);
    HcclGetCommName(comms[0], n0);
    HcclGetCommName(comms[1], n1);
    printf("name=%s same=%d len_ok=%d\n", n0, strcmp(n0, n1) == 0, strlen(n0) < COMM_NAME_MAX_LENGTH);

    int32_t dup[2] = {1, 1};
    HcclComm bad[2];
    printf("init_all_duplicate=%d\n", HcclCommInitAll(2, dup, bad));
    int32_t far[1] = {99};
    printf("init_all_bad_device=%d\n", HcclCommInitAll(1, far, bad));
    printf("size_null_comm=%d\n", HcclGetRankSize(NULL, &size));
    printf("size_bogus_comm=%d\n", HcclGetRankSize((HcclComm)(uintptr_t)0x1234, &size));
    printf("size_null_out=%d\n", HcclGetRankSize(comms[0], NULL));
    printf("error_string_9=%s\n", HcclGetErrorString(HCCL_E_TIMEOUT));
    printf("error_string_0=%s\n", HcclGetErrorString(HCCL_SUCCESS));
    printf("group_start=%d\n", HcclGroupStart());

    aclrtSetDevice(0);
    void *s = NULL, *r = NULL;
    aclrtMalloc(&s, 64, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&r, 64, ACL_MEM_MALLOC_HUGE_FIRST);
    printf("allreduce_bad_dtype=%d\n", HcclAllReduce(s, r, 4, (HcclDataType)13, HCCL_REDUCE_SUM, comms[0], NULL));
    printf("allreduce_bad_op=%d\n", HcclAllReduce(s, r, 4, HCCL_DATA_TYPE_FP32, (HcclReduceOp)7, comms[0], NULL));
    printf("allreduce_null_buf=%d\n", HcclAllReduce(NULL, r, 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comms[0], NULL));
    printf("allreduce_null_comm=%d\n", HcclAllReduce(s, r, 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, NULL, NULL));
    printf("broadcast_bad_root=%d\n", HcclBroadcast(s, 4, HCCL_DATA_TYPE_FP32, 2, comms[0], NULL));
    printf("send_to_self=%d\n", HcclSend(s, 4, HCCL_DATA_TYPE_FP32, 0, comms[0], NULL));
    printf("send_out_of_range=%d\n", HcclSend(s, 4, HCCL_DATA_TYPE_FP32, 5, comms[0], NULL));
    aclrtStream other = NULL;
    aclrtSetDevice(1);
    aclrtCreateStream(&other);
    printf("stream_of_other_device=%d\n",
           HcclAllReduce(s, r, 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comms[0], other));
    aclrtDestroyStream(other);

    HcclConfigValue v = {1};
    printf("set_config=%d\n", HcclSetConfig(HCCL_DETERMINISTIC, v));
    v.value = 0;
    HcclGetConfig(HCCL_DETERMINISTIC, &v);
    printf("deterministic=%d\n", v.value);

    printf("destroy=%d,%d\n", HcclCommDestroy(comms[0]), HcclCommDestroy(comms[1]));
    printf("destroy_again=%d\n", HcclCommDestroy(comms[0]));

    HcclRootInfo garbage;
    memset(&garbage, 0x5A, sizeof garbage);
    HcclComm c = NULL;
    printf("init_garbage_root=%d\n", HcclCommInitRootInfo(1, &garbage, 0, &c));

    /* A one-rank communicator named by its configuration. */
    HcclRootInfo root;
    printf("root_info=%d\n", HcclGetRootInfo(&root));
    HcclCommConfig config;
    HcclCommConfigInit(&config);
    strcpy(config.hcclCommName, "my_group");
    aclrtSetDevice(0);
    printf("init_config=%d\n", HcclCommInitRootInfoConfig(1, &root, 0, &config, &c));
    HcclGetCommName(c, n0);
    printf("config_name=%s\n", n0);
    /* The default name of a root-info communicator, and what the configuration supports. */
    HcclRootInfo root2;
    HcclComm unnamed = NULL;
    HcclGetRootInfo(&root2);
    printf("init_unnamed=%d\n", HcclCommInitRootInfo(1, &root2, 0, &unnamed));
    HcclGetCommName(unnamed, n1);
    printf("root_name=%s\n", n1);
    printf("destroy_unnamed=%d\n", HcclCommDestroy(unnamed));
    uint32_t capability = HcclGetCommConfigCapability();
    printf("capability=%u comm_name=%d op_expansion=%d\n", capability, capability > HCCL_COMM_CONFIG_COMM_NAME,
           capability > HCCL_COMM_CONFIG_OP_EXPANSION_MODE);
    float in[4] = {1, 2, 3, 4};
    aclrtMemcpy(s, 64, in, sizeof in, ACL_MEMCPY_HOST_TO_DEVICE);
    printf("single_rank_allreduce=%d\n", HcclAllReduce(s, r, 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, c, NULL));
    float out[4] = {0};
    aclrtSynchronizeStream(NULL);  /* the result is there once the stream has run the operation */
    aclrtMemcpy(out, sizeof out, r, sizeof out, ACL_MEMCPY_DEVICE_TO_HOST);
    printf("single_rank_result=%g,%g,%g,%g\n", out[0], out[1], out[2], out[3]);
    printf("destroy_single=%d\n", HcclCommDestroy(c));
    aclrtFree(s);
    aclrtFree(r);
    return 0;
}

struct JoinArgs {
    HcclRootInfo* root;
    uint32_t rank;
    HcclComm comm;
    int result;
};

static void* join_thread(void* p) {
    struct JoinArgs* a = p;
    aclrtSetDevice((int32_t)a->rank);
    HcclCommConfig config;
    HcclCommConfigInit(&config);
    config.hcclExecTimeOut = 1;
    a->result = HcclCommInitRootInfoConfig(2, a->root, a->rank, &config, &a->comm);
    return NULL;
}

static int exec_timeout(void) {
    HcclRootInfo root;
    HcclGetRootInfo(&root);
    struct JoinArgs j[2] = {{&root, 0, NULL, -1}, {&root, 1, NULL, -1}};
    pthread_t t[2];
    for (int i = 0; i < 2; ++i) pthread_create(&t[i], NULL, join_thread, &j[i]);
    for (int i = 0; i < 2; ++i) pthread_join(t[i], NULL);
    printf("init=%d,%d\n", j[0].result, j[1].result);
    struct Args a = {j[0].comm, 0, -1, 0};
    const double t0 = now_s();
    allreduce_thread(&a);
    printf("allreduce=%d seconds=%.2f\n", a.result, now_s() - t0);
    printf("sync=%d\n", a.sync);
    HcclCommDestroy(j[0].comm);
    HcclCommDestroy(j[1].comm);
    return 0;
}

static int faults(void) {
    int32_t devices[2] = {0, 1};
    HcclComm comms[2];
    const HcclResult st = HcclCommInitAll(2, devices, comms);
    printf("init_all=%d\n", st);
    if (st != HCCL_SUCCESS) return 0;
    struct Args a[2] = {{comms[0], 0, -1, 0}, {comms[1], 1, -1, 0}};
    pthread_t t[2];
    for (int i = 0; i < 2; ++i) pthread_create(&t[i], NULL, allreduce_thread, &a[i]);
    for (int i = 0; i < 2; ++i) pthread_join(t[i], NULL);
    printf("allreduce=%d,%d\n", a[0].result, a[1].result);
    HcclCommDestroy(comms[0]);
    HcclCommDestroy(comms[1]);
    return 0;
}

/* A one-rank rank-table communicator, without and with a name in its configuration. */
static int cluster_names(void) {
    const char* table = getenv("RANK_TABLE_FILE");
    char name[COMM_NAME_MAX_LENGTH] = "";  /* printed empty when the communicator was not made */
    HcclComm c = NULL;
    aclrtSetDevice(0);
    printf("init_cluster=%d\n", HcclCommInitClusterInfo(table, 0, &c));
    HcclGetCommName(c, name);
    printf("cluster_name=%s\n", name);
    printf("destroy_cluster=%d\n", HcclCommDestroy(c));
    HcclCommConfig config;
    HcclCommConfigInit(&config);
    strcpy(config.hcclCommName, "table_group");
    printf("init_cluster_config=%d\n", HcclCommInitClusterInfoConfig(table, 0, &config, &c));
    name[0] = '\0';
    HcclGetCommName(c, name);
    printf("cluster_config_name=%s\n", name);
    printf("destroy_cluster_config=%d\n", HcclCommDestroy(c));
    return 0;
}

int main(int argc, char** argv) {
    if (argc < 2 || aclInit(NULL) != ACL_SUCCESS) return 2;
    int rc = 2;
    if (strcmp(argv[1], "api") == 0) rc = api();
    else if (strcmp(argv[1], "exec_timeout") == 0) rc = exec_timeout();
    else if (strcmp(argv[1], "faults") == 0) rc = faults();
    else if (strcmp(argv[1], "cluster_names") == 0) rc = cluster_names();
    fflush(stdout);
    return rc;
}
