// Streaming gemv variants against tcgemm's skinny kernels and cuBLAS, in one process.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <functional>
#include <cmath>
#include <string>
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include "tcgemm/tcgemm.h"
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)

struct P {
  int rows; long cols, k, slice_k;
  const double* S; long s_row, s_k;
  const double* G; long g_k, g_col;
  double alpha, beta; double* C; long c_row, c_col, c_slice_step;
};

// k-contiguous G: one warp per (column, k slice).
template <int R, bool KM>
__device__ __forceinline__ double2 s_pair(const P& p, int i, long kk) {
  if (!KM) return __ldg(reinterpret_cast<const double2*>(p.S + i * p.s_row + kk));
  return make_double2(__ldg(p.S + kk * p.s_k + i), __ldg(p.S + (kk + 1) * p.s_k + i));
}
template <int R, int U, int MinB, bool KM = false>
__global__ void __launch_bounds__(256, MinB) gemv_t_stream(const P p) {
  const int lane = threadIdx.x & 31;
  const long col = long(blockIdx.x) * 8 + threadIdx.x / 32;
  if (col >= p.cols) return;
  const long k0 = long(blockIdx.y) * p.slice_k;
  const long k1 = min(p.k, k0 + p.slice_k);
  const double* g = p.G + col * p.g_col;
  double acc[R];
#pragma unroll
  for (int i = 0; i < R; ++i) acc[i] = 0.0;
  long kk = k0 + 2 * lane;
  for (; kk + 64 * (U - 1) + 1 < k1; kk += 64 * U) {
    double2 v[U];
#pragma unroll
    for (int u = 0; u < U; ++u) v[u] = __ldcs(reinterpret_cast<const double2*>(g + kk + 64 * u));
#pragma unroll
    for (int u = 0; u < U; ++u)
#pragma unroll
      for (int i = 0; i < R; ++i) {
        const double2 s = s_pair<R, KM>(p, i, kk + 64 * u);
        acc[i] = fma(s.y, v[u].y, fma(s.x, v[u].x, acc[i]));
      }
  }
  for (; kk + 1 < k1; kk += 64) {
    const double2 v = __ldcs(reinterpret_cast<const double2*>(g + kk));
#pragma unroll
    for (int i = 0; i < R; ++i) {
      const double2 s = s_pair<R, KM>(p, i, kk);
      acc[i] = fma(s.y, v.y, fma(s.x, v.x, acc[i]));
    }
  }
  if (kk < k1) {
    const double v = __ldcs(g + kk);
#pragma unroll
    for (int i = 0; i < R; ++i) acc[i] = fma(p.S[i * p.s_row + kk * p.s_k], v, acc[i]);
  }
#pragma unroll
  for (int i = 0; i < R; ++i)
    for (int o = 16; o; o >>= 1) acc[i] += __shfl_xor_sync(0xffffffffu, acc[i], o);
  if (lane < R) {
    double s = acc[0];
#pragma unroll
    for (int i = 1; i < R; ++i) if (lane == i) s = acc[i];
    double* c = p.C + long(blockIdx.y) * p.c_slice_step + lane * p.c_row + col * p.c_col;
    *c = p.beta == 0.0 ? p.alpha * s : fma(p.beta, *c, p.alpha * s);
  }
}

// cols-contiguous G: a thread per two adjacent columns, grid.y k slices.
template <int R, int U, int MinB>
__global__ void __launch_bounds__(256, MinB) gemv_n_stream(const P p) {
  const long c = (long(blockIdx.x) * 256 + threadIdx.x) * 2;
  if (c >= p.cols) return;
  const bool two = c + 1 < p.cols;
  const long k0 = long(blockIdx.y) * p.slice_k;
  const long k1 = min(p.k, k0 + p.slice_k);
  const double* g = p.G + c;
  double a0[R], a1[R];
#pragma unroll
  for (int i = 0; i < R; ++i) a0[i] = a1[i] = 0.0;
  long kk = k0;
  if (two) {
    for (; kk + U - 1 < k1; kk += U) {
      double2 v[U];
#pragma unroll
      for (int u = 0; u < U; ++u) v[u] = __ldcs(reinterpret_cast<const double2*>(g + (kk + u) * p.g_k));
#pragma unroll
      for (int u = 0; u < U; ++u)
#pragma unroll
        for (int i = 0; i < R; ++i) {
          const double s = __ldg(p.S + i * p.s_row + (kk + u) * p.s_k);
          a0[i] = fma(s, v[u].x, a0[i]);
          a1[i] = fma(s, v[u].y, a1[i]);
        }
    }
  }
  for (; kk < k1; ++kk) {
    const double x = __ldcs(g + kk * p.g_k);
    const double y = two ? __ldcs(g + kk * p.g_k + 1) : 0.0;
#pragma unroll
    for (int i = 0; i < R; ++i) {
      const double s = __ldg(p.S + i * p.s_row + kk * p.s_k);
      a0[i] = fma(s, x, a0[i]);
      a1[i] = fma(s, y, a1[i]);
    }
  }
  double* out = p.C + long(blockIdx.y) * p.c_slice_step;
#pragma unroll
  for (int i = 0; i < R; ++i) {
    double* o0 = out + i * p.c_row + c * p.c_col;
    *o0 = p.beta == 0.0 ? p.alpha * a0[i] : fma(p.beta, *o0, p.alpha * a0[i]);
    if (two) {
      double* o1 = o0 + p.c_col;
      *o1 = p.beta == 0.0 ? p.alpha * a1[i] : fma(p.beta, *o1, p.alpha * a1[i]);
    }
  }
}

// cols-contiguous G, block = Gr groups along k, each of 256/Gr threads x 2 columns; partial sums of the
// slices to workspace; the last block of a column block (counter) adds them in slice order.
template <int R, int U, int Gr>
__global__ void __launch_bounds__(256, 2) gemv_n_groups(const P p, double* W, unsigned* ctr) {
  constexpr int TPG = 256 / Gr, CB = 2 * TPG;
  __shared__ double red[Gr][R][CB];
  __shared__ bool last;
  const int grp = threadIdx.x / TPG, t = threadIdx.x % TPG;
  const long c = long(blockIdx.x) * CB + 2 * t;
  const bool has0 = c < p.cols, two = c + 1 < p.cols;
  const long k0 = long(blockIdx.y) * p.slice_k;
  const long k1 = min(p.k, k0 + p.slice_k);
  const double* g = p.G + c;
  double a0[R], a1[R];
#pragma unroll
  for (int i = 0; i < R; ++i) a0[i] = a1[i] = 0.0;
  long kk = k0 + grp;
  if (two) {
    for (; kk + long(U - 1) * Gr < k1; kk += long(U) * Gr) {
      double2 v[U];
#pragma unroll
      for (int u = 0; u < U; ++u) v[u] = __ldcs(reinterpret_cast<const double2*>(g + (kk + u * Gr) * p.g_k));
#pragma unroll
      for (int u = 0; u < U; ++u)
#pragma unroll
        for (int i = 0; i < R; ++i) {
          const double s = __ldg(p.S + i * p.s_row + (kk + u * Gr) * p.s_k);
          a0[i] = fma(s, v[u].x, a0[i]);
          a1[i] = fma(s, v[u].y, a1[i]);
        }
    }
  }
  if (has0)
    for (; kk < k1; kk += Gr) {
      const double x = __ldcs(g + kk * p.g_k);
      const double y = two ? __ldcs(g + kk * p.g_k + 1) : 0.0;
#pragma unroll
      for (int i = 0; i < R; ++i) {
        const double s = __ldg(p.S + i * p.s_row + kk * p.s_k);
        a0[i] = fma(s, x, a0[i]);
        a1[i] = fma(s, y, a1[i]);
      }
    }
#pragma unroll
  for (int i = 0; i < R; ++i) { red[grp][i][2 * t] = a0[i]; red[grp][i][2 * t + 1] = a1[i]; }
  __syncthreads();
  const bool split = gridDim.y > 1;
  const long base = long(blockIdx.x) * CB;
  for (int idx = threadIdx.x; idx < R * CB; idx += 256) {
    const int i = idx / CB, cc = idx % CB;
    if (i >= p.rows || base + cc >= p.cols) continue;
    double sum = 0.0;
#pragma unroll
    for (int q = 0; q < Gr; ++q) sum += red[q][i][cc];
    if (!split) {
      double* o = p.C + i * p.c_row + (base + cc) * p.c_col;
      *o = p.beta == 0.0 ? p.alpha * sum : fma(p.beta, *o, p.alpha * sum);
    } else {
      W[long(blockIdx.y) * p.rows * p.cols + i + (base + cc) * p.rows] = sum;
    }
  }
  if (!split) return;
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) last = atomicAdd(ctr + blockIdx.x, 1u) == gridDim.y - 1;
  __syncthreads();
  if (!last) return;
  __threadfence();
  for (int idx = threadIdx.x; idx < R * CB; idx += 256) {
    const int i = idx / CB, cc = idx % CB;
    if (i >= p.rows || base + cc >= p.cols) continue;
    const double* w = W + i + (base + cc) * p.rows;
    double sum = 0.0;
    for (long q = 0; q < gridDim.y; ++q) sum += __ldcg(w + q * p.rows * p.cols);
    double* o = p.C + i * p.c_row + (base + cc) * p.c_col;
    *o = p.beta == 0.0 ? p.alpha * sum : fma(p.beta, *o, p.alpha * sum);
  }
  if (threadIdx.x == 0) ctr[blockIdx.x] = 0;
}

__device__ __forceinline__ void dmma(double& d0, double& d1, double a, double b) {
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};\n"
               : "+d"(d0), "+d"(d1) : "d"(a), "d"(b));
}
// Rows <= 8 over a k-contiguous G on the FP64 tensor cores: a warp per 8 columns x k slice; lane (n = lane/4,
// q = lane%4) loads G(kb + 2q .. +1, col0 + n) per 8-deep step and issues two m8n8k4 (k permuted).
template <int U, int MinB>
__global__ void __launch_bounds__(256, MinB) skinny_dmma(const P p) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const long col0 = (long(blockIdx.x) * 8 + warp) * 8;
  if (col0 >= p.cols) return;
  const int n = lane >> 2, q = lane & 3;
  const bool col_ok = col0 + n < p.cols, row_ok = n < p.rows;
  const double* g = p.G + (col0 + n) * p.g_col;
  const double* s = p.S + n * p.s_row;
  const long k0 = long(blockIdx.y) * p.slice_k;
  const long k1 = min(p.k, k0 + p.slice_k);
  double d0 = 0.0, d1 = 0.0;
  long kb = k0;
  for (; kb + 8 * U <= k1; kb += 8 * U) {
    double2 v[U];
#pragma unroll
    for (int u = 0; u < U; ++u) v[u] = col_ok ? __ldcs(reinterpret_cast<const double2*>(g + kb + 8 * u + 2 * q)) : make_double2(0.0, 0.0);
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const long kk = kb + 8 * u + 2 * q;
      const double a0 = row_ok ? __ldg(s + kk * p.s_k) : 0.0;
      const double a1 = row_ok ? __ldg(s + (kk + 1) * p.s_k) : 0.0;
      dmma(d0, d1, a0, v[u].x);
      dmma(d0, d1, a1, v[u].y);
    }
  }
  for (; kb < k1; kb += 8) {
    const long kk = kb + 2 * q;
    double2 v = make_double2(0.0, 0.0);
    double a0 = 0.0, a1 = 0.0;
    if (col_ok && kk + 1 < k1) v = __ldcs(reinterpret_cast<const double2*>(g + kk));
    else if (col_ok && kk < k1) v.x = __ldcs(g + kk);
    if (row_ok && kk < k1) a0 = __ldg(s + kk * p.s_k);
    if (row_ok && kk + 1 < k1) a1 = __ldg(s + (kk + 1) * p.s_k);
    dmma(d0, d1, a0, v.x);
    dmma(d0, d1, a1, v.y);
  }
  // C fragment: row n (= lane / 4), columns col0 + 2q, + 1
  double* out = p.C + long(blockIdx.y) * p.c_slice_step;
  const long c = col0 + 2 * q;
  if (n < p.rows) {
    if (c < p.cols) { double* o = out + n * p.c_row + c * p.c_col; *o = p.beta == 0.0 ? p.alpha * d0 : fma(p.beta, *o, p.alpha * d0); }
    if (c + 1 < p.cols) { double* o = out + n * p.c_row + (c + 1) * p.c_col; *o = p.beta == 0.0 ? p.alpha * d1 : fma(p.beta, *o, p.alpha * d1); }
  }
}

// Sum of slices in order: out(i, j) = alpha sum_s W[s][i + j rows] + beta out.
__global__ void reduce_slices(const double* W, long rows, long cols, long slices, double alpha, double beta,
                              double* C, long c_row, long c_col) {
  const long idx = long(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= rows * cols) return;
  double s = 0.0;
#pragma unroll 8
  for (long q = 0; q < slices; ++q) s += __ldcg(W + q * rows * cols + idx);
  const long i = idx % rows, j = idx / rows;
  double* c = C + i * c_row + j * c_col;
  *c = beta == 0.0 ? alpha * s : fma(beta, *c, alpha * s);
}
__global__ void flush_kernel(double* p, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) p[i] = double(i);
}

int main() {
  int sms = 0; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  cublasHandle_t hb; cublasCreate(&hb);
  const size_t flush_n = 128ull << 20 >> 3; double* flush; CK(cudaMalloc(&flush, flush_n * 8));
  double* work; CK(cudaMalloc(&work, 64ull << 20));
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  struct Shape { char ta, tb; long m, n, k; };
  std::vector<Shape> shapes = {{'N','N',8,8192,8192}, {'T','N',8,8192,8192}, {'N','N',4,4096,4096}, {'N','N',3,7777,9999}, {'N','N',8,4096,4096}, {'T','T',8192,5,8192}, {'N','N',8,100000,300}};
  for (const Shape& sh : shapes) {
    const long m = sh.m, n = sh.n, k = sh.k;
    const long am = sh.ta == 'N' ? m : k, an = sh.ta == 'N' ? k : m, bm = sh.tb == 'N' ? k : n, bn = sh.tb == 'N' ? n : k;
    const long lda = am, ldb = bm, ldc = m;
    double *A, *B, *C, *R;
    CK(cudaMalloc(&A, am * an * 8)); CK(cudaMalloc(&B, bm * bn * 8)); CK(cudaMalloc(&C, m * n * 8)); CK(cudaMalloc(&R, m * n * 8));
    {
      std::vector<double> h(std::max(am * an, bm * bn));
      for (auto& x : h) x = double(rand()) / RAND_MAX - 0.5;
      CK(cudaMemcpy(A, h.data(), am * an * 8, cudaMemcpyHostToDevice));
      for (auto& x : h) x = double(rand()) / RAND_MAX - 0.5;
      CK(cudaMemcpy(B, h.data(), bm * bn * 8, cudaMemcpyHostToDevice));
    }
    const double one = 1.0, zero = 0.0;
    auto cub = [&]() { cublasDgemm(hb, sh.ta == 'N' ? CUBLAS_OP_N : CUBLAS_OP_T, sh.tb == 'N' ? CUBLAS_OP_N : CUBLAS_OP_T, m, n, k, &one, A, lda, B, ldb, &zero, R, ldc); };
    auto tcg = [&]() { tcgemm_dgemm(sh.ta, sh.tb, m, n, k, 1.0, A, lda, B, ldb, 0.0, C, ldc, nullptr); };
    // normalise like the skinny family
    P p{};
    const bool use_m = m <= 8 && (m <= n || n > 8);
    bool kcontig;
    if (use_m) {
      const bool a_n = sh.ta == 'N', b_n = sh.tb == 'N';
      p.rows = m; p.cols = n; p.k = k; p.S = A; p.s_row = a_n ? 1 : lda; p.s_k = a_n ? lda : 1;
      p.G = B; p.g_k = b_n ? 1 : ldb; p.g_col = b_n ? ldb : 1; p.c_row = 1; p.c_col = ldc; kcontig = b_n;
    } else {
      const bool a_n = sh.ta == 'N', b_n = sh.tb == 'N';
      p.rows = n; p.cols = m; p.k = k; p.S = B; p.s_row = b_n ? ldb : 1; p.s_k = b_n ? 1 : ldb;
      p.G = A; p.g_k = a_n ? lda : 1; p.g_col = a_n ? 1 : lda; p.c_row = ldc; p.c_col = 1; kcontig = !a_n;
    }
    p.alpha = 1; p.beta = 0; p.C = C;
    struct V { const char* name; std::function<void()> f; };
    std::vector<V> vs;
    vs.push_back({"cublas", cub});
    vs.push_back({"tcgemm", tcg});
    auto add_t = [&](const char* name, auto kern, long slices) {
      vs.push_back({name, [=]() {
        P q = p; q.slice_k = ((k + slices - 1) / slices + 63) / 64 * 64;
        const long sl = (k + q.slice_k - 1) / q.slice_k;
        if (sl > 1) { q.C = work; q.c_row = 1; q.c_col = q.rows; q.c_slice_step = q.rows * q.cols; }
        kern<<<dim3((q.cols + 7) / 8, sl), 256>>>(q);
        if (sl > 1) reduce_slices<<<(q.rows * q.cols + 255) / 256, 256>>>(work, q.rows, q.cols, sl, p.alpha, p.beta, p.C, p.c_row, p.c_col);
      }});
    };
    auto add_n = [&](const char* name, auto kern, long slices) {
      vs.push_back({name, [=]() {
        P q = p; q.slice_k = (k + slices - 1) / slices;
        const long sl = (k + q.slice_k - 1) / q.slice_k;
        if (sl > 1) { q.C = work; q.c_row = 1; q.c_col = q.rows; q.c_slice_step = q.rows * q.cols; }
        kern<<<dim3((q.cols + 511) / 512, sl), 256>>>(q);
        if (sl > 1) reduce_slices<<<(q.rows * q.cols + 255) / 256, 256>>>(work, q.rows, q.cols, sl, p.alpha, p.beta, p.C, p.c_row, p.c_col);
      }});
    };
    auto add_g = [&](const char* name, auto kern, int Gr, long slices) {
      vs.push_back({name, [=]() {
        P q = p; q.slice_k = (k + slices - 1) / slices;
        const long sl = (k + q.slice_k - 1) / q.slice_k;
        const long bx = (q.cols + 512 / Gr - 1) / (512 / Gr);
        unsigned* ctr = reinterpret_cast<unsigned*>(work + (48ull << 20) / 8);
        if (sl > 1) cudaMemsetAsync(ctr, 0, bx * 4);
        kern<<<dim3(bx, sl), 256>>>(q, work, ctr);
      }});
    };
    char names[128][64]; int ni = 0;
    const bool skm = p.s_k != 1;
    auto add_d = [&](const char* name, auto kern, long slices) {
      vs.push_back({name, [=]() {
        P q = p; q.slice_k = ((k + slices - 1) / slices + 7) / 8 * 8;
        const long sl = (k + q.slice_k - 1) / q.slice_k;
        if (sl > 1) { q.C = work; q.c_row = 1; q.c_col = q.rows; q.c_slice_step = q.rows * q.cols; }
        kern<<<dim3((q.cols + 63) / 64, sl), 256>>>(q);
        if (sl > 1) reduce_slices<<<(q.rows * q.cols + 255) / 256, 256>>>(work, q.rows, q.cols, sl, p.alpha, p.beta, p.C, p.c_row, p.c_col);
      }});
    };
    if (kcontig && p.rows >= 3) {
      const long tiles = (p.cols + 7) / 8;
      for (long target : {16L, 32L}) {
        const long sl = std::max(1L, (target * sms + tiles - 1) / tiles);
        snprintf(names[ni], 64, "d U8 B4 %ldw/SM sl%ld", target, sl); add_d(names[ni++], skinny_dmma<8, 4>, sl);
        snprintf(names[ni], 64, "d U4 B4 %ldw/SM sl%ld", target, sl); add_d(names[ni++], skinny_dmma<4, 4>, sl);
        snprintf(names[ni], 64, "d U16 B2 %ldw/SM sl%ld", target, sl); add_d(names[ni++], skinny_dmma<16, 2>, sl);
      }
    } else if (kcontig && p.rows == 2) {
      for (long sl : {1L, 2L}) {
        snprintf(names[ni], 64, "t R2km U8 B4 sl%ld", sl); add_t(names[ni++], gemv_t_stream<2, 8, 4, true>, sl);
        snprintf(names[ni], 64, "t R2km U4 B4 sl%ld", sl); add_t(names[ni++], gemv_t_stream<2, 4, 4, true>, sl);
      }
    } else if (kcontig) {
      const long blocks1 = (p.cols + 7) / 8;
      for (long sl : {1L, 2L, 4L}) {
        if (sl > 1 && blocks1 * sl > 8 * 4 * sms) continue;
        if (p.rows == 1) {
          snprintf(names[ni], 64, "t R1 U8 B4 sl%ld", sl); add_t(names[ni++], gemv_t_stream<1, 8, 4>, sl);
          snprintf(names[ni], 64, "t R1 U4 B4 sl%ld", sl); add_t(names[ni++], gemv_t_stream<1, 4, 4>, sl);
          snprintf(names[ni], 64, "t R1 U16 B3 sl%ld", sl); add_t(names[ni++], gemv_t_stream<1, 16, 3>, sl);
          snprintf(names[ni], 64, "t R1 U4 B8 sl%ld", sl); add_t(names[ni++], gemv_t_stream<1, 4, 8>, sl);
        } else {
          snprintf(names[ni], 64, "t R2 U8 B4 sl%ld", sl); add_t(names[ni++], gemv_t_stream<2, 8, 4>, sl);
          snprintf(names[ni], 64, "t R2 U4 B4 sl%ld", sl); add_t(names[ni++], gemv_t_stream<2, 4, 4>, sl);
        }
      }
    } else {
      const long bx = (p.cols + 511) / 512;
      for (int Gr : {1, 4, 8}) {
        const long gbx = (p.cols + 512 / Gr - 1) / (512 / Gr);
        for (long target : {2L, 4L}) {
          const long sl = std::max(1L, (target * sms + gbx - 1) / gbx);
          snprintf(names[ni], 64, "g R1 U8 G%d %ld/SM sl%ld", Gr, target, sl);
          if (Gr == 1) add_g(names[ni++], gemv_n_groups<1, 8, 1>, Gr, sl);
          else if (Gr == 4) add_g(names[ni++], gemv_n_groups<1, 8, 4>, Gr, sl);
          else add_g(names[ni++], gemv_n_groups<1, 8, 8>, Gr, sl);
          snprintf(names[ni], 64, "g R1 U4 G%d %ld/SM sl%ld", Gr, target, sl);
          if (Gr == 1) add_g(names[ni++], gemv_n_groups<1, 4, 1>, Gr, sl);
          else if (Gr == 4) add_g(names[ni++], gemv_n_groups<1, 4, 4>, Gr, sl);
          else add_g(names[ni++], gemv_n_groups<1, 4, 8>, Gr, sl);
        }
      }
      for (long target : {2L}) {
        long sl = std::max(1L, (target * sms + bx - 1) / bx);
        snprintf(names[ni], 64, "n R1 U8 B4 %ld/SM sl%ld", target, sl); add_n(names[ni++], gemv_n_stream<1, 8, 4>, sl);
        snprintf(names[ni], 64, "n R1 U4 B4 %ld/SM sl%ld", target, sl); add_n(names[ni++], gemv_n_stream<1, 4, 4>, sl);
        snprintf(names[ni], 64, "n R1 U16 B2 %ld/SM sl%ld", target, sl); add_n(names[ni++], gemv_n_stream<1, 16, 2>, sl);
      }
    }
    // correctness vs cublas
    cub(); CK(cudaDeviceSynchronize());
    std::vector<double> ref(m * n), got(m * n);
    CK(cudaMemcpy(ref.data(), R, m * n * 8, cudaMemcpyDeviceToHost));
    printf("\n%c%c %ldx%ldx%ld (large operand %.1f MB)\n", sh.ta, sh.tb, m, n, k, double(std::max(am * an, bm * bn)) * 8 / 1e6);
    for (auto& v : vs) {
      CK(cudaMemset(C, 0xff, m * n * 8));
      v.f(); CK(cudaDeviceSynchronize());
      CK(cudaMemcpy(got.data(), C, m * n * 8, cudaMemcpyDeviceToHost));
      double err = 0; for (long i = 0; i < m * n; ++i) err = std::max(err, std::fabs(got[i] - ref[i]));
      if (v.name == std::string("cublas")) err = 0;
      // timing: interleaved with cublas (median of 31), cold (after flush)
      for (int w = 0; w < 5; ++w) { v.f(); cub(); }
      std::vector<float> inter, coldt, cub_inter;
      for (int r = 0; r < 31; ++r) {
        CK(cudaEventRecord(e0)); v.f(); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
        float ms; cudaEventElapsedTime(&ms, e0, e1); inter.push_back(ms * 1000);
        CK(cudaEventRecord(e0)); cub(); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
        cudaEventElapsedTime(&ms, e0, e1); cub_inter.push_back(ms * 1000);
      }
      for (int r = 0; r < 21; ++r) {
        flush_kernel<<<4 * sms, 256>>>(flush, flush_n);
        CK(cudaEventRecord(e0)); v.f(); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
        float ms; cudaEventElapsedTime(&ms, e0, e1); coldt.push_back(ms * 1000);
      }
      CK(cudaGetLastError());
      std::sort(inter.begin(), inter.end()); std::sort(coldt.begin(), coldt.end()); std::sort(cub_inter.begin(), cub_inter.end());
      printf("  %-26s inter %7.2f us (cublas %7.2f, ratio %.3f)  cold %7.2f us  err %.2e\n", v.name, inter[15], cub_inter[15],
             cub_inter[15] / inter[15], coldt[10], err);
    }
    cudaFree(A); cudaFree(B); cudaFree(C); cudaFree(R);
  }
  return 0;
}
