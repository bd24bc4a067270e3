// Family sm90_mma: the launcher and the template instances of the Hopper FP64 kernel
// (kernel.cuh), one family of instances per entry of kSm90Shapes (rules.hpp).
//
// Per shape entry: 4 operand forms ('N'/'T' x 'N'/'T'; 'T','T' runs as the transposed 'N','N' product)
// x 2 copy widths (16-byte cp.async when both operands allow it, else 8-byte) = 8 kernels, plus, for the
// entries with more than one block per SM, the cluster split-K instances of the three forms other than 'T','T'
// (6 kernels).
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include "core/device.hpp"
#include "core/errors.hpp"
#include "core/memory_pool.hpp"
#include "families/common/split_k_reduce.hpp"
#include "families/sm90/plan.cuh"
#include "families/sm90/rules.hpp"

namespace tcgemm::detail {
namespace {

constexpr const char* kKernelName = "sm90_mma_kernel";
// kernel_code_version() of sm_90 code.
constexpr int kSm90CodeVersion = 90;
// Fragment pipeline per operand form (the measurements: docs/tuning.md):
//   'N','N' and 'T','T': m16n8k8 with register double buffering of whole k8 groups (the 16-byte fragment
//     loads land directly in the DMMA operand registers);
//   'N','T': m16n8k4 steps (B is mn-contiguous; a k8 B pair would need register moves and spilled);
//   'T','N': m16n8k8 with register double buffering too; A is k-contiguous, so its DMMA quads are filled by
//     8-byte loads (16-byte loads needed register moves: 2x the instructions, spills, 0.82 of cuBLAS), and a
//     tall warp tile runs with its sides swapped (sm90::Family).
//   A 16-row warp tile (32x64 and 32x32 blocks) has 4 (2) MMAs per fragment group of m16n8k8: too little work to
//   cover the group's shared-memory loads with one block per SM (ncu at 512^3: short-scoreboard stalls 1.5 per issued
//   instruction against cuBLAS's 0.13 on the same tile with m16n8k16); its groups are 16 deep (m16n8k16).
template <int kShape>
struct ShapeFamily {
  static constexpr Sm90Shape kS = kSm90Shapes[kShape];
  static constexpr int kGroupMmaK = kS.tile_m / kS.warps_m == 16 ? 16 : 8;
  using Fam = sm90::Family<kS.tile_m, kS.tile_n, kS.tile_k, kS.warps_m, kS.warps_n, sm90_blocks_per_sm(kS),
                           sm90::kPipeGroup, sm90::kPipeStep, sm90::kPipeGroup, kGroupMmaK, kS.max_stages>;

  static_assert(kS.tile_m % (kS.warps_m * sm90::kMmaM) == 0,
                "kSm90Shapes: tile_m must split into warps_m warp rows of whole 16-row mma tiles");
  static_assert(kS.tile_n % (kS.warps_n * sm90::kMmaN) == 0,
                "kSm90Shapes: tile_n must split into warps_n warp columns of whole 8-column mma tiles");
  static_assert(kS.tile_k % sm90::kKBlock == 0, "kSm90Shapes: tile_k must be a multiple of 16");
  static_assert(kS.min_stages >= 2 && kS.min_stages <= kS.default_stages && kS.default_stages <= kS.max_stages,
                "kSm90Shapes: need 2 <= min_stages <= default_stages <= max_stages");
  static_assert(kS.max_stages <= sm90::kMaxStagesAnyShape,
                "kSm90Shapes: the k-tile waits serve at most kMaxStagesAnyShape stages");
  static_assert(sm90_smem_bytes(kS, kS.max_stages) <= sm90::kMaxSmemPerBlock,
                "kSm90Shapes: max_stages must fit the 227 KB of shared memory a cc 9.0 block can opt in to");
};

// Clusters of `slices` blocks of shape kShape at depth `stages` that ctx's device runs at once, asked of CUDA
// for the 'N','N' 16-byte cluster instance. Every cluster instance of a shape has the same threads and shared
// memory, and __launch_bounds__ caps its registers at the shape's planned blocks per SM, which every instance
// reaches (sm90_blocks_per_sm: registers bind for every entry), so they all have this room. -1 when CUDA cannot
// say or the shape has no cluster instance.
template <int kShape>
int device_clusters_at_once(const DeviceContext& ctx, int64_t slices, int stages) {
  using Fam = typename ShapeFamily<kShape>::Fam;
  constexpr Sm90Shape s = kSm90Shapes[kShape];
  if constexpr (Fam::kHasClusterSplit) {
    if (slices < 2 || slices > kSm90MaxClusterSlices) return -1;
    using K = typename Fam::template Instance<sm90::kFormNN, true, true>;
    return max_active_clusters(reinterpret_cast<const void*>(&sm90::sm90_mma_kernel<K>), ctx, K::kThreads,
                               size_t(sm90_dynamic_smem_bytes(s.tile_m, s.tile_n, s.tile_k, stages)),
                               static_cast<int>(slices));
  } else {
    return -1;
  }
}

// The launcher's route for its split and tile count: a cluster split-K when the rule holds (rules.hpp,
// sm90_cluster_split) with the room the plan model also reads (sm90_cluster_room) at the shape's default depth,
// or CUDA's answer for another depth (explicit configurations; the plan never picks those).
template <int kShape>
bool cluster_route(const Sm90Split& split, int64_t tiles, const GemmProblem& p, const tcgemm_config& cfg,
                   const DeviceContext& ctx) {
  constexpr Sm90Shape s = kSm90Shapes[kShape];
  if (!sm90_cluster_eligible(s, cfg.stages, split, p.transa, p.transb)) return false;  // no CUDA query
  int64_t room = 0;
  if (cfg.stages == s.default_stages) {
    room = sm90_clusters_at_once(sm90_cluster_room(ctx), kShape, split.slices, ctx.sm_count);
  } else {
    const int asked = device_clusters_at_once<kShape>(ctx, split.slices, cfg.stages);
    room = asked >= 0 ? asked : sm90_clusters_at_once(nullptr, kShape, split.slices, ctx.sm_count);
  }
  return sm90_cluster_split(s, cfg.stages, split, tiles, room, p.transa, p.transb);
}

// The same decision from the problem alone (sm90_takes_cluster_route, for the tests). Its tile count is the
// launcher's for every form that can cluster (only 'T','T', which never does, launches the transposed grid).
template <int kShape>
bool takes_cluster_route(const GemmProblem& p, const tcgemm_config& cfg, const DeviceContext& ctx) {
  constexpr Sm90Shape s = kSm90Shapes[kShape];
  const int64_t tiles = ceil_div_nonneg(p.m, s.tile_m) * ceil_div_nonneg(p.n, s.tile_n);
  return cluster_route<kShape>(sm90_split(p.k, cfg.k_splits, s.tile_k), tiles, p, cfg, ctx);
}

template <int kShape>
tcgemm_status launch_shape(const GemmProblem& p, const tcgemm_config& cfg, const DeviceContext& ctx,
                           cudaStream_t stream) {
  using Fam = typename ShapeFamily<kShape>::Fam;
  constexpr Sm90Shape s = kSm90Shapes[kShape];
  sm90::Plan plan = sm90::make_plan(p.transa, p.transb, p.m, p.n, p.k, p.alpha, p.A, p.lda, p.B, p.ldb, p.beta, p.C,
                                    p.ldc, s.tile_m, s.tile_n, cfg.stages, ctx.l2_bytes);
  const Sm90Split split = sm90_split(p.k, cfg.k_splits, s.tile_k);
  // Few slices: one cluster per tile adds them in shared memory, in the cluster instance of the kernel, when
  // the device holds every tile's cluster at once.
  if (cluster_route<kShape>(split, plan.params.tiles_m * plan.params.tiles_n, p, cfg, ctx))
    sm90::apply_cluster_split(plan, split);
  return sm90::with_instance<Fam>(plan, [&](auto tag) -> tcgemm_status {
    using K = typename decltype(tag)::type;
    // The build's sm_90 code was checked with the device rules (sm90_code_available: every instance of this
    // file is compiled for the same architectures as its probe kernel).
    const void* kernel = reinterpret_cast<const void*>(&sm90::sm90_mma_kernel<K>);
    TCGEMM_TRY(ensure_dynamic_smem_limit(kernel, ctx, kKernelName));
    if (split.slices == 1 || plan.cluster) {
      const cudaError_t e = sm90::launch_grid<K>(plan.params, stream);
      if (e != cudaSuccess)
        return set_cuda_error(e, plan.cluster ? "launch of sm90_mma_kernel (cluster split-K)"
                                              : "launch of sm90_mma_kernel");
      return TCGEMM_SUCCESS;
    }
    // Split-K: partial products into a workspace taken from tcgemm's pool on the caller's stream (no
    // cudaMalloc per call), then a fixed-order reduction into C.
    StreamScratch scratch;
    double* workspace = nullptr;
    TCGEMM_TRY(allocate_partials(ctx, p.m, p.n, split.slices, cfg.k_splits, "sm90_mma", stream, &scratch,
                                 &workspace));
    sm90::Plan sliced = plan;
    sm90::apply_split(sliced, split, workspace, p.m, p.n);
    const cudaError_t e = sm90::launch_grid<K>(sliced.params, stream);
    if (e != cudaSuccess) return set_cuda_error(e, "launch of sm90_mma_kernel (split-K)");
    // A programmatic dependent launch (arch/dependent_launch_sm90.cuh; apply_split set reduction_follows, and
    // this family always runs sm_90 code): the reduction is launched once every block of the kernel has
    // started and waits for the kernel's end.
    return launch_split_k_reduce(p.m, p.n, split.slices, workspace, p.m * p.n,
                                 SplitKOutput{p.alpha, p.beta, p.C, 1, p.ldc},
                                 sliced.params.reduction_follows != 0, stream);
  });
}

// A strided batch: chunks of at most 65535 products (gridDim.y), each one launch of the non-cluster
// instance.
template <int kShape>
tcgemm_status launch_batch_shape(const GemmProblem& p, int64_t batch, int64_t stride_a, int64_t stride_b,
                                 int64_t stride_c, const tcgemm_config& cfg, const DeviceContext& ctx,
                                 cudaStream_t stream) {
  using Fam = typename ShapeFamily<kShape>::Fam;
  constexpr Sm90Shape s = kSm90Shapes[kShape];
  constexpr int64_t kMaxGridY = 65535;
  // The kernel sees a k of count x k: keep it in int64.
  const int64_t per_launch = std::min<int64_t>(kMaxGridY, INT64_MAX / p.k);
  for (int64_t g0 = 0; g0 < batch; g0 += per_launch) {
    const int64_t count = std::min(per_launch, batch - g0);
    sm90::Plan plan = sm90::make_plan(p.transa, p.transb, p.m, p.n, p.k, p.alpha, p.A + g0 * stride_a, p.lda,
                                      p.B + g0 * stride_b, p.ldb, p.beta, p.C + g0 * stride_c, p.ldc, s.tile_m,
                                      s.tile_n, cfg.stages, /*l2_bytes: groups of 8 tile rows*/ 0);
    sm90::apply_batch(plan, count, stride_a, stride_b, stride_c);
    const tcgemm_status st = sm90::with_instance<Fam>(plan, [&](auto tag) -> tcgemm_status {
      using K = typename decltype(tag)::type;
      const void* kernel = reinterpret_cast<const void*>(&sm90::sm90_mma_kernel<K>);
      TCGEMM_TRY(ensure_dynamic_smem_limit(kernel, ctx, kKernelName));
      const cudaError_t e = sm90::launch_grid<K>(plan.params, stream);
      return e != cudaSuccess ? set_cuda_error(e, "launch of sm90_mma_kernel (strided batch)") : TCGEMM_SUCCESS;
    });
    if (st != TCGEMM_SUCCESS) return st;
  }
  return TCGEMM_SUCCESS;
}

// One entry per kSm90Shapes entry: its one-product and strided-batch launchers, the CUDA query of its cluster
// room (sm90_cluster_room) and its launcher's cluster-route decision (sm90_takes_cluster_route).
struct ShapeLaunchers {
  tcgemm_status (*one)(const GemmProblem&, const tcgemm_config&, const DeviceContext&, cudaStream_t);
  tcgemm_status (*batch)(const GemmProblem&, int64_t, int64_t, int64_t, int64_t, const tcgemm_config&,
                         const DeviceContext&, cudaStream_t);
  int (*clusters_at_once)(const DeviceContext&, int64_t, int);
  bool (*takes_cluster_route)(const GemmProblem&, const tcgemm_config&, const DeviceContext&);
};
template <size_t... I>
constexpr auto make_shape_launchers(std::index_sequence<I...>) {
  return std::array<ShapeLaunchers, sizeof...(I)>{
      ShapeLaunchers{&launch_shape<static_cast<int>(I)>, &launch_batch_shape<static_cast<int>(I)>,
                     &device_clusters_at_once<static_cast<int>(I)>, &takes_cluster_route<static_cast<int>(I)>}...};
}
constexpr auto kShapeLaunchers = make_shape_launchers(std::make_index_sequence<kSm90ShapeCount>{});

// Carries no work: its cudaFuncAttributes::binaryVersion says which code this file was built with.
__global__ void sm90_code_probe_kernel() {}

}  // namespace

bool sm90_code_available(const DeviceContext& ctx) {
  if (ctx.cc_major != kSm90MinCcMajor) return false;
  // The answer is fixed for the process (the loaded code of a device does not change), so it is cached per
  // device without a lock: every tcgemm_dgemm call on a cc 9.x device asks, twice (the choice of family and
  // the device rules). 0: not known yet, 1: no, 2: yes. Devices beyond the table are asked each time.
  constexpr int kCachedDevices = 64;
  static std::atomic<int> cached[kCachedDevices];
  const bool cacheable = ctx.device >= 0 && ctx.device < kCachedDevices;
  if (cacheable) {
    const int known = cached[ctx.device].load(std::memory_order_relaxed);
    if (known != 0) return known == 2;
  }
  int version = 0;
  if (kernel_code_version(reinterpret_cast<const void*>(&sm90_code_probe_kernel), ctx.device, &version) !=
      cudaSuccess)
    return false;  // a CUDA failure here is not cached: the device rules or the launch will report it
  const bool available = version >= kSm90CodeVersion;
  if (cacheable) cached[ctx.device].store(available ? 2 : 1, std::memory_order_relaxed);
  return available;
}

const Sm90ClusterRoom* sm90_cluster_room(const DeviceContext& ctx) {
  // Every automatic call reads the room (plan_device): the last answer is kept per thread, so the common case
  // takes no lock. The tables are kept for the process (one per device and CUDA context; a context after
  // cudaDeviceReset asks again), so the pointers stay valid.
  thread_local int last_device = -1;
  thread_local uint64_t last_context = 0;
  thread_local const Sm90ClusterRoom* last_room = nullptr;
  if (last_room && last_device == ctx.device && last_context == ctx.context_id) return last_room;
  // Never destroyed: threads may still hold table pointers while the process exits. A table is built once per
  // context; an entry CUDA could not answer then (-1) keeps the block-slot bound for that context.
  static std::mutex& mutex = *new std::mutex;
  static auto& rooms = *new std::map<std::pair<int, uint64_t>, std::unique_ptr<Sm90ClusterRoom>>;
  std::lock_guard<std::mutex> lock(mutex);  // held while a new table is asked for (about 0.3 ms, once)
  auto& room = rooms[{ctx.device, ctx.context_id}];
  if (!room) {
    auto fresh = std::make_unique<Sm90ClusterRoom>();
    for (int shape = 0; shape < kSm90ShapeCount; ++shape)
      for (int slices = 0; slices <= kSm90MaxClusterSlices; ++slices)
        fresh->clusters[shape][slices] =
            slices < 2 || sm90_blocks_per_sm(kSm90Shapes[shape]) == 1
                ? 0
                : kShapeLaunchers[shape].clusters_at_once(ctx, slices, kSm90Shapes[shape].default_stages);
    room = std::move(fresh);
  }
  last_device = ctx.device;
  last_context = ctx.context_id;
  last_room = room.get();
  return last_room;
}

bool sm90_takes_cluster_route(const GemmProblem& p, const tcgemm_config& cfg, const DeviceContext& ctx) {
  const int shape = find_sm90_shape(cfg.tile_m, cfg.tile_n, cfg.tile_k);
  return shape >= 0 && kShapeLaunchers[shape].takes_cluster_route(p, cfg, ctx);
}

tcgemm_status launch_sm90_mma(const GemmProblem& p, const tcgemm_config& cfg, const DeviceContext& ctx,
                              cudaStream_t stream) {
  // cfg passed validation: (tile_m, tile_n, tile_k) is one of the table's entries, stages in its range.
  return kShapeLaunchers[find_sm90_shape(cfg.tile_m, cfg.tile_n, cfg.tile_k)].one(p, cfg, ctx, stream);
}

tcgemm_status launch_sm90_strided_batched(const GemmProblem& p, int64_t batch, int64_t stride_a, int64_t stride_b,
                                          int64_t stride_c, const tcgemm_config& cfg, const DeviceContext& ctx,
                                          cudaStream_t stream) {
  return kShapeLaunchers[find_sm90_shape(cfg.tile_m, cfg.tile_n, cfg.tile_k)].batch(p, batch, stride_a, stride_b,
                                                                                     stride_c, cfg, ctx, stream);
}

}  // namespace tcgemm::detail
