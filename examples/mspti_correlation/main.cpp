// API <-> KERNEL correlation: keep copies of the KERNEL and API records, then print each
// API record next to the kernel that carries the same correlation id.
#include <cstdio>
#include <map>
#include <string>

#include "acl_workload.h"
#include "mspti_helpers.h"

namespace {

struct Record {
    std::string name, type;
    uint64_t start = 0, end = 0;
};

std::map<uint64_t, Record> g_kernels, g_apis;  // by correlation id

void keep(const msptiActivity* record) {
    sample::print_record(record);
    if (record->kind == MSPTI_ACTIVITY_KIND_KERNEL) {
        auto* k = reinterpret_cast<const msptiActivityKernel*>(record);
        g_kernels[k->correlationId] = {sample::text(k->name), sample::text(k->type), k->start, k->end};
    } else if (record->kind == MSPTI_ACTIVITY_KIND_API) {
        auto* a = reinterpret_cast<const msptiActivityApi*>(record);
        g_apis[a->correlationId] = {sample::text(a->name), "", a->start, a->end};
    }
}

}  // namespace

int main() {
    sample::AclEnv env;
    if (sample::init_acl(env) != 0) return 1;
    sample::record_handler() = keep;
    msptiSubscriberHandle subscriber = sample::init_mspti(nullptr, nullptr);
    for (msptiActivityKind kind : {MSPTI_ACTIVITY_KIND_MARKER, MSPTI_ACTIVITY_KIND_KERNEL, MSPTI_ACTIVITY_KIND_API}) {
        msptiActivityEnable(kind);
    }
    const int rc = sample::do_acl_add(env.stream);
    sample::deinit_acl(env);
    sample::deinit_mspti(subscriber);
    std::printf("========== PrintCorrelation ============\n");
    for (const auto& [id, api] : g_apis) {
        auto kernel = g_kernels.find(id);
        if (kernel == g_kernels.end()) continue;
        std::printf("API and Activity correlation: correlation: %llu\n", (unsigned long long)id);
        std::printf("  [API] name: %s, start: %llu, end: %llu\n", api.name.c_str(), (unsigned long long)api.start,
                    (unsigned long long)api.end);
        std::printf("  [KERNEL] type: %s, name: %s, start: %llu, end: %llu\n", kernel->second.type.c_str(),
                    kernel->second.name.c_str(), (unsigned long long)kernel->second.start,
                    (unsigned long long)kernel->second.end);
    }
    return rc;
}
