// The part of a CANN rank table (cluster-info JSON) a simulated communicator needs:
//   {"server_list": [{"server_id": "...", "device": [{"device_id": "0", "rank_id": "0", ...}, ...]}, ...]}
// Ids may be strings or numbers. Rank ids must be 0..n-1, each once; the server of a rank
// is the index of its server_list entry.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace npusim::hcomm {

struct RankTable {
    struct Rank {
        uint32_t server = 0;
        uint32_t device = 0;
    };
    std::vector<Rank> ranks;  // indexed by rank id
    std::vector<std::string> server_ids;
};

bool parse_rank_table(const std::string& json, RankTable& out, std::string& error);
bool load_rank_table(const std::string& path, RankTable& out, std::string& error);

}  // namespace npusim::hcomm
