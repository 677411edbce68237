/*
 * hixl::Hixl, the HIXL transfer engine: reads and writes between the registered
 * memory of engines, in one process or across processes.
 *
 * An engine is named "ip:port". Initialize listens on that address for engines of
 * other processes (port 0: a free port is chosen; no port: the engine only connects
 * out) and makes the engine reachable by engines of the same process.
 */
#ifndef NPU_SIM_HIXL_HIXL_H
#define NPU_SIM_HIXL_HIXL_H

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "hixl/hixl_types.h"

namespace hixl {

class ASCEND_FUNC_VISIBILITY Hixl {
public:
    Hixl();
    ~Hixl();
    Hixl(const Hixl &) = delete;
    Hixl &operator=(const Hixl &) = delete;

    // Must precede every other call. local_engine: "ip", "ip:port".
    Status Initialize(const AscendString &local_engine, const std::map<AscendString, AscendString> &options);
    // Closes every link, stops listening and forgets registrations and requests.
    void Finalize();

    // Registers device memory (from aclrtMalloc) or host memory for transfers.
    Status RegisterMem(const MemDesc &mem, MemType type, MemHandle &mem_handle);
    Status DeregisterMem(MemHandle mem_handle);

    Status Connect(const AscendString &remote_engine, int32_t timeout_in_millis = 1000);
    Status Disconnect(const AscendString &remote_engine, int32_t timeout_in_millis = 1000);

    // Moves every op desc and returns when the data is in place.
    Status TransferSync(const AscendString &remote_engine, TransferOp operation,
                        const std::vector<TransferOpDesc> &op_descs, int32_t timeout_in_millis = 1000);
    // Submits a transfer; its progress is read with GetTransferStatus.
    Status TransferAsync(const AscendString &remote_engine, TransferOp operation,
                         const std::vector<TransferOpDesc> &op_descs, const TransferArgs &optional_args,
                         TransferReq &req);
    // WAITING while the transfer runs; a request is released once it is reported finished,
    // after which (as for an unknown request) the call fails with PARAM_INVALID and status FAILED.
    Status GetTransferStatus(const TransferReq &req, TransferStatus &status);
    // Status of this engine's requests in submission order (at most args.max_query_count);
    // finished requests are released as above.
    Status GetTransferStatus(const GetTransferStatusArgs &args, std::vector<TransferResult> &results);

    // 1 when the feature is supported, else 0.
    static Status GetCapability(FeatureType feature_type, int32_t &value);

private:
    class HixlImpl;
    std::unique_ptr<HixlImpl> impl_;
};

}  // namespace hixl

#endif  // NPU_SIM_HIXL_HIXL_H
