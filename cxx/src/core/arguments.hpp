// The argument rules of every entry point (host only, no CUDA call, so CPU-only CI checks them for real):
// trans flags, sizes, leading dimensions, pointers, the extent rule and the grid rule. Each failure records a
// message naming the argument and the rule, and the argument's position (tcgemm_last_error_argument).
#pragma once

#include <cstdint>

#include "core/errors.hpp"
#include "core/problem.hpp"

namespace tcgemm::detail {

// How an argument is named in a message.
//   Blas : by BLAS position, e.g. "argument 8 (lda) must be >= max(1, m) = 100, got 50" (tcgemm_dgemm,
//          tcgemm_dgemm_config, tcgemm_dgemm_host: reference DGEMM's numbering for all three).
//   Named: by name, e.g. "lda=50: must be >= max(1, m) = 100" (the example-family entry points).
enum class ArgNaming { Blas, Named };

// Where each argument stands in an entry point's prototype, 1-based; 0 where the entry point has no such
// argument. Configuration fields passed as separate arguments (tcgemm_dmma_shared_ab's tile_k, say) have
// their own position; the others are blamed on `config`.
struct ArgPositions {
  int transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc;
  int tile_m, tile_n, tile_k, pad_a, pad_b, stages;
  int config;
  int niter;
};
// Reference DGEMM's numbering (XERBLA's INFO); the configuration of tcgemm_dgemm_config after it.
constexpr ArgPositions kBlasPositions{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
                                      0, 0, 0, 0, 0, 0, TCGEMM_ARG_CONFIG, 0};
// Entry points whose only argument of interest is a tcgemm_config* in first position (tcgemm_config_*).
constexpr ArgPositions kConfigFirstPositions{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0};

// Names arguments in messages (BLAS position or name=value) and records their positions.
struct ArgNamer {
  ArgNaming naming;
  const ArgPositions& pos;
  // "argument 8 (lda) must be >= max(1, m) = 4, got 3" or "lda=3: must be >= max(1, m) = 4".
  tcgemm_status fail_int(int position, const char* name, int64_t value, const char* rule_fmt, int64_t bound,
                         const char* bound_text) const;
  tcgemm_status fail_null(int position, const char* name, const char* why) const;
  // "argument 8 (lda) = <value>" or "lda=<value>" as the subject of a longer message.
  void subject(char* buf, size_t size, int position, const char* name, int64_t value) const;
};

tcgemm_status check_size(const ArgNamer& nm, int position, const char* name, int64_t value);
tcgemm_status check_ld(const ArgNamer& nm, int position, const char* name, int64_t ld, int64_t rows,
                       const char* rows_text);

// One matrix as the call touches it: `cols` columns of `ld` doubles from `data`.
struct MatrixExtent {
  const char* matrix;  // "A", "B", "C"
  const void* data;
  int data_pos;
  const char* ld_name;
  int64_t ld;
  int ld_pos;
  int64_t cols;
  int elem_bytes = 8;  // bytes per element (doubles unless a lower-precision call says otherwise)
};
// The extent rule: ld x cols elements within TCGEMM_MAX_MATRIX_BYTES, and not past the end of the address space.
tcgemm_status check_extent(const ArgNamer& nm, const MatrixExtent& x);

constexpr int64_t kMaxBlocksPerLaunch = 2147483647;  // gridDim.x limit
tcgemm_status fail_grid(const ArgNamer& nm, int position, const char* name, int64_t value, int64_t blocks,
                        int tile_m, int tile_n, const char* family);

// The leading dimensions, pointers and extents of a call whose trans flags are normalised and whose sizes are
// >= 0, for any element sizes (validate_problem's doubles, the lower-precision calls' 2- and 4-byte types).
// A and B matter only when read (m, n, k > 0 and alpha != 0), C whenever it has elements.
struct OperandLayout {
  char transa, transb;
  int64_t m, n, k;
  const void* A;
  int64_t lda;
  const void* B;
  int64_t ldb;
  const void* C;
  int64_t ldc;
  bool alpha_nonzero;
  int ab_bytes, c_bytes;  // bytes per element of A and B, and of C
};
tcgemm_status validate_operand_layout(const OperandLayout& x, const ArgNamer& nm, const ArgPositions& pos);

// The first part of validate_problem: trans flags (normalised to 'N' or 'T' in *out) and m, n, k >= 0.
tcgemm_status validate_shape(const GemmProblem& in, ArgNaming naming, const ArgPositions& pos, GemmProblem* out);
// Checks trans flags, sizes, leading dimensions, pointers and the addressable extent of every matrix the
// call touches; on success *out is the problem with transa/transb normalised to 'N' or 'T'.
tcgemm_status validate_problem(const GemmProblem& in, ArgNaming naming, const ArgPositions& pos, GemmProblem* out);

// The grid rule for a validated problem and a resolved configuration: families that launch one thread
// block per C tile (the table's grid_need) need at most 2^31 - 1 blocks in one launch, so that a single
// launch keeps "error => nothing ran" true. Only a C of tens of TiB can break it.
tcgemm_status check_grid(const GemmProblem& p, const tcgemm_config& resolved, ArgNaming naming,
                         const ArgPositions& pos);

}  // namespace tcgemm::detail
