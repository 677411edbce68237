// The arrays nnopbase hands to its caller, released as torch_npu's op-plugin releases them
// (nonzero, masked_select, unique: aclGetViewShape, then delete[]). Built with AddressSanitizer, so an
// allocation that does not pair with delete[] (malloc, new) stops the program with
// "alloc-dealloc-mismatch". Prints "<query> <values...>" lines.
#include <cstdint>
#include <cstdio>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"

namespace {

using Query = aclnnStatus (*)(const aclTensor*, int64_t**, uint64_t*);

void print_and_release(const char* name, const aclTensor* tensor, Query query) {
    int64_t* values = nullptr;
    uint64_t count = 0;
    const aclnnStatus status = query(tensor, &values, &count);
    std::printf("%s %d", name, static_cast<int>(status));
    for (uint64_t i = 0; i < count; ++i) std::printf(" %lld", static_cast<long long>(values[i]));
    std::printf("\n");
    delete[] values;
}

}  // namespace

int main() {
    const int64_t dims[3] = {2, 3, 4};
    const int64_t strides[3] = {12, 4, 1};
    const int64_t storage[1] = {24};
    alignas(16) static float data[24];
    aclTensor* x = aclCreateTensor(dims, 3, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, storage, 1, data);
    if (x == nullptr) return 3;
    print_and_release("view_shape", x, aclGetViewShape);
    print_and_release("view_strides", x, aclGetViewStrides);
    print_and_release("storage_shape", x, aclGetStorageShape);
    const int64_t scalar_storage[1] = {1};
    aclTensor* s = aclCreateTensor(nullptr, 0, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, scalar_storage, 1, data);
    if (s == nullptr) return 3;
    print_and_release("scalar_view_shape", s, aclGetViewShape);
    aclDestroyTensor(s);
    aclDestroyTensor(x);
    return 0;
}
