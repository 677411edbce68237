#include "exchange.h"

#include <dlfcn.h>

#include <atomic>
#include <mutex>

#include "core/log.h"
#include "data_step.h"

namespace npusim::hcomm {

namespace {
std::atomic<CollectiveExecutor> g_executor{nullptr};
std::atomic<DataStepFn> g_data_step{nullptr};
}  // namespace

void set_data_step(DataStepFn fn) { g_data_step.store(fn, std::memory_order_release); }

DataStepFn data_step() { return g_data_step.load(std::memory_order_acquire); }

void set_collective_executor(CollectiveExecutor executor) { g_executor.store(executor, std::memory_order_release); }

CollectiveExecutor collective_executor() {
    CollectiveExecutor ex = g_executor.load(std::memory_order_acquire);
    if (ex != nullptr) return ex;
    // A process that only hosts the rendezvous may not have loaded libhccl; its load
    // registers the executor.
    static std::once_flag once;
    std::call_once(once, [] {
        if (dlopen("libhccl.so", RTLD_NOW | RTLD_GLOBAL) == nullptr) {
            log_message(LogLevel::Error, "hccl: cannot load libhccl.so to run a collective: %s", dlerror());
        }
    });
    return g_executor.load(std::memory_order_acquire);
}

}  // namespace npusim::hcomm
