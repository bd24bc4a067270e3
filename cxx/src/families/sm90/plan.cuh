// sm90_mma, host side of one call: which kernel instance runs it (operand form, copy width), its parameters,
// and its launch.
#pragma once

#include <cstdint>

#include "families/sm90/kernel.cuh"

namespace tcgemm::detail::sm90 {

// The four operand forms. 'T','T' runs as D = B A (both transposed back) with C written transposed, so
// that its left operand is mn-contiguous and its right operand k-contiguous, as in 'N','N'.
enum Form : int { kFormNN = 0, kFormNT = 1, kFormTN = 2, kFormTT = 3 };
constexpr bool form_left_mn_contiguous(int form) { return form != kFormTN; }
constexpr bool form_right_mn_contiguous(int form) { return form == kFormNT; }
constexpr bool form_transpose_c(int form) { return form == kFormTT; }
// The mma k-shape of a pipeline: k4 steps for kPipeStep, else kGroupMmaK (8, or 16 for a family whose warps
// need more work per fragment group to cover the shared-memory load latency, see launch.cu).
constexpr int mma_k_for_pipeline(int pipeline, int group_mma_k = 8) {
  return pipeline == kPipeStep ? 4 : group_mma_k;
}

// One kernel family: a block shape plus the fragment pipeline used for each form. Instance<form, vec16>
// is the kernel configuration for one call.
template <int kTileM, int kTileN, int kTileK, int kWarpsM, int kWarpsN, int kMinBlocks, int kPipeNN, int kPipeNT,
          int kPipeTN, int kGroupMmaK = 8, int kMaxStages = kMaxStagesAnyShape>
struct Family {
  // Cluster split-K instances only where the rule can take them: never for one block per SM (rules.hpp).
  static constexpr bool kHasClusterSplit = kMinBlocks > 1;
  static constexpr int pipeline(int form) {
    return form == kFormNT ? kPipeNT : (form == kFormTN ? kPipeTN : kPipeNN);
  }
  // 'T','N' (both operands k-contiguous): the left operand's fragments come by 8-byte loads (OperandTile::
  // kMmaLeft), twice the load instructions and a 2-way bank conflict per value, so a tall warp tile (64 x 32)
  // runs with its sides swapped (32 x 64, the same thread count and accumulators): the left operand is then the
  // narrow side. 128x64 at 2048^3 / 6144^3: 0.93 / 0.94 of cuBLAS with 64 x 32 warps, 0.955 / 0.98 with 32 x 64.
  static constexpr bool kTnSwapsWarpTile = kTileM / kWarpsM > kTileN / kWarpsN;
  static constexpr int warps_m(int form) {
    return form == kFormTN && kTnSwapsWarpTile ? kTileM / (kTileN / kWarpsN) : kWarpsM;
  }
  static constexpr int warps_n(int form) {
    return form == kFormTN && kTnSwapsWarpTile ? kTileN / (kTileM / kWarpsM) : kWarpsN;
  }
  static_assert(!kTnSwapsWarpTile || (kTileM % (kTileN / kWarpsN) == 0 && kTileN % (kTileM / kWarpsM) == 0),
                "the swapped 'T','N' warp tile must tile the block");
  static_assert(warps_m(kFormTN) * warps_n(kFormTN) == kWarpsM * kWarpsN,
                "'T','N' runs the shape's thread count (the host's residency and plan model count its warps)");
  template <int kForm, bool kVec16, bool kCluster = false>
  using Instance = Traits<kTileM, kTileN, kTileK, warps_m(kForm), warps_n(kForm),
                          mma_k_for_pipeline(pipeline(kForm), kGroupMmaK),
                          form_left_mn_contiguous(kForm), form_right_mn_contiguous(kForm), kVec16, pipeline(kForm),
                          kMinBlocks, form_transpose_c(kForm), kCluster, kMaxStages>;
};

// What one call runs: the form, the copy width and the kernel parameters. transa, transb are 'N' or 'T'.
struct Plan {
  int form;
  bool vec16;
  bool cluster;  // cluster split-K (apply_cluster_split): the kernel instance that adds slices in a cluster
  Params params;
};
inline Plan make_plan(char transa, char transb, int64_t m, int64_t n, int64_t k, double alpha, const double* A,
                      int64_t lda, const double* B, int64_t ldb, double beta, double* C, int64_t ldc, int tile_m,
                      int tile_n, int stages, int64_t l2_bytes) {
  Plan plan{};
  plan.form = transa == 'N' ? (transb == 'N' ? kFormNN : kFormNT) : (transb == 'N' ? kFormTN : kFormTT);
  // Both operands 16-byte copyable: base 16-byte aligned and leading dimension even.
  plan.vec16 = arch::cp_async16_aligned(A, lda) && arch::cp_async16_aligned(B, ldb);
  const bool swap = form_transpose_c(plan.form);
  Params& p = plan.params;
  p.A = swap ? B : A;
  p.lda = swap ? ldb : lda;
  p.B = swap ? A : B;
  p.ldb = swap ? lda : ldb;
  p.m = swap ? n : m;
  p.n = swap ? m : n;
  p.k = k;
  p.C = C;
  p.ldc = ldc;
  p.alpha = alpha;
  p.beta = beta;
  p.tiles_m = ceil_div_nonneg(p.m, tile_m);
  p.tiles_n = ceil_div_nonneg(p.n, tile_n);
  p.stages = stages;
  // Rasterization (rules.hpp, sm90_raster_rows) on a device with l2_bytes of L2; 0 keeps the groups of
  // kSm90RasterGroupRows (strided batches: their kernel "k" is the batch's total depth, which the rule does
  // not describe).
  p.raster_rows = sm90_raster_rows(p.m, k, p.tiles_m, l2_bytes);
  p.c_vec16 = arch::cp_async16_aligned(C, ldc) ? 1 : 0;
  p.k_slice = k;
  p.a_slice_step = p.b_slice_step = p.c_slice_step = 0;
  return plan;
}

// Turns `plan` into the first half of a split-K product: gridDim.y = split.slices blocks rows, slice y
// multiplying k in [y k_slice, (y + 1) k_slice) and writing its partial product (alpha 1, beta 0) into
// workspace slice y, each shaped as C (m x n of the call, leading dimension m, so that the 'T','T' form's
// transposed stores land in C's layout too). The operands advance along k by k_slice times their k-stride,
// which keeps 16-byte alignment (k_slice is a multiple of 16).
inline void apply_split(Plan& plan, const Sm90Split& split, double* workspace, int64_t call_m, int64_t call_n) {
  Params& p = plan.params;
  p.k_slice = split.k_slice;
  p.a_slice_step = split.k_slice * (form_left_mn_contiguous(plan.form) ? p.lda : 1);
  p.b_slice_step = split.k_slice * (form_right_mn_contiguous(plan.form) ? p.ldb : 1);
  p.C = workspace;
  p.ldc = call_m;
  p.c_slice_step = call_m * call_n;
  p.alpha = 1.0;
  p.beta = 0.0;
  p.c_vec16 = arch::cp_async16_aligned(workspace, call_m) ? 1 : 0;
  p.reduction_follows = 1;
}

// Turns `plan` into `count` products of a strided batch, one per grid row (gridDim.y), through the split-K
// parameters: the product is the "slice" y, k_slice = k and the call's k is count x k, so every slice is a whole
// product of depth k; A, B and C advance by their batch strides (C is the call's, with its alpha and beta).
// 16-byte copies need every product's base aligned: the strides must be even too. 'T','T' runs as B A,
// so the operand strides swap with the operands.
inline void apply_batch(Plan& plan, int64_t count, int64_t stride_a, int64_t stride_b, int64_t stride_c) {
  Params& p = plan.params;
  const bool swap = form_transpose_c(plan.form);
  const int64_t left = swap ? stride_b : stride_a, right = swap ? stride_a : stride_b;
  p.k_slice = p.k;
  p.k = p.k * count;
  p.a_slice_step = left;
  p.b_slice_step = right;
  p.c_slice_step = stride_c;
  plan.vec16 = plan.vec16 && left % 2 == 0 && right % 2 == 0;
  p.c_vec16 = p.c_vec16 && stride_c % 2 == 0 ? 1 : 0;
}

// Turns `plan` into a cluster split-K product (rules.hpp, sm90_cluster_split): gridDim.y = split.slices
// blocks per C tile, one cluster, slice y multiplying k in [y k_slice, (y + 1) k_slice); the slices add
// their partial tiles in shared memory and write C themselves (alpha, beta and C stay the call's).
inline void apply_cluster_split(Plan& plan, const Sm90Split& split) {
  Params& p = plan.params;
  p.k_slice = split.k_slice;
  p.a_slice_step = split.k_slice * (form_left_mn_contiguous(plan.form) ? p.lda : 1);
  p.b_slice_step = split.k_slice * (form_right_mn_contiguous(plan.form) ? p.ldb : 1);
  p.c_slice_step = 0;
  plan.cluster = true;
}

// Calls f(type_tag<Instance>{}) for the instance of Fam that runs `plan`; returns what f returns.
template <class T>
struct type_tag {
  using type = T;
};
template <class Fam, class F>
decltype(auto) with_instance(const Plan& plan, F&& f) {
  // Cluster split-K instances exist for the forms that stage the 'N','N' layout (not 'T','T', rules.hpp) of
  // the families with more than one block per SM; sm90_cluster_split never sets plan.cluster for the others.
  if constexpr (Fam::kHasClusterSplit) {
    if (plan.cluster && plan.form != kFormTT) {
      switch (plan.form * 2 + (plan.vec16 ? 1 : 0)) {
        case kFormNN * 2 + 1: return f(type_tag<typename Fam::template Instance<kFormNN, true, true>>{});
        case kFormNN * 2: return f(type_tag<typename Fam::template Instance<kFormNN, false, true>>{});
        case kFormNT * 2 + 1: return f(type_tag<typename Fam::template Instance<kFormNT, true, true>>{});
        case kFormNT * 2: return f(type_tag<typename Fam::template Instance<kFormNT, false, true>>{});
        case kFormTN * 2 + 1: return f(type_tag<typename Fam::template Instance<kFormTN, true, true>>{});
        default: return f(type_tag<typename Fam::template Instance<kFormTN, false, true>>{});
      }
    }
  }
  switch (plan.form * 2 + (plan.vec16 ? 1 : 0)) {
    case kFormNN * 2 + 1: return f(type_tag<typename Fam::template Instance<kFormNN, true>>{});
    case kFormNN * 2: return f(type_tag<typename Fam::template Instance<kFormNN, false>>{});
    case kFormNT * 2 + 1: return f(type_tag<typename Fam::template Instance<kFormNT, true>>{});
    case kFormNT * 2: return f(type_tag<typename Fam::template Instance<kFormNT, false>>{});
    case kFormTN * 2 + 1: return f(type_tag<typename Fam::template Instance<kFormTN, true>>{});
    case kFormTN * 2: return f(type_tag<typename Fam::template Instance<kFormTN, false>>{});
    case kFormTT * 2 + 1: return f(type_tag<typename Fam::template Instance<kFormTT, true>>{});
    default: return f(type_tag<typename Fam::template Instance<kFormTT, false>>{});
  }
}

// Enqueue kernel instance T over the whole C tile grid in one launch (x: tiles, rasterized in the kernel;
// y: k-slices of a split-K product). Validation (check_grid) guarantees at most 2^31 - 1 tiles, so a failed launch
// means nothing ran.
template <class T>
cudaError_t launch_grid(const Params& p, cudaStream_t stream) {
  const size_t smem = static_cast<size_t>(sm90_dynamic_smem_bytes(T::kTileM, T::kTileN, T::kTileK, p.stages));
  const unsigned slices = static_cast<unsigned>(p.k_slice >= p.k ? 1 : (p.k + p.k_slice - 1) / p.k_slice);
  const dim3 grid(static_cast<unsigned>(p.tiles_m * p.tiles_n), slices);
  if constexpr (!T::kClusterSplit) {
    sm90_mma_kernel<T><<<grid, T::kThreads, smem, stream>>>(p);
    return cudaGetLastError();
  } else {
    // Cluster split-K: the k-slices of a tile (one grid column) are one cluster.
    return arch::launch_in_column_clusters(sm90_mma_kernel<T>, grid, dim3(T::kThreads), smem, stream, p);
  }
}

}  // namespace tcgemm::detail::sm90
