// A link to an engine of the same process: both registries are locked and the
// data is copied directly.
#pragma once

#include <memory>

#include "transport.h"

namespace hixl {

class Engine;

class LocalTransport : public Transport {
public:
    explicit LocalTransport(std::weak_ptr<Engine> remote) : remote_(std::move(remote)) {}
    Status transfer(TransferOp op, const std::vector<TransferOpDesc>& descs, MemRegistry& local,
                    wire::Deadline deadline) override;

private:
    std::weak_ptr<Engine> remote_;
};

}  // namespace hixl
