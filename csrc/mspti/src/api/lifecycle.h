// Process-level events of the library: load (registration with libprofapi),
// flushes, and the flush at process exit.
#pragma once

#include <chrono>

namespace mspti::lifecycle {

// The exit flush waits for the client's CompleteFunc while buffers keep coming back; once none has
// for this long, it gives up and says on stderr how many records were not delivered.
inline constexpr std::chrono::milliseconds kExitDeliveryStall{2000};

// Registers the exit flush (once). Called when the client starts using msPTI, so that the exit
// handler runs before the destructors of the client's static objects.
void EnsureExitFlush();

// FlushAll: drain the device channels (unless called from a buffer callback), then deliver
// every buffer holding records and wait for the deliveries.
void FlushAll();

}  // namespace mspti::lifecycle
