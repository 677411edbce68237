// The GEMM primitive of the operator library: matrix products of float32 data on the math library
// (opapi/math_library.h), shared by the matmul family, convolution and attention. float16 and
// bfloat16 operands are converted to float32, the products accumulate in float32 and the result is
// rounded once to the output type, as CANN's cube kernels compute them.
#pragma once

#include <cstdint>
#include <vector>

#include "opapi/tensor_io.h"

namespace npusim::opapi {

// A row-major float32 matrix in memory: element (r, c) of op(M) is data[r * ld + c], or
// data[c * ld + r] when transposed.
struct Matrix {
    const float* data = nullptr;
    int64_t ld = 0;
    bool trans = false;
};

// c[m, n] (row-major, leading dimension ldc) = alpha * a[m, k] * b[k, n] + beta * c.
void gemm(int64_t m, int64_t n, int64_t k, float alpha, Matrix a, Matrix b, float beta, float* c, int64_t ldc);

// The matrices of a view of shape [batch..., rows, cols] (batch dimensions broadcast to `batch`),
// read in place when the view is float32 with a unit stride in one of its two last dimensions,
// otherwise gathered once into float32.
class MatrixOperand {
public:
    MatrixOperand(const TensorView& v, const Dims& batch, int64_t rows, int64_t cols);
    // The matrix of batch index i (row-major over `batch`).
    Matrix at(int64_t i) const;
    // True when batch i's matrix starts rows * ld elements after batch i-1's for every i, so that
    // the batch folds into the rows of one product.
    bool rows_fold() const { return folds_; }

private:
    std::vector<float> storage_;
    Matrix base_;
    Dims batch_dims_, batch_strides_;  // element strides of the batch dimensions (0 where broadcast)
    bool folds_ = false;
};

// y = [beta * bias +] a @ b for every batch index, a: [batch..., m, k], b: [batch..., k, n],
// y: a view holding batch * m * n elements in row-major order of [batch..., m, n] (1-D operands
// already made 2-D by the caller). `bias` (optional, nullptr) is broadcast to [batch..., m, n].
void batched_matmul(const TensorView& a, const TensorView& b, const TensorView& y, const Dims& batch, int64_t m,
                    int64_t n, int64_t k, float alpha = 1.0f, const TensorView* bias = nullptr, float beta = 0.0f);

}  // namespace npusim::opapi
