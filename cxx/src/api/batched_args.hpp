// The argument checks of the strided batched DGEMM, shared by tcgemm_dgemm_strided_batched (device arrays) and
// tcgemm_dgemm_strided_batched_host (host arrays): one place, one numbering (the prototypes in tcgemm.h agree
// on positions 1 to 17; only the device call has a stream after them).
#pragma once

#include <cstdint>

#include "core/problem.hpp"
#include "tcgemm/tcgemm.h"

namespace tcgemm::detail {

// Checks every product as tcgemm_dgemm checks one (validate_problem on the first product's arguments: the
// others differ only by the strides), plus the batch count, the strides and the extent of the whole batch.
// On success *p holds the normalised problem of the first product. Records the message on failure.
tcgemm_status validate_strided_batch(char transa, char transb, int64_t m, int64_t n, int64_t k, double alpha,
                                     const double* A, int64_t lda, int64_t strideA, const double* B, int64_t ldb,
                                     int64_t strideB, double beta, double* C, int64_t ldc, int64_t strideC,
                                     int64_t batch, GemmProblem* p);

// 1-based position of `batch` in both strided prototypes (for messages that blame it).
constexpr int kStridedBatchArgument = 17;

}  // namespace tcgemm::detail
