#include "device/stream_task_id.h"

namespace mspti::seam {

std::atomic<bool>& StreamExpandMode() {
    static std::atomic<bool> expand{false};
    return expand;
}

}  // namespace mspti::seam
