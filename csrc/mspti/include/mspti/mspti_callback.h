/*
 * The msPTI Callback API: a single subscriber receives ENTER/EXIT callbacks
 * around the instrumented runtime (aclrt*) and HCCL (Hccl*) functions.
 */
#ifndef MSPTI_CALLBACK_H
#define MSPTI_CALLBACK_H

#include <stdint.h>

#include "mspti_cbid.h"
#include "mspti_result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Groups of instrumented functions. */
typedef enum MSPTI_ENUM_INT {
    MSPTI_CB_DOMAIN_INVALID = 0,
    MSPTI_CB_DOMAIN_RUNTIME = 1,
    MSPTI_CB_DOMAIN_HCCL = 2,
    MSPTI_CB_DOMAIN_SIZE = 3,
    MSPTI_CB_DOMAIN_FORCE_INT = 0x7fffffff
} msptiCallbackDomain;

/* Whether a callback comes before (ENTER) or after (EXIT) the instrumented function. */
typedef enum {
    MSPTI_API_ENTER = 0,
    MSPTI_API_EXIT = 1,
    MSPTI_API_CBSITE_FORCE_INT = 0x7fffffff
} msptiApiCallbackSite;

/* A callback id: a value of msptiCallbackIdRuntime or msptiCallbackIdHccl depending on the domain. */
typedef uint32_t msptiCallbackId;

/*
 * What a callback receives about the instrumented call. Valid only during the callback.
 *  - functionName: the public function name, e.g. "aclrtMalloc".
 *  - functionParams: points to the parameter struct of that function (mspti_ext.h declares one per
 *    function: msptiRuntime<Function>Params / msptiHccl<Function>Params).
 *  - functionReturnValue: at EXIT, points to the function's return value (aclError or HcclResult);
 *    NULL at ENTER.
 *  - symbolName: for kernel launches, the kernel name when the runtime reported it (EXIT), else NULL.
 *  - correlationId: the id the activity records caused by this call carry.
 *  - correlationData: 8 bytes owned by msPTI for this call, shared by its ENTER and EXIT callbacks.
 */
typedef struct {
    msptiApiCallbackSite callbackSite;
    const char *functionName;
    const void *functionParams;
    const void *functionReturnValue;
    const char *symbolName;
    uint64_t correlationId;
    uint64_t reserved1;
    uint64_t reserved2;
    uint64_t *correlationData;
} msptiCallbackData;

typedef void (*msptiCallbackFunc)(void *userdata, msptiCallbackDomain domain, msptiCallbackId cbid,
                                  const msptiCallbackData *cbdata);

struct msptiSubscriber_st;
typedef struct msptiSubscriber_st *msptiSubscriberHandle;

/*
 * Registers the (single) subscriber. A NULL callback is allowed. No callback is enabled after
 * subscribing. Thread safe. Returns MSPTI_ERROR_INVALID_PARAMETER for a NULL subscriber and
 * MSPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED while another subscriber exists.
 */
MSPTI_API msptiResult msptiSubscribe(msptiSubscriberHandle *subscriber, msptiCallbackFunc callback,
                                     void *userdata);

/* Removes the subscriber; MSPTI_ERROR_INVALID_PARAMETER if it is not the current one. */
MSPTI_API msptiResult msptiUnsubscribe(msptiSubscriberHandle subscriber);

/* Enables (enable != 0) or disables the callback of one function of a domain. */
MSPTI_API msptiResult msptiEnableCallback(uint32_t enable, msptiSubscriberHandle subscriber,
                                          msptiCallbackDomain domain, msptiCallbackId cbid);

/* Enables or disables every callback of a domain. */
MSPTI_API msptiResult msptiEnableDomain(uint32_t enable, msptiSubscriberHandle subscriber,
                                        msptiCallbackDomain domain);

#ifdef __cplusplus
}
#endif

#endif /* MSPTI_CALLBACK_H */
