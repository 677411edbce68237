#include "transport/acceptor.h"

#include <utility>

namespace npusim::transport {

void Acceptor::start(Fd listener, Serve serve) {
    listener_ = std::move(listener);
    serve_ = std::move(serve);
    thread_ = std::thread([this] { loop(); });
}

void Acceptor::stop() {
    listener_.shutdown_both();  // wakes accept()
    if (thread_.joinable()) thread_.join();
    listener_.reset();
    std::list<std::unique_ptr<Connection>> connections;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        connections.swap(connections_);
    }
    for (auto& c : connections) c->fd.shutdown_both();  // wakes the connection's thread
    for (auto& c : connections) {
        if (c->thread.joinable()) c->thread.join();
    }
}

void Acceptor::reap_finished() {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = connections_.begin(); it != connections_.end();) {
        if ((*it)->done.load(std::memory_order_acquire)) {
            (*it)->thread.join();
            it = connections_.erase(it);
        } else {
            ++it;
        }
    }
}

void Acceptor::loop() {
    for (;;) {
        Fd fd = accept_tcp(listener_);
        if (!fd.valid()) return;  // shut down (or the listener failed)
        reap_finished();
        auto connection = std::make_unique<Connection>();
        connection->fd = std::move(fd);
        Connection* c = connection.get();
        std::lock_guard<std::mutex> lock(mutex_);
        c->thread = std::thread([this, c] {
            serve_(c->fd);
            c->done.store(true, std::memory_order_release);
        });
        connections_.push_back(std::move(connection));
    }
}

}  // namespace npusim::transport
