#include "markers/marker_ids.h"

#include <atomic>

namespace mspti::markers {

uint64_t NextMarkerId() {
    static std::atomic<uint64_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace mspti::markers
