#include "cluster_rendezvous.h"

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <thread>

#include "core/log.h"
#include "host_ports.h"
#include "hub_registry.h"
#include "settings.h"

namespace npusim::hcomm {

namespace {

constexpr auto kRetry = std::chrono::milliseconds(20);
constexpr auto kAttempt = std::chrono::milliseconds(500);  // one connection attempt to one port

HcclResult join_hosted(const std::shared_ptr<HubServer>& hub, uint32_t nranks, uint32_t rank, Deadline deadline,
                       std::unique_ptr<Transport>& out, uint64_t& uid) {
    auto group = hub->group(nranks);
    const HcclResult st = join_local(group, rank, nranks, deadline);
    if (st != HCCL_SUCCESS) return st;
    uid = group->uid();
    out = std::make_unique<LocalTransport>(group);
    return HCCL_SUCCESS;
}

HcclResult join_connected(Fd fd, uint64_t key, uint32_t nranks, uint32_t rank, uint32_t device, Deadline deadline,
                          std::unique_ptr<Transport>& out, uint64_t& uid) {
    std::unique_ptr<RemoteTransport> remote;
    const HcclResult st = join_remote(std::move(fd), 0, key, nranks, rank, device, deadline, remote, uid);
    if (st == HCCL_SUCCESS) out = std::move(remote);
    return st;
}

std::string table_key(uint64_t fingerprint) {
    char text[32];
    std::snprintf(text, sizeof text, "table:%016" PRIx64, fingerprint);
    return text;
}

HcclResult via_master(const std::string& master, const RankTable& table, uint32_t rank, uint32_t device,
                      Deadline deadline, std::unique_ptr<Transport>& out, uint64_t& uid) {
    std::string host;
    uint16_t port = 0;
    if (!split_host_port(master, host, port)) {
        log_message(LogLevel::Error, "HCCL_SIM_MASTER='%s' is not host:port", master.c_str());
        return HCCL_E_PARA;
    }
    const auto nranks = static_cast<uint32_t>(table.ranks.size());
    const std::string key = "master:" + master;
    if (rank == 0 && find_hub_by_key(key) == nullptr) {
        // The previous communicator's host may still be releasing the port: retry briefly.
        for (;;) {
            std::string error;
            if (auto hub = HubServer::start(host, port, new_unique_id(), table.fingerprint, &error)) {
                register_hub(hub, key);
                break;
            }
            if (deadline.passed()) {
                log_message(LogLevel::Error, "hccl: cannot listen on HCCL_SIM_MASTER %s: %s", master.c_str(),
                            error.c_str());
                return HCCL_E_TCP_CONNECT;
            }
            std::this_thread::sleep_for(kRetry);
        }
    }
    for (;;) {
        if (auto hub = find_hub_by_key(key)) return join_hosted(hub, nranks, rank, deadline, out, uid);
        if (Fd fd = connect_tcp(host, port, connect_source(), kAttempt); fd.valid()) {
            return join_connected(std::move(fd), table.fingerprint, nranks, rank, device, deadline, out, uid);
        }
        if (deadline.passed()) {
            log_message(LogLevel::Error, "hccl: rank %u: nothing listens at HCCL_SIM_MASTER %s (HCCL_E_TIMEOUT)", rank,
                        master.c_str());
            return HCCL_E_TIMEOUT;
        }
        std::this_thread::sleep_for(kRetry);
    }
}

HcclResult via_table(const RankTable& table, uint32_t rank, uint32_t device, Deadline deadline,
                     std::unique_ptr<Transport>& out, uint64_t& uid) {
    const auto nranks = static_cast<uint32_t>(table.ranks.size());
    uint32_t host_rank = 0;
    while (table.ranks[host_rank].server != 0) ++host_rank;  // server 0 lists at least one rank
    const RankTable::Rank& hosting = table.ranks[host_rank];
    const std::string& first = table.server_addresses[0];
    const bool real = is_local_address(table.server_addresses[table.ranks[rank].server]);
    const std::string meet = real ? first : std::string("127.0.0.1");
    PortPlan plan;
    if (hosting.host_port != 0) {
        plan.ports = {hosting.host_port};
    } else if (HcclResult st = host_port_plan(hosting.device, plan); st != HCCL_SUCCESS) {
        return st;
    }
    plan.system_fallback = false;  // the other ranks must find the port
    if (plan.ports == std::vector<uint16_t>{0}) {
        log_message(LogLevel::Error,
                    "hccl: a rank table needs known ports: HCCL_HOST_SOCKET_PORT_RANGE=auto "
                    "does not apply to it; set host_port or HCCL_IF_BASE_PORT");
        return HCCL_E_PARA;
    }
    // Ranks of one machine's table also share its file: its path tells two such jobs apart.
    const uint64_t fingerprint = real ? table.fingerprint : (table.fingerprint ^ fnv1a(table.path)) | 1;
    const std::string key = table_key(fingerprint);
    if (rank == host_rank && find_hub_by_key(key) == nullptr) {
        auto hub = start_hub(meet, plan, new_unique_id(), fingerprint);
        if (!hub) return HCCL_E_TCP_CONNECT;
        register_hub(hub, key);
        log_message(LogLevel::Debug, "hccl: rank %u hosts the rank table's rendezvous at %s:%u", rank, meet.c_str(),
                    unsigned(hub->port()));
    }
    const std::string source = connect_source();
    for (;;) {
        if (auto hub = find_hub_by_key(key)) return join_hosted(hub, nranks, rank, deadline, out, uid);
        for (uint16_t port : plan.ports) {
            Fd fd = connect_tcp(meet, port, source, kAttempt);
            if (!fd.valid()) continue;
            const HcclResult st = join_connected(std::move(fd), fingerprint, nranks, rank, device, deadline, out, uid);
            if (st != HCCL_E_UNAVAIL) return st;  // HCCL_E_UNAVAIL: another table's rendezvous
        }
        if (deadline.passed()) {
            log_message(LogLevel::Error,
                        "hccl: rank %u: the rank table's rendezvous (rank %u at %s, ports %s) did not answer "
                        "within HCCL_CONNECT_TIMEOUT (HCCL_E_TIMEOUT)",
                        rank, host_rank, meet.c_str(), plan.describe().c_str());
            return HCCL_E_TIMEOUT;
        }
        std::this_thread::sleep_for(kRetry);
    }
}

}  // namespace

HcclResult cluster_rendezvous(const RankTable& table, uint32_t rank, uint32_t device, Deadline deadline,
                              std::unique_ptr<Transport>& out, uint64_t& uid) {
    const std::string& master = settings().master;
    if (!master.empty()) return via_master(master, table, rank, device, deadline, out, uid);
    return via_table(table, rank, device, deadline, out, uid);
}

}  // namespace npusim::hcomm
