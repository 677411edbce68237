// Which of HIXL's two transfer paths an engine takes, chosen from Initialize's options as HIXL's engine
// factory chooses (hicann/hixl@9ed283b2 src/hixl/engine/engine_factory.cc):
//   - EnableUseFabricMem "1": the fabric-memory engine (not modelled apart: timed as hixl_cs);
//   - LocalCommRes non-empty: hixl_cs when its JSON has "version": "1.3", the communication domain
//     otherwise (text that is not JSON is PARAM_INVALID);
//   - GlobalResourceConfig naming "comm_resource_config.protocol_desc" (a string or a list, non-empty):
//     hixl_cs;
//   - an Ascend950 SoC: hixl_cs;
//   - otherwise the communication domain (ADXL over HCCL's one-sided calls).
#pragma once

#include <map>
#include <string>

#include "hixl/hixl_types.h"

namespace hixl {

enum class TransferPath {
    ClientServer,  // hixl_cs: HIXL's own transfer kernel
    CommDomain,    // ADXL: HcclBatchPut / HcclBatchGet on a stream, then a stream synchronisation
};

// SUCCESS with `path` set, or PARAM_INVALID (with a log line) for an option value HIXL refuses.
Status select_transfer_path(const std::map<AscendString, AscendString>& options, const std::string& soc_name,
                            TransferPath& path);

const char* transfer_path_name(TransferPath path);

}  // namespace hixl
