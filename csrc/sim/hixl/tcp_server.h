// The listening side of an engine: accepts links from engines of other processes
// and serves their transfers against the engine's registered memory, one thread
// per link. stop() wakes and joins every thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <thread>

#include "endpoint.h"
#include "mem_registry.h"
#include "wire.h"

namespace hixl {

class TcpServer {
public:
    explicit TcpServer(MemRegistry& memory) : memory_(memory) {}
    ~TcpServer() { stop(); }
    TcpServer(const TcpServer&) = delete;
    TcpServer& operator=(const TcpServer&) = delete;

    // Listens on ep (port 0: any free port); `bound_port` is the port in use.
    Status start(const Endpoint& ep, uint16_t& bound_port);
    void stop();

private:
    struct Link {
        int fd = -1;
        std::thread thread;
        std::shared_ptr<std::atomic<bool>> done;
    };

    void accept_loop();
    void reap_finished();
    void serve(int fd);
    // False when the stream is no longer usable.
    bool serve_transfer(int fd, const wire::Header& header);

    MemRegistry& memory_;
    int listen_fd_ = -1;
    int wake_fd_ = -1;
    std::thread acceptor_;
    std::mutex links_mutex_;
    std::list<Link> links_;
};

}  // namespace hixl
