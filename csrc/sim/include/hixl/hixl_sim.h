/*
 * Simulator-only additions to HIXL (not part of CANN's API).
 */
#ifndef NPU_SIM_HIXL_HIXL_SIM_H
#define NPU_SIM_HIXL_HIXL_SIM_H

#include "hixl/hixl.h"

namespace hixl {
namespace sim {

// The name peers use to reach an initialized, listening engine: "ip:port" with the
// port actually bound (the chosen one when Initialize was given port 0).
// FAILED when the engine is not initialized or does not listen.
ASCEND_FUNC_VISIBILITY Status GetListenEngine(const Hixl &engine, AscendString &name);

}  // namespace sim
}  // namespace hixl

#endif  // NPU_SIM_HIXL_HIXL_SIM_H
