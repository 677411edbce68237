// aclOpExecutor: what an aclnnXxxGetWorkspaceSize call prepares and the matching
// aclnnXxx call runs. libopapi derives its operators' executors from it; libnnopbase
// owns every live executor in a registry, so a handle that was already consumed or
// destroyed is recognised instead of being dereferenced.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "aclnn/acl_meta.h"
#include "core/export.h"

struct NPUSIM_API aclOpExecutor {
    aclOpExecutor(std::string api, uint64_t workspace) : api_(std::move(api)), workspace_(workspace) {}
    virtual ~aclOpExecutor();
    aclOpExecutor(const aclOpExecutor&) = delete;
    aclOpExecutor& operator=(const aclOpExecutor&) = delete;

    // The second phase: compute and launch on `stream`. Checks are done before.
    virtual aclnnStatus run(void* workspace, uint64_t workspace_size, aclrtStream stream) = 0;

    const std::string& api() const { return api_; }  // "aclnnAdd", ...
    uint64_t workspace() const { return workspace_; }

private:
    std::string api_;
    uint64_t workspace_;
};

namespace npusim::nn {

// Registers a new executor and returns its handle.
NPUSIM_API aclOpExecutor* adopt_executor(std::unique_ptr<aclOpExecutor> executor);

// The second phase of `api`: validates the handle and the workspace, then runs the
// executor (a non-repeatable executor is unregistered first and freed after its run).
// Codes: NULL executor, or NULL workspace when one is needed -> ACLNN_ERR_PARAM_NULLPTR;
// an unknown (consumed or destroyed) executor, one made for another operator, or a
// workspace smaller than requested -> ACLNN_ERR_INNER.
NPUSIM_API aclnnStatus run_executor(const char* api, aclOpExecutor* executor, void* workspace, uint64_t workspace_size,
                                    aclrtStream stream);

// Number of registered executors (tests and leak checks).
NPUSIM_API size_t live_executors();

}  // namespace npusim::nn
