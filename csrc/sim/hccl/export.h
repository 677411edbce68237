// Visibility of libhccl's C entry points.
#pragma once

#define HCCL_EXPORT extern "C" __attribute__((visibility("default")))
