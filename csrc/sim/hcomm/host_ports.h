// The host ports a rendezvous listens on, chosen as CANN chooses them
// (hicann/hccl docs/zh/user_guide/hccl_env/HCCL_IF_BASE_PORT.md, HCCL_HOST_SOCKET_PORT_RANGE.md):
//
// * HCCL_HOST_SOCKET_PORT_RANGE: ports and ranges, "60000,60050-60100", tried in order; "auto"
//   lets the system pick one. It takes precedence over HCCL_IF_BASE_PORT.
// * HCCL_IF_BASE_PORT=B (an integer in [1024, 65520]): B + the device's id first, then the rest
//   of B..B+31.
// * Neither: the same with B = 60000. When all 32 are taken (several simulated jobs on one
//   machine), a root info takes a port the system picks, with a warning; CANN would fail here.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hccl/hccl_types.h"
#include "hub_server.h"

namespace npusim::hcomm {

constexpr uint16_t kDefaultBasePort = 60000;
constexpr uint16_t kBasePortSpan = 32;

struct PortPlan {
    std::vector<uint16_t> ports;  // in the order they are tried; {0}: the system picks
    bool system_fallback = false;  // when all are taken, let the system pick (defaults only)

    // "60000..60031" (lowest..highest), for messages.
    std::string describe() const;
};

// The ports for a rendezvous hosted by a rank of `device`; HCCL_E_PARA (and a log line) when a
// variable is malformed.
HcclResult host_port_plan(uint32_t device, PortPlan& out);

// Starts a hub on `host` at the first free port of `plan`. When `host` is not an address of this
// host (HCCL_IF_IP naming another machine's address), it listens on every address instead, with
// a warning. nullptr and a log line when no port can be had.
std::shared_ptr<HubServer> start_hub(const std::string& host, const PortPlan& plan, uint64_t uid, uint64_t key);

}  // namespace npusim::hcomm
