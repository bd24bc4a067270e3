// libtcgemm_pblas's pdgemm_ (include/tcgemm/pblas.h): decides the route of each call, redistributes the
// operands the panel schedule cannot read where they are, and runs the schedule (summa.hpp) or hands the
// call to ScaLAPACK's own pdgemm_.
//
// What the schedule takes: every operand form (op(A) = A^T and op(B) = B^T are transposed into work
// matrices by PBLAS's pdtran), any sub-matrix offsets and any block sizes, as long as A, B and C share one
// BLACS context and their descriptors are valid. A_w's rows must be spread over the process rows exactly as
// C_sub's rows are, and B_w's columns as C_sub's columns; an operand that is not (other block size, other
// source process, other offset inside a block) is copied once into a work matrix that is (ScaLAPACK's
// pdgemr2d). The usual case (A, B, C with one block size and ia = ja = ... = 1) needs no copy.
#include <dlfcn.h>
#include <mpi.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "block_cyclic.hpp"
#include "grid_comms.hpp"
#include "local_product.hpp"
#include "scalapack_abi.hpp"
#include "summa.hpp"
#include "tcgemm/pblas.h"
#include "workspace.hpp"

#define TCGEMM_PBLAS_EXPORT __attribute__((visibility("default")))

using tcgemm::pblas::CyclicDim;

namespace {

using PdgemmFn = void (*)(const char*, const char*, const int*, const int*, const int*, const double*,
                          const double*, const int*, const int*, const int*, const double*, const int*,
                          const int*, const int*, const double*, double*, const int*, const int*, const int*);

PdgemmFn scalapack_pdgemm() {
  static PdgemmFn fn = [] {
    void* sym = dlsym(RTLD_NEXT, "pdgemm_");
    if (!sym) {
      std::fprintf(stderr,
                   "tcgemm pdgemm: ScaLAPACK's pdgemm_ is not loaded after libtcgemm_pblas (link "
                   "-ltcgemm_pblas before -lscalapack, or preload it into a program linked with ScaLAPACK)\n");
      std::abort();
    }
    return reinterpret_cast<PdgemmFn>(sym);
  }();
  return fn;
}

thread_local std::string last_route = "none";

bool is(char c, char upper) { return c == upper || c == upper + ('a' - 'A'); }
bool trans_ok(char c) { return is(c, 'N') || is(c, 'T') || is(c, 'C'); }

enum class Mode { Auto, Gpu, Cpu, Scalapack };
Mode mode_from_env() {
  const char* v = std::getenv("TCGEMM_PBLAS");
  if (!v || !*v || !std::strcmp(v, "auto")) return Mode::Auto;
  if (!std::strcmp(v, "gpu")) return Mode::Gpu;
  if (!std::strcmp(v, "cpu")) return Mode::Cpu;
  if (!std::strcmp(v, "scalapack")) return Mode::Scalapack;
  static bool warned = false;
  if (!warned) {
    warned = true;
    std::fprintf(stderr, "tcgemm pdgemm: TCGEMM_PBLAS=%s is not auto, gpu, cpu or scalapack; using auto\n", v);
  }
  return Mode::Auto;
}
double env_double(const char* name, double fallback, double lo, double hi) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  const double x = std::strtod(v, &end);
  if (end == v || *end || !(x >= lo && x <= hi)) {
    std::fprintf(stderr, "tcgemm pdgemm: %s=%s is not a number in [%g, %g]; using %g\n", name, v, lo, hi, fallback);
    return fallback;
  }
  return x;
}
bool verbose() {
  const char* v = std::getenv("TCGEMM_PBLAS_VERBOSE");
  return v && *v && std::strcmp(v, "0") != 0;
}

struct Desc {
  const int* d;
  CyclicDim rows(int nprow) const { return {d[tcgemm::pblas::kMb], d[tcgemm::pblas::kRsrc], nprow}; }
  CyclicDim cols(int npcol) const { return {d[tcgemm::pblas::kNb], d[tcgemm::pblas::kCsrc], npcol}; }
};

// The checks ScaLAPACK makes of one matrix operand (PB_Cchkmat), for the calling process: false with the
// reason when any fails (the call then goes to ScaLAPACK, which reports it through PXERBLA).
bool matrix_ok(const char* name, const int* desc, int64_t rows, int64_t cols, int i, int j, int nprow, int npcol,
               int myrow, std::string* why) {
  using namespace tcgemm::pblas;
  auto fail = [&](const char* what) {
    *why = std::string(name) + ": " + what;
    return false;
  };
  if (desc[kDtype] != 1) return fail("not a dense block-cyclic descriptor (DTYPE_ != 1)");
  if (desc[kM] < 0 || desc[kN] < 0 || desc[kMb] < 1 || desc[kNb] < 1) return fail("invalid descriptor sizes");
  if (desc[kRsrc] < 0 || desc[kRsrc] >= nprow || desc[kCsrc] < 0 || desc[kCsrc] >= npcol)
    return fail("invalid source process");
  const int64_t local_rows = held_before(CyclicDim{desc[kMb], desc[kRsrc], nprow}, myrow, desc[kM]);
  if (desc[kLld] < std::max<int64_t>(1, local_rows)) return fail("LLD_ below the local rows");
  if (i < 1 || j < 1) return fail("sub-matrix offset below 1");
  if (rows > 0 && cols > 0 && (i - 1 + rows > desc[kM] || j - 1 + cols > desc[kN]))
    return fail("sub-matrix outside the matrix");
  return true;
}

}  // namespace

extern "C" {

TCGEMM_PBLAS_EXPORT void tcgemm_pdgemm_scalapack(const char* transa, const char* transb, const int* m, const int* n,
                                                 const int* k, const double* alpha, const double* a, const int* ia,
                                                 const int* ja, const int* desca, const double* b, const int* ib,
                                                 const int* jb, const int* descb, const double* beta, double* c,
                                                 const int* ic, const int* jc, const int* descc) {
  scalapack_pdgemm()(transa, transb, m, n, k, alpha, a, ia, ja, desca, b, ib, jb, descb, beta, c, ic, jc, descc);
}

TCGEMM_PBLAS_EXPORT const char* tcgemm_pblas_last_route(void) { return last_route.c_str(); }

TCGEMM_PBLAS_EXPORT void tcgemm_pblas_release_workspace(void) { tcgemm::pblas::free_gpu_workspaces(); }

// Fortran callers pass two hidden CHARACTER lengths after the last argument; neither this function nor
// ScaLAPACK's (C) pdgemm_ reads them.
TCGEMM_PBLAS_EXPORT void pdgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
                                 const double* alpha, const double* a, const int* ia, const int* ja, const int* desca,
                                 const double* b, const int* ib, const int* jb, const int* descb, const double* beta,
                                 double* c, const int* ic, const int* jc, const int* descc) {
  using namespace tcgemm::pblas;
  auto forward = [&](const std::string& reason, bool print) {
    last_route = "scalapack: " + reason;
    if (print) std::fprintf(stderr, "tcgemm pdgemm: %dx%dx%d %c%c -> scalapack (%s)\n", *m, *n, *k, *transa, *transb,
                            reason.c_str());
    scalapack_pdgemm()(transa, transb, m, n, k, alpha, a, ia, ja, desca, b, ib, jb, descb, beta, c, ic, jc, descc);
  };
  const Mode mode = mode_from_env();
  const bool talk = verbose();
  if (mode == Mode::Scalapack) return forward("TCGEMM_PBLAS=scalapack", talk);

  // Calls every process of the grid makes alike (global arguments): decided without communication.
  if (!trans_ok(*transa) || !trans_ok(*transb) || *m < 0 || *n < 0 || *k < 0)
    return forward("invalid argument", false);
  if (desca[kCtxt] != descc[kCtxt] || descb[kCtxt] != descc[kCtxt])
    return forward("operands in different BLACS contexts", talk);
  if (*m == 0 || *n == 0 || *k == 0 || *alpha == 0.0) return forward("no product to compute", false);

  GridComms g;
  std::string why;
  if (!grid_comms(descc[kCtxt], &g, &why)) return forward(why, false);
  const bool print = talk && g.myrow == 0 && g.mycol == 0;

  // Calls the process alone can judge (its LLD_, its GPU): agreed over the grid, since the two routes are
  // different collectives.
  const bool ta = !is(*transa, 'N'), tb = !is(*transb, 'N');
  bool ok = matrix_ok("A", desca, ta ? *k : *m, ta ? *m : *k, *ia, *ja, g.nprow, g.npcol, g.myrow, &why) &&
            matrix_ok("B", descb, tb ? *n : *k, tb ? *k : *n, *ib, *jb, g.nprow, g.npcol, g.myrow, &why) &&
            matrix_ok("C", descc, *m, *n, *ic, *jc, g.nprow, g.npcol, g.myrow, &why);
  bool use_gpu = false;
  int device = -1;
  if (ok && mode != Mode::Cpu) {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
      (void)cudaGetLastError();
      if (mode == Mode::Auto || mode == Mode::Gpu) {
        ok = false;
        why = "no CUDA device";
      }
    } else {
      use_gpu = true;
      const char* chosen = std::getenv("TCGEMM_DEVICE");
      device = chosen && *chosen ? std::atoi(chosen) : g.node_rank % count;
      if (device < 0 || device >= count) {
        ok = false;
        why = "TCGEMM_DEVICE=" + std::string(chosen ? chosen : "") + " is not a device of this node";
      }
    }
  }
  const double flops = 2.0 * double(*m) * double(*n) * double(*k);
  if (ok && mode == Mode::Auto && flops < env_double("TCGEMM_PBLAS_MIN_FLOPS", 1e9, 0.0, 1e30)) {
    ok = false;
    why = "fewer flops than TCGEMM_PBLAS_MIN_FLOPS";
  }
  int mine = ok ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, g.grid);
  if (!all) return forward(ok ? "another process of the grid cannot take the call" : why, print || (talk && !ok));

  // The work matrices, where an operand is transposed or spread differently from C_sub.
  const Desc dA{desca}, dB{descb}, dC{descc};
  const CyclicDim c_rows = dC.rows(g.nprow), c_cols = dC.cols(g.npcol);
  const int64_t c_row0 = *ic - 1, c_col0 = *jc - 1;
  const int64_t panel = static_cast<int64_t>(env_double("TCGEMM_PBLAS_PANEL", 2048, 1, 1 << 20));
  const int work_block = 256;
  const int ctxt = descc[kCtxt];
  const int one = 1;
  const double d_one = 1.0, d_zero = 0.0;

  SummaProblem p;
  p.m = *m;
  p.n = *n;
  p.k = *k;
  p.alpha = *alpha;
  p.beta = *beta;
  p.panel = panel;
  p.c_local = c;
  p.c_lld = descc[kLld];
  p.c_rows = c_rows;
  p.c_cols = c_cols;
  p.c_row0 = c_row0;
  p.c_col0 = c_col0;

  std::vector<double> a_work, b_work;
  std::string a_how = "in place", b_how = "in place";
  const bool a_direct = !ta && same_spread(dA.rows(g.nprow), *ia - 1, c_rows, c_row0, *m);
  if (a_direct) {
    p.a = {a, desca[kLld], dA.rows(g.nprow), dA.cols(g.npcol), *ia - 1, *ja - 1};
  } else {
    // A_w: rows as C_sub's (the same block size, the same offset inside the first block, on the same
    // process), k columns in blocks of work_block.
    const int off = static_cast<int>(c_row0 % c_rows.nb);
    const int rows_w = off + *m;
    int desc_w[9] = {1, ctxt, rows_w, *k, static_cast<int>(c_rows.nb), work_block, owner_of(c_rows, c_row0), 0, 1};
    const CyclicDim wr{desc_w[kMb], desc_w[kRsrc], g.nprow}, wc{work_block, 0, g.npcol};
    const int64_t lr = held_before(wr, g.myrow, rows_w), lc = held_before(wc, g.mycol, *k);
    desc_w[kLld] = static_cast<int>(std::max<int64_t>(1, lr));
    a_work.assign(static_cast<size_t>(std::max<int64_t>(1, desc_w[kLld] * lc)), 0.0);
    const int iw = off + 1;
    if (ta)
      pdtran_(m, k, &d_one, a, ia, ja, desca, &d_zero, a_work.data(), &iw, &one, desc_w);
    else
      pdgemr2d_(m, k, a, ia, ja, desca, a_work.data(), &iw, &one, desc_w, &ctxt);
    p.a = {a_work.data(), desc_w[kLld], wr, wc, off, 0};
    a_how = ta ? "transposed" : "redistributed";
  }
  const bool b_direct = !tb && same_spread(dB.cols(g.npcol), *jb - 1, c_cols, c_col0, *n);
  if (b_direct) {
    p.b = {b, descb[kLld], dB.rows(g.nprow), dB.cols(g.npcol), *ib - 1, *jb - 1};
  } else {
    const int off = static_cast<int>(c_col0 % c_cols.nb);
    const int cols_w = off + *n;
    int desc_w[9] = {1, ctxt, *k, cols_w, work_block, static_cast<int>(c_cols.nb), 0, owner_of(c_cols, c_col0), 1};
    const CyclicDim wr{work_block, 0, g.nprow}, wc{desc_w[kNb], desc_w[kCsrc], g.npcol};
    const int64_t lr = held_before(wr, g.myrow, *k), lc = held_before(wc, g.mycol, cols_w);
    desc_w[kLld] = static_cast<int>(std::max<int64_t>(1, lr));
    b_work.assign(static_cast<size_t>(std::max<int64_t>(1, desc_w[kLld] * lc)), 0.0);
    const int jw = off + 1;
    if (tb)
      pdtran_(k, n, &d_one, b, ib, jb, descb, &d_zero, b_work.data(), &one, &jw, desc_w);
    else
      pdgemr2d_(k, n, b, ib, jb, descb, b_work.data(), &one, &jw, desc_w, &ctxt);
    p.b = {b_work.data(), desc_w[kLld], wr, wc, 0, off};
    b_how = tb ? "transposed" : "redistributed";
  }

  std::unique_ptr<LocalProduct> local = use_gpu ? make_gpu_product(device) : make_cpu_product();
  const char* name = use_gpu ? "gpu" : "cpu";
  if (print)
    std::fprintf(stderr, "tcgemm pdgemm: %dx%dx%d %c%c grid %dx%d -> %s (panel %lld; A %s, B %s)\n", *m, *n, *k,
                 *transa, *transb, g.nprow, g.npcol, name, static_cast<long long>(panel), a_how.c_str(),
                 b_how.c_str());
  if (run_summa(p, g, *local, &why)) {
    last_route = name;
    return;
  }
  local.reset();
  // A local product failed somewhere (C unchanged everywhere): ScaLAPACK computes the call instead.
  if (!why.empty()) std::fprintf(stderr, "tcgemm pdgemm: the %s schedule failed: %s\n", name, why.c_str());
  forward(std::string("the ") + name + " schedule failed", print);
}

}  // extern "C"
