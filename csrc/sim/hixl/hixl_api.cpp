// hixl::Hixl: the exported class. Each method runs its fault point, then forwards
// to the engine.
#include <mutex>
#include <unordered_map>

#include "core/catalogue.h"
#include "core/config.h"
#include "core/fault_plan.h"
#include "engine.h"
#include "hixl/hixl.h"
#include "hixl/hixl_sim.h"
#include "transfer_path.h"

namespace hixl {

class Hixl::HixlImpl {
public:
    std::shared_ptr<Engine> engine = std::make_shared<Engine>();
};

namespace {

// Hixl object -> its engine, for the simulator-only queries of hixl_sim.h.
class Owners {
public:
    static Owners& instance() {
        static Owners* owners = new Owners;  // outlives Hixl objects destroyed at exit
        return *owners;
    }
    void add(const Hixl* owner, const std::shared_ptr<Engine>& engine) {
        std::lock_guard<std::mutex> lock(mutex_);
        engines_[owner] = engine;
    }
    void remove(const Hixl* owner) {
        std::lock_guard<std::mutex> lock(mutex_);
        engines_.erase(owner);
    }
    std::shared_ptr<Engine> find(const Hixl* owner) {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = engines_.find(owner);
        return it == engines_.end() ? nullptr : it->second.lock();
    }

private:
    std::mutex mutex_;
    std::unordered_map<const Hixl*, std::weak_ptr<Engine>> engines_;
};

}  // namespace

Hixl::Hixl() : impl_(new HixlImpl) { Owners::instance().add(this, impl_->engine); }

Hixl::~Hixl() {
    Owners::instance().remove(this);
    impl_->engine->finalize();
}

Status Hixl::Initialize(const AscendString& local_engine, const std::map<AscendString, AscendString>& options) {
    NPUSIM_FAULT_RETURN("HixlInitialize", Status);
    // The options choose the transfer path as HIXL's engine factory does; RDMA and buffer-pool settings
    // have no effect on the model.
    const npusim::SocSpec* soc = npusim::sim_config().soc;
    TransferPath path = TransferPath::CommDomain;
    const Status st = select_transfer_path(options, soc != nullptr ? soc->name : std::string(), path);
    if (st != SUCCESS) return st;
    return impl_->engine->initialize(local_engine.GetString(), path);
}

void Hixl::Finalize() {
    (void)NPUSIM_FAULT("HixlFinalize");
    impl_->engine->finalize();
}

Status Hixl::RegisterMem(const MemDesc& mem, MemType type, MemHandle& mem_handle) {
    NPUSIM_FAULT_RETURN("HixlRegisterMem", Status);
    return impl_->engine->register_mem(mem, type, mem_handle);
}

Status Hixl::DeregisterMem(MemHandle mem_handle) {
    NPUSIM_FAULT_RETURN("HixlDeregisterMem", Status);
    return impl_->engine->deregister_mem(mem_handle);
}

Status Hixl::Connect(const AscendString& remote_engine, int32_t timeout_in_millis) {
    NPUSIM_FAULT_RETURN("HixlConnect", Status);
    return impl_->engine->connect(remote_engine.GetString(), timeout_in_millis);
}

Status Hixl::Disconnect(const AscendString& remote_engine, int32_t timeout_in_millis) {
    NPUSIM_FAULT_RETURN("HixlDisconnect", Status);
    (void)timeout_in_millis;  // closing a link does not wait for the peer
    return impl_->engine->disconnect(remote_engine.GetString());
}

Status Hixl::TransferSync(const AscendString& remote_engine, TransferOp operation,
                          const std::vector<TransferOpDesc>& op_descs, int32_t timeout_in_millis) {
    NPUSIM_FAULT_RETURN("HixlTransferSync", Status);
    return impl_->engine->transfer_sync(remote_engine, operation, op_descs, timeout_in_millis);
}

Status Hixl::TransferAsync(const AscendString& remote_engine, TransferOp operation,
                           const std::vector<TransferOpDesc>& op_descs, const TransferArgs& optional_args,
                           TransferReq& req) {
    NPUSIM_FAULT_RETURN("HixlTransferAsync", Status);
    return impl_->engine->transfer_async(remote_engine, operation, op_descs, optional_args, req);
}

Status Hixl::GetTransferStatus(const TransferReq& req, TransferStatus& status) {
    NPUSIM_FAULT_RETURN("HixlGetTransferStatus", Status);
    return impl_->engine->transfer_status(req, status);
}

Status Hixl::GetTransferStatus(const GetTransferStatusArgs& args, std::vector<TransferResult>& results) {
    NPUSIM_FAULT_RETURN("HixlGetTransferStatusBatch", Status);
    return impl_->engine->transfer_status(args, results);
}

Status Hixl::GetCapability(FeatureType feature_type, int32_t& value) {
    NPUSIM_FAULT_RETURN("HixlGetCapability", Status);
    (void)feature_type;  // neither automatic connection nor client-server notifies are simulated
    value = FEATURE_NOT_SUPPORTED;
    return SUCCESS;
}

namespace sim {

Status GetListenEngine(const Hixl& engine, AscendString& name) {
    NPUSIM_FAULT_RETURN("HixlSimGetListenEngine", Status);
    const std::shared_ptr<Engine> e = Owners::instance().find(&engine);
    const std::string listen = e ? e->listen_name() : std::string();
    if (listen.empty()) return FAILED;
    name = AscendString(listen.c_str());
    return SUCCESS;
}

}  // namespace sim
}  // namespace hixl
