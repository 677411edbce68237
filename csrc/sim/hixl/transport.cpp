#include "transport.h"

namespace hixl {

bool locals_covered(const MemRegistry& local, const std::vector<TransferOpDesc>& descs) {
    for (const TransferOpDesc& d : descs) {
        if (!local.covers(d.local_addr, d.len)) return false;
    }
    return true;
}

}  // namespace hixl
