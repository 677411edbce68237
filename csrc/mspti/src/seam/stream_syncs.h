// When the application last synchronised each stream (through msPTI's interposed
// aclrtSynchronizeStream). A synchronisation that returned guarantees that everything
// launched on the stream before it began has run on the device, so its device records are
// with the driver: a flush that starts after it and finds a device half still missing knows
// that half is lost (produced = delivered + dropped at FlushAll, docs/mspti-deviations.md).
// Not on the launch path: written once per synchronisation, read by flushes.
#pragma once

#include <cstdint>

namespace mspti::seam::stream_syncs {

// A synchronisation of `stream` (its handle, and its id on `device`) that began at `began_ns`
// (records' time base) and succeeded.
void Note(uint32_t device, uint32_t stream_id, const void* handle, uint64_t began_ns);

// The beginning of the latest successful synchronisation of the stream, 0 if none.
uint64_t ById(uint32_t device, uint32_t stream_id);
uint64_t ByHandle(const void* handle);

// fork(), in the child: a new lock (the table is kept: the streams are the child's too).
void ChildAfterFork();

}  // namespace mspti::seam::stream_syncs
