#include "cluster_rendezvous.h"

#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/file.h>
#include <unistd.h>

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

#include "core/log.h"
#include "hub_registry.h"
#include "settings.h"

namespace npusim::hcomm {

namespace {

uint64_t fnv1a(const std::string& s) {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (unsigned char c : s) {
        h ^= c;
        h *= 0x100000001b3ULL;
    }
    return h;
}

// An flock held for the life of the object.
class FileLock {
public:
    explicit FileLock(const std::string& path) : fd_(::open(path.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0666)) {
        if (fd_.valid()) locked_ = ::flock(fd_.get(), LOCK_EX) == 0;
    }
    ~FileLock() {
        if (locked_) ::flock(fd_.get(), LOCK_UN);
    }
    bool locked() const { return locked_; }

private:
    Fd fd_;
    bool locked_ = false;
};

struct HubAddress {
    std::string host;
    uint16_t port = 0;
    uint64_t uid = 0;
    long pid = 0;
};

bool read_address(const std::string& path, HubAddress& out) {
    std::ifstream in(path);
    if (!in) return false;
    unsigned port = 0;
    in >> out.host >> port >> std::hex >> out.uid >> std::dec >> out.pid;
    out.port = static_cast<uint16_t>(port);
    return bool(in) && port != 0;
}

bool write_address(const std::string& path, const HubAddress& a) {
    const std::string tmp = path + "." + std::to_string(::getpid()) + ".tmp";
    {
        std::ofstream out(tmp, std::ios::trunc);
        out << a.host << ' ' << a.port << ' ' << std::hex << a.uid << std::dec << ' ' << a.pid << '\n';
        if (!out) return false;
    }
    return std::rename(tmp.c_str(), path.c_str()) == 0;
}

HcclResult join_hosted(const std::shared_ptr<HubServer>& hub, uint32_t nranks, uint32_t rank, Deadline deadline,
                       std::unique_ptr<Transport>& out, uint64_t& uid) {
    auto group = hub->group(nranks);
    const HcclResult st = join_local(group, rank, nranks, deadline);
    if (st != HCCL_SUCCESS) return st;
    uid = group->uid();
    out = std::make_unique<LocalTransport>(group);
    return HCCL_SUCCESS;
}

HcclResult join_connected(Fd fd, uint32_t nranks, uint32_t rank, uint32_t device, Deadline deadline,
                          std::unique_ptr<Transport>& out, uint64_t& uid) {
    std::unique_ptr<RemoteTransport> remote;
    const HcclResult st = join_remote(std::move(fd), 0, nranks, rank, device, deadline, remote, uid);
    if (st == HCCL_SUCCESS) out = std::move(remote);
    return st;
}

HcclResult via_master(const std::string& master, uint32_t nranks, uint32_t rank, uint32_t device,
                      Deadline deadline, std::unique_ptr<Transport>& out, uint64_t& uid) {
    std::string host;
    uint16_t port = 0;
    if (!split_host_port(master, host, port)) {
        log_message(LogLevel::Error, "HCCL_SIM_MASTER='%s' is not host:port", master.c_str());
        return HCCL_E_PARA;
    }
    const std::string key = "master:" + master;
    if (rank == 0 && find_hub_by_key(key) == nullptr) {
        // The previous communicator's host may still be releasing the port: retry briefly.
        for (;;) {
            std::string error;
            if (auto hub = HubServer::start(host, port, new_unique_id(), &error)) {
                register_hub(hub, key);
                break;
            }
            if (deadline.passed()) {
                log_message(LogLevel::Error, "hccl: cannot listen on HCCL_SIM_MASTER %s: %s", master.c_str(),
                            error.c_str());
                return HCCL_E_TCP_CONNECT;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    }
    for (;;) {
        if (auto hub = find_hub_by_key(key)) return join_hosted(hub, nranks, rank, deadline, out, uid);
        if (Fd fd = connect_tcp(host, port); fd.valid()) {
            return join_connected(std::move(fd), nranks, rank, device, deadline, out, uid);
        }
        if (deadline.passed()) return HCCL_E_TIMEOUT;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

HcclResult via_files(const std::string& table_path, uint32_t nranks, uint32_t rank, uint32_t device,
                     Deadline deadline, std::unique_ptr<Transport>& out, uint64_t& uid) {
    char resolved[PATH_MAX];
    const std::string real = ::realpath(table_path.c_str(), resolved) ? std::string(resolved) : table_path;
    char hash[17];
    std::snprintf(hash, sizeof hash, "%016" PRIx64, fnv1a(real));
    const std::string base = std::string("/tmp/hccl_sim_") + hash;
    const std::string key = "file:" + std::string(hash);
    const std::string lock_path = base + ".lock", addr_path = base + ".addr";

    std::shared_ptr<HubServer> hosted;
    Fd connection;
    {
        // Find or create the rendezvous under the lock; join after releasing it.
        FileLock lock(lock_path);
        if (!lock.locked()) {
            log_message(LogLevel::Error, "hccl: cannot lock %s", lock_path.c_str());
            return HCCL_E_OPEN_FILE_FAILURE;
        }
        hosted = find_hub_by_key(key);
        HubAddress addr;
        if (!hosted && read_address(addr_path, addr)) {
            if (addr.pid != ::getpid()) connection = connect_tcp(addr.host, addr.port);
            if (!connection.valid()) ::unlink(addr_path.c_str());  // its host is gone (or finished here)
        }
        if (!hosted && !connection.valid()) {
            std::string error;
            hosted = HubServer::start("127.0.0.1", 0, new_unique_id(), &error);
            if (!hosted) {
                log_message(LogLevel::Error, "hccl: cannot listen for the rank-table rendezvous: %s", error.c_str());
                return HCCL_E_TCP_CONNECT;
            }
            if (!write_address(addr_path, HubAddress{hosted->host(), hosted->port(), hosted->uid(), ::getpid()})) {
                log_message(LogLevel::Error, "hccl: cannot write %s", addr_path.c_str());
                hosted->stop();
                return HCCL_E_OPEN_FILE_FAILURE;
            }
            register_hub(hosted, key);
        }
    }
    if (!hosted) return join_connected(std::move(connection), nranks, rank, device, deadline, out, uid);
    const HcclResult st = join_hosted(hosted, nranks, rank, deadline, out, uid);
    if (st == HCCL_SUCCESS) {
        // Every rank has joined: the address must not attract a later communicator.
        FileLock lock(lock_path);
        HubAddress addr;
        if (read_address(addr_path, addr) && addr.uid == hosted->uid()) ::unlink(addr_path.c_str());
    }
    return st;
}

}  // namespace

HcclResult cluster_rendezvous(const std::string& rank_table_path, uint32_t nranks, uint32_t rank, uint32_t device,
                              Deadline deadline, std::unique_ptr<Transport>& out, uint64_t& uid) {
    const std::string& master = settings().master;
    if (!master.empty()) return via_master(master, nranks, rank, device, deadline, out, uid);
    return via_files(rank_table_path, nranks, rank, device, deadline, out, uid);
}

}  // namespace npusim::hcomm
