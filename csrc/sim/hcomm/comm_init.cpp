// Creating communicators: root info, rank table, all devices of one process.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <cstdlib>
#include <set>

#include "acl/acl_rt.h"
#include "cluster_rendezvous.h"
#include "comm_api.h"
#include "communicator.h"
#include "core/log.h"
#include "core/platform.h"
#include "host_nic.h"
#include "host_ports.h"
#include "hub_registry.h"
#include "rank_table.h"
#include "root_info.h"
#include "settings.h"
#include "transport.h"

namespace npusim::hcomm {

namespace {

// The options a configuration block sets; fields outside its declared size are not read.
CommOptions options_from(const HcclCommConfig* config, std::string& name) {
    CommOptions o;
    o.exec_timeout = settings().exec_timeout;
    o.algo = settings().algo;
    if (config == nullptr) return o;
    HcclCommConfigInfo info{};
    std::memcpy(&info, config->reserved, sizeof info);
    if (info.magicWord != HCCL_COMM_CONFIG_MAGIC_WORD) return o;
    const size_t size = info.size;
    auto covers = [size](size_t offset, size_t length) { return offset + length <= size; };
    if (covers(offsetof(HcclCommConfig, hcclBufferSize), sizeof config->hcclBufferSize) && config->hcclBufferSize > 0 &&
        config->hcclBufferSize != HCCL_COMM_BUFFSIZE_CONFIG_NOT_SET) {
        o.buffer_mb = config->hcclBufferSize;
    }
    if (covers(offsetof(HcclCommConfig, hcclCommName), sizeof config->hcclCommName) &&
        config->hcclCommName[0] != '\0') {
        name.assign(config->hcclCommName, strnlen(config->hcclCommName, COMM_NAME_MAX_LENGTH - 1));
    }
    if (covers(offsetof(HcclCommConfig, hcclExecTimeOut), sizeof config->hcclExecTimeOut) &&
        config->hcclExecTimeOut > 0) {
        o.exec_timeout = std::chrono::seconds(config->hcclExecTimeOut);
    }
    if (covers(offsetof(HcclCommConfig, hcclAlgo), sizeof config->hcclAlgo) && config->hcclAlgo[0] != '\0') {
        o.algo.assign(config->hcclAlgo, strnlen(config->hcclAlgo, HCCL_COMM_ALGO_MAX_LENGTH));
    }
    return o;
}

// CANN names a communicator made from a rank table after its group, always "hccl_world_group"
// (hicann/hccl docs/zh/user_guide/cluster_info_config/rank_table_config_910.md).
constexpr const char* kWorldGroup = "hccl_world_group";

unsigned long long micros_since_epoch() {
    using namespace std::chrono;
    return static_cast<unsigned long long>(duration_cast<microseconds>(system_clock::now().time_since_epoch()).count());
}

const Topology* platform_topology() {
    const SocSpec* soc = Platform::instance().config().soc;
    return soc ? Catalogue::builtin().topology(soc->topology) : nullptr;
}

// Ranks fill servers in rank order; the dies of a server pair up into packages. (Ranks of a
// root-info communicator know only their own device, so the layout follows the rank.)
CommLayout layout_by_rank(uint32_t nranks, const Topology& topo) {
    const uint32_t per_server = std::max<uint32_t>(topo.ranks_per_server, 1);
    CommLayout l;
    for (uint32_t r = 0; r < nranks; ++r) {
        l.server.push_back(r / per_server);
        l.package.push_back((r % per_server) / 2);
    }
    return l;
}

uint32_t current_device_or(uint32_t fallback) {
    int32_t dev = -1;
    return aclrtGetDevice(&dev) == ACL_SUCCESS && dev >= 0 ? static_cast<uint32_t>(dev) : fallback;
}

uint32_t current_device(uint32_t rank) {
    int32_t dev = -1;
    if (aclrtGetDevice(&dev) == ACL_SUCCESS && dev >= 0) return static_cast<uint32_t>(dev);
    const uint32_t count = std::max<uint32_t>(Platform::instance().device_count(), 1);
    return rank % count;  // no device set on this thread: spread ranks over the devices
}

HcclResult check_world(uint32_t nranks, const Topology* topo) {
    if (topo == nullptr) {
        log_message(LogLevel::Error, "hccl: the SoC names no known topology");
        return HCCL_E_INTERNAL;
    }
    if (nranks > 1 && topo->link_gbps <= 0 && topo->scaleout_gbps <= 0) {
        log_message(LogLevel::Warn, "hccl: topology %s has no inter-chip link; only 1-rank communicators",
                    topo->name.c_str());
        return HCCL_E_NOT_SUPPORT;
    }
    return HCCL_SUCCESS;
}

HcclResult publish(std::shared_ptr<Communicator> c, HcclComm* comm) {
    *comm = register_comm(std::move(c));
    return HCCL_SUCCESS;
}

}  // namespace

namespace {

// CANN reads HCCL_SOCKET_FAMILY when a root-info communicator is set up and refuses any value
// but AF_INET and AF_INET6.
HcclResult check_socket_family() {
    int family = 0;
    if (socket_family(family)) return HCCL_SUCCESS;
    log_message(LogLevel::Error, "HCCL_SOCKET_FAMILY='%s' is invalid: it should be \"AF_INET\" or \"AF_INET6\"",
                std::getenv("HCCL_SOCKET_FAMILY"));
    return HCCL_E_PARA;
}

}  // namespace

HcclResult get_root_info(HcclRootInfo* root_info) {
    if (root_info == nullptr) return HCCL_E_PTR;
    if (HcclResult st = check_socket_family(); st != HCCL_SUCCESS) return st;
    // The root listens on the host interface CANN would pick (host_nic.h), at the port CANN
    // would use (host_ports.h): ranks on other hosts reach it there.
    const uint32_t device = current_device_or(0);
    PortPlan plan;
    if (HcclResult st = host_port_plan(device, plan); st != HCCL_SUCCESS) return st;
    const HostNic& nic = host_nic();
    auto hub = start_hub(nic.ip, plan, new_unique_id(), 0);
    if (!hub) return HCCL_E_TCP_CONNECT;
    register_hub(hub, "");
    // The name every rank's communicator takes by default, in CANN's form: the root's host
    // interface, its listening port, its device and the time the root info was made.
    const std::string identifier = comm_identifier(nic, hub->port(), device, micros_since_epoch());
    encode_root_info(RootInfo{nic.ip, hub->port(), hub->uid(), static_cast<uint32_t>(::getpid()), identifier},
                     root_info);
    return HCCL_SUCCESS;
}

HcclResult init_root_info(uint32_t nranks, const HcclRootInfo* root_info, uint32_t rank, const HcclCommConfig* config,
                          HcclComm* comm) {
    if (root_info == nullptr || comm == nullptr) return HCCL_E_PTR;
    if (nranks == 0 || rank >= nranks) return HCCL_E_PARA;
    if (HcclResult st = check_socket_family(); st != HCCL_SUCCESS) return st;
    RootInfo info;
    if (!decode_root_info(root_info, info)) {
        log_message(LogLevel::Error, "hccl: the root info was not made by HcclGetRootInfo");
        return HCCL_E_PARA;
    }
    const Topology* topo = platform_topology();
    if (HcclResult st = check_world(nranks, topo); st != HCCL_SUCCESS) return st;
    std::string name = info.identifier;
    CommOptions options = options_from(config, name);
    const uint32_t device = current_device(rank);
    const Deadline deadline = Deadline::after(settings().connect_timeout);

    std::unique_ptr<Transport> transport;
    if (auto hub = find_hub(info.uid)) {
        auto group = hub->group(nranks);
        const HcclResult st = join_local(group, rank, nranks, deadline);
        if (st != HCCL_SUCCESS) return st;
        transport = std::make_unique<LocalTransport>(group);
    } else {
        Fd fd = connect_until(info.host, info.port, connect_source(), deadline);
        if (!fd.valid()) {
            log_message(LogLevel::Error,
                        "hccl: rank %u cannot reach the root rank at %s:%u within HCCL_CONNECT_TIMEOUT "
                        "(HCCL_E_TIMEOUT)",
                        rank, info.host.c_str(), unsigned(info.port));
            return HCCL_E_TIMEOUT;
        }
        std::unique_ptr<RemoteTransport> remote;
        uint64_t uid = 0;
        HcclResult st = join_remote(std::move(fd), info.uid, 0, nranks, rank, device, deadline, remote, uid);
        if (st == HCCL_E_UNAVAIL) {
            log_message(LogLevel::Error, "hccl: %s:%u hosts another communicator than this root info's",
                        info.host.c_str(), unsigned(info.port));
            st = HCCL_E_PARA;
        }
        if (st != HCCL_SUCCESS) return st;
        transport = std::move(remote);
    }
    return publish(std::make_shared<Communicator>(info.uid, name, rank, nranks, device, layout_by_rank(nranks, *topo),
                                                  std::move(options), *topo, std::move(transport)),
                   comm);
}

HcclResult init_cluster_info(const char* cluster_info, uint32_t rank, const HcclCommConfig* config, HcclComm* comm) {
    if (cluster_info == nullptr || comm == nullptr) return HCCL_E_PTR;
    RankTable table;
    std::string error;
    if (!load_rank_table(cluster_info, table, error)) {
        log_message(LogLevel::Error, "hccl: rank table: %s", error.c_str());
        return std::strstr(error.c_str(), "cannot open") == error.c_str() ? HCCL_E_OPEN_FILE_FAILURE : HCCL_E_PARA;
    }
    const auto nranks = static_cast<uint32_t>(table.ranks.size());
    if (rank >= nranks) return HCCL_E_PARA;
    const Topology* topo = platform_topology();
    if (HcclResult st = check_world(nranks, topo); st != HCCL_SUCCESS) return st;
    const uint32_t device = table.ranks[rank].device;
    if (device >= Platform::instance().device_count()) {
        log_message(LogLevel::Error, "hccl: rank %u uses device %u; the platform has %u", rank, device,
                    Platform::instance().device_count());
        return HCCL_E_PARA;
    }
    std::unique_ptr<Transport> transport;
    uint64_t uid = 0;
    const HcclResult st =
        cluster_rendezvous(table, rank, device, Deadline::after(settings().connect_timeout), transport, uid);
    if (st != HCCL_SUCCESS) return st;
    std::string name = kWorldGroup;
    CommOptions options = options_from(config, name);
    CommLayout layout;
    for (const auto& r : table.ranks) {
        layout.server.push_back(r.server);
        layout.package.push_back(r.device / 2);
    }
    return publish(std::make_shared<Communicator>(uid, name, rank, nranks, device, std::move(layout),
                                                  std::move(options), *topo, std::move(transport)),
                   comm);
}

HcclResult init_all(uint32_t ndev, const int32_t* devices, HcclComm* comms) {
    if (devices == nullptr || comms == nullptr) return HCCL_E_PTR;
    if (ndev == 0) return HCCL_E_PARA;
    const Topology* topo = platform_topology();
    if (HcclResult st = check_world(ndev, topo); st != HCCL_SUCCESS) return st;
    std::set<int32_t> seen;
    for (uint32_t i = 0; i < ndev; ++i) {
        if (devices[i] < 0 || uint32_t(devices[i]) >= Platform::instance().device_count() ||
            !seen.insert(devices[i]).second) {
            return HCCL_E_PARA;
        }
    }
    const uint64_t uid = new_unique_id();
    auto group = std::make_shared<Group>(uid, ndev);
    for (uint32_t r = 0; r < ndev; ++r) (void)group->join(r, ndev, [](HcclResult) {}, /*local=*/true);
    // CANN's HcclCommInitAll makes a root info and joins it on each device: the same form of
    // name. No socket is opened here, so the port part is 0.
    std::string name = comm_identifier(host_nic(), 0, uint32_t(devices[0]), micros_since_epoch());
    CommOptions options = options_from(nullptr, name);
    // The devices are this process's: they place the ranks in servers and packages.
    const uint32_t per_server = std::max<uint32_t>(topo->ranks_per_server, 1);
    CommLayout layout;
    for (uint32_t r = 0; r < ndev; ++r) {
        layout.server.push_back(uint32_t(devices[r]) / per_server);
        layout.package.push_back(uint32_t(devices[r]) % per_server / 2);
    }
    for (uint32_t r = 0; r < ndev; ++r) {
        (void)publish(std::make_shared<Communicator>(uid, name, r, ndev, uint32_t(devices[r]), layout, options, *topo,
                                                     std::make_unique<LocalTransport>(group)),
                      &comms[r]);
    }
    return HCCL_SUCCESS;
}

}  // namespace npusim::hcomm
