// Visibility of the simulator's internal core API (used by the CANN-named libraries and the bindings).
#pragma once

#define NPUSIM_API __attribute__((visibility("default")))
#define NPUSIM_C_EXPORT extern "C" __attribute__((visibility("default")))
