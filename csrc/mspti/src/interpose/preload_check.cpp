#include "interpose/preload_check.h"

#include <dlfcn.h>

namespace mspti::interpose {
namespace {

// Any function of this library tells where the library is mapped.
void Anchor() {}

bool ResolvesToUs(const char* symbol) {
    void* resolved = dlsym(RTLD_DEFAULT, symbol);
    if (resolved == nullptr) return false;
    Dl_info theirs{};
    Dl_info ours{};
    if (dladdr(resolved, &theirs) == 0 || dladdr(reinterpret_cast<void*>(&Anchor), &ours) == 0) return false;
    return theirs.dli_fbase == ours.dli_fbase;
}

}  // namespace

bool RuntimeInterposed() { return ResolvesToUs("aclrtMalloc"); }
bool CollectivesInterposed() { return ResolvesToUs("HcclAllReduce"); }

}  // namespace mspti::interpose
