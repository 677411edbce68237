#include "reports/node_info.h"

#include <atomic>
#include <cstring>

#include "cann/host_time.h"

namespace mspti::seam {
namespace {

std::atomic<NodeInfoObserver> g_observer{nullptr};

}  // namespace

void SetNodeInfoObserver(NodeInfoObserver observer) { g_observer.store(observer, std::memory_order_release); }

namespace handlers {

void OnNodeBasicInfo(const MsprofCompactInfo& info) {
    const NodeInfoObserver observer = g_observer.load(std::memory_order_acquire);
    if (observer == nullptr) return;
    MsprofNodeBasicInfo node;
    std::memcpy(&node, &info.data.nodeBasicInfo, sizeof node);  // packed: read by copy
    observer(info.threadId, host_time::ToRecordTime(info.timeStamp), node.blockDim, node.taskType);
}

}  // namespace handlers
}  // namespace mspti::seam
