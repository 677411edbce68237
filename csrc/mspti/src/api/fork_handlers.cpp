// fork() support: the child of a process using msPTI gets a usable msPTI.
//
// fork copies only the calling thread. Without these handlers the child would wait for ever for
// a delivery thread that is not there, and find locks held by threads that are not there either.
// Prepare takes the locks of the state the child inherits (device data, then the buffer manager:
// the order in which a thread parsing device records takes them), so no other thread is inside that
// state at the fork; the parent releases them; the child re-creates them and restarts the worker
// threads lazily. What the child gets: its subscription, callbacks and enabled kinds as they were
// at the fork, drop counts of zero, and fresh buffers and threads; its records go to its own
// RequestFunc and CompleteFunc. Records the parent made before the fork are the parent's only:
// buffers the parent had open or queued are not completed in the child, and the host halves of the
// parent's device work (task tracks, kernels and collectives waiting for their device half) are
// forgotten, as are device halves of the parent's markers still in the driver's channels; device
// halves of the parent's kernels find no host half in the child and are forgotten as unmatched.
//
// Partial: the other, short critical sections of msPTI (subscriber table, name caches, marker
// domains, correlation tables, device task manager) are not quiesced; a fork while another
// thread is inside one of them leaves its lock held in the child. Forking from inside a
// RequestFunc or CompleteFunc takes no locks (the forking thread may hold some itself).
#include <pthread.h>

#include <new>

#include "activity/buffer_manager.h"
#include "activity/drop_counter.h"
#include "common/log.h"
#include "interpose/report_route.h"
#include "markers/marker_ids.h"
#include "device/channel_reader.h"
#include "device/device_data.h"

namespace mspti::lifecycle {
namespace {

bool g_device_locked = false;

void Prepare() {
    g_device_locked = !activity::BufferManager::InClientCallback();
    if (g_device_locked) seam::DeviceData::Instance().mutex().lock();
    activity::BufferManager::Instance().PrepareFork();
}

void Parent() {
    activity::BufferManager::Instance().ParentAfterFork();
    if (g_device_locked) seam::DeviceData::Instance().mutex().unlock();
}

void Child() {
    // The reader's channels are guarded by the device-data mutex: re-created after them.
    seam::ChannelReader::Instance().ChildAfterFork();
    seam::DeviceData::Instance().ChildAfterFork();
    markers::MarkForkBoundary();
    activity::BufferManager::Instance().ChildAfterFork();
    activity::Drops().ResetAfterFork();
    interpose::report_route::ChildAfterFork();
}

struct ForkHandlers {
    ForkHandlers() {
        if (pthread_atfork(&Prepare, &Parent, &Child) != 0) MSPTI_LOGW("cannot register the fork handlers");
    }
};
ForkHandlers g_fork_handlers;

}  // namespace
}  // namespace mspti::lifecycle
