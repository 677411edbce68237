/*
 * msPTI: the profiling tools interface of the Ascend NPU stack. Including this
 * header makes the whole Activity and Callback API available.
 */
#ifndef MSPTI_H
#define MSPTI_H

#include "mspti_activity.h"
#include "mspti_callback.h"
#include "mspti_cbid.h"
#include "mspti_result.h"

#endif /* MSPTI_H */
