// Probe: WMMA F16 GEMM variants (compile-time tiling, mma_lowp's pipeline skeleton) vs cuBLAS and the WMMA ceiling.
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <mma.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cmath>
using namespace nvcuda;
__constant__ int g_group;
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

__device__ __forceinline__ void cp16(uint32_t s, const void* g) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(g));
}
__device__ __forceinline__ void commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N> __device__ __forceinline__ void waitg() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N)); }

template <int... kS, class F>
__device__ __forceinline__ void for_steps(std::integer_sequence<int, kS...>, F&& f) { (f(std::integral_constant<int, kS>{}), ...); }

// AK: op(A) k-contiguous (A transposed); BK: op(B) k-contiguous (B not transposed).
template <int TM, int TN, int WM, int WN, int TK, int S, bool AK, bool BK, int MINB, int PAD = 8>
struct Cfg {
  static constexpr int kWarpsM = TM / WM, kWarpsN = TN / WN, kThreads = kWarpsM * kWarpsN * 32;
  static constexpr int kFM = WM / 16, kFN = WN / 16, kKS = TK / 16;
  // shared tiles: k-major: rows = o, ld = TK + PAD; mn-major: rows = k, ld = T + PAD
  static constexpr int kLdA = AK ? TK + PAD : TM + PAD, kLdB = BK ? TK + PAD : TN + PAD;
  static constexpr int kABytes = (AK ? TM : TK) * kLdA * 2, kBBytes = (BK ? TN : TK) * kLdB * 2;
  static constexpr int kStage = kABytes + kBBytes, kSmem = S * kStage;
};

// Copies of one operand tile: lines of kLine halves (kLines lines), 8 halves a piece.
template <int kLines, int kLine, int kLd, int kThreads>
struct Copier {
  static constexpr int kPPL = kLine / 8, kStep = kThreads / kPPL, kCopies = kLines * kPPL / kThreads;
  static_assert(kThreads % kPPL == 0 && (kLines * kPPL) % kThreads == 0, "copier");
  const char* src; uint32_t d0; int64_t line_bytes;
  __device__ Copier(const __half* x, int64_t ld, int tid) {
    const int line = tid / kPPL, piece = tid % kPPL;
    src = reinterpret_cast<const char*>(x + line * ld + piece * 8);
    d0 = uint32_t((line * kLd + piece * 8) * 2);
    line_bytes = int64_t(kStep) * ld * 2;
  }
  template <int kPart, int kParts>
  __device__ __forceinline__ void copy(uint32_t tile) const {
    constexpr int b = kPart * kCopies / kParts, e = (kPart + 1) * kCopies / kParts;
    const char* s = src + b * line_bytes;
#pragma unroll
    for (int j = b; j < e; ++j, s += line_bytes) cp16(tile + d0 + uint32_t(j * kStep * kLd * 2), s);
  }
};

template <class C, bool AK, bool BK>
__global__ void __launch_bounds__(C::kThreads, C::kMinB) wk(const __half* A, const __half* B, float* Cm, int n, int k) {}

template <int TM, int TN, int WM, int WN, int TK, int S, bool AK, bool BK, int MINB>
__global__ void __launch_bounds__(Cfg<TM, TN, WM, WN, TK, S, AK, BK, MINB>::kThreads, MINB)
    wmma_probe(const __half* A, const __half* B, float* Cm, int n, int k) {
  using T = Cfg<TM, TN, WM, WN, TK, S, AK, BK, MINB>;
  using LA = typename std::conditional<AK, wmma::row_major, wmma::col_major>::type;
  using LB = typename std::conditional<BK, wmma::col_major, wmma::row_major>::type;
  using FA = wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, LA>;
  using FB = wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, LB>;
  extern __shared__ __align__(128) unsigned char sm[];
  const uint32_t s0 = uint32_t(__cvta_generic_to_shared(sm));
  const int tid = threadIdx.x, warp = tid / 32;
  const int wm0 = (warp % T::kWarpsM) * WM, wn0 = (warp / T::kWarpsM) * WN;
  int mt, nt;
  {
    const int m_tiles = n / TM, n_tiles = n / TN, t = blockIdx.x;
    if (g_group == 0) { mt = t % m_tiles; nt = t / m_tiles; }
    else {
      const int group = t / (g_group * n_tiles), first = group * g_group;
      const int rows = m_tiles - first < g_group ? m_tiles - first : g_group;
      const int r = t - group * g_group * n_tiles;
      mt = first + r % rows; nt = r / rows;
    }
  }
  const int64_t m0 = int64_t(mt) * TM, n0 = int64_t(nt) * TN;
  // A is n x k col-major (NN) or k x n (TN: op(A)=A^T, A(k, m) at k + m*k... ) ld = n for NN, k for TN.
  const __half* a0 = AK ? A + m0 * k : A + m0;          // AK: element (m, kk) at kk + m*k
  const __half* b0 = BK ? B + n0 * k : B + n0;          // BK: element (kk, nn) at kk + nn*k
  const int64_t lda = AK ? k : n, ldb = BK ? k : n;
  using CA = Copier<AK ? TM : TK, AK ? TK : TM, T::kLdA, T::kThreads>;
  using CB = Copier<BK ? TN : TK, BK ? TK : TN, T::kLdB, T::kThreads>;
  CA ca(a0, lda, tid);
  CB cb(b0, ldb, tid);
  const int64_t a_kt = AK ? TK * 2 : int64_t(TK) * lda * 2, b_kt = BK ? TK * 2 : int64_t(TK) * ldb * 2;
  const int k_tiles = k / TK;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[T::kFM][T::kFN];
#pragma unroll
  for (int i = 0; i < T::kFM; ++i)
#pragma unroll
    for (int j = 0; j < T::kFN; ++j) wmma::fill_fragment(acc[i][j], 0.0f);
#pragma unroll
  for (int s = 0; s < S - 1; ++s) {
    if (s < k_tiles) {
      ca.template copy<0, 1>(s0 + s * T::kStage); cb.template copy<0, 1>(s0 + s * T::kStage + T::kABytes);
      ca.src += a_kt; cb.src += b_kt;
    }
    commit();
  }
  waitg<S - 2>();
  __syncthreads();
  int rs = 0, ws = S - 1;
  FA fa[2][T::kFM];
  FB fb[2][T::kFN];
  auto load = [&](int buf, int stage, int s) {
    const __half* as = reinterpret_cast<const __half*>(sm + stage * T::kStage);
    const __half* bs = reinterpret_cast<const __half*>(sm + stage * T::kStage + T::kABytes);
#pragma unroll
    for (int i = 0; i < T::kFM; ++i)
      wmma::load_matrix_sync(fa[buf][i], AK ? as + (wm0 + i * 16) * T::kLdA + s * 16 : as + (s * 16) * T::kLdA + wm0 + i * 16, T::kLdA);
#pragma unroll
    for (int j = 0; j < T::kFN; ++j)
      wmma::load_matrix_sync(fb[buf][j], BK ? bs + (wn0 + j * 16) * T::kLdB + s * 16 : bs + (s * 16) * T::kLdB + wn0 + j * 16, T::kLdB);
  };
  load(0, 0, 0);
  constexpr int kCopySteps = T::kKS - 1;
  for (int kt = 0; kt < k_tiles; ++kt) {
    for_steps(std::make_integer_sequence<int, T::kKS>{}, [&](auto s_c) {
      constexpr int s = decltype(s_c)::value;
      if (s == T::kKS - 1) {
        waitg<S - 2>();
        __syncthreads();
        rs = rs + 1 == S ? 0 : rs + 1;
      }
      load((s + 1) & 1, rs, (s + 1) % T::kKS);
      if constexpr (s < kCopySteps) {
        if (kt + S - 1 < k_tiles) {
          const uint32_t st = s0 + ws * T::kStage;
          ca.template copy<s, kCopySteps>(st); cb.template copy<s, kCopySteps>(st + T::kABytes);
          if (s == kCopySteps - 1) { ca.src += a_kt; cb.src += b_kt; }
        }
        if (s == kCopySteps - 1) { commit(); ws = ws + 1 == S ? 0 : ws + 1; }
      }
#pragma unroll
      for (int j = 0; j < T::kFN; ++j)
#pragma unroll
        for (int i = 0; i < T::kFM; ++i) wmma::mma_sync(acc[i][j], fa[s & 1][i], fb[s & 1][j], acc[i][j]);
    });
  }
#pragma unroll
  for (int i = 0; i < T::kFM; ++i)
#pragma unroll
    for (int j = 0; j < T::kFN; ++j)
      wmma::store_matrix_sync(Cm + (m0 + wm0 + i * 16) + (n0 + wn0 + j * 16) * int64_t(n), acc[i][j], n, wmma::mem_col_major);
}

// WMMA ceiling: independent accumulators, fragments in registers.
__global__ void wmma_peak(float* out, int iters) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c[8];
  wmma::fill_fragment(a, __float2half(0.001f * threadIdx.x)); wmma::fill_fragment(b, __float2half(0.5f));
  for (int i = 0; i < 8; ++i) wmma::fill_fragment(c[i], 0.0f);
  for (int it = 0; it < iters; ++it)
#pragma unroll
    for (int i = 0; i < 8; ++i) wmma::mma_sync(c[i], a, b, c[i]);
  float s = 0; for (int i = 0; i < 8; ++i) s += c[i].x[0];
  if (s == 12345.f) out[0] = s;
}

__global__ void fill(__half* x, int64_t cnt, uint32_t seed) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < cnt; i += int64_t(gridDim.x) * blockDim.x) {
    uint32_t h = uint32_t(i) * 2654435761u ^ seed * 0x9E3779B9u; h ^= h >> 15; h *= 0x2c1b3c6dU; h ^= h >> 12;
    x[i] = __float2half(float(h & 0xFFFF) / 65536.0f * 2.0f - 1.0f);
  }
}

template <class F> float med_ms(F f, int reps = 12) {
  for (int i = 0; i < 3; ++i) f();
  std::vector<cudaEvent_t> ev(2 * reps);
  for (auto& e : ev) CK(cudaEventCreate(&e));
  for (int r = 0; r < reps; ++r) { CK(cudaEventRecord(ev[2 * r])); f(); CK(cudaEventRecord(ev[2 * r + 1])); }
  CK(cudaDeviceSynchronize());
  std::vector<float> t(reps);
  for (int r = 0; r < reps; ++r) CK(cudaEventElapsedTime(&t[r], ev[2 * r], ev[2 * r + 1]));
  for (auto& e : ev) cudaEventDestroy(e);
  std::sort(t.begin(), t.end());
  return 0.5f * (t[(reps - 1) / 2] + t[reps / 2]);
}

double rel(const float* x, const float* r, int64_t cnt) {
  std::vector<float> a(cnt), b(cnt);
  CK(cudaMemcpy(a.data(), x, cnt * 4, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(b.data(), r, cnt * 4, cudaMemcpyDeviceToHost));
  double num = 0, den = 0;
  for (int64_t i = 0; i < cnt; ++i) { double d = double(a[i]) - b[i]; num += d * d; den += double(b[i]) * b[i]; }
  return std::sqrt(num / den);
}

int g_n; __half *g_A, *g_B; float *g_C, *g_ref; double g_cub;
template <int TM, int TN, int WM, int WN, int TK, int S, bool AK, bool BK, int MINB>
void run(const char* name) {
  using T = Cfg<TM, TN, WM, WN, TK, S, AK, BK, MINB>;
  auto kern = wmma_probe<TM, TN, WM, WN, TK, S, AK, BK, MINB>;
  CK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, T::kSmem));
  cudaFuncAttributes fa; CK(cudaFuncGetAttributes(&fa, kern));
  int occ = 0; CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, kern, T::kThreads, T::kSmem));
  const int n = g_n;
  int grp = 0; if (getenv("GROUP")) grp = atoi(getenv("GROUP")); CK(cudaMemcpyToSymbol(g_group, &grp, 4));
  CK(cudaMemset(g_C, 0xff, size_t(n) * n * 4));
  const int grid = (n / TM) * (n / TN);
  float ms = med_ms([&] { kern<<<grid, T::kThreads, T::kSmem>>>(g_A, g_B, g_C, n, n); });
  CK(cudaGetLastError());
  double tf = 2.0 * n * double(n) * n / ms / 1e9;
  printf("%-34s g%-2d %c%c regs %3d spill %3d occ %d smem %6d  %7.3f ms %7.1f TFLOP/s  x%.3f cuBLAS  diff %.1e\n", name, grp,
         AK ? 'T' : 'N', BK ? 'N' : 'T', fa.numRegs, int(fa.localSizeBytes), occ, T::kSmem, ms, tf, g_cub / ms,
         rel(g_C, g_ref, int64_t(n) * n));
  fflush(stdout);
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 8192; g_n = n;
  cublasHandle_t h; cublasCreate(&h);
  CK(cudaMalloc(&g_A, size_t(n) * n * 2)); CK(cudaMalloc(&g_B, size_t(n) * n * 2));
  CK(cudaMalloc(&g_C, size_t(n) * n * 4)); CK(cudaMalloc(&g_ref, size_t(n) * n * 4));
  fill<<<1024, 256>>>(g_A, int64_t(n) * n, 1); fill<<<1024, 256>>>(g_B, int64_t(n) * n, 2);
  float* dummy; CK(cudaMalloc(&dummy, 4));
  int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const int iters = 20000;
  float pk = med_ms([&] { wmma_peak<<<sms * 8, 128>>>(dummy, iters); }, 5);
  double peak = double(sms) * 8 * 4 * iters * 8 * 2.0 * 16 * 16 * 16 / pk / 1e9;
  printf("WMMA f16->f32 16x16x16 ceiling: %.1f TFLOP/s\n", peak);
  const float one = 1, zero = 0;
  for (int f = 0; f < 2; ++f) {
    const bool ta = f == 1;
    auto cub = [&] { cublasGemmEx(h, ta ? CUBLAS_OP_T : CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, g_A, CUDA_R_16F, ta ? n : n,
                                  g_B, CUDA_R_16F, n, &zero, g_ref, CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT); };
    g_cub = med_ms(cub);
    printf("cuBLAS %c N: %.3f ms %.1f TFLOP/s\n", ta ? 'T' : 'N', g_cub, 2.0 * n * double(n) * n / g_cub / 1e9);
    if (!ta) {
      run<128, 128, 64, 64, 64, 3, false, true, 2>("V1 128x128 w64x64 k64 s3");
      run<128, 128, 64, 32, 64, 3, false, true, 2>("V2 128x128 w64x32 k64 s3 (8 warps)");
      run<128, 128, 32, 64, 64, 3, false, true, 2>("V2b 128x128 w32x64 k64 s3 (8 warps)");
      run<128, 128, 64, 32, 32, 4, false, true, 2>("V2c 128x128 w64x32 k32 s4 (8 warps)");
      run<256, 128, 64, 64, 64, 3, false, true, 1>("V4a 256x128 w64x64 k64 s3");
      run<256, 128, 64, 64, 32, 4, false, true, 1>("V4 256x128 w64x64 k32 s4");
      run<256, 128, 64, 64, 32, 5, false, true, 1>("V4c 256x128 w64x64 k32 s5");
      run<128, 256, 64, 64, 32, 4, false, true, 1>("V5 128x256 w64x64 k32 s4");
      run<128, 256, 64, 64, 64, 3, false, true, 1>("V5a 128x256 w64x64 k64 s3");
      run<128, 128, 64, 64, 32, 4, false, true, 2>("V6 128x128 w64x64 k32 s4");
    } else {
      run<128, 128, 64, 64, 64, 3, true, true, 2>("V1 128x128 w64x64 k64 s3");
      run<128, 128, 64, 32, 64, 3, true, true, 2>("V2 128x128 w64x32 k64 s3 (8 warps)");
      run<256, 128, 64, 64, 64, 3, true, true, 1>("V4a 256x128 w64x64 k64 s3");
      run<256, 128, 64, 64, 32, 4, true, true, 1>("V4 256x128 w64x64 k32 s4");
      run<128, 256, 64, 64, 32, 4, true, true, 1>("V5 128x256 w64x64 k32 s4");
    }
  }
  return 0;
}
