// A per-thread hint from an operator library to the runtime's next kernel launch.
//
// aclnn operators know their FLOPs and bytes from the tensor shapes; the opaque kernel
// they launch through the public aclrtLaunchKernel path does not. The operator sets a
// hint on its thread just before the launch and the runtime consumes it, so the kernel's
// duration follows the op's roofline without any change to the public launch ABI.
#pragma once

#include <cstdint>

#include "core/catalogue.h"
#include "core/export.h"

namespace npusim {

struct LaunchHint {
    double flops = 0;
    double bytes = 0;
    CoreType core = CoreType::Inherit;  // overrides the function's core type when set
    double duration_ns = 0;             // the operator's modelled kernel time; 0: roofline of flops and bytes
    // With duration_ns: the compute and memory times within it (they overlap; 0: not named), which
    // the AI Core PMU records split the kernel's time by.
    double compute_ns = 0;
    double memory_ns = 0;
    ComputeDtype dtype = ComputeDtype::Fp16;  // the data type the operator's kernel computes in
};

// Sets the hint for the calling thread's next kernel launch (replacing an unused one).
NPUSIM_API void set_launch_hint(const LaunchHint& hint);
// Takes the calling thread's hint, if any; the hint applies to one launch only.
NPUSIM_API bool take_launch_hint(LaunchHint& out);

class Stream;
// The runtime notes a task it queued behind a collective (stream_queue.h) on the calling thread,
// so that an operator whose kernels were queued so computes its result behind the same hold, after
// the collective's data is there, instead of at once. Taking the note clears it.
NPUSIM_API void note_deferred_launch(Stream* stream);
NPUSIM_API Stream* take_deferred_launch();

}  // namespace npusim
