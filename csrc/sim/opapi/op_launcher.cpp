#include "opapi/op_launcher.h"

#include <array>
#include <cmath>
#include <cstdlib>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "acl/acl_rt.h"
#include "core/clock.h"
#include "core/config.h"
#include "core/device.h"
#include "core/launch_hint.h"
#include "core/log.h"
#include "core/memory.h"
#include "core/platform.h"
#include "core/immortal.h"
#include "core/timing_model.h"
#include "opapi/node_report.h"

namespace npusim::opapi {

namespace {

// Host cost of an operator's two phases beyond the runtime calls they make (timing.toml
// aclnn_workspace_ns, aclnn_run_ns; 0 when the table has none), charged to the calling thread. The SoC
// is fixed for the process, so the lookup happens once.
struct PhaseCosts {
    uint64_t workspace = 0, run = 0;
};

const PhaseCosts& phase_costs() {
    static const PhaseCosts costs = [] {
        PhaseCosts c;
        if (const SocSpec* soc = sim_config().soc) {
            const SocTiming& t = TimingModel::active().soc(soc->name);
            c.workspace = static_cast<uint64_t>(std::llround(t.aclnn_workspace_ns));
            c.run = static_cast<uint64_t>(std::llround(t.aclnn_run_ns));
        }
        return c;
    }();
    return costs;
}

void charge_host(uint64_t ns) {
    if (ns > 0) Clock::instance().spend(ns);
}

// Binaries (one per kernel type, loaded on first use) and function handles by kernel name.
// Handles are process-wide: the simulated runtime's binaries are not tied to a device.
class KernelCache {
public:
    void* function(const KernelSpec& spec, aclDataType dtype) {
        const std::string name = kernel_name(spec, dtype);
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = functions_.find(name);
        if (it != functions_.end()) return it->second;
        void*& binary = binaries_[static_cast<size_t>(spec.id)];
        if (binary == nullptr && !load(spec, binary)) return nullptr;
        aclrtFuncHandle fn = nullptr;
        const aclError rc = aclrtBinaryGetFunction(binary, name.c_str(), &fn);
        if (rc != ACL_SUCCESS || fn == nullptr) {
            log_message(LogLevel::Error, "aclnn: aclrtBinaryGetFunction(%s) failed with %d", name.c_str(), rc);
            return nullptr;
        }
        functions_.emplace(name, fn);
        return fn;
    }

private:
    static bool load(const KernelSpec& spec, void*& binary) {
        // The simulated runtime takes any bytes; ours name the kernel type and where it runs.
        const std::string image =
            std::string("npusim-opapi-kernel\n") + spec.type + "\n" + std::to_string(binary_magic(spec.core)) + "\n";
        aclrtBinaryLoadOption option{};
        option.type = ACL_RT_BINARY_LOAD_OPT_MAGIC;
        option.value.magic = binary_magic(spec.core);
        aclrtBinaryLoadOptions options{&option, 1};
        aclrtBinHandle handle = nullptr;
        const aclError rc = aclrtBinaryLoadFromData(image.data(), image.size(), &options, &handle);
        if (rc != ACL_SUCCESS || handle == nullptr) {
            log_message(LogLevel::Error, "aclnn: aclrtBinaryLoadFromData(%s) failed with %d", spec.type, rc);
            return false;  // not cached: a later call (e.g. after aclrtSetDevice) tries again
        }
        binary = handle;
        return true;
    }

    std::mutex mutex_;
    std::array<void*, static_cast<size_t>(Kernel::Count)> binaries_{};
    std::unordered_map<std::string, void*> functions_;
};

KernelCache& kernels() {
    static Immortal<KernelCache> cache;
    return cache.get();
}

// NPU_SIM_TIMING_ONLY=1: operators launch their kernels but leave their outputs unwritten
// (npu-sim calibrate runs shapes too large to compute on the host).
bool timing_only() {
    static const bool on = [] {
        const char* v = std::getenv("NPU_SIM_TIMING_ONLY");
        return v != nullptr && v[0] == '1' && v[1] == '\0';
    }();
    return on;
}

// The class of a kernel's data type that the AI Core's arithmetic PMU events tell apart.
ComputeDtype compute_dtype(aclDataType dtype) {
    switch (dtype) {
        case ACL_FLOAT16:
        case ACL_BF16: return ComputeDtype::Fp16;
        case ACL_FLOAT: return ComputeDtype::Fp32;
        case ACL_INT8:
        case ACL_UINT8: return ComputeDtype::Int8;
        case ACL_INT32: return ComputeDtype::Int32;
        default: return ComputeDtype::Other;
    }
}

thread_local uint64_t t_op_entry = 0;  // host time at which the running aclnnXxx call was entered

}  // namespace

OpExecutor::OpExecutor(const char* api, uint64_t workspace, Compute compute, std::vector<KernelLaunch> launches,
                       std::vector<void*> kernel_args)
    : aclOpExecutor(api, workspace),
      compute_(std::move(compute)),
      launches_(std::move(launches)),
      kernel_args_(std::move(kernel_args)) {
    // A vector kernel's FLOPs count at its dtype's rate (fp32 lanes are half as many as fp16's).
    for (KernelLaunch& launch : launches_) {
        if (launch.cost.duration_ns > 0 || kernel_spec(launch.kernel).core != CoreType::AIV) continue;
        const double rate = vector_rate(launch.dtype);
        if (rate > 0) launch.cost.flops /= rate;
    }
}

aclnnStatus OpExecutor::run(void* workspace, uint64_t workspace_size, aclrtStream stream) {
    (void)workspace_size;
    std::vector<void*> args = kernel_args_;
    args.push_back(workspace);
    uint64_t begin = t_op_entry;
    (void)take_deferred_launch();  // (a note left by a kernel launched outside an operator)
    for (const KernelLaunch& launch : launches_) {
        const KernelSpec& spec = kernel_spec(launch.kernel);
        void* fn = kernels().function(spec, launch.dtype);
        if (fn == nullptr) return ACLNN_ERR_INNER_FIND_KERNEL_ERROR;
        set_launch_hint(LaunchHint{launch.cost.flops, launch.cost.bytes, spec.core, launch.cost.duration_ns,
                                   launch.cost.compute_ns, launch.cost.memory_ns, compute_dtype(launch.dtype)});
        // CANN's operators launch with their arguments in host memory, which the runtime copies
        // to the device: aclrtLaunchKernelWithHostArgs, no configuration and no placeholders.
        const aclError rc = aclrtLaunchKernelWithHostArgs(fn, launch.cost.block_dim, stream, nullptr, args.data(),
                                                          args.size() * sizeof(void*), nullptr, 0);
        if (rc != ACL_SUCCESS) {
            LaunchHint unused;
            (void)take_launch_hint(unused);  // a failed launch must not leave its hint to the next one
            log_message(LogLevel::Error, "%s: aclrtLaunchKernelWithHostArgs(%s) failed with %d", api().c_str(),
                        spec.type, rc);
            return ACLNN_ERR_RUNTIME_ERROR;
        }
        if (node_reports_on()) {
            const uint64_t end = host_time();
            if (begin == 0) begin = end;  // reports were switched on during this call
            const std::string node = node_name(api().c_str(), spec);
            report_node_launch(NodeLaunch{node, spec.type, spec.core, launch.cost.block_dim}, begin, end);
            begin = end;
        }
    }
    // The result is computed after the kernels are on the stream, so the host time the simulator
    // spends computing it is never part of a kernel's submission, start or duration.
    // Launched behind a collective (stream_queue.h): the result is computed when the stream
    // reaches the kernels, once the collective's data is there. Until then the operator's buffers
    // are pinned (MemoryRegistry::pin_all): a synchronisation that fails meanwhile returns at once,
    // and the application may then free them.
    Stream* held = take_deferred_launch();
    if (compute_ && !timing_only()) {
        if (held == nullptr) {
            compute_();
        } else {
            std::vector<MemoryPin> pins =
                Platform::instance().memory().pin_all(kernel_args_.data(), kernel_args_.size());
            if (!held->queue().defer([compute = compute_, pins = std::move(pins)]() mutable {
                    compute();
                    pins.clear();  // the memory of a buffer freed meanwhile goes back now
                })) {
                compute_();
            }
        }
    }
    return ACLNN_SUCCESS;
}

aclnnStatus hand_over(std::unique_ptr<OpExecutor> op, uint64_t* workspaceSize, aclOpExecutor** executor) {
    ensure_profiling_hook();
    charge_host(phase_costs().workspace);
    *workspaceSize = op->workspace();
    *executor = nn::adopt_executor(std::move(op));
    return ACLNN_SUCCESS;
}

aclnnStatus run_op(const char* api, void* workspace, uint64_t workspace_size, aclOpExecutor* executor,
                   aclrtStream stream) {
    ensure_profiling_hook();
    t_op_entry = node_reports_on() ? host_time() : 0;
    charge_host(phase_costs().run);
    return nn::run_executor(api, executor, workspace, workspace_size, stream);
}

}  // namespace npusim::opapi
