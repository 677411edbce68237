/* Drives profSetProfCommand / MsprofRegisterCallback; each module handle prints what it receives. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seam/profapi.h"

static const void* g_sent;

static void show(const char* who, uint32_t type, void* data, uint32_t len) {
    const struct MsprofCommandHandle* cmd = (const struct MsprofCommandHandle*)data;
    printf("%s ctrl=%u len=%u same_ptr=%d cmd=%u switch=0x%llx devs=%u", who, type, len, data == g_sent, cmd->type,
           (unsigned long long)cmd->profSwitch, cmd->devNums);
    for (uint32_t i = 0; i < cmd->devNums && i < PROF_MAX_DEV_NUM; ++i)
        printf("%s%u", i ? "," : " list=", cmd->devIdList[i]);
    printf(" model=0x%x\n", cmd->modelId);
}

static int32_t g_runtime_result = 0;
static int32_t runtime_a(uint32_t type, void* data, uint32_t len) {
    show("runtime-a", type, data, len);
    return g_runtime_result;
}
static int32_t runtime_b(uint32_t type, void* data, uint32_t len) {
    show("runtime-b", type, data, len);
    return 0;
}
static int32_t acl(uint32_t type, void* data, uint32_t len) {
    show("acl", type, data, len);
    return 0;
}
static int32_t hixl(uint32_t type, void* data, uint32_t len) {
    show("hixl", type, data, len);
    return 0;
}
static int32_t hccl(uint32_t type, void* data, uint32_t len) {
    show("hccl", type, data, len);
    return 0;
}

static struct MsprofCommandHandle* command(uint32_t type, uint64_t bits, uint32_t n, const uint32_t* devs) {
    static struct MsprofCommandHandle cmd;
    memset(&cmd, 0, sizeof cmd);
    cmd.profSwitch = bits;
    cmd.devNums = n;
    for (uint32_t i = 0; i < n; ++i) cmd.devIdList[i] = devs[i];
    cmd.modelId = 0xFFFFFFFFu;
    cmd.type = type;
    g_sent = &cmd;
    return &cmd;
}

static int send(struct MsprofCommandHandle* cmd) {
    const int rc = profSetProfCommand(cmd, sizeof *cmd);
    printf("rc=%d\n", rc);
    return rc;
}

static int dispatch(void) {
    const uint32_t dev0[] = {0};
    printf("none:\n");
    send(command(PROF_COMMANDHANDLE_TYPE_INIT, PROF_ACL_API_MASK, 1, dev0));
    /* Registered out of id order: dispatch follows the module id, not the registration order. */
    const int acl_rc = MsprofRegisterCallback(SEAM_MODULE_ASCENDCL, acl);
    const int runtime_rc = MsprofRegisterCallback(SEAM_MODULE_RUNTIME, runtime_a);
    printf("reg=%d %d\n", acl_rc, runtime_rc);
    printf("start:\n");
    send(command(PROF_COMMANDHANDLE_TYPE_START, PROF_TASK_TIME_MASK | PROF_RUNTIME_TRACE_MASK, 1, dev0));
    printf("bad length:\n");
    printf("rc=%d\n", profSetProfCommand(command(PROF_COMMANDHANDLE_TYPE_STOP, 1, 1, dev0),
                                         sizeof(struct MsprofCommandHandle) - 1));
    printf("rc=%d\n", profSetProfCommand(command(PROF_COMMANDHANDLE_TYPE_STOP, 1, 1, dev0),
                                         sizeof(struct MsprofCommandHandle) + 1));
    printf("rc=%d\n", profSetProfCommand(NULL, sizeof(struct MsprofCommandHandle)));
    printf("too many devices:\n");
    struct MsprofCommandHandle* wide = command(PROF_COMMANDHANDLE_TYPE_START, 1, 1, dev0);
    wide->devNums = PROF_MAX_DEV_NUM + 1;
    printf("rc=%d\n", profSetProfCommand(wide, sizeof *wide));
    printf("first failure wins:\n");
    g_runtime_result = 9;
    send(command(PROF_COMMANDHANDLE_TYPE_STOP, PROF_TASK_TIME_MASK, 1, dev0));
    g_runtime_result = 0;
    printf("replace:\n");
    MsprofRegisterCallback(SEAM_MODULE_RUNTIME, runtime_b);
    send(command(PROF_COMMANDHANDLE_TYPE_INIT, 0, 0, dev0));
    printf("remove:\n");
    MsprofRegisterCallback(SEAM_MODULE_RUNTIME, NULL);
    send(command(PROF_COMMANDHANDLE_TYPE_FINALIZE, 0, 0, dev0));
    printf("end\n");
    return 0;
}

static int late(void) {
    const uint32_t devs[] = {0, 2, 5};
    MsprofRegisterCallback(SEAM_MODULE_ASCENDCL, acl);
    printf("start 0,2,5:\n");
    send(command(PROF_COMMANDHANDLE_TYPE_START, PROF_ACL_API_MASK | PROF_TASK_TIME_MASK, 3, devs));
    printf("restart 5 with more bits:\n");
    send(command(PROF_COMMANDHANDLE_TYPE_START, PROF_ACL_API_MASK | PROF_TASK_TIME_MASK | PROF_HCCL_TRACE_MASK, 1,
                 &devs[2]));
    printf("stop 0:\n");
    send(command(PROF_COMMANDHANDLE_TYPE_STOP, PROF_ACL_API_MASK | PROF_TASK_TIME_MASK, 1, devs));
    printf("late hixl:\n");
    printf("reg=%d\n", MsprofRegisterCallback(SEAM_MODULE_HIXL, hixl));
    printf("stop 2:\n");
    send(command(PROF_COMMANDHANDLE_TYPE_STOP, PROF_ACL_API_MASK | PROF_TASK_TIME_MASK, 1, &devs[1]));
    printf("late hccl:\n");
    MsprofRegisterCallback(SEAM_MODULE_HCCL, hccl);
    printf("finalize:\n");
    send(command(PROF_COMMANDHANDLE_TYPE_FINALIZE, 0, 0, devs));
    printf("late runtime:\n");
    MsprofRegisterCallback(SEAM_MODULE_RUNTIME, runtime_b);
    printf("end\n");
    return 0;
}

int main(int argc, char** argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    const char* mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "dispatch") == 0) return dispatch();
    if (strcmp(mode, "late") == 0) return late();
    fprintf(stderr, "unknown mode '%s'\n", mode);
    return 2;
}
