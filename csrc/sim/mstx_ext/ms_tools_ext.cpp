// libms_tools_ext: the mstx C API as exported functions, for programs that call mstx through a
// shared library instead of the header-only front end (Python's ctypes, CANN's documented
// `-lms_tools_ext`). Each export forwards to the header's implementation, which attaches the tool
// named by MSTX_INJECTION_PATH on first use, exactly as in a program that includes the header.
//
// The header defines the API as static inline functions under the public names; they are renamed
// here while it is included so that the exported functions can take those names.
#define mstxMarkA mstxInlineMarkA
#define mstxRangeStartA mstxInlineRangeStartA
#define mstxRangeEnd mstxInlineRangeEnd
#define mstxGetToolId mstxInlineGetToolId
#define mstxDomainCreateA mstxInlineDomainCreateA
#define mstxDomainDestroy mstxInlineDomainDestroy
#define mstxDomainMarkA mstxInlineDomainMarkA
#define mstxDomainRangeStartA mstxInlineDomainRangeStartA
#define mstxDomainRangeEnd mstxInlineDomainRangeEnd
#include "mstx/ms_tools_ext.h"
#undef mstxMarkA
#undef mstxRangeStartA
#undef mstxRangeEnd
#undef mstxGetToolId
#undef mstxDomainCreateA
#undef mstxDomainDestroy
#undef mstxDomainMarkA
#undef mstxDomainRangeStartA
#undef mstxDomainRangeEnd

#define MSTX_EXPORT extern "C" __attribute__((visibility("default")))

MSTX_EXPORT void mstxMarkA(const char* message, aclrtStream stream) { mstxInlineMarkA(message, stream); }
MSTX_EXPORT mstxRangeId mstxRangeStartA(const char* message, aclrtStream stream) {
    return mstxInlineRangeStartA(message, stream);
}
MSTX_EXPORT void mstxRangeEnd(mstxRangeId id) { mstxInlineRangeEnd(id); }
MSTX_EXPORT void mstxGetToolId(uint64_t* id) { mstxInlineGetToolId(id); }
MSTX_EXPORT mstxDomainHandle_t mstxDomainCreateA(const char* name) { return mstxInlineDomainCreateA(name); }
MSTX_EXPORT void mstxDomainDestroy(mstxDomainHandle_t domain) { mstxInlineDomainDestroy(domain); }
MSTX_EXPORT void mstxDomainMarkA(mstxDomainHandle_t domain, const char* message, aclrtStream stream) {
    mstxInlineDomainMarkA(domain, message, stream);
}
MSTX_EXPORT mstxRangeId mstxDomainRangeStartA(mstxDomainHandle_t domain, const char* message, aclrtStream stream) {
    return mstxInlineDomainRangeStartA(domain, message, stream);
}
MSTX_EXPORT void mstxDomainRangeEnd(mstxDomainHandle_t domain, mstxRangeId id) { mstxInlineDomainRangeEnd(domain, id); }
