// One HIXL engine: its name, its registered memory, its links to remote engines,
// its listening server and its asynchronous requests. The public hixl::Hixl
// forwards to it; engines of the same process reach each other's memory through
// shared ownership (Directory, LocalTransport).
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "hixl/hixl_types.h"
#include "mem_registry.h"
#include "request_table.h"
#include "tcp_server.h"
#include "transfer_path.h"
#include "transport.h"

namespace hixl {

class Engine : public std::enable_shared_from_this<Engine> {
public:
    Engine() : server_(memory_) {}
    ~Engine() { finalize(); }
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    // `path`: the transfer path Initialize's options chose (transfer_path.h); it sets the model's cost.
    Status initialize(const std::string& local_engine, TransferPath path);
    void finalize();

    Status register_mem(const MemDesc& mem, MemType type, MemHandle& handle);
    Status deregister_mem(MemHandle handle);

    Status connect(const std::string& remote, int32_t timeout_ms);
    Status disconnect(const std::string& remote);

    Status transfer_sync(const AscendString& remote, TransferOp op, const std::vector<TransferOpDesc>& descs,
                         int32_t timeout_ms);
    Status transfer_async(const AscendString& remote, TransferOp op, const std::vector<TransferOpDesc>& descs,
                          const TransferArgs& args, TransferReq& req);
    Status transfer_status(const TransferReq& req, TransferStatus& status);
    Status transfer_status(const GetTransferStatusArgs& args, std::vector<TransferResult>& results);

    bool running() const { return running_.load(std::memory_order_acquire); }
    MemRegistry& memory() { return memory_; }
    // "ip:port" with the bound port; empty when the engine does not listen.
    std::string listen_name() const;

private:
    std::shared_ptr<Transport> link_to(const std::string& remote);
    // Checks the engine, the batch and the link; `bytes` is the batch's size.
    Status prepare(const char* api, const std::string& remote, TransferOp op, const std::vector<TransferOpDesc>& descs,
                   std::shared_ptr<Transport>& link, uint64_t& bytes);

    mutable std::mutex mutex_;  // state, name and links
    std::atomic<bool> running_{false};
    std::string name_;
    std::string listen_name_;
    std::atomic<TransferPath> path_{TransferPath::CommDomain};
    std::map<std::string, std::shared_ptr<Transport>> links_;
    MemRegistry memory_;
    TcpServer server_;
    RequestTable requests_;
};

}  // namespace hixl
