/* C wrappers of the enum-typed msPTI / ACL functions (see c_calls.c). Results as plain ints. */
#ifndef FUZZ_C_CALLS_H
#define FUZZ_C_CALLS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

int fz_activity_enable(int32_t kind);
int fz_activity_disable(int32_t kind);
int fz_activity_is_enabled(int32_t kind);
int fz_enable_callback(uint32_t enable, void* subscriber, int32_t domain, uint32_t cbid);
int fz_enable_domain(uint32_t enable, void* subscriber, int32_t domain);
int fz_push_external(int32_t kind, uint64_t id);
int fz_pop_external(int32_t kind, uint64_t* last);
int fz_dropped(int32_t kind, uint64_t* dropped);
const char* fz_result_string(int32_t result);
/* variant 0 aclrtMemcpy, 1 aclrtMemcpyAsync, 2 aclrtMemcpy2d, 3 aclrtMemcpy2dAsync (64-byte rows). */
int fz_memcpy(int variant, void* dst, size_t dst_max, const void* src, size_t count, int32_t kind, void* stream);

#ifdef __cplusplus
}
#endif

#endif /* FUZZ_C_CALLS_H */
