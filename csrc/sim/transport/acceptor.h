// A listening socket's server loop: one thread accepts, each connection is served on a thread of
// its own, and stop() closes the listener, wakes every connection (shutdown) and joins every
// thread. Threads of connections that ended are joined as new ones arrive.
#pragma once

#include <atomic>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <thread>

#include "core/export.h"
#include "transport/socket.h"

namespace npusim::transport {

class NPUSIM_API Acceptor {
public:
    // Serves one connection until it ends or is shut down; the Acceptor closes it afterwards.
    using Serve = std::function<void(const Fd& connection)>;

    Acceptor() = default;
    ~Acceptor() { stop(); }
    Acceptor(const Acceptor&) = delete;
    Acceptor& operator=(const Acceptor&) = delete;

    // Accepts on `listener` (from listen_tcp) until stop().
    void start(Fd listener, Serve serve);
    // Idempotent; not to be called from a Serve.
    void stop();

private:
    struct Connection {
        Fd fd;
        std::thread thread;
        std::atomic<bool> done{false};
    };

    void loop();
    void reap_finished();

    Fd listener_;
    Serve serve_;
    std::thread thread_;
    std::mutex mutex_;
    std::list<std::unique_ptr<Connection>> connections_;
};

}  // namespace npusim::transport
