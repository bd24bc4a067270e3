#include "reference_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace tcgemm::check {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

bool plain(char trans) { return trans == 'N' || trans == 'n'; }

// op(A)(i, l) and op(B)(l, j) of the stored matrices.
double op_a(const Gemm& g, int64_t i, int64_t l) {
  return plain(g.transa) ? g.A[size_t(i + l * g.lda)] : g.A[size_t(l + i * g.lda)];
}
double op_b(const Gemm& g, int64_t l, int64_t j) {
  return plain(g.transb) ? g.B[size_t(l + j * g.ldb)] : g.B[size_t(j + l * g.ldb)];
}

int64_t buffer_size(const Gemm& g, const OutputLayout& c) { return c.size >= 0 ? c.size : c.offset + c.ld * g.n; }

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Calls visit(index) for every buffer element outside the m x n matrix: the elements before C(0,0), the
// rows m..ld-1 of every column, and everything after the last column. No per-element division, so a
// large C without guards costs nothing here.
template <class Visit>
void for_each_guard(const Gemm& g, const OutputLayout& c, int64_t size, Visit visit) {
  const int64_t end_of_matrix = c.offset + c.ld * std::max<int64_t>(g.n, 0);
  for (int64_t idx = 0; idx < std::min(c.offset, size); ++idx) visit(idx);
  for (int64_t j = 0; j < g.n; ++j)
    for (int64_t i = std::max<int64_t>(g.m, 0); i < c.ld; ++i) {
      const int64_t idx = c.offset + j * c.ld + i;
      if (idx < size) visit(idx);
    }
  for (int64_t idx = std::max(end_of_matrix, c.offset); idx < size; ++idx) visit(idx);
}

}  // namespace

double tolerance(int64_t k, double alpha, double row_norm, double col_norm, double beta, double c0, double eps) {
  return 2.0 * double(k + 1) * eps * std::fabs(alpha) * row_norm * col_norm + 4.0 * eps * std::fabs(beta * c0) +
         1e-300;
}

Report check_result(const Gemm& g, const OutputLayout& c, const double* c_before, const double* result,
                    const double* reference) {
  if (g.beta != 0.0 && !c_before) throw std::invalid_argument("check_result: beta != 0 needs C as it was before");
  // The norms only matter for elements of C: with m or n zero the operands need not be readable at all.
  const bool empty = g.m <= 0 || g.n <= 0;
  std::vector<double> row_norm(empty ? 0 : size_t(g.m), 0.0);
  std::vector<double> col_norm(empty ? 0 : size_t(g.n), 0.0);
  for (int64_t i = 0; i < int64_t(row_norm.size()); ++i) {
    double acc = 0;
    for (int64_t l = 0; l < g.k; ++l) acc += op_a(g, i, l) * op_a(g, i, l);
    row_norm[size_t(i)] = std::sqrt(acc);
  }
  for (int64_t j = 0; j < int64_t(col_norm.size()); ++j) {
    double acc = 0;
    for (int64_t l = 0; l < g.k; ++l) acc += op_b(g, l, j) * op_b(g, l, j);
    col_norm[size_t(j)] = std::sqrt(acc);
  }

  Report r;
  r.elements = std::max<int64_t>(g.m, 0) * std::max<int64_t>(g.n, 0);
  for (int64_t j = 0; j < g.n; ++j)
    for (int64_t i = 0; i < g.m; ++i) {
      const size_t idx = size_t(c.offset + j * c.ld + i);
      const double c0 = g.beta == 0.0 ? 0.0 : c_before[idx];
      const double tol = tolerance(g.k, g.alpha, row_norm[size_t(i)], col_norm[size_t(j)], g.beta, c0, g.eps);
      const double diff = std::fabs(result[idx] - reference[idx]);
      const double scale = std::fabs(g.alpha) * row_norm[size_t(i)] * col_norm[size_t(j)];
      const bool is_nan = std::isnan(diff);
      const double over_tol = is_nan ? kInf : diff / tol;
      const Mismatch here{i, j, result[idx], reference[idx], diff, tol};
      if (over_tol > r.max_err_over_tol || r.worst.i < 0) {
        r.max_err_over_tol = over_tol;
        r.worst = here;
      }
      r.max_abs_err = std::max(r.max_abs_err, is_nan ? kInf : diff);
      r.max_normwise_err = std::max(r.max_normwise_err, is_nan ? kInf : diff / (scale > 0 ? scale : 1.0));
      if (!(diff <= tol)) {  // NaN fails too
        if (r.mismatches.size() < kListedProblems) r.mismatches.push_back(here);
        ++r.outside_tolerance;
      }
    }

  if (c_before)
    for_each_guard(g, c, buffer_size(g, c), [&](int64_t idx) {
      if (same_bits(result[size_t(idx)], c_before[size_t(idx)])) return;
      if (r.guard_writes.size() < kListedProblems) r.guard_writes.push_back({idx, result[size_t(idx)]});
      ++r.guards_written;
    });
  return r;
}

std::string Report::summary(const std::string& reference_name) const {
  std::ostringstream o;
  o << outside_tolerance << " of " << elements << " elements outside tolerance, " << guards_written
    << " guard elements written";
  for (const Mismatch& x : mismatches)
    o << "\n  C(" << x.i << "," << x.j << ") = " << x.value << ", " << reference_name << " " << x.reference
      << ", |diff| " << x.diff << " > tol " << x.tol;
  for (const GuardWrite& w : guard_writes)
    o << "\n  guard element " << w.index << " (outside C) was written: " << w.value;
  return o.str();
}

std::vector<double> host_gemm(const Gemm& g, const OutputLayout& c, const double* c_before) {
  if (g.beta != 0.0 && !c_before) throw std::invalid_argument("host_gemm: beta != 0 needs C as it was before");
  std::vector<double> out(size_t(buffer_size(g, c)), 0.0);
  if (c_before) std::copy(c_before, c_before + out.size(), out.begin());
  for (int64_t j = 0; j < g.n; ++j)
    for (int64_t i = 0; i < g.m; ++i) {
      double sum = 0;
      for (int64_t l = 0; l < g.k; ++l) sum += op_a(g, i, l) * op_b(g, l, j);
      double& cij = out[size_t(c.offset + j * c.ld + i)];
      cij = g.alpha * sum + (g.beta == 0.0 ? 0.0 : g.beta * cij);
    }
  return out;
}

}  // namespace tcgemm::check
