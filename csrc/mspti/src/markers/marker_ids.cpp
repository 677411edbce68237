#include "markers/marker_ids.h"

#include <atomic>

namespace mspti::markers {
namespace {

std::atomic<uint64_t> g_next{1};
// The first id of this process's own markers (1 unless it is a forked child).
std::atomic<uint64_t> g_first_own{1};

}  // namespace

uint64_t NextMarkerId() { return g_next.fetch_add(1, std::memory_order_relaxed); }

void MarkForkBoundary() { g_first_own.store(g_next.load(std::memory_order_relaxed), std::memory_order_relaxed); }

bool IssuedBeforeFork(uint64_t id) { return id < g_first_own.load(std::memory_order_relaxed); }

}  // namespace mspti::markers
