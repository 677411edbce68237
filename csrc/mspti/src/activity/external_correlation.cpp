#include "activity/external_correlation.h"

#include <vector>

#include "activity/buffer_manager.h"
#include "activity/kinds.h"

namespace mspti::activity {
namespace {

thread_local bool t_stacks_gone = false;

struct Stacks {
    std::vector<uint64_t> ids[MSPTI_EXTERNAL_CORRELATION_KIND_SIZE];
    uint32_t non_empty = 0;  // number of kinds with a non-empty stack: the common case is a quick "none"
    Stacks() = default;
    Stacks(const Stacks&) = delete;
    Stacks& operator=(const Stacks&) = delete;
    ~Stacks() { t_stacks_gone = true; }
};

Stacks* LocalStacks() {
    if (t_stacks_gone) return nullptr;
    thread_local Stacks stacks;
    return &stacks;
}

}  // namespace

msptiResult PushExternalCorrelationId(msptiExternalCorrelationKind kind, uint64_t id) {
    if (!IsValidExternalKind(kind)) return MSPTI_ERROR_INVALID_PARAMETER;
    Stacks* s = LocalStacks();
    if (s == nullptr) return MSPTI_ERROR_INNER;
    auto& stack = s->ids[kind];
    if (stack.empty()) ++s->non_empty;
    stack.push_back(id);
    return MSPTI_SUCCESS;
}

msptiResult PopExternalCorrelationId(msptiExternalCorrelationKind kind, uint64_t* last_id) {
    if (!IsValidExternalKind(kind)) return MSPTI_ERROR_INVALID_PARAMETER;
    Stacks* s = LocalStacks();
    if (s == nullptr) return MSPTI_ERROR_INNER;
    auto& stack = s->ids[kind];
    if (stack.empty()) return MSPTI_ERROR_QUEUE_EMPTY;
    if (last_id != nullptr) *last_id = stack.back();
    stack.pop_back();
    if (stack.empty()) --s->non_empty;
    return MSPTI_SUCCESS;
}

void ReportExternalCorrelation(uint64_t correlation_id) {
    if (!Enabled(MSPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION)) return;
    Stacks* s = LocalStacks();
    if (s == nullptr || s->non_empty == 0) return;
    for (int kind = MSPTI_EXTERNAL_CORRELATION_KIND_UNKNOWN; kind < MSPTI_EXTERNAL_CORRELATION_KIND_SIZE; ++kind) {
        const auto& stack = s->ids[kind];
        if (stack.empty()) continue;
        msptiActivityExternalCorrelation record{};
        record.kind = MSPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION;
        record.externalKind = static_cast<msptiExternalCorrelationKind>(kind);
        record.externalId = stack.back();
        record.correlationId = correlation_id;
        BufferManager::Instance().Write(record);
    }
}

}  // namespace mspti::activity
