// sm90 tuning probe (tcgemm-sm90-probe): standalone tuning and checking driver for the sm90_mma kernel template (Hopper only).
// It instantiates kernel variants outside the library's shape table, checks them against cuBLAS DGEMM on
// random data, and times them against cuBLAS in the same process.
//
//   sm90_probe check                 correctness matrix (odd sizes, all trans, odd/even leading dims,
//                                    misaligned bases, alpha/beta incl. beta = 0 with NaN in C)
//   sm90_probe time [n ...]          square NN timing (default 1024 2048 4096 8192)
//   sm90_probe itime [n ...]         the same, timed interleaved with cuBLAS after >= 200 ms of warm-up
//                                    (the clocks settle under the power cap, as in tcgemm-bench)
//   sm90_probe time8 [n ...]         the same with leading dimensions n + 1 (8-byte copy path)
//   sm90_probe forms [n]             all four trans combinations, square n (default 4096)
//   sm90_probe tn [n ...]            'T','N' squares, timed interleaved as itime (default 2048 4096 6144)
//   sm90_probe prof n idx:st[:TN]    one launch per listed variant (and form), for ncu
//   sm90_probe shapes                non-square shapes (m n k): 8192 8192 256, 256 8192 8192, ...
//
// Timing: CUDA events around each launch, 3 warm-up runs, median of kReps timed runs; TFLOP/s = 2 m n k /
// t. Each variant's result is also compared with cuBLAS before timing (max |diff| / tolerance).
//
// What this probe found is in docs/tuning.md ("sm90_mma: tuning log").
//
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <utility>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <limits>
#include <string>
#include <vector>

#include "families/sm90/testing.cuh"  // white-box access for tests and probes

namespace sm90 = tcgemm::detail::sm90;

#define CHECK_CUDA(x)                                                                              \
  do {                                                                                             \
    cudaError_t e_ = (x);                                                                          \
    if (e_ != cudaSuccess) {                                                                       \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));      \
      std::exit(2);                                                                                \
    }                                                                                              \
  } while (0)
#define CHECK_CUBLAS(x)                                                                            \
  do {                                                                                             \
    cublasStatus_t s_ = (x);                                                                       \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                                             \
      std::fprintf(stderr, "%s:%d %s: cublas status %d\n", __FILE__, __LINE__, #x, int(s_));       \
      std::exit(2);                                                                                \
    }                                                                                              \
  } while (0)

namespace {

constexpr int kWarmup = 3;
constexpr int kReps = 15;
constexpr double kEps = std::numeric_limits<double>::epsilon();

using RunFn = cudaError_t (*)(char ta, char tb, int64_t m, int64_t n, int64_t k, double alpha, const double* A,
                              int64_t lda, const double* B, int64_t ldb, double beta, double* C, int64_t ldc,
                              int stages, cudaStream_t s);

struct Variant {
  std::string name;
  RunFn run;
  bool all_forms;  // all trans and both copy widths instantiated
  std::vector<int> stages;
};

template <int TM, int TN, int TK, int WM, int WN, int MINB, int PNN, int PNT, int PTN, bool kAllForms>
struct Probe {
  // m16n8k16 groups for 16-row warp tiles, as launch.cu; k-tile waits predicated for up to 5 stages (the
  // library's instances: up to their shape's max_stages, 4 or 5, one predicated wait fewer for the 4s).
  using Fam = sm90::Family<TM, TN, TK, WM, WN, MINB, PNN, PNT, PTN, TM / WM == 16 ? 16 : 8, 5>;

  template <class K>
  static cudaError_t go(const sm90::Params& p, cudaStream_t s) {
    static bool attr_set = false;
    if (!attr_set) {
      // The opt-in limit covers static (the kernel's tile origin) + dynamic shared memory.
      cudaFuncAttributes attr;
      cudaError_t e = cudaFuncGetAttributes(&attr, sm90::sm90_mma_kernel<K>);
      if (e != cudaSuccess) return e;
      e = cudaFuncSetAttribute(sm90::sm90_mma_kernel<K>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               int(sm90::kMaxSmemPerBlock) - int(attr.sharedSizeBytes));
      if (e != cudaSuccess) return e;
      attr_set = true;
    }
    return sm90::launch_grid<K>(p, s);
  }

  static cudaError_t run(char ta, char tb, int64_t m, int64_t n, int64_t k, double alpha, const double* A,
                         int64_t lda, const double* B, int64_t ldb, double beta, double* C, int64_t ldc, int stages,
                         cudaStream_t s) {
    // The waits cover 2..5 stages (Fam); the shared memory must hold them (launch_grid sizes it by stages).
    if (stages < 2 || stages > 5) return cudaErrorInvalidValue;
    // l2_bytes 0: the probe times the kernel with the default groups of 8 tile rows.
    const sm90::Plan plan = sm90::make_plan(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, TM, TN, stages, 0);
    if constexpr (kAllForms) {
      return sm90::with_instance<Fam>(plan, [&](auto tag) { return go<typename decltype(tag)::type>(plan.params, s); });
    } else {
      // Experiments: 'N','N' and 'T','N' with 16-byte copies only.
      if (!plan.vec16 || (plan.form != sm90::kFormNN && plan.form != sm90::kFormTN)) return cudaErrorNotSupported;
      if (plan.form == sm90::kFormTN) return go<typename Fam::template Instance<sm90::kFormTN, true>>(plan.params, s);
      return go<typename Fam::template Instance<sm90::kFormNN, true>>(plan.params, s);
    }
  }
};

template <int TM, int TN, int TK, int WM, int WN, int MINB, int PNN, int PNT, int PTN, bool ALL>
Variant make_variant(std::vector<int> stages) {
  static const char* pipe_names[] = {"none", "group", "step"};
  char buf[128];
  std::snprintf(buf, sizeof buf, "%dx%dx%d w%dx%d b%d %s/%s/%s", TM, TN, TK, WM, WN, MINB, pipe_names[PNN],
                pipe_names[PNT], pipe_names[PTN]);
  return Variant{buf, &Probe<TM, TN, TK, WM, WN, MINB, PNN, PNT, PTN, ALL>::run, ALL, std::move(stages)};
}

std::vector<Variant> variants() {
  std::vector<Variant> v;
  // VARIANTS-BEGIN (edited between tuning runs)
  // make_variant<tile_m, tile_n, tile_k, warps_m, warps_n, min_blocks, pipe NN/TT, pipe NT, pipe TN, all forms>
  // pipelines: 0 none, 1 group (m16n8k8), 2 step (m16n8k4). These four are the library's kSm90Shapes
  // families (but 64x128x32 and 32x32x32) with launch.cu's pipelines (their waits: see Probe).
  v.push_back(make_variant<128, 64, 16, 2, 2, 2, 1, 2, 1, true>({3, 4}));
  v.push_back(make_variant<64, 64, 16, 2, 2, 3, 1, 2, 1, true>({4}));
  v.push_back(make_variant<128, 128, 16, 2, 4, 1, 1, 2, 1, true>({3}));
  v.push_back(make_variant<32, 64, 32, 2, 2, 3, 1, 2, 1, true>({3}));
  // VARIANTS-END
  return v;
}

__global__ void fill_random(double* x, int64_t count, uint64_t seed, double poison_every_nan) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count; i += int64_t(gridDim.x) * blockDim.x) {
    uint64_t z = (uint64_t(i) + 1) * 0x9E3779B97F4A7C15ull ^ seed * 0xD1B54A32D192ED03ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    x[i] = poison_every_nan != 0.0 ? __longlong_as_double(0x7FF8000000000000LL) : (double(z >> 11) * 0x1.0p-53) * 2.0 - 1.0;
  }
}

void fill(double* x, int64_t count, uint64_t seed, bool nan = false) {
  fill_random<<<1024, 256>>>(x, count, seed, nan ? 1.0 : 0.0);
  CHECK_CUDA(cudaGetLastError());
}

cublasOperation_t op(char t) { return t == 'N' ? CUBLAS_OP_N : CUBLAS_OP_T; }

// ---- correctness matrix ---------------------------------------------------------------------------
struct Case {
  int64_t m, n, k;
  char ta, tb;
  int64_t pad, offset;  // leading-dimension padding, base offset (elements) of all three matrices
  double alpha, beta;
};

// Returns the number of failing elements (guards included); prints the first few.
int64_t check_case(const Variant& v, int stages, const Case& c, cublasHandle_t h, cudaStream_t stream,
                   uint64_t seed) {
  const int64_t a_rows = c.ta == 'N' ? c.m : c.k, a_cols = c.ta == 'N' ? c.k : c.m;
  const int64_t b_rows = c.tb == 'N' ? c.k : c.n, b_cols = c.tb == 'N' ? c.n : c.k;
  const int64_t lda = std::max<int64_t>(1, a_rows + c.pad), ldb = std::max<int64_t>(1, b_rows + c.pad);
  const int64_t ldc = std::max<int64_t>(1, c.m + c.pad);
  const int64_t a_count = c.offset + lda * a_cols, b_count = c.offset + ldb * b_cols;
  const int64_t c_count = c.offset + ldc * c.n + 16;  // 16 guard elements after the last column
  double *A, *B, *C, *R;
  CHECK_CUDA(cudaMalloc(&A, a_count * 8));
  CHECK_CUDA(cudaMalloc(&B, b_count * 8));
  CHECK_CUDA(cudaMalloc(&C, c_count * 8));
  CHECK_CUDA(cudaMalloc(&R, c_count * 8));
  fill(A, a_count, seed * 3 + 1);
  fill(B, b_count, seed * 3 + 2);
  fill(C, c_count, seed * 3 + 3, c.beta == 0.0);  // beta = 0: C is NaN and must not be read
  CHECK_CUDA(cudaMemcpy(R, C, c_count * 8, cudaMemcpyDeviceToDevice));
  CHECK_CUDA(cudaDeviceSynchronize());
  // Reference: cuBLAS with beta = 0 must not read C either, so NaN in C is fine for it too.
  CHECK_CUBLAS(cublasSetStream(h, stream));
  CHECK_CUBLAS(cublasDgemm(h, op(c.ta), op(c.tb), int(c.m), int(c.n), int(c.k), &c.alpha, A + c.offset, int(lda),
                           B + c.offset, int(ldb), &c.beta, R + c.offset, int(ldc)));
  CHECK_CUDA(v.run(c.ta, c.tb, c.m, c.n, c.k, c.alpha, A + c.offset, lda, B + c.offset, ldb, c.beta, C + c.offset,
                   ldc, stages, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  std::vector<double> hc(c_count), hr(c_count), ha(a_count), hb(b_count);
  CHECK_CUDA(cudaMemcpy(hc.data(), C, c_count * 8, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(hr.data(), R, c_count * 8, cudaMemcpyDeviceToHost));
  int64_t bad = 0;
  // Elements in [-1, 1]: |sum| <= k; rounding error of a k-term dot product <= k eps sum|a||b| (+ beta term).
  const double tol = 2.0 * (c.k + 2) * kEps * (std::fabs(c.alpha) * c.k + std::fabs(c.beta)) + 1e-300;
  for (int64_t i = 0; i < c_count; ++i) {
    const int64_t rel = i - c.offset;
    const bool inside = rel >= 0 && rel < ldc * c.n && (rel % ldc) < c.m;
    bool ok;
    if (inside)
      ok = std::isfinite(hc[i]) && std::fabs(hc[i] - hr[i]) <= tol;
    else
      ok = (std::isnan(hc[i]) && std::isnan(hr[i])) || hc[i] == hr[i];  // guards untouched
    if (!ok) {
      if (bad < 3)
        std::printf("    mismatch at %lld (%s, row %lld col %lld): got %.17g want %.17g tol %.3g\n", (long long)i,
                    inside ? "inside" : "guard", (long long)(rel >= 0 ? rel % ldc : -1),
                    (long long)(rel >= 0 ? rel / ldc : -1), hc[i], hr[i], tol);
      ++bad;
    }
  }
  CHECK_CUDA(cudaFree(A));
  CHECK_CUDA(cudaFree(B));
  CHECK_CUDA(cudaFree(C));
  CHECK_CUDA(cudaFree(R));
  return bad;
}

int run_check(cublasHandle_t h) {
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const int64_t sizes[][3] = {{1, 1, 1},     {17, 9, 5},    {129, 130, 131}, {300, 257, 77},
                              {64, 64, 16},  {128, 128, 32}, {256, 128, 48},  {255, 129, 300}};
  const char trans[][2] = {{'N', 'N'}, {'N', 'T'}, {'T', 'N'}, {'T', 'T'}};
  struct Mode {
    int64_t pad, offset;
    double alpha, beta;
  } modes[] = {{0, 0, 1.0, 0.0}, {1, 0, -1.5, 0.5}, {0, 1, 0.75, 1.0}, {3, 1, 2.0, 0.0}, {2, 0, 1.0, -1.0}};
  int64_t failures = 0, cases = 0;
  uint64_t seed = 1;
  for (const Variant& v : variants()) {
    if (!v.all_forms) continue;
    for (int st : v.stages) {
      int64_t vfail = 0;
      for (auto& sz : sizes)
        for (auto& tr : trans)
          for (auto& md : modes) {
            Case c{sz[0], sz[1], sz[2], tr[0], tr[1], md.pad, md.offset, md.alpha, md.beta};
            const int64_t bad = check_case(v, st, c, h, stream, seed++);
            ++cases;
            if (bad) {
              ++vfail;
              std::printf("  FAIL %s stages %d: m %lld n %lld k %lld %c%c pad %lld off %lld alpha %g beta %g: %lld bad\n",
                          v.name.c_str(), st, (long long)c.m, (long long)c.n, (long long)c.k, c.ta, c.tb,
                          (long long)c.pad, (long long)c.offset, c.alpha, c.beta, (long long)bad);
            }
          }
      std::printf("check %-28s stages %d: %s (%lld failing cases)\n", v.name.c_str(), st, vfail ? "FAIL" : "ok",
                  (long long)vfail);
      failures += vfail;
    }
  }
  CHECK_CUDA(cudaStreamDestroy(stream));
  std::printf("check: %lld cases, %lld failing\n", (long long)cases, (long long)failures);
  return failures ? 1 : 0;
}

// ---- timing -----------------------------------------------------------------------------------------
template <class F>
double median_ms(F&& launch) {
  cudaEvent_t e0, e1;
  CHECK_CUDA(cudaEventCreate(&e0));
  CHECK_CUDA(cudaEventCreate(&e1));
  for (int i = 0; i < kWarmup; ++i) launch();
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<float> t;
  for (int i = 0; i < kReps; ++i) {
    CHECK_CUDA(cudaEventRecord(e0));
    launch();
    CHECK_CUDA(cudaEventRecord(e1));
    CHECK_CUDA(cudaEventSynchronize(e1));
    float ms;
    CHECK_CUDA(cudaEventElapsedTime(&ms, e0, e1));
    t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  CHECK_CUDA(cudaEventDestroy(e0));
  CHECK_CUDA(cudaEventDestroy(e1));
  return t[t.size() / 2];
}

// Sustained, interleaved timing (as tcgemm-bench): variant and cuBLAS alternate, >= 200 ms of warm-up so
// that the clocks settle under the power cap, then kReps pairs; returns the medians {variant, cuBLAS}.
bool g_interleave = false;
template <class F, class G>
std::pair<double, double> median_pair_ms(F&& mine, G&& theirs) {
  cudaEvent_t e[4];
  for (auto& x : e) CHECK_CUDA(cudaEventCreate(&x));
  CHECK_CUDA(cudaEventRecord(e[0]));
  for (;;) {
    mine();
    theirs();
    CHECK_CUDA(cudaEventRecord(e[1]));
    CHECK_CUDA(cudaEventSynchronize(e[1]));
    float ms;
    CHECK_CUDA(cudaEventElapsedTime(&ms, e[0], e[1]));
    if (ms > 200.0f) break;
  }
  std::vector<float> a, b;
  for (int i = 0; i < 2 * kReps; ++i) {
    CHECK_CUDA(cudaEventRecord(e[0]));
    mine();
    CHECK_CUDA(cudaEventRecord(e[1]));
    theirs();
    CHECK_CUDA(cudaEventRecord(e[2]));
    CHECK_CUDA(cudaEventSynchronize(e[2]));
    float x, y;
    CHECK_CUDA(cudaEventElapsedTime(&x, e[0], e[1]));
    CHECK_CUDA(cudaEventElapsedTime(&y, e[1], e[2]));
    a.push_back(x);
    b.push_back(y);
  }
  for (auto& x : e) CHECK_CUDA(cudaEventDestroy(x));
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  return {a[a.size() / 2], b[b.size() / 2]};
}

// pad > 0: leading dimensions rows + pad (odd pad: the 8-byte copy path and scalar C accesses).
void time_shape(cublasHandle_t h, int64_t m, int64_t n, int64_t k, const std::vector<Variant>& vs, char ta = 'N',
                char tb = 'N', int64_t pad = 0) {
  double *A, *B, *C, *R;
  const int64_t lda = (ta == 'N' ? m : k) + pad, ldb = (tb == 'N' ? k : n) + pad, ldc = m + pad;
  const int64_t a_count = lda * (ta == 'N' ? k : m), b_count = ldb * (tb == 'N' ? n : k), c_count = ldc * n;
  CHECK_CUDA(cudaMalloc(&A, a_count * 8));
  CHECK_CUDA(cudaMalloc(&B, b_count * 8));
  CHECK_CUDA(cudaMalloc(&C, c_count * 8));
  CHECK_CUDA(cudaMalloc(&R, c_count * 8));
  fill(A, a_count, 11);
  fill(B, b_count, 12);
  fill(R, c_count, 13);
  const double one = 1.0, zero = 0.0;
  CHECK_CUBLAS(cublasSetStream(h, nullptr));
  auto cublas = [&] {
    CHECK_CUBLAS(cublasDgemm(h, op(ta), op(tb), int(m), int(n), int(k), &one, A, int(lda), B, int(ldb), &zero, R,
                             int(ldc)));
  };
  const double flop = 2.0 * m * n * k;
  const double t_cublas = median_ms(cublas);
  const double tf_cublas = flop / t_cublas * 1e-9;
  std::printf("%c%c %6lld %6lld %6lld  %-30s st -  %8.3f ms  %6.2f TFLOP/s  ratio 1.000%s\n", ta, tb, (long long)m,
              (long long)n, (long long)k, "cublas", t_cublas, tf_cublas, pad ? "  (padded leading dims)" : "");
  std::vector<double> hr(c_count), hc(c_count);
  CHECK_CUDA(cudaMemcpy(hr.data(), R, c_count * 8, cudaMemcpyDeviceToHost));
  for (const Variant& v : vs)
    for (int st : v.stages) {
      if (!v.all_forms && tb != 'N') continue;
      fill(C, c_count, 0, true);  // NaN everywhere: inside must be written, padding rows must stay NaN
      CHECK_CUDA(v.run(ta, tb, m, n, k, 1.0, A, lda, B, ldb, 0.0, C, ldc, st, nullptr));
      CHECK_CUDA(cudaDeviceSynchronize());
      CHECK_CUDA(cudaMemcpy(hc.data(), C, c_count * 8, cudaMemcpyDeviceToHost));
      double worst = 0;
      for (int64_t i = 0; i < c_count; ++i) {
        if (i % ldc >= m) {
          if (!std::isnan(hc[i])) worst = INFINITY;  // a padding row was written
          continue;
        }
        const double d = std::fabs(hc[i] - hr[i]);
        worst = std::isnan(d) ? INFINITY : std::max(worst, d);
      }
      const double tol = 2.0 * (k + 2) * kEps * k;
      double t, tf_ref = tf_cublas;
      auto mine = [&] { CHECK_CUDA(v.run(ta, tb, m, n, k, 1.0, A, lda, B, ldb, 0.0, C, ldc, st, nullptr)); };
      if (g_interleave) {
        const auto pr = median_pair_ms(mine, cublas);
        t = pr.first;
        tf_ref = flop / pr.second * 1e-9;
      } else {
        t = median_ms(mine);
      }
      const double tf = flop / t * 1e-9;
      std::printf("%c%c %6lld %6lld %6lld  %-30s st %d  %8.3f ms  %6.2f TFLOP/s  ratio %.3f  err/tol %.2g%s\n", ta, tb,
                  (long long)m, (long long)n, (long long)k, v.name.c_str(), st, t, tf, tf / tf_ref, worst / tol,
                  worst <= tol ? "" : "  WRONG");
      std::fflush(stdout);
    }
  CHECK_CUDA(cudaFree(A));
  CHECK_CUDA(cudaFree(B));
  CHECK_CUDA(cudaFree(C));
  CHECK_CUDA(cudaFree(R));
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "time";
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  int clock_khz = 0;
  cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);
  char date[64];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
  std::printf("# sm90_probe %s: %s, cc %d.%d, %d SMs, max clock %d MHz\n", date, prop.name, prop.major, prop.minor,
              prop.multiProcessorCount, clock_khz / 1000);
  if (prop.major != 9) {
    std::printf("sm90_mma needs compute capability 9.x\n");
    return 0;
  }
  cublasHandle_t h;
  CHECK_CUBLAS(cublasCreate(&h));
  int rc = 0;
  if (mode == "check") {
    rc = run_check(h);
  } else if (mode == "time") {
    std::vector<int64_t> ns;
    for (int i = 2; i < argc; ++i) ns.push_back(std::atoll(argv[i]));
    if (ns.empty()) ns = {1024, 2048, 4096, 8192};
    const auto vs = variants();
    for (int64_t n : ns) time_shape(h, n, n, n, vs);
  } else if (mode == "itime") {
    // Square NN, sustained interleaved timing (see median_pair_ms).
    g_interleave = true;
    std::vector<int64_t> ns;
    for (int i = 2; i < argc; ++i) ns.push_back(std::atoll(argv[i]));
    if (ns.empty()) ns = {2048, 3200, 4096, 8192};
    const auto vs = variants();
    for (int64_t n : ns) time_shape(h, n, n, n, vs);
  } else if (mode == "time8") {
    // Square NN with leading dimensions n + 1 (odd): the 8-byte copy path and scalar C accesses.
    std::vector<int64_t> ns;
    for (int i = 2; i < argc; ++i) ns.push_back(std::atoll(argv[i]));
    if (ns.empty()) ns = {4096};
    const auto vs = variants();
    for (int64_t n : ns) time_shape(h, n, n, n, vs, 'N', 'N', 1);
  } else if (mode == "forms") {
    // All four trans combinations, square n (default 4096), variants with all forms only.
    const int64_t n = argc > 2 ? std::atoll(argv[2]) : 4096;
    const auto vs = variants();
    for (const char* f : {"NN", "NT", "TN", "TT"}) time_shape(h, n, n, n, vs, f[0], f[1]);
  } else if (mode == "tn") {
    // 'T','N' squares (default 2048 4096 6144), interleaved with cuBLAS as in itime.
    g_interleave = true;
    std::vector<int64_t> ns;
    for (int i = 2; i < argc; ++i) ns.push_back(std::atoll(argv[i]));
    if (ns.empty()) ns = {2048, 4096, 6144};
    const auto vs = variants();
    for (int64_t n : ns) time_shape(h, n, n, n, vs, 'T', 'N');
  } else if (mode == "shapes") {
    const int64_t shapes[][3] = {{8192, 8192, 256}, {256, 8192, 8192}, {8192, 256, 8192}, {3200, 3200, 3200}};
    const auto vs = variants();
    for (auto& s : shapes) time_shape(h, s[0], s[1], s[2], vs);
  } else if (mode == "prof" && argc >= 4) {
    // One cuBLAS launch, then one launch of each listed variant (index:stages), for a profiler.
    const int64_t n = std::atoll(argv[2]);
    const auto vs = variants();
    double *A, *B, *C;
    CHECK_CUDA(cudaMalloc(&A, n * n * 8));
    CHECK_CUDA(cudaMalloc(&B, n * n * 8));
    CHECK_CUDA(cudaMalloc(&C, n * n * 8));
    fill(A, n * n, 1);
    fill(B, n * n, 2);
    const double one = 1.0, zero = 0.0;
    CHECK_CUBLAS(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, int(n), int(n), int(n), &one, A, int(n), B, int(n), &zero,
                             C, int(n)));
    for (int i = 3; i < argc; ++i) {
      int idx = 0, st = 0;
      char ta = 'N', tb = 'N';
      std::sscanf(argv[i], "%d:%d:%c%c", &idx, &st, &ta, &tb);
      std::printf("prof %s stages %d %c%c\n", vs.at(idx).name.c_str(), st, ta, tb);
      CHECK_CUDA(vs.at(idx).run(ta, tb, n, n, n, 1.0, A, n, B, n, 0.0, C, n, st, nullptr));
    }
    CHECK_CUDA(cudaDeviceSynchronize());
  } else {
    std::fprintf(stderr,
                 "usage: sm90_probe check | time [n...] | time8 [n...] | itime [n...] | forms [n] | tn [n...] | "
                 "shapes | prof n idx:stages[:TN]...\n");
    rc = 2;
  }
  CHECK_CUBLAS(cublasDestroy(h));
  return rc;
}
