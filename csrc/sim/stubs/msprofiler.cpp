// libmsprofiler: the msprof collector library CANN programs link against. The simulator has no
// msprof collector; its one export reports that, so a program that links it runs unchanged.
#include "core/export.h"

// Returns non-zero: the offline msprof collector is not part of the simulator.
NPUSIM_C_EXPORT int npusim_msprofiler_available() { return 0; }
