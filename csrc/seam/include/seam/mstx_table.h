/*
 * Module and slot ids of the mstx injection tables, shared by the mstx front end, libprofapi (the
 * injection hub) and the profilers that fill the tables. They are the front end's enumerators
 * (mstx/ms_tools_ext.h, with CANN's names and values); this header makes them visible without the
 * front end's functions. A translation unit that calls mstx includes mstx/ms_tools_ext.h first.
 */
#ifndef SEAM_MSTX_TABLE_H
#define SEAM_MSTX_TABLE_H

#ifndef MSTX_TOOLS_EXT /* the front end's include guard, as CANN's */
#ifdef MSTX_NO_IMPL
#include "mstx/ms_tools_ext.h"
#else
#define MSTX_NO_IMPL
#include "mstx/ms_tools_ext.h"
#undef MSTX_NO_IMPL
#endif
#endif

#endif /* SEAM_MSTX_TABLE_H */
