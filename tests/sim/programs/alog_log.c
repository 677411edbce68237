/* libascendalog: prints CheckLogLevelForC's answers on stdout and logs through DlogInnerForC. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seam/alog.h"

static void* writer(void* arg) {
    const int id = (int)(long)arg;
    for (int i = 0; i < 1000; ++i)
        DlogInnerForC(31, DLOG_ERROR, "thread %d line %d %s\n", id, i, "xxxxxxxxxxxxxxxxxxxx");
    return NULL;
}

int main(int argc, char** argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    const char* mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "levels") == 0) {
        for (int level = -1; level <= 5; ++level) printf("check %d=%d\n", level, CheckLogLevelForC(31, level));
        printf("check module3 error=%d\n", CheckLogLevelForC(3, DLOG_ERROR));
        DlogInnerForC(31, DLOG_DEBUG, "debug %d\n", 0);
        DlogInnerForC(31, DLOG_INFO, "info %s", "no newline");
        DlogInnerForC(7, DLOG_WARN, "warn %u%%\n", 50u);
        DlogInnerForC(48, DLOG_ERROR, "error %s:%d\n", "file.cpp", 12);
        DlogInnerForC(999, DLOG_ERROR, "unknown module\n");
        DlogInnerForC(31, DLOG_NULL, "null level\n");
        DlogInnerForC(31, -1, "negative level\n");
        DlogInnerForC(31, 9, "big level\n");
        DlogInnerForC(31, DLOG_ERROR, NULL);
        return 0;
    }
    if (strcmp(mode, "long") == 0) {
        static char big[10000];
        memset(big, 'a', sizeof big - 1);
        DlogInnerForC(31, DLOG_ERROR, "%s\n", big);
        DlogInnerForC(31, DLOG_ERROR, "after\n");
        return 0;
    }
    if (strcmp(mode, "threads") == 0) {
        pthread_t threads[4];
        for (long i = 0; i < 4; ++i) pthread_create(&threads[i], NULL, writer, (void*)i);
        for (int i = 0; i < 4; ++i) pthread_join(threads[i], NULL);
        return 0;
    }
    fprintf(stderr, "unknown mode '%s'\n", mode);
    return 2;
}
