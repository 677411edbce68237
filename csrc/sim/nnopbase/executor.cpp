// The executor registry, aclSetAclOpExecutorRepeatable and aclDestroyAclOpExecutor.
#include "nnopbase/executor.h"

#include <mutex>
#include <unordered_map>

#include "core/fault_plan.h"
#include "core/log.h"
#include "core/immortal.h"

aclOpExecutor::~aclOpExecutor() = default;

namespace npusim::nn {

namespace {

struct Entry {
    std::shared_ptr<aclOpExecutor> executor;
    bool repeatable = false;
};

class Registry {
public:
    aclOpExecutor* adopt(std::unique_ptr<aclOpExecutor> executor) {
        aclOpExecutor* handle = executor.get();
        std::lock_guard<std::mutex> lock(mutex_);
        entries_[handle] = Entry{std::shared_ptr<aclOpExecutor>(std::move(executor)), false};
        return handle;
    }

    // The executor behind a handle (empty when unknown), left registered.
    std::shared_ptr<aclOpExecutor> find(aclOpExecutor* handle) {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = entries_.find(handle);
        return it == entries_.end() ? nullptr : it->second.executor;
    }

    // Claims a handle for one run: a repeatable executor stays registered, any other is
    // unregistered. False when the handle is unknown (another thread claimed it first).
    bool claim(aclOpExecutor* handle) {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = entries_.find(handle);
        if (it == entries_.end()) return false;
        if (!it->second.repeatable) entries_.erase(it);
        return true;
    }

    bool set_repeatable(aclOpExecutor* handle) {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = entries_.find(handle);
        if (it == entries_.end()) return false;
        it->second.repeatable = true;
        return true;
    }

    bool erase(aclOpExecutor* handle) {
        std::shared_ptr<aclOpExecutor> doomed;  // freed outside the lock (a run may still hold it)
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = entries_.find(handle);
        if (it == entries_.end()) return false;
        doomed = std::move(it->second.executor);
        entries_.erase(it);
        return true;
    }

    size_t size() {
        std::lock_guard<std::mutex> lock(mutex_);
        return entries_.size();
    }

private:
    std::mutex mutex_;
    std::unordered_map<aclOpExecutor*, Entry> entries_;
};

Registry& registry() {
    static Immortal<Registry> instance;  // outlives static destructors: executors may be run at exit
    return instance.get();
}

}  // namespace

aclOpExecutor* adopt_executor(std::unique_ptr<aclOpExecutor> executor) { return registry().adopt(std::move(executor)); }

aclnnStatus run_executor(const char* api, aclOpExecutor* executor, void* workspace, uint64_t workspace_size,
                         aclrtStream stream) {
    if (executor == nullptr) {
        log_message(LogLevel::Error, "%s: executor is NULL", api);
        return ACLNN_ERR_PARAM_NULLPTR;
    }
    std::shared_ptr<aclOpExecutor> held = registry().find(executor);
    if (!held) {
        log_message(LogLevel::Error, "%s: executor %p is not live (already run, or destroyed)", api,
                    static_cast<void*>(executor));
        return ACLNN_ERR_INNER;
    }
    if (held->api() != api) {
        log_message(LogLevel::Error, "%s: executor %p was made by %sGetWorkspaceSize", api,
                    static_cast<void*>(executor), held->api().c_str());
        return ACLNN_ERR_INNER;
    }
    if (held->workspace() > 0 && workspace == nullptr) {
        log_message(LogLevel::Error, "%s: workspace is NULL, %llu bytes needed", api,
                    static_cast<unsigned long long>(held->workspace()));
        return ACLNN_ERR_PARAM_NULLPTR;
    }
    if (workspace_size < held->workspace()) {
        log_message(LogLevel::Error, "%s: workspace of %llu bytes, %llu needed", api,
                    static_cast<unsigned long long>(workspace_size),
                    static_cast<unsigned long long>(held->workspace()));
        return ACLNN_ERR_INNER;
    }
    if (!registry().claim(executor)) {
        log_message(LogLevel::Error, "%s: executor %p was run concurrently", api, static_cast<void*>(executor));
        return ACLNN_ERR_INNER;
    }
    return held->run(workspace, workspace_size, stream);
}

size_t live_executors() { return registry().size(); }

}  // namespace npusim::nn

NPUSIM_C_EXPORT aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor* executor) {
    NPUSIM_FAULT_RETURN("aclSetAclOpExecutorRepeatable", aclnnStatus);
    if (executor == nullptr) return ACLNN_ERR_PARAM_NULLPTR;
    return npusim::nn::registry().set_repeatable(executor) ? ACLNN_SUCCESS : ACLNN_ERR_INNER;
}

NPUSIM_C_EXPORT aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor* executor) {
    NPUSIM_FAULT_RETURN("aclDestroyAclOpExecutor", aclnnStatus);
    if (executor == nullptr) return ACLNN_ERR_PARAM_NULLPTR;
    return npusim::nn::registry().erase(executor) ? ACLNN_SUCCESS : ACLNN_ERR_INNER;
}
