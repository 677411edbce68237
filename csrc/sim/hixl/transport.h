// A link from a local engine to one remote engine: moves the data of a batch of
// op descs in either direction after checking every range against the registered
// memory of its side (PARAM_INVALID when one lies outside).
#pragma once

#include <vector>

#include "hixl/hixl_types.h"
#include "mem_registry.h"
#include "wire.h"

namespace hixl {

class Transport {
public:
    virtual ~Transport() = default;
    virtual Status transfer(TransferOp op, const std::vector<TransferOpDesc>& descs, MemRegistry& local,
                            wire::Deadline deadline) = 0;
};

// True when every local range lies in `local` (the caller holds its lock).
bool locals_covered(const MemRegistry& local, const std::vector<TransferOpDesc>& descs);

}  // namespace hixl
