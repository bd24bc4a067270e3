// The argument rules of every entry point (host only, no CUDA calls).
#include "core/arguments.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "core/checked_math.hpp"
#include "core/family_table.hpp"

namespace tcgemm::detail {
namespace {

bool normalise_trans(char t, char* out) {
  switch (t) {
    case 'N': case 'n': *out = 'N'; return true;
    case 'T': case 't': case 'C': case 'c': *out = 'T'; return true;  // real data: conjugate = transpose
    default: return false;
  }
}

tcgemm_status check_trans(int position, const char* name, char value, char* out) {
  if (normalise_trans(value, out)) return TCGEMM_SUCCESS;
  return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, position,
                       "argument %d (%s) must be 'N', 'T' or 'C', got '%c' (%d)",
                       position, name, value >= 32 && value < 127 ? value : '?', int(value));
}

}  // namespace

tcgemm_status ArgNamer::fail_int(int position, const char* name, int64_t value, const char* rule_fmt, int64_t bound,
                                 const char* bound_text) const {
  if (naming == ArgNaming::Blas)
    return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, position, "argument %d (%s) %s%s = %" PRId64 ", got %" PRId64,
                         position, name, rule_fmt, bound_text, bound, value);
  return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, position, "%s=%" PRId64 ": %s%s = %" PRId64, name, value,
                       rule_fmt, bound_text, bound);
}

tcgemm_status ArgNamer::fail_null(int position, const char* name, const char* why) const {
  if (naming == ArgNaming::Blas)
    return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, position, "argument %d (%s) is NULL but %s", position, name,
                         why);
  return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, position, "%s is NULL but %s", name, why);
}

void ArgNamer::subject(char* buf, size_t size, int position, const char* name, int64_t value) const {
  if (naming == ArgNaming::Blas) std::snprintf(buf, size, "argument %d (%s) = %" PRId64, position, name, value);
  else std::snprintf(buf, size, "%s=%" PRId64, name, value);
}

tcgemm_status check_size(const ArgNamer& nm, int position, const char* name, int64_t value) {
  if (value >= 0) return TCGEMM_SUCCESS;
  if (nm.naming == ArgNaming::Blas)
    return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, position, "argument %d (%s) must be >= 0, got %" PRId64,
                         position, name, value);
  return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, position, "%s=%" PRId64 ": must be >= 0", name, value);
}

tcgemm_status check_ld(const ArgNamer& nm, int position, const char* name, int64_t ld, int64_t rows,
                       const char* rows_text) {
  const int64_t need = std::max<int64_t>(1, rows);
  if (ld < need) {
    char bound[64];
    std::snprintf(bound, sizeof bound, "max(1, %s)", rows_text);
    return nm.fail_int(position, name, ld, "must be >= ", need, bound);
  }
  return TCGEMM_SUCCESS;
}

// The extent rule: ld x cols doubles must stay within TCGEMM_MAX_MATRIX_BYTES (so every 64-bit offset the
// kernels and the host path form, several tiles past the edges included, is exact) and must not run past
// the end of the address space. The leading dimension is blamed: it is the stride that makes the extent.
tcgemm_status check_extent(const ArgNamer& nm, const MatrixExtent& x) {
  int64_t elements = 0, bytes = 0;
  char subject[96];
  nm.subject(subject, sizeof subject, x.ld_pos, x.ld_name, x.ld);
  if (!checked_mul(x.ld, x.cols, &elements) || !checked_mul(elements, int64_t(x.elem_bytes), &bytes) ||
      bytes > TCGEMM_MAX_MATRIX_BYTES)
    return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, x.ld_pos,
                         "%s: matrix %s (%s x %" PRId64 " columns of %s) spans more than 2^52 bytes "
                         "(TCGEMM_MAX_MATRIX_BYTES), more than 64-bit offsets address safely or any device holds",
                         subject, x.matrix, x.ld_name, x.cols,
                         x.elem_bytes == 8 ? "doubles" : x.elem_bytes == 4 ? "4-byte elements" : "2-byte elements");
  if (x.data && reinterpret_cast<uintptr_t>(x.data) > UINTPTR_MAX - uint64_t(bytes))
    return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, x.data_pos,
                         "%s: matrix %s at %p would run past the end of the address space", subject, x.matrix,
                         x.data);
  return TCGEMM_SUCCESS;
}

tcgemm_status fail_grid(const ArgNamer& nm, int position, const char* name, int64_t value, int64_t blocks,
                        int tile_m, int tile_n, const char* family) {
  char subject[96];
  nm.subject(subject, sizeof subject, position, name, value);
  return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, position,
                       "%s: family %s would need %" PRId64 " thread blocks of %dx%d C elements; one launch takes "
                       "at most 2^31 - 1",
                       subject, family, blocks, tile_m, tile_n);
}

tcgemm_status validate_shape(const GemmProblem& in, ArgNaming naming, const ArgPositions& pos, GemmProblem* out) {
  const ArgNamer nm{naming, pos};
  GemmProblem p = in;
  TCGEMM_TRY(check_trans(pos.transa, "transa", in.transa, &p.transa));
  TCGEMM_TRY(check_trans(pos.transb, "transb", in.transb, &p.transb));
  TCGEMM_TRY(check_size(nm, pos.m, "m", p.m));
  TCGEMM_TRY(check_size(nm, pos.n, "n", p.n));
  TCGEMM_TRY(check_size(nm, pos.k, "k", p.k));
  *out = p;
  return TCGEMM_SUCCESS;
}

tcgemm_status validate_operand_layout(const OperandLayout& x, const ArgNamer& nm, const ArgPositions& pos) {
  // op(A) is m x k, so A as stored has m rows ('N') or k rows ('T'); likewise B has k or n rows.
  const bool a_plain = x.transa == 'N', b_plain = x.transb == 'N';
  TCGEMM_TRY(check_ld(nm, pos.lda, "lda", x.lda, a_plain ? x.m : x.k, a_plain ? "m" : "k"));
  TCGEMM_TRY(check_ld(nm, pos.ldb, "ldb", x.ldb, b_plain ? x.k : x.n, b_plain ? "k" : "n"));
  TCGEMM_TRY(check_ld(nm, pos.ldc, "ldc", x.ldc, x.m, "m"));
  // Pointers and extents only matter where they will be dereferenced: A and B when alpha != 0 and the
  // product is non-empty, C whenever it has elements.
  const bool product_read = x.m > 0 && x.n > 0 && x.k > 0 && x.alpha_nonzero;
  if (product_read && !x.A) return nm.fail_null(pos.A, "A", "m, n, k > 0 and alpha != 0");
  if (product_read && !x.B) return nm.fail_null(pos.B, "B", "m, n, k > 0 and alpha != 0");
  if (x.m > 0 && x.n > 0 && !x.C) return nm.fail_null(pos.C, "C", "m, n > 0");
  if (product_read) {
    TCGEMM_TRY(check_extent(nm, {"A", x.A, pos.A, "lda", x.lda, pos.lda, a_plain ? x.k : x.m, x.ab_bytes}));
    TCGEMM_TRY(check_extent(nm, {"B", x.B, pos.B, "ldb", x.ldb, pos.ldb, b_plain ? x.n : x.k, x.ab_bytes}));
  }
  if (x.m > 0 && x.n > 0) TCGEMM_TRY(check_extent(nm, {"C", x.C, pos.C, "ldc", x.ldc, pos.ldc, x.n, x.c_bytes}));
  return TCGEMM_SUCCESS;
}

tcgemm_status validate_problem(const GemmProblem& in, ArgNaming naming, const ArgPositions& pos, GemmProblem* out) {
  GemmProblem p;
  TCGEMM_TRY(validate_shape(in, naming, pos, &p));
  TCGEMM_TRY(validate_operand_layout({p.transa, p.transb, p.m, p.n, p.k, p.A, p.lda, p.B, p.ldb, p.C, p.ldc,
                                      p.alpha != 0.0, 8, 8},
                                     ArgNamer{naming, pos}, pos));
  *out = p;
  return TCGEMM_SUCCESS;
}

tcgemm_status check_grid(const GemmProblem& p, const tcgemm_config& r, ArgNaming naming, const ArgPositions& pos) {
  const FamilyRow* row = find_family(r.family);
  if (!row || !row->grid_need) return TCGEMM_SUCCESS;  // one block, or a grid-stride loop over any tile count
  const GridNeed need = row->grid_need(p, r);
  if (need.blocks <= kMaxBlocksPerLaunch) return TCGEMM_SUCCESS;
  const ArgNamer nm{naming, pos};
  return fail_grid(nm, need.blame_n ? pos.n : pos.m, need.blame_n ? "n" : "m", need.blame_n ? p.n : p.m,
                   need.blocks, r.tile_m, r.tile_n, row->name);
}

}  // namespace tcgemm::detail
