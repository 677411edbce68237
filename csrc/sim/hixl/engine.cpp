#include "engine.h"

#include "core/clock.h"
#include "core/log.h"
#include "directory.h"
#include "endpoint.h"
#include "local_transport.h"
#include "prof_reporter.h"
#include "tcp_transport.h"
#include "transfer_model.h"

namespace hixl {

namespace {

// Submitting an asynchronous transfer to another process waits at most this long for the peer.
constexpr int32_t kAsyncIoTimeoutMs = 30000;
// Op descs per batch (the TCP protocol counts them in 32 bits).
constexpr size_t kMaxOpDescs = 1U << 24;

npusim::Clock& sim_clock() { return npusim::Clock::instance(); }

// PARAM_INVALID (with a log line) for an empty batch, a zero-length or wrapping range.
Status check_batch(const char* api, TransferOp op, const std::vector<TransferOpDesc>& descs, uint64_t& total) {
    total = 0;
    if (op != READ && op != WRITE) {
        npusim::log_message(npusim::LogLevel::Error, "HIXL %s: invalid operation %d", api, static_cast<int>(op));
        return PARAM_INVALID;
    }
    if (descs.empty() || descs.size() > kMaxOpDescs) {
        npusim::log_message(npusim::LogLevel::Error, "HIXL %s: %zu op descs (1..%zu allowed)", api, descs.size(),
                            kMaxOpDescs);
        return PARAM_INVALID;
    }
    for (const TransferOpDesc& d : descs) {
        if (d.len == 0 || d.local_addr == 0 || d.remote_addr == 0 || d.local_addr + d.len < d.local_addr ||
            d.remote_addr + d.len < d.remote_addr || total + d.len < total) {
            npusim::log_message(npusim::LogLevel::Error,
                                "HIXL %s: invalid op desc (local 0x%zx, remote 0x%zx, len %zu)", api,
                                static_cast<size_t>(d.local_addr), static_cast<size_t>(d.remote_addr), d.len);
            return PARAM_INVALID;
        }
        total += d.len;
    }
    return SUCCESS;
}

Status not_initialized(const char* api) {
    npusim::log_message(npusim::LogLevel::Error, "HIXL %s: the engine is not initialized", api);
    return FAILED;
}

}  // namespace

Status Engine::initialize(const std::string& local_engine, TransferPath path) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (running()) {
        npusim::log_message(npusim::LogLevel::Error, "HIXL Initialize: %s is already initialized", name_.c_str());
        return FAILED;
    }
    Endpoint ep;
    if (!parse_endpoint(local_engine, ep)) {
        npusim::log_message(npusim::LogLevel::Error, "HIXL Initialize: '%s' is not ip or ip:port",
                            local_engine.c_str());
        return PARAM_INVALID;
    }
    name_ = local_engine;
    path_.store(path, std::memory_order_relaxed);
    listen_name_.clear();
    if (ep.has_port) {
        uint16_t port = 0;
        const Status st = server_.start(ep, port);
        if (st != SUCCESS) return st;
        Endpoint bound = ep;
        bound.port = port;
        listen_name_ = bound.name();
        if (!Directory::instance().add(listen_name_, shared_from_this())) {
            npusim::log_message(npusim::LogLevel::Error, "HIXL Initialize: %s is in use", listen_name_.c_str());
            server_.stop();
            listen_name_.clear();
            return FAILED;
        }
        npusim::log_message(npusim::LogLevel::Info, "HIXL engine %s listens on %s (%s path)", name_.c_str(),
                            listen_name_.c_str(), transfer_path_name(path));
    }
    running_.store(true, std::memory_order_release);
    return SUCCESS;
}

void Engine::finalize() {
    std::map<std::string, std::shared_ptr<Transport>> links;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!running()) return;
        running_.store(false, std::memory_order_release);
        if (!listen_name_.empty()) Directory::instance().remove(listen_name_, this);
        links.swap(links_);
    }
    server_.stop();
    links.clear();  // closes the links (a transfer still using one keeps it until it returns)
    memory_.clear();
    requests_.clear();
}

std::string Engine::listen_name() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return running() ? listen_name_ : std::string();
}

Status Engine::register_mem(const MemDesc& mem, MemType type, MemHandle& handle) {
    charge_api_call();
    if (!running()) return not_initialized("RegisterMem");
    return memory_.add(mem, type, handle);
}

Status Engine::deregister_mem(MemHandle handle) {
    charge_api_call();
    if (!running()) return not_initialized("DeregisterMem");
    return memory_.remove(handle);
}

Status Engine::connect(const std::string& remote, int32_t timeout_ms) {
    charge_api_call();
    if (!running()) return not_initialized("Connect");
    Endpoint ep;
    if (!parse_endpoint(remote, ep) || !ep.has_port || timeout_ms <= 0) {
        npusim::log_message(npusim::LogLevel::Error, "HIXL Connect: invalid remote '%s' or timeout %d ms",
                            remote.c_str(), timeout_ms);
        return PARAM_INVALID;
    }
    if (link_to(remote)) return ALREADY_CONNECTED;
    std::shared_ptr<Transport> link;
    if (std::shared_ptr<Engine> peer = Directory::instance().find(remote)) {
        link = std::make_shared<LocalTransport>(peer);
    } else {
        std::unique_ptr<TcpTransport> tcp;
        const Status st = TcpTransport::open(ep, name_, timeout_ms, tcp);
        if (st != SUCCESS) return st;
        link = std::move(tcp);
    }
    std::lock_guard<std::mutex> lock(mutex_);
    if (!running()) return not_initialized("Connect");
    if (!links_.emplace(remote, std::move(link)).second) return ALREADY_CONNECTED;
    return SUCCESS;
}

Status Engine::disconnect(const std::string& remote) {
    charge_api_call();
    std::shared_ptr<Transport> link;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!running()) return not_initialized("Disconnect");
        auto it = links_.find(remote);
        if (it == links_.end()) {
            npusim::log_message(npusim::LogLevel::Error, "HIXL Disconnect: not connected to %s", remote.c_str());
            return NOT_CONNECTED;
        }
        link = std::move(it->second);
        links_.erase(it);
    }
    return SUCCESS;  // the link closes when its last in-flight transfer releases it
}

std::shared_ptr<Transport> Engine::link_to(const std::string& remote) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = links_.find(remote);
    return it == links_.end() ? nullptr : it->second;
}

Status Engine::prepare(const char* api, const std::string& remote, TransferOp op,
                       const std::vector<TransferOpDesc>& descs, std::shared_ptr<Transport>& link, uint64_t& bytes) {
    if (!running()) return not_initialized(api);
    const Status st = check_batch(api, op, descs, bytes);
    if (st != SUCCESS) return st;
    link = link_to(remote);
    if (!link) {
        npusim::log_message(npusim::LogLevel::Error, "HIXL %s: not connected to %s", api, remote.c_str());
        return NOT_CONNECTED;
    }
    return SUCCESS;
}

Status Engine::transfer_sync(const AscendString& remote, TransferOp op, const std::vector<TransferOpDesc>& descs,
                             int32_t timeout_ms) {
    HIXL_API_PROFILING(prof_type_of(op));
    charge_api_call();
    const uint64_t start = sim_clock().now();
    if (timeout_ms <= 0) {
        npusim::log_message(npusim::LogLevel::Error, "HIXL TransferSync: invalid timeout %d ms", timeout_ms);
        return PARAM_INVALID;
    }
    std::shared_ptr<Transport> link;
    uint64_t bytes = 0;
    Status st = prepare("TransferSync", remote.GetString(), op, descs, link, bytes);
    if (st != SUCCESS) return st;
    const uint64_t duration =
        transfer_duration_ns(path_.load(std::memory_order_relaxed), descs, op, memory_.all_local_host(descs));
    const uint64_t timeout_ns = static_cast<uint64_t>(timeout_ms) * 1'000'000ULL;
    if (duration > timeout_ns) {
        sim_clock().wait_until(start + timeout_ns);
        npusim::log_message(npusim::LogLevel::Error, "HIXL TransferSync: %llu bytes need %llu ns, more than %d ms",
                            static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(duration),
                            timeout_ms);
        return TIMEOUT;
    }
    st = link->transfer(op, descs, memory_, wire::Deadline::after_ms(timeout_ms));
    if (st != SUCCESS) return st;
    sim_clock().wait_until(start + duration);
    return SUCCESS;
}

Status Engine::transfer_async(const AscendString& remote, TransferOp op, const std::vector<TransferOpDesc>& descs,
                              const TransferArgs& args, TransferReq& req) {
    const uint64_t start_time = prof_start_time();
    charge_api_call();
    const uint64_t submit = sim_clock().now();
    std::shared_ptr<Transport> link;
    uint64_t bytes = 0;
    Status st = prepare("TransferAsync", remote.GetString(), op, descs, link, bytes);
    if (st != SUCCESS) return st;
    // The data moves now; the request completes when the model says the transfer ends.
    st = link->transfer(op, descs, memory_, wire::Deadline::after_ms(kAsyncIoTimeoutMs));
    if (st != SUCCESS) return st;
    const uint64_t duration =
        transfer_duration_ns(path_.load(std::memory_order_relaxed), descs, op, memory_.all_local_host(descs));
    PendingTransfer pending;
    pending.info = TransferInfo{start_time, op, remote};
    const uint64_t modelled_end = submit + duration;
    const uint64_t now = sim_clock().now();
    pending.complete_at = modelled_end > now ? modelled_end : now;
    pending.user_data = args.user_data;
    req = requests_.add(std::move(pending));
    return SUCCESS;
}

Status Engine::transfer_status(const TransferReq& req, TransferStatus& status) {
    charge_api_call();
    FinishedTransfer finished;
    switch (requests_.poll(req, sim_clock().now(), finished)) {
        case RequestTable::Poll::Unknown:
            status = TransferStatus::FAILED;
            npusim::log_message(npusim::LogLevel::Error,
                                "HIXL GetTransferStatus: request %p not found: it has completed or does not exist",
                                req);
            return PARAM_INVALID;
        case RequestTable::Poll::Waiting: status = TransferStatus::WAITING; return SUCCESS;
        case RequestTable::Poll::Finished: break;
    }
    status = finished.status;
    // Reported on this thread, from the submission's start time to now.
    HIXL_API_PROFILING_WITH_TIME(prof_type_of(finished.info.op_type), finished.info.start_time);
    return SUCCESS;
}

Status Engine::transfer_status(const GetTransferStatusArgs& args, std::vector<TransferResult>& results) {
    charge_api_call();
    results.clear();
    std::vector<FinishedTransfer> finished;
    requests_.poll_all(args.max_query_count, args.skip_waiting, sim_clock().now(), results, finished);
    for (const FinishedTransfer& f : finished) {
        HIXL_API_PROFILING_WITH_TIME(prof_type_of(f.info.op_type), f.info.start_time);
    }
    return SUCCESS;
}

}  // namespace hixl
