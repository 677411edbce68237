#include "request_table.h"

#include <atomic>

namespace hixl {

namespace {

// Request ids are unique in the process: a handle of one engine is unknown to every other.
std::atomic<uint64_t> g_next_request{0x52000001};

uint64_t id_of(TransferReq req) { return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(req)); }
TransferReq req_of(uint64_t id) { return reinterpret_cast<TransferReq>(static_cast<uintptr_t>(id)); }

}  // namespace

TransferReq RequestTable::add(PendingTransfer transfer) {
    const uint64_t id = g_next_request.fetch_add(1, std::memory_order_relaxed);
    std::lock_guard<std::mutex> lock(mutex_);
    req_map_.emplace(id, std::move(transfer));
    return req_of(id);
}

RequestTable::Poll RequestTable::poll(TransferReq req, uint64_t now, FinishedTransfer& finished) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = req_map_.find(id_of(req));
    if (it == req_map_.end()) return Poll::Unknown;
    if (now < it->second.complete_at) return Poll::Waiting;
    finished = FinishedTransfer{req, TransferStatus::COMPLETED, std::move(it->second.info)};
    req_map_.erase(it);
    return Poll::Finished;
}

void RequestTable::poll_all(uint32_t max_count, bool skip_waiting, uint64_t now, std::vector<TransferResult>& results,
                            std::vector<FinishedTransfer>& finished) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = req_map_.begin(); it != req_map_.end() && results.size() < max_count;) {
        TransferResult result;
        result.req = req_of(it->first);
        result.user_data = it->second.user_data;
        if (now < it->second.complete_at) {
            if (!skip_waiting) results.push_back(result);
            ++it;
            continue;
        }
        result.status = TransferStatus::COMPLETED;
        results.push_back(result);
        finished.push_back(FinishedTransfer{result.req, result.status, std::move(it->second.info)});
        it = req_map_.erase(it);
    }
}

void RequestTable::clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    req_map_.clear();
}

}  // namespace hixl
