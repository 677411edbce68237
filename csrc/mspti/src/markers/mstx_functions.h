// The mstx functions msPTI installs into libprofapi's module-2 (msPTI) tables.
// libprofapi routes the application's mstx calls to them while msPTI is the
// current mstx module (between msptiSubscribe and msptiUnsubscribe).
#pragma once

#include "seam/profapi.h"

namespace mspti::markers {

// The init function handed to ProfRegisterMstxFunc: fills the CORE and CORE_DOMAIN tables.
int InitMstxInjection(MstxGetModuleFuncTableFunc get_table);

}  // namespace mspti::markers
