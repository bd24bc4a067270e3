// libtcgemm_pblas's pdgemm_ against ScaLAPACK's own (tcgemm_pdgemm_scalapack) on the same data, over several
// BLACS grids of the processes the test runs on (mpirun -np 4: 1x1, 1x2, 2x1, 2x2; -np 2: 1x1, 1x2, 2x1).
//   test_pdgemm cpu|gpu   the route every product must take (TCGEMM_PBLAS is set to it)
// Every form, alpha/beta (beta = 0 over NaN), sub-matrix offsets, block sizes that do not divide the sizes,
// operands spread differently from C (the redistribution), panels narrower than k (several panels, both
// buffers), leading dimensions above the local rows. Each element of C_sub must be within the DGEMM error
// bound of ScaLAPACK's; every element of C outside C_sub must be unchanged, bit for bit.
#include <mpi.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "scalapack_abi.hpp"
#include "tcgemm/pblas.h"


namespace {

// Element (i, j) (0-based, global) of matrix `which` of case `seed`: in [-1, 1], the same on every process.
double value(uint64_t seed, int which, int64_t i, int64_t j) {
  uint64_t x = seed * 0x9E3779B97F4A7C15ull ^ (uint64_t(which) << 56) ^ (uint64_t(i) * 0xBF58476D1CE4E5B9ull) ^
               (uint64_t(j) * 0x94D049BB133111EBull);
  x ^= x >> 31;
  x *= 0xD6E8FEB86659FD93ull;
  x ^= x >> 32;
  return double(x >> 11) / double(1ull << 52) - 1.0;
}

struct Dist {  // one distributed matrix of the test, with its local array
  int desc[9];
  std::vector<double> local;
  int lr = 0, lc = 0;
};

Dist make(int ctxt, int rows, int cols, int mb, int nb, int rsrc, int csrc, int extra_ld, int myrow, int mycol,
          int nprow, int npcol) {
  Dist d;
  d.lr = numroc_(&rows, &mb, &myrow, &rsrc, &nprow);
  d.lc = numroc_(&cols, &nb, &mycol, &csrc, &npcol);
  const int lld = std::max(1, d.lr) + extra_ld;
  const int desc[9] = {1, ctxt, rows, cols, mb, nb, rsrc, csrc, lld};
  std::memcpy(d.desc, desc, sizeof desc);
  d.local.assign(size_t(lld) * std::max(1, d.lc), std::numeric_limits<double>::quiet_NaN());
  return d;
}

// Global index of local index l (0-based) along a dimension.
int64_t global_of(int64_t l, int nb, int p, int src, int nprocs) {
  const int rel = (p - src + nprocs) % nprocs;
  return (l / nb) * int64_t(nb) * nprocs + int64_t(rel) * nb + l % nb;
}

void fill(Dist& d, uint64_t seed, int which, int myrow, int mycol, int nprow, int npcol) {
  for (int jl = 0; jl < d.lc; ++jl)
    for (int il = 0; il < d.lr; ++il)
      d.local[il + size_t(jl) * d.desc[8]] =
          value(seed, which, global_of(il, d.desc[4], myrow, d.desc[6], nprow), global_of(jl, d.desc[5], mycol, d.desc[7], npcol));
}

struct Case {
  char ta, tb;
  int m, n, k;
  double alpha, beta;
  int ia, ja, ib, jb, ic, jc;  // 1-based sub-matrix offsets
  int mb_a, nb_a, mb_b, nb_b, mb_c, nb_c;
  int src_a;  // RSRC_ = CSRC_ of A (0 or 1, capped by the grid)
  int panel;  // TCGEMM_PBLAS_PANEL
};

int failures = 0;

void run(const Case& t, int ctxt, uint64_t seed, const char* route, int world_rank) {
  int nprow, npcol, myrow, mycol;
  Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
  const bool na = t.ta == 'N', nb = t.tb == 'N';
  const int a_rows = t.ia - 1 + (na ? t.m : t.k), a_cols = t.ja - 1 + (na ? t.k : t.m);
  const int b_rows = t.ib - 1 + (nb ? t.k : t.n), b_cols = t.jb - 1 + (nb ? t.n : t.k);
  const int c_rows = t.ic - 1 + t.m + 2, c_cols = t.jc - 1 + t.n + 1;  // C larger than C_sub
  const int sa = std::min(t.src_a, nprow - 1), sac = std::min(t.src_a, npcol - 1);
  Dist A = make(ctxt, a_rows, a_cols, t.mb_a, t.nb_a, sa, sac, 1, myrow, mycol, nprow, npcol);
  Dist B = make(ctxt, b_rows, b_cols, t.mb_b, t.nb_b, 0, 0, 0, myrow, mycol, nprow, npcol);
  Dist C = make(ctxt, c_rows, c_cols, t.mb_c, t.nb_c, 0, 0, 3, myrow, mycol, nprow, npcol);
  fill(A, seed, 0, myrow, mycol, nprow, npcol);
  fill(B, seed, 1, myrow, mycol, nprow, npcol);
  fill(C, seed, 2, myrow, mycol, nprow, npcol);
  // beta = 0: C_sub holds NaN, which must not reach the result.
  auto in_sub = [&](int il, int jl) {
    const int64_t gi = global_of(il, t.mb_c, myrow, 0, nprow), gj = global_of(jl, t.nb_c, mycol, 0, npcol);
    return gi >= t.ic - 1 && gi < t.ic - 1 + t.m && gj >= t.jc - 1 && gj < t.jc - 1 + t.n;
  };
  if (t.beta == 0.0)
    for (int jl = 0; jl < C.lc; ++jl)
      for (int il = 0; il < C.lr; ++il)
        if (in_sub(il, jl)) C.local[il + size_t(jl) * C.desc[8]] = std::numeric_limits<double>::quiet_NaN();
  Dist R = C;  // the reference's C

  setenv("TCGEMM_PBLAS_PANEL", std::to_string(t.panel).c_str(), 1);
  pdgemm_(&t.ta, &t.tb, &t.m, &t.n, &t.k, &t.alpha, A.local.data(), &t.ia, &t.ja, A.desc, B.local.data(), &t.ib, &t.jb,
          B.desc, &t.beta, C.local.data(), &t.ic, &t.jc, C.desc);
  const std::string took = tcgemm_pblas_last_route();
  tcgemm_pdgemm_scalapack(&t.ta, &t.tb, &t.m, &t.n, &t.k, &t.alpha, A.local.data(), &t.ia, &t.ja, A.desc,
                          B.local.data(), &t.ib, &t.jb, B.desc, &t.beta, R.local.data(), &t.ic, &t.jc, R.desc);

  // |C - C_ref| <= 2 (k + 2) eps (|alpha| k max|a| max|b| + |beta| max|c|), with |a|, |b|, |c| <= 1.
  const double eps = std::numeric_limits<double>::epsilon();
  const double tol = 2.0 * (t.k + 2) * eps * (std::fabs(t.alpha) * t.k + std::fabs(t.beta));
  double worst = 0.0;
  int64_t bad_sub = 0, changed_outside = 0;
  for (int jl = 0; jl < C.lc; ++jl)
    for (int il = 0; il < C.lr; ++il) {
      const size_t at = il + size_t(jl) * C.desc[8];
      if (in_sub(il, jl)) {
        const double diff = std::fabs(C.local[at] - R.local[at]);
        if (!(diff <= tol)) ++bad_sub;  // NaN counts as bad
        if (diff > worst) worst = diff;
      } else if (std::memcmp(&C.local[at], &R.local[at], sizeof(double)) != 0) {
        ++changed_outside;
      }
    }
  // Each process judges its own part; main sums the failures over all processes.
  const bool ok = bad_sub == 0 && changed_outside == 0 && took == route;
  if (!ok) {
    ++failures;
    std::printf("FAIL rank %d grid %dx%d %c%c m=%d n=%d k=%d alpha=%g beta=%g off=(%d,%d|%d,%d|%d,%d) blocks "
                "A %dx%d B %dx%d C %dx%d panel %d: %lld elements beyond %.2e (worst %.2e), %lld outside C_sub "
                "changed, route '%s' (wanted '%s')\n",
                world_rank, nprow, npcol, t.ta, t.tb, t.m, t.n, t.k, t.alpha, t.beta, t.ia, t.ja, t.ib, t.jb, t.ic,
                t.jc, t.mb_a, t.nb_a, t.mb_b, t.nb_b, t.mb_c, t.nb_c, t.panel, (long long)bad_sub, tol, worst,
                (long long)changed_outside, took.c_str(), route);
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const char* route = argc > 1 ? argv[1] : "cpu";
  int devices = 0;
  if (std::strcmp(route, "gpu") == 0 && (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)) {
    std::printf("SKIPPED: no CUDA device (the gpu route needs one)\n");
    MPI_Finalize();
    return 77;
  }
  setenv("TCGEMM_PBLAS", route, 1);
  setenv("TCGEMM_PBLAS_MIN_FLOPS", "0", 1);
  int me = 0, np = 1;
  Cblacs_pinfo(&me, &np);
  std::vector<std::pair<int, int>> grids = {{1, 1}};
  if (np >= 2) grids.insert(grids.end(), {{1, 2}, {2, 1}});
  if (np >= 4) grids.push_back({2, 2});

  const char* forms[4] = {"NN", "NT", "TN", "TT"};
  std::vector<Case> cases;
  for (const char* f : forms) {
    // One block size everywhere, offsets 1: operands read where they are (A, B redistributed only if T).
    cases.push_back({f[0], f[1], 97, 83, 71, 1.5, 0.0, 1, 1, 1, 1, 1, 1, 16, 16, 16, 16, 16, 16, 0, 2048});
    // Several panels (k > panel, panel not a multiple of the blocks), beta != 0.
    cases.push_back({f[0], f[1], 64, 72, 200, -0.5, 2.0, 1, 1, 1, 1, 1, 1, 8, 8, 8, 8, 8, 8, 0, 40});
    // Offsets that are not block boundaries, block sizes that differ, A starting on another process.
    cases.push_back({f[0], f[1], 45, 38, 57, 0.75, -1.0, 3, 5, 2, 4, 6, 3, 8, 12, 12, 8, 8, 8, 1, 24});
  }
  // C_sub inside one block, a k of one element, a one-row product.
  cases.push_back({'N', 'N', 5, 7, 1, 1.0, 0.5, 2, 2, 2, 2, 2, 2, 16, 16, 16, 16, 16, 16, 0, 2048});
  cases.push_back({'N', 'T', 1, 50, 33, 2.0, 0.0, 1, 1, 1, 1, 4, 9, 4, 4, 4, 4, 4, 4, 0, 16});

  int total = 0;
  uint64_t seed = 1;
  for (auto [pr, pc] : grids) {
    int ctxt = -1;
    Cblacs_get(-1, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", pr, pc);
    for (const Case& t : cases) {
      if (ctxt >= 0) run(t, ctxt, seed, route, me);
      ++seed;
      ++total;
    }
    if (ctxt >= 0) Cblacs_gridexit(ctxt);
  }
  int all_failures = 0;
  MPI_Allreduce(&failures, &all_failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0)
    std::printf("%s: %d cases on %zu grids (%d processes), route %s: %d failures\n",
                all_failures ? "FAILED" : "PASSED", total, grids.size(), np, route, all_failures);
  MPI_Finalize();
  return all_failures ? 1 : 0;
}
