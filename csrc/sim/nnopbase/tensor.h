// The aclnn handle types as libnnopbase defines them. libopapi reads them through
// these definitions (both libraries are built from this source tree).
#pragma once

#include <cstdint>
#include <vector>

#include "aclnn/acl_meta.h"

namespace npusim::nn {

constexpr uint32_t kTensorMagic = 0x544E5352;  // "TNSR"
constexpr uint32_t kScalarMagic = 0x53434C52;  // "SCLR"
constexpr uint32_t kArrayMagic = 0x41525259;   // "ARRY"
constexpr size_t kMaxDims = 8;                  // CANN's operators take up to 8 dimensions

}  // namespace npusim::nn

// A view of device memory: element (i0, i1, ...) lives at
// data + (offset + sum(ik * strides[k])) * element size.
struct aclTensor {
    uint32_t magic = npusim::nn::kTensorMagic;
    aclDataType dtype = ACL_FLOAT;
    aclFormat format = ACL_FORMAT_ND;
    std::vector<int64_t> view;
    std::vector<int64_t> strides;  // in elements
    int64_t offset = 0;            // in elements
    std::vector<int64_t> storage;
    void* data = nullptr;

    int64_t numel() const {
        int64_t n = 1;
        for (int64_t d : view) n *= d;
        return n;
    }
};

struct aclScalar {
    uint32_t magic = npusim::nn::kScalarMagic;
    aclDataType dtype = ACL_FLOAT;
    double value = 0;  // every supported scalar type converts exactly (int64 beyond 2^53 rounds)
};

struct aclIntArray {
    uint32_t magic = npusim::nn::kArrayMagic;
    std::vector<int64_t> values;
};

struct aclFloatArray {
    uint32_t magic = npusim::nn::kArrayMagic;
    std::vector<float> values;
};

struct aclBoolArray {
    uint32_t magic = npusim::nn::kArrayMagic;
    std::vector<bool> values;
};

struct aclTensorList {
    uint32_t magic = npusim::nn::kArrayMagic;
    std::vector<const aclTensor*> tensors;  // owned: destroyed with the list
};

namespace npusim::nn {

inline bool valid(const aclTensor* t) { return t != nullptr && t->magic == kTensorMagic; }
inline bool valid(const aclScalar* s) { return s != nullptr && s->magic == kScalarMagic; }
inline bool valid(const aclIntArray* a) { return a != nullptr && a->magic == kArrayMagic; }

}  // namespace npusim::nn
