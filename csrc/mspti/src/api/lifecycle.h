// Process-level events of the library: load (registration with libprofapi),
// flushes, and the flush at process exit.
#pragma once

namespace mspti::lifecycle {

// Registers the exit flush (once). Called when the client starts using msPTI, so that the exit
// handler runs before the destructors of the client's static objects.
void EnsureExitFlush();

// FlushAll: drain the device channels (unless called from a buffer callback), then deliver
// every buffer holding records and wait for the deliveries.
void FlushAll();

}  // namespace mspti::lifecycle
