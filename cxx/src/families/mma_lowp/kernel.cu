// Family mma_lowp (launch.hpp): C = alpha * op(A) op(B) + beta * C for F16 or BF16 inputs with FP32
// accumulation, on mma.sync.aligned.m16n8k16 (PTX ISA, "Warp-level matrix multiply-accumulate instructions").
//
// A block of 4 warps (2 x 2) computes a 128 x 128 tile of C; each warp a 64 x 64 block, as 4 x 8 fragments
// of 16 x 8 (128 FP32 accumulators per thread). k goes by tiles of 64 through a 3-stage ring of shared-memory
// buffers filled by cp.async (16 bytes per copy, issued kStages - 1 tiles ahead), so the loads of later
// tiles run while the tensor cores work on the current one; one barrier per k-tile. (DefaultTiling below
// says why this tiling.)
//
// Shared-memory layouts. Each operand tile (128 rows or columns of C x kTileK of k) is stored as its
// global layout gives it, so every cp.async copies 16 contiguous bytes:
//  - "K-major" (a transposed A, an untransposed B: k contiguous): 128 lines of kTileK elements;
//  - "MN-major" (an untransposed A, a transposed B: m or n contiguous): kTileK lines (k) of 128 elements;
// each line made of 16-byte pieces whose places are XOR-swizzled (tile_offset) so that the 8 lines one
// ldmatrix reads at one piece fall in 8 different 16-byte bank groups.
// The .trans form of ldmatrix turns the MN-major 8 x 8 blocks into the same fragments the K-major ones give,
// so the MMA loop is one code for all four operand forms.
//
// Fragments (m16n8k16, .row.col; g = lane / 4, t = lane % 4): A's four registers hold (g, 2t..2t+1),
// (g + 8, 2t..), (g, 2t + 8..), (g + 8, 2t + 8..) of the 16 x 16 block; B's two hold (k 2t..2t+1, n g) and
// (k 2t + 8.., n g); C's four hold (g, 2t), (g, 2t + 1), (g + 8, 2t), (g + 8, 2t + 1).
#include <cstdint>
#include <type_traits>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "core/checked_math.hpp"
#include "core/device.hpp"
#include "core/errors.hpp"
#include "families/lowp_c_element.cuh"
#include "families/mma_lowp/launch.hpp"

namespace tcgemm::detail {
namespace {


// A block's tiling: a kTileM x kTileN tile of C, k by kTileK through kStages buffers, kWarpsM x kWarpsN warps
// of 64 x 64 (or 64 x 32) each.
template <int TM, int TN, int TK, int WARPS_M, int WARPS_N, int STAGES>
struct Tiling {
  static constexpr int kTileM = TM, kTileN = TN, kTileK = TK, kStages = STAGES;
  static constexpr int kWarpsM = WARPS_M, kWarpsN = WARPS_N, kThreads = WARPS_M * WARPS_N * 32;
  static constexpr int kWarpM = TM / WARPS_M, kWarpN = TN / WARPS_N;
  static constexpr int kFragsM = kWarpM / 16, kFragsN = kWarpN / 8;
  static constexpr int kATileBytes = TM * TK * 2, kBTileBytes = TN * TK * 2;  // 16-bit elements
  static constexpr int kStageBytes = kATileBytes + kBTileBytes;
  static constexpr int kSmemBytes = STAGES * kStageBytes;
  static_assert(TK == 32 || TK == 64, "mma_lowp: k-major lines of 64 or 128 bytes (the swizzles below)");
  static_assert(TM >= 64 && TN >= 64, "mma_lowp: m- or n-major lines of at least 128 bytes (the swizzles below)");
  static_assert(kWarpM % 16 == 0 && kWarpN % 16 == 0, "mma_lowp: whole 16 x 16 fragments per warp");
  static_assert((kATileBytes / 16) % kThreads == 0 && (kBTileBytes / 16) % kThreads == 0,
                "mma_lowp: every thread copies the same number of 16-byte pieces");
  static_assert(STAGES >= 2, "mma_lowp: the pipeline needs at least two stages");
  static_assert(kSmemBytes <= 227 * 1024, "mma_lowp: within an sm_90 block's shared memory");
};

// Byte offset of 16-byte piece `piece` of line `line` in an operand tile whose lines are kLineBytes long.
// 64-byte lines (k-major, kTileK 32): the 8 lines one ldmatrix reads at one piece span four 128-byte rows
// of banks, two lines each: piece ^ ((line >> 1) & 3) gives the 8 reads 8 different 16-byte bank groups.
// Lines of 128 bytes or more: the 8 lines share their banks; piece ^ (line & 7) separates them.
template <int kLineBytes>
__device__ __forceinline__ uint32_t tile_offset(int line, int piece) {
  if constexpr (kLineBytes == 64) return uint32_t(line * 64 + ((piece ^ ((line >> 1) & 3)) << 4));
  else return uint32_t(line * kLineBytes + ((piece ^ (line & 7)) << 4));
}

__device__ __forceinline__ void cp_async16(uint32_t smem, const void* global, bool valid) {
  // src-size 0 copies nothing and fills the 16 bytes with zeros: pieces past the matrix add nothing.
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(smem), "l"(global), "r"(valid ? 16 : 0));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int kPending>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending));
}

template <bool kTrans>
__device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], uint32_t smem) {
  if constexpr (kTrans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(smem));
  else
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(smem));
}

template <class In>
__device__ __forceinline__ void mma_16816(float (&c)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
  if constexpr (std::is_same<In, __half>::value)
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%0, %1, %2, %3};\n"
        : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
  else
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%0, %1, %2, %3};\n"
        : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// Copies this thread's pieces of one operand tile of kMN (rows of op(A) or columns of op(B)) x kK (k),
// starting at `mn0` and k `k0`; `x` stored with leading dimension ld. K-major: line = m (or n), piece = k / 8,
// element at x[line * ld + k]; MN-major: line = k, piece = m / 8, element at x[k * ld + m]. Lines or pieces
// past the operand (mn_lim, k_lim) are zero-filled.
template <bool kKMajor, int kMN, int kK, int kThreads>
__device__ __forceinline__ void load_operand_tile(uint32_t smem, const uint16_t* x, int64_t ld, int64_t mn0,
                                                  int64_t k0, int64_t mn_lim, int64_t k_lim, int tid) {
  constexpr int kPiecesPerLine = kKMajor ? kK / 8 : kMN / 8;
  constexpr int kLineBytes = kPiecesPerLine * 16;
#pragma unroll
  for (int j = 0; j < kMN * kK / 8 / kThreads; ++j) {
    const int id = tid + j * kThreads;
    const int line = id / kPiecesPerLine, piece = id % kPiecesPerLine;
    const int64_t mn = kKMajor ? mn0 + line : mn0 + piece * 8;
    const int64_t k = kKMajor ? k0 + piece * 8 : k0 + line;
    const bool valid = mn < mn_lim && k < k_lim;
    const uint16_t* src = valid ? (kKMajor ? x + mn * ld + k : x + k * ld + mn) : x;
    cp_async16(smem + tile_offset<kLineBytes>(line, piece), src, valid);
  }
}


// kAKMajor: op(A) = A^T (k contiguous); kBKMajor: op(B) = B (k contiguous).
template <class In, bool kAKMajor, bool kBKMajor, class T>
__global__ void __launch_bounds__(T::kThreads) mma_lowp_kernel(const LowpArgs p) {
  constexpr int kTileM = T::kTileM, kTileN = T::kTileN, kTileK = T::kTileK, kStages = T::kStages;
  constexpr int kWarpsM = T::kWarpsM, kWarpM = T::kWarpM, kWarpN = T::kWarpN;
  constexpr int kFragsM = T::kFragsM, kFragsN = T::kFragsN, kThreads = T::kThreads;
  constexpr int kStageBytes = T::kStageBytes;
  // Line lengths of the A and B tiles (tile_offset's swizzle).
  constexpr int kALine = kAKMajor ? kTileK * 2 : kTileM * 2, kBLine = kBKMajor ? kTileK * 2 : kTileN * 2;
  extern __shared__ __align__(128) unsigned char mma_lowp_smem[];
  const uint32_t smem0 = static_cast<uint32_t>(__cvta_generic_to_shared(mma_lowp_smem));
  const uint16_t* A = static_cast<const uint16_t*>(p.A);
  const uint16_t* B = static_cast<const uint16_t*>(p.B);
  const int tid = static_cast<int>(threadIdx.x), lane = tid % 32, warp = tid / 32;
  const int warp_m0 = (warp % kWarpsM) * kWarpM, warp_n0 = (warp / kWarpsM) * kWarpN;
  const int64_t k_tiles = ceil_div_nonneg(p.k, int64_t(kTileK));

  for (int64_t t = blockIdx.x; t < p.total_tiles; t += gridDim.x) {
    const int64_t m0 = (t % p.m_tiles) * kTileM, n0 = (t / p.m_tiles) * kTileN;
    auto load_stage = [&](int stage, int64_t kt) {
      const uint32_t a_s = smem0 + stage * kStageBytes, b_s = a_s + T::kATileBytes;
      load_operand_tile<kAKMajor, kTileM, kTileK, kThreads>(a_s, A, p.lda, m0, kt * kTileK, p.m, p.k, tid);
      load_operand_tile<kBKMajor, kTileN, kTileK, kThreads>(b_s, B, p.ldb, n0, kt * kTileK, p.n, p.k, tid);
    };

    float acc[kFragsM][kFragsN][4];
#pragma unroll
    for (int i = 0; i < kFragsM; ++i)
#pragma unroll
      for (int j = 0; j < kFragsN; ++j)
#pragma unroll
        for (int e = 0; e < 4; ++e) acc[i][j][e] = 0.0f;

    __syncthreads();  // the previous tile's warps are done with every stage
#pragma unroll
    for (int s = 0; s < kStages - 1; ++s) {
      if (s < k_tiles) load_stage(s, s);
      cp_async_commit();  // one group per stage, empty or not, so the wait counts stay right
    }

    for (int64_t kt = 0; kt < k_tiles; ++kt) {
      cp_async_wait<kStages - 2>();  // tile kt has landed (for this thread) ...
      __syncthreads();               // ... for every thread, and stage (kt - 1) % kStages is free again
      const int64_t next = kt + kStages - 1;
      if (next < k_tiles) load_stage(int(next % kStages), next);
      cp_async_commit();

      const uint32_t a_s = smem0 + int(kt % kStages) * kStageBytes, b_s = a_s + T::kATileBytes;
#pragma unroll
      for (int kk = 0; kk < kTileK; kk += 16) {
        uint32_t a_frag[kFragsM][4];
#pragma unroll
        for (int i = 0; i < kFragsM; ++i) {
          const int m = warp_m0 + i * 16;
          if constexpr (kAKMajor) {
            // Lanes 0-15 address lines m..m+15 at k = kk, lanes 16-31 the same lines at kk + 8.
            ldmatrix_x4<false>(a_frag[i], a_s + tile_offset<kALine>(m + (lane & 15), (kk >> 3) + (lane >> 4)));
          } else {
            // Matrix q = lane / 8 is (k kk + (q / 2) * 8 .., m + (q % 2) * 8 ..), transposed on load.
            const int q = lane >> 3;
            ldmatrix_x4<true>(a_frag[i], a_s + tile_offset<kALine>(kk + (q >> 1) * 8 + (lane & 7), (m >> 3) + (q & 1)));
          }
        }
#pragma unroll
        for (int jj = 0; jj < kFragsN / 2; ++jj) {
          // Two 8-column blocks of B: registers 0, 1 for columns n..n+7, 2, 3 for n+8..n+15.
          const int n = warp_n0 + jj * 16, q = lane >> 3;
          uint32_t b_frag[4];
          if constexpr (kBKMajor)
            ldmatrix_x4<false>(b_frag, b_s + tile_offset<kBLine>(n + (q >> 1) * 8 + (lane & 7), (kk >> 3) + (q & 1)));
          else
            ldmatrix_x4<true>(b_frag, b_s + tile_offset<kBLine>(kk + (q & 1) * 8 + (lane & 7), (n >> 3) + (q >> 1)));
#pragma unroll
          for (int i = 0; i < kFragsM; ++i) {
            mma_16816<In>(acc[i][2 * jj], a_frag[i], b_frag[0], b_frag[1]);
            mma_16816<In>(acc[i][2 * jj + 1], a_frag[i], b_frag[2], b_frag[3]);
          }
        }
      }
    }
    cp_async_wait<0>();

    // Epilogue straight from the accumulators: C = alpha * acc + beta * C inside m x n, C read only when
    // beta != 0 (BLAS), converted to C's type.
    const int g = lane >> 2, t2 = (lane & 3) * 2;
#pragma unroll
    for (int i = 0; i < kFragsM; ++i)
#pragma unroll
      for (int j = 0; j < kFragsN; ++j)
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          const int64_t r = m0 + warp_m0 + i * 16 + g + (e >> 1) * 8;
          const int64_t c = n0 + warp_n0 + j * 8 + t2 + (e & 1);
          if (r < p.m && c < p.n) {
            const int64_t at = r + c * p.ldc;
            float v = p.alpha * acc[i][j][e];
            if (p.beta != 0.0f) v = fmaf(p.beta, load_c_element(p.C, p.c_type, at), v);
            store_c_element(p.C, p.c_type, at, v);
          }
        }
  }
}

template <class In, bool kAKMajor, bool kBKMajor, class T>
tcgemm_status launch_instance(const LowpProblem& pr, const DeviceContext& ctx, cudaStream_t stream) {
  const LowpArgs args = lowp_kernel_args(pr, T::kTileM, T::kTileN);
  auto* kernel = mma_lowp_kernel<In, kAKMajor, kBKMajor, T>;
  TCGEMM_TRY(ensure_dynamic_smem_limit(reinterpret_cast<const void*>(kernel), ctx, "mma_lowp_kernel"));
  const unsigned grid = lowp_grid(args);
  kernel<<<grid, T::kThreads, T::kSmemBytes, stream>>>(args);
  TCGEMM_CHECK_LAUNCH("mma_lowp_kernel");
  return TCGEMM_SUCCESS;
}

template <class In, class T>
tcgemm_status launch_forms(const LowpProblem& p, const DeviceContext& ctx, cudaStream_t stream) {
  if (p.transa == 'T')
    return p.transb == 'T' ? launch_instance<In, true, false, T>(p, ctx, stream)
                           : launch_instance<In, true, true, T>(p, ctx, stream);
  return p.transb == 'T' ? launch_instance<In, false, false, T>(p, ctx, stream)
                         : launch_instance<In, false, true, T>(p, ctx, stream);
}

// The tiling: 128 x 128 tiles of 4 warps, k by 64 through 3 stages (96 KiB). Measured on the H100 at n =
// 4096 and 8192 against the other candidates (bench/results/2026-11-23-h100-lower-precisions/), as a fraction
// of the mma.sync ceiling: 128x128x32 with 4 stages 0.45-0.49, 128x256x32 (8 warps) 0.41-0.43, 256x128x32
// 0.41-0.44, 128x256x64 with 3 stages 0.49-0.53, 128x128x32 with 8 warps of 64 x 32 0.45-0.48, this one
// 0.49-0.53. ncu on this one (n = 4096): tensor pipe 49% busy, shared memory 38%, occupancy 8 warps per SM
// (shared memory and 236 registers), most stalls on fixed-latency dependencies: it is latency-bound, not
// bandwidth-bound. Fragments double-buffered in registers across the 16-deep k steps, or more warps, are the
// next things to try; wgmma (sm_90a) the way to cuBLAS's speed.
using DefaultTiling = Tiling<128, 128, 64, 2, 2, 3>;
static_assert(DefaultTiling::kSmemBytes <= 99 * 1024, "mma_lowp: within the smallest opt-in limit of a cc >= 8.0 device");

}  // namespace

tcgemm_status launch_mma_lowp(const LowpProblem& p, const DeviceContext& ctx, cudaStream_t stream) {
  // 96 KiB of shared memory: within the opt-in limit of every device the gate admits (cc >= 8.0; sm_86 and
  // sm_89 allow 99 KiB).
  if (p.input_type == TCGEMM_TYPE_BF16) return launch_forms<__nv_bfloat16, DefaultTiling>(p, ctx, stream);
  return launch_forms<__half, DefaultTiling>(p, ctx, stream);
}

}  // namespace tcgemm::detail
