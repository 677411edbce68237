/*
 * msPTI functions that not every libmspti provides (mspti_ext.h: this project's extensions), looked
 * up at run time with dlsym so that a benchmark program builds and runs against any libmspti. A
 * figure that needs a missing function is printed as JSON null; the runner reports it as "not
 * provided by this library".
 */
#ifndef BENCHMARK_OPTIONAL_SYMBOLS_H
#define BENCHMARK_OPTIONAL_SYMBOLS_H

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>

#include "mspti/mspti.h"

/* The records dropped so far (all kinds) into *dropped; 0 when the library has no
 * msptiActivityGetDroppedRecords (or it fails), 1 when *dropped was set. */
static int optional_dropped_records(uint64_t* dropped) {
    typedef msptiResult (*get_dropped_fn)(msptiActivityKind, uint64_t*);
    get_dropped_fn get_dropped = (get_dropped_fn)dlsym(RTLD_DEFAULT, "msptiActivityGetDroppedRecords");
    return get_dropped != NULL && get_dropped(MSPTI_ACTIVITY_KIND_INVALID, dropped) == MSPTI_SUCCESS;
}

/* Writes a count, or null when it could not be taken, as a JSON value. */
static void print_optional_count(int provided, uint64_t value) {
    if (provided) {
        printf("%llu", (unsigned long long)value);
    } else {
        printf("null");
    }
}

#endif
