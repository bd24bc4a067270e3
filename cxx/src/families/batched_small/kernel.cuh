// Family batched_small's kernel (rules.hpp says what it does and why).
#pragma once

#include <mma.h>

#include <cstdint>

#include "families/batched_small/args.hpp"
#include "families/batched_small/rules.hpp"

namespace tcgemm::detail::batched_small {

template <bool kArrays>
__device__ __forceinline__ const double* a_of(const BatchedArgs& p, int64_t g) {
  if constexpr (kArrays) return p.A_array[g];
  else return p.A + g * p.stride_a;
}
template <bool kArrays>
__device__ __forceinline__ const double* b_of(const BatchedArgs& p, int64_t g) {
  if constexpr (kArrays) return p.B_array[g];
  else return p.B + g * p.stride_b;
}
template <bool kArrays>
__device__ __forceinline__ double* c_of(const BatchedArgs& p, int64_t g) {
  if constexpr (kArrays) return p.C_array[g];
  else return p.C + g * p.stride_c;
}

// One operand's k-chunk of every product of the group into shared memory, as op(A) (S x KC, column-major,
// leading dimension S + 2) or op(B) (KC x S, column-major, leading dimension KC + 2). Threads walk the
// stored operand in its memory order (kKkFast: k is its contiguous index) so that loads are coalesced and a
// batch of dense matrices reads as one stream; elements past m, n or k are zeros.
//   op(A)(i, kk) = A[i + kk lda] ('N') or A[kk + i lda] ('T');  op(B)(kk, j) = B[kk + j ldb] ('N') or
//   B[j + kk ldb] ('T').
template <int S, int KC, int GROUP, int THREADS, bool kArrays, bool kIsA, bool kKkFast>
__device__ __forceinline__ void stage_in_order(const BatchedArgs& p, int64_t g0, int64_t k0, double* smem) {
  constexpr int kFast = kKkFast ? KC : S;
  constexpr int kPer = S * KC;
  constexpr int kTotal = GROUP * kPer;
  static_assert(kTotal % THREADS == 0, "batched_small: every thread stages the same number of elements");
  constexpr int kIters = kTotal / THREADS;
  const int64_t ld = kIsA ? p.lda : p.ldb;
  const int64_t outer = kIsA ? p.m : p.n;  // m rows of op(A), n columns of op(B)
  const int64_t k_left = p.k - k0;
  // The smallest class issues all of a thread's loads before any of its shared-memory stores, so that each
  // thread keeps kIters loads in flight: its products are tiny, and only many loads in flight reach HBM's
  // bandwidth. The larger classes load and store element by element: there the register file holds their
  // accumulators, and the registers of a batch of loads would cut the blocks per SM (measured on the H100:
  // 16 x 16 products at 0.42 of the roofline with batched loads, 0.63 without).
  if constexpr (S > 8) {
    for (int e = threadIdx.x; e < kTotal; e += THREADS) {
      const int gl = e / kPer, r = e - gl * kPer;
      const int slow = r / kFast, fast = r - slow * kFast;
      const int kk = kKkFast ? fast : slow, o = kKkFast ? slow : fast;
      const int64_t g = g0 + gl;
      double v = 0.0;
      if (g < p.batch && o < outer && kk < k_left) {
        const double* x = kIsA ? a_of<kArrays>(p, g) : b_of<kArrays>(p, g);
        v = kKkFast ? x[(k0 + kk) + o * ld] : x[o + (k0 + kk) * ld];
      }
      if (kIsA) smem[gl * KC * (S + 2) + kk * (S + 2) + o] = v;
      else smem[gl * S * (KC + 2) + o * (KC + 2) + kk] = v;
    }
  } else {
    double v[kIters];
#pragma unroll
    for (int it = 0; it < kIters; ++it) {
      const int e = threadIdx.x + it * THREADS;
      const int gl = e / kPer, r = e - gl * kPer;
      const int slow = r / kFast, fast = r - slow * kFast;
      const int kk = kKkFast ? fast : slow, o = kKkFast ? slow : fast;  // o: i of op(A) or j of op(B)
      const int64_t g = g0 + gl;
      v[it] = 0.0;
      if (g < p.batch && o < outer && kk < k_left) {
        const double* x = kIsA ? a_of<kArrays>(p, g) : b_of<kArrays>(p, g);
        v[it] = kKkFast ? x[(k0 + kk) + o * ld] : x[o + (k0 + kk) * ld];
      }
    }
#pragma unroll
    for (int it = 0; it < kIters; ++it) {
      const int e = threadIdx.x + it * THREADS;
      const int gl = e / kPer, r = e - gl * kPer;
      const int slow = r / kFast, fast = r - slow * kFast;
      const int kk = kKkFast ? fast : slow, o = kKkFast ? slow : fast;
      if (kIsA) smem[gl * KC * (S + 2) + kk * (S + 2) + o] = v[it];
      else smem[gl * S * (KC + 2) + o * (KC + 2) + kk] = v[it];
    }
  }
}
template <int S, int KC, int GROUP, int THREADS, bool kArrays, bool kIsA>
__device__ __forceinline__ void stage(const BatchedArgs& p, int64_t g0, int64_t k0, double* smem) {
  // k is contiguous in A^T ('T') and in B ('N').
  const bool kk_fast = kIsA ? p.trans_a : !p.trans_b;
  if (kk_fast) stage_in_order<S, KC, GROUP, THREADS, kArrays, kIsA, true>(p, g0, k0, smem);
  else stage_in_order<S, KC, GROUP, THREADS, kArrays, kIsA, false>(p, g0, k0, smem);
}

// Which 8x8 tile of which product of the group is warp `warp`'s t-th. With more products than warps (the
// smallest class) a warp's tiles are whole products, dealt round-robin. Otherwise each product's
// warps split its (S/8) x (S/8) tiles into RB x CB blocks, one a warp, so that a warp's k step loads RB
// fragments of A and CB of B for RB CB products (register blocking: fewer shared-memory loads per MMA).
template <int S, int GROUP, int WARPS, int RB, int CB>
__device__ __forceinline__ void tile_of(int warp, int t, int* gl, int* ti, int* tj) {
  constexpr int kT = S / 8;
  if constexpr (GROUP > WARPS) {
    const int tile = warp + t * WARPS;
    *gl = tile / (kT * kT);
    const int r = tile - *gl * kT * kT;
    *ti = r % kT;
    *tj = r / kT;
  } else {
    constexpr int kWarpsPerProduct = WARPS / GROUP;
    static_assert((kT / RB) * (kT / CB) == kWarpsPerProduct, "batched_small: the warps' blocks tile a product");
    const int wi = warp % kWarpsPerProduct;
    *gl = warp / kWarpsPerProduct;
    *ti = (wi % (kT / RB)) * RB + t % RB;
    *tj = (wi / (kT / RB)) * CB + t / RB;
  }
}

template <int S, int KC, int GROUP, int WARPS, int RB, int CB, int MIN_BLOCKS, bool kArrays>
__global__ void __launch_bounds__(WARPS * 32, MIN_BLOCKS) batched_small_kernel(BatchedArgs p) {
  using namespace nvcuda;
  constexpr int kTilesPerProduct = (S / 8) * (S / 8);
  constexpr int kTiles = GROUP * kTilesPerProduct;
  static_assert(kTiles % WARPS == 0, "batched_small: every warp takes the same number of 8x8 tiles");
  static_assert(S % 8 == 0 && KC % 4 == 0, "batched_small: 8x8 tiles, k steps of 4 (WMMA 8x8x4)");
  constexpr int kTilesPerWarp = kTiles / WARPS;
  extern __shared__ __align__(32) double smem[];
  double* a_s = smem;
  double* b_s = a_s + GROUP * KC * (S + 2);
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  double* scratch = b_s + GROUP * S * (KC + 2) + warp * 64;

  for (int64_t g0 = int64_t(blockIdx.x) * GROUP; g0 < p.batch; g0 += int64_t(gridDim.x) * GROUP) {
    wmma::fragment<wmma::accumulator, 8, 8, 4, double> acc[kTilesPerWarp];
#pragma unroll
    for (int t = 0; t < kTilesPerWarp; ++t) wmma::fill_fragment(acc[t], 0.0);
    for (int64_t k0 = 0; k0 < p.k; k0 += KC) {
      __syncthreads();  // the previous chunk's (or group's) tiles are no longer read
      stage<S, KC, GROUP, WARPS * 32, kArrays, true>(p, g0, k0, a_s);
      stage<S, KC, GROUP, WARPS * 32, kArrays, false>(p, g0, k0, b_s);
      __syncthreads();
      const int steps = static_cast<int>((p.k - k0 < KC ? p.k - k0 : KC) + 3) / 4;
      if constexpr (GROUP > WARPS) {
#pragma unroll
        for (int t = 0; t < kTilesPerWarp; ++t) {
          int gl, ti, tj;
          tile_of<S, GROUP, WARPS, RB, CB>(warp, t, &gl, &ti, &tj);
          if (g0 + gl >= p.batch || ti * 8 >= p.m || tj * 8 >= p.n) continue;  // warp-uniform
          const double* a_tile = a_s + gl * KC * (S + 2) + ti * 8;
          const double* b_tile = b_s + gl * S * (KC + 2) + tj * 8 * (KC + 2);
          for (int s = 0; s < steps; ++s) {
            wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::col_major> fa;
            wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> fb;
            wmma::load_matrix_sync(fa, a_tile + s * 4 * (S + 2), S + 2);
            wmma::load_matrix_sync(fb, b_tile + s * 4, KC + 2);
            wmma::mma_sync(acc[t], fa, fb, acc[t]);
          }
        }
      } else {
        static_assert(RB * CB == kTilesPerWarp, "batched_small: a warp's tiles are one RB x CB block");
        int gl, ti0, tj0;
        tile_of<S, GROUP, WARPS, RB, CB>(warp, 0, &gl, &ti0, &tj0);
        if (g0 + gl < p.batch && ti0 * 8 < p.m && tj0 * 8 < p.n) {  // warp-uniform
          const double* a_blk = a_s + gl * KC * (S + 2) + ti0 * 8;
          const double* b_blk = b_s + gl * S * (KC + 2) + tj0 * 8 * (KC + 2);
          for (int s = 0; s < steps; ++s) {
            wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::col_major> fa[RB];
            wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> fb[CB];
#pragma unroll
            for (int r = 0; r < RB; ++r) wmma::load_matrix_sync(fa[r], a_blk + r * 8 + s * 4 * (S + 2), S + 2);
#pragma unroll
            for (int c = 0; c < CB; ++c) wmma::load_matrix_sync(fb[c], b_blk + c * 8 * (KC + 2) + s * 4, KC + 2);
            // Tiles of the block past m or n multiply zeros (staged as such) and are not written.
#pragma unroll
            for (int c = 0; c < CB; ++c)
#pragma unroll
              for (int r = 0; r < RB; ++r) wmma::mma_sync(acc[r + c * RB], fa[r], fb[c], acc[r + c * RB]);
          }
        }
      }
    }
    // Each tile through the warp's scratch: C = alpha acc + beta C inside the product's m x n.
#pragma unroll
    for (int t = 0; t < kTilesPerWarp; ++t) {
      int gl, ti, tj;
      tile_of<S, GROUP, WARPS, RB, CB>(warp, t, &gl, &ti, &tj);
      const int64_t g = g0 + gl;
      if (g >= p.batch || ti * 8 >= p.m || tj * 8 >= p.n) continue;
      wmma::store_matrix_sync(scratch, acc[t], 8, wmma::mem_col_major);
      __syncwarp();
      double* c = c_of<kArrays>(p, g);
      for (int e = lane; e < 64; e += 32) {
        const int i = ti * 8 + (e & 7), j = tj * 8 + (e >> 3);
        if (i < p.m && j < p.n) {
          double* cij = c + i + int64_t(j) * p.ldc;
          const double v = p.alpha * scratch[e];
          *cij = p.beta == 0.0 ? v : v + p.beta * *cij;  // beta = 0: C is not read
        }
      }
      __syncwarp();
    }
  }
}

// C = beta C for every product (alpha = 0 or k = 0); beta = 0 writes zeros without reading C.
template <bool kArrays>
__global__ void batched_scale_kernel(BatchedArgs p) {
  const int64_t per = p.m * p.n;
  for (int64_t e = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; e < per * p.batch;
       e += int64_t(gridDim.x) * blockDim.x) {
    const int64_t g = e / per, r = e - g * per, j = r / p.m, i = r - j * p.m;
    double* c = c_of<kArrays>(p, g) + i + j * p.ldc;
    *c = p.beta == 0.0 ? 0.0 : p.beta * *c;
  }
}

}  // namespace tcgemm::detail::batched_small
