/*
 * A subscriber callback that prints every callback as one JSON line
 *   C {"domain":1,"cbid":10,"site":0,"name":"aclrtLaunchKernel","corr":5,"tid":..,"symbol":null,"ret":null,...}
 * and checks that ENTER and EXIT of one call share correlationData.
 */
#ifndef MSPTI_TEST_CALLBACK_LOG_H
#define MSPTI_TEST_CALLBACK_LOG_H

#include <sys/syscall.h>
#include <unistd.h>

#include "collector.h"

static pthread_mutex_t g_callback_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long g_callback_count = 0;

static inline void callback_log(void* userdata, msptiCallbackDomain domain, msptiCallbackId cbid,
                                const msptiCallbackData* data) {
    (void)userdata;
    if (data->callbackSite == MSPTI_API_ENTER) {
        if (data->correlationData == NULL) {
            printf("E correlationData is NULL\n");
        } else {
            *data->correlationData = data->correlationId * 7 + 1; /* read back at EXIT */
        }
        if (data->functionReturnValue != NULL) printf("E functionReturnValue set at ENTER\n");
    }
    long ret = -1;
    int shared = 1;
    if (data->callbackSite == MSPTI_API_EXIT) {
        if (data->functionReturnValue == NULL) {
            printf("E functionReturnValue NULL at EXIT\n");
        } else {
            ret = *(const int*)data->functionReturnValue;
        }
        shared = data->correlationData != NULL && *data->correlationData == data->correlationId * 7 + 1;
    }
    pthread_mutex_lock(&g_callback_lock);
    g_callback_count++;
    char* line = NULL;
    size_t length = 0;
    FILE* f = open_memstream(&line, &length);
    fprintf(f, "C {\"domain\":%d,\"cbid\":%u,\"site\":%d,\"name\":", domain, cbid, data->callbackSite);
    collector_json_string(f, data->functionName);
    fprintf(f, ",\"corr\":%" PRIu64 ",\"tid\":%ld,\"symbol\":", data->correlationId, (long)syscall(SYS_gettid));
    collector_json_string(f, data->symbolName);
    fprintf(f, ",\"ret\":%ld,\"shared\":%d,\"params\":%d,\"userdata\":%d}\n", ret, shared, data->functionParams != NULL,
            userdata == (void*)0x1234);
    fclose(f);
    fwrite(line, 1, length, stdout); /* one write per line: other threads print too */
    fflush(stdout);
    free(line);
    pthread_mutex_unlock(&g_callback_lock);
}

#endif /* MSPTI_TEST_CALLBACK_LOG_H */
