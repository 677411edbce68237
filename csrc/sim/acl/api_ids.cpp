#include "acl/api_ids.h"

namespace acl {

namespace {

struct AclApiInfo {
    const char* name;
    RtApi runtime;
};

constexpr AclApiInfo kAclApis[] = {{"", RtApi::None},
#define ACL_X(fn, rt) {#fn, RtApi::rt},
                                   ACL_API_LIST(ACL_X)
#undef ACL_X
};
static_assert(sizeof kAclApis / sizeof kAclApis[0] == static_cast<size_t>(AclApi::Count), "one entry per API");

constexpr TypeName kTaskTypes[] = {
#define ACL_X(e, id, name) {id, name},
    ACL_TASK_TYPE_LIST(ACL_X)
#undef ACL_X
};

constexpr TypeName kRuntimeApis[] = {
#define ACL_X(e, ordinal, name) {kRtApiBaseType + ordinal, name},
    ACL_RT_API_LIST(ACL_X)
#undef ACL_X
};

}  // namespace

const char* acl_api_name(AclApi api) {
    const auto i = static_cast<size_t>(api);
    return i < static_cast<size_t>(AclApi::Count) ? kAclApis[i].name : "";
}

RtApi runtime_api_of(AclApi api) {
    const auto i = static_cast<size_t>(api);
    return i < static_cast<size_t>(AclApi::Count) ? kAclApis[i].runtime : RtApi::None;
}

TaskType kernel_task_type(npusim::CoreType core) {
    switch (core) {
        case npusim::CoreType::AIC: return TaskType::KernelAicore;
        case npusim::CoreType::MIX: return TaskType::KernelMixAic;
        case npusim::CoreType::AICPU: return TaskType::KernelAicpu;
        case npusim::CoreType::AIV:
        case npusim::CoreType::Inherit: break;
    }
    return TaskType::KernelAivec;
}

const TypeName* task_type_names(size_t* count) {
    *count = sizeof kTaskTypes / sizeof kTaskTypes[0];
    return kTaskTypes;
}

const TypeName* runtime_api_names(size_t* count) {
    *count = sizeof kRuntimeApis / sizeof kRuntimeApis[0];
    return kRuntimeApis;
}

}  // namespace acl
