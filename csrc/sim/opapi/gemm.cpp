#include "opapi/gemm.h"

#include <algorithm>
#include <cstring>

#include "opapi/math_library.h"

namespace npusim::opapi {

namespace {

// Products of at least this many multiply-adds are split across the math threads.
constexpr double kSplitFrom = double(1 << 20);

// The simulator's own product, for a process where the math library was not found.
void loop_gemm(int64_t m, int64_t n, int64_t k, float alpha, Matrix a, Matrix b, float beta, float* c, int64_t ldc) {
    auto at = [](const Matrix& x, int64_t r, int64_t col) {
        return x.trans ? x.data[col * x.ld + r] : x.data[r * x.ld + col];
    };
    std::vector<float> row(static_cast<size_t>(n));
    for (int64_t r = 0; r < m; ++r) {
        std::fill(row.begin(), row.end(), 0.0f);
        for (int64_t kk = 0; kk < k; ++kk) {
            const float s = at(a, r, kk);
            for (int64_t col = 0; col < n; ++col) row[size_t(col)] += s * at(b, kk, col);
        }
        float* out = c + r * ldc;
        for (int64_t col = 0; col < n; ++col) {
            out[col] = alpha * row[size_t(col)] + (beta == 0.0f ? 0.0f : beta * out[col]);
        }
    }
}

}  // namespace

void gemm(int64_t m, int64_t n, int64_t k, float alpha, Matrix a, Matrix b, float beta, float* c, int64_t ldc) {
    if (m <= 0 || n <= 0) return;
    if (k <= 0) {
        for (int64_t r = 0; r < m; ++r) {
            for (int64_t col = 0; col < n; ++col) c[r * ldc + col] = beta == 0.0f ? 0.0f : beta * c[r * ldc + col];
        }
        return;
    }
    auto block = [&](int64_t rows, int64_t cols, Matrix ab, Matrix bb, float* cb) {
        if (!library_sgemm(ab.trans, bb.trans, rows, cols, k, alpha, ab.data, ab.ld, bb.data, bb.ld, beta, cb, ldc)) {
            loop_gemm(rows, cols, k, alpha, ab, bb, beta, cb, ldc);
        }
    };
    if (double(m) * double(n) * double(k) < kSplitFrom) {
        block(m, n, a, b, c);
        return;
    }
    if (m >= n) {  // row blocks of c: rows of op(a)
        parallel_parts(m, [&](int64_t first, int64_t last) {
            Matrix part = a;
            part.data += a.trans ? first : first * a.ld;
            block(last - first, n, part, b, c + first * ldc);
        });
    } else {  // column blocks of c: columns of op(b)
        parallel_parts(n, [&](int64_t first, int64_t last) {
            Matrix part = b;
            part.data += b.trans ? first * b.ld : first;
            block(m, last - first, a, part, c + first);
        });
    }
}

MatrixOperand::MatrixOperand(const TensorView& v, const Dims& batch, int64_t rows, int64_t cols) : batch_dims_(batch) {
    const size_t r = v.rank();
    const int64_t rs = v.strides[r - 2], cs = v.strides[r - 1];
    bool direct = v.dtype == ACL_FLOAT && v.data != nullptr &&
                  std::all_of(v.strides.begin(), v.strides.end(), [](int64_t s) { return s >= 0; });
    Dims own_strides = v.strides;
    if (direct && (cols == 1 || cs == 1) && (rows == 1 || rs >= std::max<int64_t>(cols, 1))) {
        base_ = {static_cast<const float*>(v.data) + v.offset, rows == 1 ? std::max<int64_t>(cols, 1) : rs, false};
    } else if (direct && (rows == 1 || rs == 1) && (cols == 1 || cs >= std::max<int64_t>(rows, 1))) {
        base_ = {static_cast<const float*>(v.data) + v.offset, cols == 1 ? std::max<int64_t>(rows, 1) : cs, true};
    } else {
        direct = false;
    }
    if (!direct) {  // gathered into a row-major copy of the view's own dims
        storage_ = read_floats(v);
        base_ = {storage_.data(), std::max<int64_t>(cols, 1), false};
        int64_t stride = 1;
        for (size_t i = r; i-- > 0;) {
            own_strides[i] = stride;
            stride *= v.dims[i];
        }
    }
    // Batch strides, the view's batch dimensions aligned to the right of `batch`.
    batch_strides_.assign(batch.size(), 0);
    const size_t own_batch = r - 2;
    for (size_t i = 0; i < own_batch; ++i) {
        const size_t j = batch.size() - own_batch + i;
        batch_strides_[j] = v.dims[i] == 1 ? 0 : own_strides[i];
    }
    folds_ = !base_.trans;
    int64_t expected = rows * base_.ld;
    for (size_t i = batch.size(); folds_ && i-- > 0;) {
        if (batch[i] == 1) continue;
        if (batch_strides_[i] != expected) folds_ = false;
        expected *= batch[i];
    }
}

Matrix MatrixOperand::at(int64_t i) const {
    Matrix m = base_;
    for (size_t d = batch_dims_.size(); d-- > 0;) {
        m.data += (i % batch_dims_[d]) * batch_strides_[d];
        i /= batch_dims_[d];
    }
    return m;
}

void batched_matmul(const TensorView& a, const TensorView& b, const TensorView& y, const Dims& batch, int64_t m,
                    int64_t n, int64_t k, float alpha, const TensorView* bias, float beta) {
    const int64_t batches = numel(batch);
    const int64_t total = batches * m * n;
    if (total == 0) return;
    const MatrixOperand ma(a, batch, m, k), mb(b, batch, k, n);
    const bool direct_out =
        y.dtype == ACL_FLOAT && y.data != nullptr && is_contiguous(y) && !views_overlap(y, a) && !views_overlap(y, b);
    std::vector<float> buffer;
    float* c = nullptr;
    if (direct_out) {
        c = static_cast<float*>(y.data) + y.offset;
    } else {
        buffer.resize(static_cast<size_t>(total));
        c = buffer.data();
    }
    const bool with_bias = bias != nullptr && bias->data != nullptr && beta != 0.0f;
    if (with_bias) {
        Dims full = batch;
        full.insert(full.end(), {m, n});
        Dims squeezed = bias->dims;
        while (!squeezed.empty() && squeezed.front() == 1) squeezed.erase(squeezed.begin());
        if (bias->dtype == ACL_FLOAT && squeezed == Dims{n} && bias->strides.back() == 1) {  // a row bias
            const float* row = static_cast<const float*>(bias->data) + bias->offset;
            for (int64_t r = 0; r < batches * m; ++r) {
                float* out = c + r * n;
                for (int64_t col = 0; col < n; ++col) out[col] = beta * row[col];
            }
        } else {
            const std::vector<float> values = read_floats(*bias, full);
            for (int64_t i = 0; i < total; ++i) c[i] = beta * values[size_t(i)];
        }
    }
    const float c_beta = with_bias ? 1.0f : 0.0f;
    bool b_shared = true;  // b is the same matrix for every batch index
    for (int64_t i = 1; i < batches && b_shared; ++i) b_shared = mb.at(i).data == mb.at(0).data;
    if (batches > 1 && ma.rows_fold() && b_shared) {
        gemm(batches * m, n, k, alpha, ma.at(0), mb.at(0), c_beta, c, n);
    } else if (batches > 1 && b_shared) {  // a strided batch (a permuted view) gathered into one product
        Dims full = batch;
        full.insert(full.end(), {m, k});
        const std::vector<float> packed = read_floats(a, full);
        gemm(batches * m, n, k, alpha, {packed.data(), k, false}, mb.at(0), c_beta, c, n);
    } else {
        parallel_parts(batches, [&](int64_t first, int64_t last) {
            for (int64_t i = first; i < last; ++i) gemm(m, n, k, alpha, ma.at(i), mb.at(i), c_beta, c + i * m * n, n);
        });
    }
    if (!direct_out) write_floats(y, buffer);
}

}  // namespace npusim::opapi
