// Family batched_small's kernel (rules.hpp says what it does and why).
#pragma once

#include <mma.h>

#include <cstdint>

#include "arch/cp_async_sm80.cuh"
#include "families/batched_small/args.hpp"
#include "families/common/batched_operands.cuh"
#include "families/batched_small/rules.hpp"

namespace tcgemm::detail::batched_small {

// Class kClass of rules.hpp as compile-time constants (its layout computed there, in one place).
template <int kClass>
struct Shape {
  static constexpr BatchedClass kC = kBatchedClasses[kClass];
  static_assert(kC.valid(), "batched_small: a class that breaks rules.hpp's rules");
  static constexpr int kS = kC.size, kKC = kC.kc, kGroup = kC.group, kWarps = kC.warps, kRB = kC.rb, kCB = kC.cb;
  static constexpr int kStages = kC.stages;
  static constexpr int kP = kC.per_tile();        // products on one tile's diagonal
  static constexpr int kTS = kC.tile_size();      // extent of a staged tile-product
  static constexpr int kGT = kC.tile_products();  // tile-products per group
  static constexpr int kThreads = kWarps * 32;
  static constexpr int kLdA = kC.ld_a();          // staged op(A): kTS x KC, column-major
  static constexpr int kLdB = kC.ld_b();          // staged op(B): KC x kTS, column-major
  static constexpr int kStageA = kC.stage_a_doubles();
  static constexpr int kStage = kC.stage_doubles();
  static constexpr int kTilesPerWarp = kC.tiles_per_warp();
};

// One operand's k-chunk of every product of the group into one ring buffer, as op(A) (product slot rows of a
// kTS x KC tile) or op(B) (product slot columns of a KC x kTS tile). Threads walk each stored operand in its
// memory order (kKkFast: k is its contiguous index), so a warp's copies are consecutive addresses. Copies are
// cp.async (no registers held while in flight); elements past m, n, k or the batch are written as zeros
// directly. A thread's copies belong to the commit group the caller closes.
//   op(A)(i, kk) = A[i + kk lda] ('N') or A[kk + i lda] ('T');  op(B)(kk, j) = B[kk + j ldb] ('N') or
//   B[j + kk ldb] ('T').
// Where two elements consecutive in memory are also consecutive in the staged layout (op(A) of 'N' and op(B)
// of 'N': every class's fast extent, S or KC, is even, so pairs never straddle a product or a column), a
// thread copies the pair with one 16-byte cp.async.cg when its source is 16-byte aligned: half the copy
// instructions, and no L1 lines allocated (the 8-byte form, cp.async.ca, is the only one 8-byte copies have).
//
// A copy unit (a pair, or one element) is addressed by a slot of the product's S x KC grid. Each thread owns the
// same slots of every product it stages (kSlotThreads threads share one product's slots; kLanes products are
// staged side by side), so what a slot's address needs from m, n, k, ld and its position is worked out once
// per chunk, and a product costs a pointer and a batch check: staging is instruction-bound otherwise (the
// smallest classes issued from every scheduler more than half the time at a fraction of HBM's bandwidth).
template <class Sh, bool kArrays, bool kIsA, bool kKkFast>
__device__ __forceinline__ void stage_in_order(const BatchedArgs& p, int64_t g0, int64_t k0, double* buf) {
  constexpr int S = Sh::kS, KC = Sh::kKC, GROUP = Sh::kGroup;
  constexpr int kFast = kKkFast ? KC : S;
  constexpr bool kPairs = kIsA != kKkFast;  // the staged layout's contiguous index is the memory's
  constexpr int kStep = kPairs ? 2 : 1;
  static_assert(kFast % 2 == 0, "batched_small: pairs of consecutive elements stay within one column");
  constexpr int kSlots = S * KC / kStep;  // copy units per product
  constexpr int kSlotThreads = kSlots < Sh::kThreads ? kSlots : Sh::kThreads;
  constexpr int kLanes = Sh::kThreads / kSlotThreads;  // products staged side by side
  constexpr int kInner = (kSlots + kSlotThreads - 1) / kSlotThreads;
  const int lane = threadIdx.x / kSlotThreads, slot0 = threadIdx.x - lane * kSlotThreads;
  if (lane >= kLanes) return;  // threads past the last whole lane (kThreads not a multiple of kSlots)
  const int64_t ld = kIsA ? p.lda : p.ldb;
  const int64_t outer = kIsA ? p.m : p.n;  // m rows of op(A), n columns of op(B)
  const int64_t k_left = p.k - k0;
  // This thread's i-th slot: offsets in the source matrix and in the staged tile, and which elements exist.
  struct Slot {
    int64_t src;
    int dst;
    bool v0, v1, mine;
  };
  auto slot_of = [&](int i) {
    const int u = (slot0 + i * kSlotThreads) * kStep;
    const int slow = u / kFast, fast = u - slow * kFast;
    const int kk = kKkFast ? fast : slow, o = kKkFast ? slow : fast;  // o: i of op(A) or j of op(B)
    Slot t;
    t.mine = kSlots % kSlotThreads == 0 || u < S * KC;
    t.src = kKkFast ? (k0 + kk) + o * ld : o + (k0 + kk) * ld;
    t.dst = kIsA ? kk * Sh::kLdA + o : o * Sh::kLdB + kk;
    t.v0 = o < outer && kk < k_left;
    // The pair's second element: the next k ('N' B) or the next row ('N' A).
    t.v1 = kKkFast ? o < outer && kk + 1 < k_left : o + 1 < outer && kk < k_left;
    return t;
  };
  // Worked out once per chunk where a thread has one slot of each of several products (the small classes);
  // per product otherwise (more slots would hold more registers than they save instructions).
  constexpr bool kHoist = kInner == 1 && GROUP > 1;
  Slot hoisted{};
  if constexpr (kHoist) hoisted = slot_of(0);
  for (int gl = lane; gl < GROUP; gl += kLanes) {
    const int tg = gl / Sh::kP, q = gl - tg * Sh::kP;  // tile-product and diagonal slot
    double* tile = kIsA ? buf + tg * KC * Sh::kLdA + q * S : buf + tg * Sh::kTS * Sh::kLdB + q * S * Sh::kLdB;
    const int64_t g = g0 + gl;
    const bool in_batch = g < p.batch;
    const double* x = nullptr;
    if (in_batch) x = kIsA ? a_of<kArrays>(p, g) : b_of<kArrays>(p, g);
    // Unrolled twice where the copies of several products interleave; once for a class's single product,
    // whose accumulators already fill the register file.
    constexpr int kUnroll = GROUP == 1 ? 1 : 2;
#pragma unroll(kUnroll)
    for (int i = 0; i < kInner; ++i) {
      const Slot t = kHoist ? hoisted : slot_of(i);
      if (!t.mine) continue;
      double* dst = tile + t.dst;
      const bool e0 = in_batch && t.v0;
      if constexpr (kPairs) {
        const bool e1 = in_batch && t.v1;
        const double* src = x + t.src;
        if (e0 && e1 && (reinterpret_cast<uintptr_t>(src) & 15) == 0) {
          arch::cp_async<16, arch::Clobber::kMemory>(dst, src);
        } else {
          if (e0) arch::cp_async<8, arch::Clobber::kMemory>(dst, src);
          else dst[0] = 0.0;
          if (e1) arch::cp_async<8, arch::Clobber::kMemory>(dst + 1, src + 1);
          else dst[1] = 0.0;
        }
      } else {
        if (e0) arch::cp_async<8, arch::Clobber::kMemory>(dst, x + t.src);
        else *dst = 0.0;
      }
    }
  }
}
template <class Sh, bool kArrays, bool kIsA>
__device__ __forceinline__ void stage(const BatchedArgs& p, int64_t g0, int64_t k0, double* buf) {
  // k is contiguous in A^T ('T') and in B ('N').
  const bool kk_fast = kIsA ? p.trans_a : !p.trans_b;
  if (kk_fast) stage_in_order<Sh, kArrays, kIsA, true>(p, g0, k0, buf);
  else stage_in_order<Sh, kArrays, kIsA, false>(p, g0, k0, buf);
}

// Which 8x8 tile of which tile-product of the group is warp `warp`'s t-th. With more tile-products than
// warps a warp's tiles are whole tile-products, dealt round-robin. Otherwise each product's warps split its
// (S/8) x (S/8) tiles into RB x CB blocks, one a warp, so that a warp's k step loads RB fragments of A and CB
// of B for RB CB products (register blocking: fewer shared-memory loads per MMA).
template <int TS, int GT, int WARPS, int RB, int CB>
__device__ __forceinline__ void tile_of(int warp, int t, int* gt, int* ti, int* tj) {
  constexpr int kT = TS / 8;
  if constexpr (GT > WARPS) {
    const int tile = warp + t * WARPS;
    *gt = tile / (kT * kT);
    const int r = tile - *gt * kT * kT;
    *ti = r % kT;
    *tj = r / kT;
  } else {
    constexpr int kWarpsPerProduct = WARPS / GT;
    static_assert((kT / RB) * (kT / CB) == kWarpsPerProduct, "batched_small: the warps' blocks tile a product");
    const int wi = warp % kWarpsPerProduct;
    *gt = warp / kWarpsPerProduct;
    *ti = (wi % (kT / RB)) * RB + t % RB;
    *tj = (wi / (kT / RB)) * CB + t / RB;
  }
}

// The block's work is a sequence of items (its groups g0 = (blockIdx.x + i gridDim.x) GROUP, each in k-chunks
// of KC); item w is staged into ring buffer w % STAGES while item w - STAGES + 1 is multiplied. Two cursors
// walk the sequence, one for the copies and one for the products: no 64-bit division per item (a software
// routine of dozens of instructions, a large share of a small class's work).
struct ItemCursor {
  int64_t g0;     // first product of the item's group
  int64_t k0;     // first k of its chunk
  int slot;       // ring buffer
  __device__ void advance(int64_t k, int kc, int64_t group_step, int stages) {
    k0 += kc;
    if (k0 >= k) {
      k0 = 0;
      g0 += group_step;
    }
    slot = slot + 1 == stages ? 0 : slot + 1;
  }
};

// kReadC: the instance for beta != 0 (C read, and prefetched where the class has the registers); the beta = 0
// instance carries no trace of C's reads (the prefetch's registers cost the larger classes 10% otherwise).
template <int kClass, bool kArrays, bool kReadC>
__global__ void __launch_bounds__(kBatchedClasses[kClass].warps * 32, kBatchedClasses[kClass].min_blocks)
    batched_small_kernel(BatchedArgs p) {
  using namespace nvcuda;
  using Sh = Shape<kClass>;
  constexpr int S = Sh::kS, KC = Sh::kKC, GROUP = Sh::kGroup, WARPS = Sh::kWarps, RB = Sh::kRB, CB = Sh::kCB;
  constexpr int STAGES = Sh::kStages, MIN_BLOCKS = Sh::kC.min_blocks;
  constexpr int kTPW = Sh::kTilesPerWarp;
  constexpr int kTS = Sh::kTS, kGT = Sh::kGT, kP = Sh::kP;
  extern __shared__ __align__(32) double smem[];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  double* scratch = smem + STAGES * Sh::kStage + warp * 64;

  const int64_t group_step = int64_t(gridDim.x) * GROUP;
  ItemCursor next{int64_t(blockIdx.x) * GROUP, 0, 0};  // the next item to copy; past the batch: none
  auto issue = [&] {
    if (next.g0 < p.batch) {
      double* buf = smem + next.slot * Sh::kStage;
      stage<Sh, kArrays, true>(p, next.g0, next.k0, buf);
      stage<Sh, kArrays, false>(p, next.g0, next.k0, buf + Sh::kStageA);
      next.advance(p.k, KC, group_step, STAGES);
    }
    arch::cp_async_commit<arch::Clobber::kMemory>();  // possibly empty: one group per item keeps the count
  };
  if constexpr (kP == 1 && S < kTS) {
    // Rows S..kTS-1 of every staged op(A) and columns S..kTS-1 of every op(B): zeros that no copy overwrites
    // (the first barrier of the loop orders these stores before any fragment load).
    constexpr int kPad = kTS - S;
    for (int e = threadIdx.x; e < STAGES * kGT * KC * kPad; e += Sh::kThreads) {
      const int row = S + e % kPad, rest = e / kPad, kk = rest % KC, tile = rest / KC;  // tile: stage * kGT + tg
      double* a_s = smem + (tile / kGT) * Sh::kStage + (tile % kGT) * KC * Sh::kLdA;
      double* b_s = smem + (tile / kGT) * Sh::kStage + Sh::kStageA + (tile % kGT) * kTS * Sh::kLdB;
      a_s[kk * Sh::kLdA + row] = 0.0;
      b_s[row * Sh::kLdB + kk] = 0.0;
    }
  }
#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) issue();

  // Lane `lane`'s it-th element of tile (gt, ti, tj) in the epilogue: its C address and its place in the warp's
  // 8x8 scratch, or false where it is outside the product's m x n (or its product past the batch). A shared
  // tile (kP > 1) holds its products' results on the diagonal: product q's (i, j) at (q S + i, q S + j).
  constexpr int kEpilogueElements = kP > 1 ? kP * S * S : 64;
  constexpr int kEpilogueSteps = (kEpilogueElements + 31) / 32;
  int64_t g0 = 0;  // the current item's first product (the loop below sets it)
  auto c_element = [&](int gt, int ti, int tj, int it, double** cij, int* at) {
    const int e = lane + 32 * it;
    if (kEpilogueElements % 32 != 0 && e >= kEpilogueElements) return false;
    if constexpr (kP == 1) {
      const int i = e & 7, j = e >> 3;
      if (ti * 8 + i >= p.m || tj * 8 + j >= p.n) return false;
      *cij = c_of<kArrays>(p, g0 + gt) + (ti * 8 + i) + int64_t(tj * 8 + j) * p.ldc;
      *at = e;
    } else {
      constexpr int kPerProduct = S * S;
      const int q = e / kPerProduct, r = e - q * kPerProduct, i = r % S, j = r / S;
      const int64_t g = g0 + gt * kP + q;
      if (g >= p.batch || i >= p.m || j >= p.n) return false;
      *cij = c_of<kArrays>(p, g) + i + int64_t(j) * p.ldc;
      *at = (q * S + i) + (q * S + j) * 8;
    }
    return true;
  };
  // Classes whose warps hold few tiles keep their C values in registers between the prefetch and the epilogue:
  // up to 8 a lane where a thread may have 85 registers, up to 18 where it may have 128 or more (not the
  // 16-warp classes, at 64 registers a thread, nor the 128-class's 16 tiles a warp: they would spill).
  constexpr int kThreadsPerSm = WARPS * 32 * MIN_BLOCKS;
  constexpr bool kPrefetchC = kReadC && ((kTPW * kEpilogueSteps <= 8 && kThreadsPerSm <= 768) ||
                                         (kTPW * kEpilogueSteps <= 18 && kThreadsPerSm <= 512));
  double c_pre[kPrefetchC ? kTPW : 1][kPrefetchC ? kEpilogueSteps : 1];
  wmma::fragment<wmma::accumulator, 8, 8, 4, double> acc[kTPW];
  for (ItemCursor cur{int64_t(blockIdx.x) * GROUP, 0, 0}; cur.g0 < p.batch; cur.advance(p.k, KC, group_step, STAGES)) {
    arch::cp_async_wait<STAGES - 2>();  // this thread's copies of the item have landed
    __syncthreads();                   // everyone's have; and the previous item's buffer is no longer read
    issue();
    g0 = cur.g0;
    const int64_t k0 = cur.k0;
    const double* a_s = smem + cur.slot * Sh::kStage;
    const double* b_s = a_s + Sh::kStageA;
    if (k0 == 0) {
#pragma unroll
      for (int t = 0; t < kTPW; ++t) wmma::fill_fragment(acc[t], 0.0);
    }
    if constexpr (kPrefetchC) {
      // beta != 0: this warp's elements of C are loaded before the group's last chunk is multiplied, so that
      // their latency hides behind the tensor-core steps instead of following each tile's products.
      if (k0 + KC >= p.k) {
#pragma unroll
        for (int t = 0; t < kTPW; ++t) {
          int gt, ti, tj;
          tile_of<kTS, kGT, WARPS, RB, CB>(warp, t, &gt, &ti, &tj);
#pragma unroll
          for (int it = 0; it < kEpilogueSteps; ++it) {
            double* cij;
            int at;
            c_pre[t][it] = g0 + gt * kP < p.batch && c_element(gt, ti, tj, it, &cij, &at) ? *cij : 0.0;
          }
        }
      }
    }
    const int steps = static_cast<int>((p.k - k0 < KC ? p.k - k0 : KC) + 3) / 4;
    if constexpr (kGT > WARPS) {
#pragma unroll
      for (int t = 0; t < kTPW; ++t) {
        int gt, ti, tj;
        tile_of<kTS, kGT, WARPS, RB, CB>(warp, t, &gt, &ti, &tj);
        if (g0 + gt * kP >= p.batch || ti * 8 >= p.m || tj * 8 >= p.n) continue;  // warp-uniform
        const double* a_tile = a_s + gt * KC * Sh::kLdA + ti * 8;
        const double* b_tile = b_s + gt * kTS * Sh::kLdB + tj * 8 * Sh::kLdB;
        for (int s = 0; s < steps; ++s) {
          wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::col_major> fa;
          wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> fb;
          wmma::load_matrix_sync(fa, a_tile + s * 4 * Sh::kLdA, Sh::kLdA);
          wmma::load_matrix_sync(fb, b_tile + s * 4, Sh::kLdB);
          wmma::mma_sync(acc[t], fa, fb, acc[t]);
        }
      }
    } else {
      static_assert(RB * CB == kTPW, "batched_small: a warp's tiles are one RB x CB block");
      int gt, ti0, tj0;
      tile_of<kTS, kGT, WARPS, RB, CB>(warp, 0, &gt, &ti0, &tj0);
      if (g0 + gt * kP < p.batch && ti0 * 8 < p.m && tj0 * 8 < p.n) {  // warp-uniform
        const double* a_blk = a_s + gt * KC * Sh::kLdA + ti0 * 8;
        const double* b_blk = b_s + gt * kTS * Sh::kLdB + tj0 * 8 * Sh::kLdB;
        for (int s = 0; s < steps; ++s) {
          wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::col_major> fa[RB];
          wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> fb[CB];
#pragma unroll
          for (int r = 0; r < RB; ++r) wmma::load_matrix_sync(fa[r], a_blk + r * 8 + s * 4 * Sh::kLdA, Sh::kLdA);
#pragma unroll
          for (int c = 0; c < CB; ++c) wmma::load_matrix_sync(fb[c], b_blk + c * 8 * Sh::kLdB + s * 4, Sh::kLdB);
          // Tiles of the block past m or n multiply zeros (staged as such) and are not written.
#pragma unroll
          for (int c = 0; c < CB; ++c)
#pragma unroll
            for (int r = 0; r < RB; ++r) wmma::mma_sync(acc[r + c * RB], fa[r], fb[c], acc[r + c * RB]);
        }
      }
    }
    if (k0 + KC < p.k) continue;  // more chunks of this group
    // Each tile through the warp's scratch: C = alpha acc + beta C inside each product's m x n, C read only
    // when beta != 0 (then from the values prefetched above, where the class has them).
#pragma unroll
    for (int t = 0; t < kTPW; ++t) {
      int gt, ti, tj;
      tile_of<kTS, kGT, WARPS, RB, CB>(warp, t, &gt, &ti, &tj);
      if (g0 + gt * kP >= p.batch || ti * 8 >= p.m || tj * 8 >= p.n) continue;
      wmma::store_matrix_sync(scratch, acc[t], 8, wmma::mem_col_major);
      __syncwarp();
#pragma unroll
      for (int it = 0; it < kEpilogueSteps; ++it) {
        double* cij;
        int at;
        if (c_element(gt, ti, tj, it, &cij, &at)) {
          const double v = p.alpha * scratch[at];
          if constexpr (kReadC) *cij = v + p.beta * (kPrefetchC ? c_pre[t][it] : *cij);
          else *cij = v;  // beta = 0: C is not read
        }
      }
      __syncwarp();
    }
  }
  arch::cp_async_wait<0>();  // no copy outlives the block (the trailing groups are empty)
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
