// External correlation: tag the three phases of the workload (set-up, execution, clean-up)
// with external ids 0, 1 and 2 and print which correlation ids each phase produced.
#include <cstdio>
#include <map>
#include <vector>

#include "acl_workload.h"
#include "mspti_helpers.h"

namespace {

std::map<uint64_t, std::vector<uint64_t>> g_external;  // external id -> correlation ids
const char* const kPhaseNames[] = {"INITIALIZATION", "EXECUTION", "CLEANUP"};

void collect(const msptiActivity* record) {
    sample::print_record(record);
    if (record->kind == MSPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION) {
        auto* e = reinterpret_cast<const msptiActivityExternalCorrelation*>(record);
        g_external[e->externalId].push_back(e->correlationId);
    }
}

void push(uint64_t id) { msptiActivityPushExternalCorrelationId(MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, id); }
void pop() {
    uint64_t id = 0;
    msptiActivityPopExternalCorrelationId(MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, &id);
}

}  // namespace

int main() {
    sample::AclEnv env;
    if (sample::init_acl(env) != 0) return 1;
    sample::record_handler() = collect;
    msptiSubscriberHandle subscriber = sample::init_mspti(nullptr, nullptr);
    for (msptiActivityKind kind : {MSPTI_ACTIVITY_KIND_MARKER, MSPTI_ACTIVITY_KIND_KERNEL, MSPTI_ACTIVITY_KIND_API,
                                   MSPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION}) {
        msptiActivityEnable(kind);
    }
    sample::AddPhases phases;
    phases.before_setup = [] { push(0); };
    phases.after_setup = pop;
    phases.before_execution = [] { push(1); };
    phases.after_execution = pop;
    phases.before_cleanup = [] { push(2); };
    phases.after_cleanup = pop;
    const int rc = sample::do_acl_add(env.stream, phases);
    sample::deinit_acl(env);
    sample::deinit_mspti(subscriber);
    std::printf("========== PrintCorrelation ============\n");
    for (const auto& [external, ids] : g_external) {
        std::printf("External id : %llu: %s\n", (unsigned long long)external,
                    external < 3 ? kPhaseNames[external] : "?");
        for (uint64_t id : ids) std::printf("%llu, ", (unsigned long long)id);
        std::printf("\n");
    }
    return rc;
}
