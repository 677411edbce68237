// The part of a CANN rank table (cluster-info JSON) a simulated communicator needs, in the
// forms hicann/hccl docs/zh/user_guide/cluster_info_config describes:
//   template 1 (versions "1.0" and "1.2", the latter with "super_pod_list"):
//     {"server_list": [{"server_id": "...", "host_ip": "...", "device": [{"device_id": "0",
//       "rank_id": "0", "host_port": "16666", ...}, ...]}, ...]}
//   template 2 (no rank ids: ranks in the order the devices are listed):
//     {"group_list": [{"instance_list": [{"server_id": "...", "devices": [{"device_id": "0"}]}]}]}
// Ids may be strings or numbers. Rank ids must be 0..n-1, each once. Servers are numbered
// in their first appearance; a server's address is its "host_ip", else its "server_id".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace npusim::hcomm {

struct RankTable {
    struct Rank {
        uint32_t server = 0;
        uint32_t device = 0;
        uint16_t host_port = 0;  // 0: not given
    };
    std::vector<Rank> ranks;  // indexed by rank id
    std::vector<std::string> server_ids;
    std::vector<std::string> server_addresses;  // host_ip, else server_id
    uint64_t fingerprint = 0;                   // of the file's text: tells tables apart
    std::string path;                           // the file's real path (load_rank_table)
};

bool parse_rank_table(const std::string& json, RankTable& out, std::string& error);
bool load_rank_table(const std::string& path, RankTable& out, std::string& error);
// FNV-1a of `text`.
uint64_t fnv1a(const std::string& text);

}  // namespace npusim::hcomm
