#include "dtype.h"

namespace hccl {

size_t dtype_size(uint32_t dtype) {
    switch (dtype) {
        case HCCL_DATA_TYPE_INT8:
        case HCCL_DATA_TYPE_UINT8:
        case HCCL_DATA_TYPE_HIF8:
        case HCCL_DATA_TYPE_FP8E4M3:
        case HCCL_DATA_TYPE_FP8E5M2:
        case HCCL_DATA_TYPE_FP8E8M0: return 1;
        case HCCL_DATA_TYPE_INT16:
        case HCCL_DATA_TYPE_UINT16:
        case HCCL_DATA_TYPE_FP16:
        case HCCL_DATA_TYPE_BFP16: return 2;
        case HCCL_DATA_TYPE_INT32:
        case HCCL_DATA_TYPE_UINT32:
        case HCCL_DATA_TYPE_FP32: return 4;
        case HCCL_DATA_TYPE_INT64:
        case HCCL_DATA_TYPE_UINT64:
        case HCCL_DATA_TYPE_FP64: return 8;
        case HCCL_DATA_TYPE_INT128: return 16;
        default: return 0;
    }
}

bool valid_dtype(uint32_t dtype) { return dtype_size(dtype) != 0; }

bool valid_reduce_op(uint32_t op) {
    return op == HCCL_REDUCE_SUM || op == HCCL_REDUCE_PROD || op == HCCL_REDUCE_MAX || op == HCCL_REDUCE_MIN;
}

const char* dtype_name(uint32_t dtype) {
    switch (dtype) {
        case HCCL_DATA_TYPE_INT8: return "int8";
        case HCCL_DATA_TYPE_INT16: return "int16";
        case HCCL_DATA_TYPE_INT32: return "int32";
        case HCCL_DATA_TYPE_FP16: return "fp16";
        case HCCL_DATA_TYPE_FP32: return "fp32";
        case HCCL_DATA_TYPE_INT64: return "int64";
        case HCCL_DATA_TYPE_UINT64: return "uint64";
        case HCCL_DATA_TYPE_UINT8: return "uint8";
        case HCCL_DATA_TYPE_UINT16: return "uint16";
        case HCCL_DATA_TYPE_UINT32: return "uint32";
        case HCCL_DATA_TYPE_FP64: return "fp64";
        case HCCL_DATA_TYPE_BFP16: return "bfp16";
        case HCCL_DATA_TYPE_INT128: return "int128";
        case HCCL_DATA_TYPE_HIF8: return "hif8";
        case HCCL_DATA_TYPE_FP8E4M3: return "fp8e4m3";
        case HCCL_DATA_TYPE_FP8E5M2: return "fp8e5m2";
        case HCCL_DATA_TYPE_FP8E8M0: return "fp8e8m0";
        default: return "unknown";
    }
}

}  // namespace hccl
