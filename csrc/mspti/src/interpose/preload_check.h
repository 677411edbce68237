// Whether the process really calls our wrappers: the symbol the process
// resolves for an interposed function must be the one in libmspti.so (true
// with LD_PRELOAD, and when libmspti is linked ahead of the CANN libraries).
#pragma once

namespace mspti::interpose {

bool RuntimeInterposed();  // aclrt* wrappers
bool CollectivesInterposed();  // Hccl* wrappers

}  // namespace mspti::interpose
