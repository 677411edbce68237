// When the application last synchronised each stream (through msPTI's interposed
// aclrtSynchronizeStream, aclrtSynchronizeStreamWithTimeout, aclrtSynchronizeDevice, which
// synchronises every stream of the current device, and aclrtSynchronizeEvent, which synchronises
// the stream of the event's latest aclrtRecordEvent up to that record). A synchronisation that
// returned successfully, or with the error of a collective task that failed on the device
// (507048, 507049: the failed task has no device half), guarantees that everything
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

// A synchronisation of every stream of `device` that began at `began_ns` and succeeded.
void NoteDevice(uint32_t device, uint64_t began_ns);

// aclrtRecordEvent(event, stream) succeeded; it began at `began_ns`.
void NoteEventRecord(const void* event, uint32_t device, uint32_t stream_id, const void* stream, uint64_t began_ns);
// aclrtSynchronizeEvent(event) succeeded: the work issued to the event's stream before its latest
// record has run, as if that stream had been synchronised when the record began.
void NoteEventSync(const void* event);

// The beginning of the latest successful synchronisation of the stream (by the stream, its
// device or an event recorded on it), 0 if none.
uint64_t ById(uint32_t device, uint32_t stream_id);
uint64_t ByHandle(uint32_t device, const void* handle);

// fork(), in the child: a new lock (the table is kept: the streams are the child's too).
void ChildAfterFork();

}  // namespace mspti::seam::stream_syncs
