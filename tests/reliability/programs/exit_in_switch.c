/*
 * A SIGTERM handler that calls exit() while the main thread is inside msptiActivityDisable or
 * msptiActivityEnable (KERNEL), whose drain of the device channels holds msPTI's device-data locks,
 * while another thread launches kernels without pause. msPTI's exit flush runs on the interrupted
 * thread: it must not wait for a lock that thread holds. argv[1]: the signal's delay in microseconds
 * after the 20th switch round. Output: "S exited=1 rounds=<n>" from an atexit handler registered
 * before msPTI's (so it runs after msPTI's exit flush); exit 0.
 */
#define _GNU_SOURCE 1
#include <signal.h>
#include <time.h>

#include "torture.h"

static pthread_t g_main;
static int g_rounds;   /* switch rounds of the main thread: atomic */
static int g_stop;     /* the launcher stops: atomic */
static long g_delay_us;

static void on_term(int sig) {
    (void)sig;
    __atomic_store_n(&g_stop, 1, __ATOMIC_SEQ_CST);
    exit(0);
}

static void report(void) {
    printf("S exited=1 rounds=%d\n", __atomic_load_n(&g_rounds, __ATOMIC_SEQ_CST));
    fflush(stdout);
}

static void* launcher(void* arg) {
    (void)arg;
    if (aclrtSetDevice(0) != ACL_SUCCESS) return NULL;
    while (!__atomic_load_n(&g_stop, __ATOMIC_SEQ_CST)) launch(8);
    return NULL;
}

static void* terminator(void* arg) {
    (void)arg;
    while (__atomic_load_n(&g_rounds, __ATOMIC_SEQ_CST) < 20) usleep(100);
    usleep((useconds_t)g_delay_us);
    pthread_kill(g_main, SIGTERM);
    return NULL;
}

int main(int argc, char** argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    g_delay_us = argc > 1 ? atol(argv[1]) : 0;
    g_main = pthread_self();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_term;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    atexit(report); /* before msPTI registers its exit flush, so it runs after it */
    use_linked_mspti();
    runtime_init();
    EXPECT_RESULT(g_mspti.register_callbacks(request_a, complete_a), MSPTI_SUCCESS);
    msptiSubscriberHandle h = NULL;
    EXPECT_RESULT(g_mspti.subscribe(&h, NULL, NULL), MSPTI_SUCCESS);
    EXPECT_RESULT(g_mspti.enable(MSPTI_ACTIVITY_KIND_KERNEL), MSPTI_SUCCESS);
    pthread_t l, t;
    pthread_create(&l, NULL, launcher, NULL);
    pthread_detach(l);
    pthread_create(&t, NULL, terminator, NULL);
    pthread_detach(t); /* the process exits from the signal handler, before any join */
    for (;;) {
        EXPECT_RESULT(g_mspti.disable(MSPTI_ACTIVITY_KIND_KERNEL), MSPTI_SUCCESS);
        EXPECT_RESULT(g_mspti.enable(MSPTI_ACTIVITY_KIND_KERNEL), MSPTI_SUCCESS);
        __atomic_add_fetch(&g_rounds, 1, __ATOMIC_SEQ_CST);
    }
}
