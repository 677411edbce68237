#include "local_transport.h"

#include <cstring>
#include <mutex>
#include <shared_mutex>

#include "core/log.h"
#include "engine.h"

namespace hixl {

namespace {

// Shared locks on two registries, taken in address order (once when they are the same),
// so two engines transferring to each other cannot deadlock.
class PairLock {
public:
    PairLock(const MemRegistry& a, const MemRegistry& b) {
        const MemRegistry* first = &a < &b ? &a : &b;
        const MemRegistry* second = &a < &b ? &b : &a;
        first_ = std::shared_lock<std::shared_mutex>(first->mutex());
        if (second != first) second_ = std::shared_lock<std::shared_mutex>(second->mutex());
    }

private:
    std::shared_lock<std::shared_mutex> first_, second_;
};

}  // namespace

Status LocalTransport::transfer(TransferOp op, const std::vector<TransferOpDesc>& descs, MemRegistry& local,
                                wire::Deadline /*deadline*/) {
    const std::shared_ptr<Engine> remote = remote_.lock();
    if (!remote || !remote->running()) {
        npusim::log_message(npusim::LogLevel::Error, "HIXL transfer: the remote engine has been finalized");
        return FAILED;
    }
    MemRegistry& peer = remote->memory();
    PairLock lock(local, peer);
    if (!locals_covered(local, descs)) {
        npusim::log_message(npusim::LogLevel::Error, "HIXL transfer: a local range is outside registered memory");
        return PARAM_INVALID;
    }
    for (const TransferOpDesc& d : descs) {
        if (!peer.covers(d.remote_addr, d.len)) {
            npusim::log_message(npusim::LogLevel::Error,
                                "HIXL transfer: remote range [0x%zx, +%zu) is outside the remote engine's memory",
                                static_cast<size_t>(d.remote_addr), d.len);
            return PARAM_INVALID;
        }
    }
    for (const TransferOpDesc& d : descs) {
        void* local_ptr = reinterpret_cast<void*>(d.local_addr);
        void* remote_ptr = reinterpret_cast<void*>(d.remote_addr);
        if (op == READ) std::memmove(local_ptr, remote_ptr, d.len);
        else std::memmove(remote_ptr, local_ptr, d.len);
    }
    return SUCCESS;
}

}  // namespace hixl
