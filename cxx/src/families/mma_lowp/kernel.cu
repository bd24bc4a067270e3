// Family mma_lowp (launch.hpp): C = alpha * op(A) op(B) + beta * C for F16 or BF16 inputs with FP32
// accumulation, on mma.sync.aligned.m16n8k16 (PTX ISA, "Warp-level matrix multiply-accumulate instructions").
//
// A block of 4 warps (2 x 2) computes a 128 x 128 tile of C; each warp a 64 x 64 block, as 4 x 8 fragments
// of 16 x 8 (128 FP32 accumulators per thread). k goes by tiles of 32 through a 4-stage ring of shared-memory
// buffers filled by cp.async (16 bytes per copy, issued kStages - 1 tiles ahead), so the loads of later
// tiles run while the tensor cores work on the current one; one barrier per k-tile.
//
// Shared-memory layouts. Each operand tile (128 rows or columns of C x 32 of k, 8 KiB) is stored as its
// global layout gives it, so every cp.async copies 16 contiguous bytes:
//  - "K-major" (a transposed A, an untransposed B: k contiguous): 128 lines of 32 elements (64 bytes, four
//    16-byte pieces); ldmatrix reads 8 lines at one k offset, 64 bytes apart: piece p of line r is stored
//    at piece p ^ ((r >> 1) & 3), so those 8 reads hit 8 different 16-byte bank groups;
//  - "MN-major" (an untransposed A, a transposed B: m or n contiguous): 32 lines (k) of 128 elements (256
//    bytes, 16 pieces); ldmatrix.trans reads 8 consecutive k lines at one m offset, 256 bytes apart: piece p
//    of line r is stored at p ^ (r & 7).
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
#include "families/mma_lowp/launch.hpp"

namespace tcgemm::detail {
namespace {

constexpr int kTileM = 128, kTileN = 128, kTileK = 32, kStages = 4;
constexpr int kWarpsM = 2, kWarpsN = 2, kThreads = kWarpsM * kWarpsN * 32;
constexpr int kWarpM = kTileM / kWarpsM, kWarpN = kTileN / kWarpsN;
constexpr int kFragsM = kWarpM / 16, kFragsN = kWarpN / 8;
constexpr int kOperandTileBytes = kTileM * kTileK * 2;  // 16-bit elements
constexpr int kStageBytes = 2 * kOperandTileBytes;
constexpr int kSmemBytes = kStages * kStageBytes;
constexpr int kPiecesPerTile = kOperandTileBytes / 16;
constexpr int64_t kMaxGridX = 2147483647;
static_assert(kTileM == kTileN, "mma_lowp: the A and B tiles share one size and layout code");
static_assert(kTileK == 32, "mma_lowp: the K-major swizzle assumes 64-byte lines (32 elements)");
static_assert(kTileM == 128, "mma_lowp: the MN-major swizzle assumes 256-byte lines (128 elements)");
static_assert(kWarpN % 16 == 0, "mma_lowp: B fragments are loaded for two 8-column blocks at a time");
static_assert(kPiecesPerTile % kThreads == 0, "mma_lowp: every thread copies the same number of pieces");
static_assert(kStages >= 2, "mma_lowp: the pipeline needs at least two stages");

// Byte offset of 16-byte piece `piece` of line `line` in an operand tile (the swizzles above).
template <bool kKMajor>
__device__ __forceinline__ uint32_t tile_offset(int line, int piece) {
  if constexpr (kKMajor) return uint32_t(line * 64 + ((piece ^ ((line >> 1) & 3)) << 4));
  else return uint32_t(line * 256 + ((piece ^ (line & 7)) << 4));
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

// Copies this thread's pieces of one operand tile: lines x pieces of the tile starting at row/column `mn0`
// and k `k0` of the operand; `x` stored with leading dimension ld. K-major: line = m (or n), piece = k / 8,
// element at x[line * ld + k]; MN-major: line = k, piece = m / 8, element at x[k * ld + m]. Lines or
// pieces past the operand (mn_lim, k_lim) are zero-filled.
template <bool kKMajor>
__device__ __forceinline__ void load_operand_tile(uint32_t smem, const uint16_t* x, int64_t ld, int64_t mn0,
                                                  int64_t k0, int64_t mn_lim, int64_t k_lim, int tid) {
  constexpr int kPiecesPerLine = kKMajor ? kTileK / 8 : kTileM / 8;
#pragma unroll
  for (int j = 0; j < kPiecesPerTile / kThreads; ++j) {
    const int id = tid + j * kThreads;
    const int line = id / kPiecesPerLine, piece = id % kPiecesPerLine;
    const int64_t mn = kKMajor ? mn0 + line : mn0 + piece * 8;
    const int64_t k = kKMajor ? k0 + piece * 8 : k0 + line;
    const bool valid = mn < mn_lim && k < k_lim;
    const uint16_t* src = valid ? (kKMajor ? x + mn * ld + k : x + k * ld + mn) : x;
    cp_async16(smem + tile_offset<kKMajor>(line, piece), src, valid);
  }
}

__device__ __forceinline__ float load_c(const void* c, int32_t type, int64_t i) {
  switch (type) {
    case TCGEMM_TYPE_F16: return __half2float(static_cast<const __half*>(c)[i]);
    case TCGEMM_TYPE_BF16: return __bfloat162float(static_cast<const __nv_bfloat16*>(c)[i]);
    default: return static_cast<const float*>(c)[i];
  }
}
__device__ __forceinline__ void store_c(void* c, int32_t type, int64_t i, float v) {
  switch (type) {
    case TCGEMM_TYPE_F16: static_cast<__half*>(c)[i] = __float2half_rn(v); break;
    case TCGEMM_TYPE_BF16: static_cast<__nv_bfloat16*>(c)[i] = __float2bfloat16_rn(v); break;
    default: static_cast<float*>(c)[i] = v; break;
  }
}

// kAKMajor: op(A) = A^T (k contiguous); kBKMajor: op(B) = B (k contiguous).
template <class In, bool kAKMajor, bool kBKMajor>
__global__ void __launch_bounds__(kThreads, 2) mma_lowp_kernel(const LowpArgs p) {
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
      const uint32_t a_s = smem0 + stage * kStageBytes, b_s = a_s + kOperandTileBytes;
      load_operand_tile<kAKMajor>(a_s, A, p.lda, m0, kt * kTileK, p.m, p.k, tid);
      load_operand_tile<kBKMajor>(b_s, B, p.ldb, n0, kt * kTileK, p.n, p.k, tid);
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

      const uint32_t a_s = smem0 + int(kt % kStages) * kStageBytes, b_s = a_s + kOperandTileBytes;
#pragma unroll
      for (int kk = 0; kk < kTileK; kk += 16) {
        uint32_t a_frag[kFragsM][4];
#pragma unroll
        for (int i = 0; i < kFragsM; ++i) {
          const int m = warp_m0 + i * 16;
          if constexpr (kAKMajor) {
            // Lanes 0-15 address lines m..m+15 at k = kk, lanes 16-31 the same lines at kk + 8.
            ldmatrix_x4<false>(a_frag[i], a_s + tile_offset<true>(m + (lane & 15), (kk >> 3) + (lane >> 4)));
          } else {
            // Matrix q = lane / 8 is (k kk + (q / 2) * 8 .., m + (q % 2) * 8 ..), transposed on load.
            const int q = lane >> 3;
            ldmatrix_x4<true>(a_frag[i], a_s + tile_offset<false>(kk + (q >> 1) * 8 + (lane & 7), (m >> 3) + (q & 1)));
          }
        }
#pragma unroll
        for (int jj = 0; jj < kFragsN / 2; ++jj) {
          // Two 8-column blocks of B: registers 0, 1 for columns n..n+7, 2, 3 for n+8..n+15.
          const int n = warp_n0 + jj * 16, q = lane >> 3;
          uint32_t b_frag[4];
          if constexpr (kBKMajor)
            ldmatrix_x4<false>(b_frag, b_s + tile_offset<true>(n + (q >> 1) * 8 + (lane & 7), (kk >> 3) + (q & 1)));
          else
            ldmatrix_x4<true>(b_frag, b_s + tile_offset<false>(kk + (q & 1) * 8 + (lane & 7), (n >> 3) + (q >> 1)));
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
            if (p.beta != 0.0f) v = fmaf(p.beta, load_c(p.C, p.c_type, at), v);
            store_c(p.C, p.c_type, at, v);
          }
        }
  }
}

template <class In, bool kAKMajor, bool kBKMajor>
tcgemm_status launch_instance(const LowpArgs& args, const DeviceContext& ctx, cudaStream_t stream) {
  auto* kernel = mma_lowp_kernel<In, kAKMajor, kBKMajor>;
  TCGEMM_TRY(ensure_dynamic_smem_limit(reinterpret_cast<const void*>(kernel), ctx, "mma_lowp_kernel"));
  const unsigned grid = static_cast<unsigned>(args.total_tiles < kMaxGridX ? args.total_tiles : kMaxGridX);
  kernel<<<grid, kThreads, kSmemBytes, stream>>>(args);
  TCGEMM_CHECK_LAUNCH("mma_lowp_kernel");
  return TCGEMM_SUCCESS;
}

template <class In>
tcgemm_status launch_forms(const LowpArgs& a, const DeviceContext& ctx, cudaStream_t stream) {
  if (a.trans_a)
    return a.trans_b ? launch_instance<In, true, false>(a, ctx, stream) : launch_instance<In, true, true>(a, ctx, stream);
  return a.trans_b ? launch_instance<In, false, false>(a, ctx, stream) : launch_instance<In, false, true>(a, ctx, stream);
}

}  // namespace

tcgemm_status launch_mma_lowp(const LowpProblem& p, const DeviceContext& ctx, cudaStream_t stream) {
  // 64 KiB of shared memory: within the opt-in limit of every device the gate admits (cc >= 8.0: 99 KiB or more).
  const LowpArgs a = lowp_kernel_args(p, kTileM);
  if (p.input_type == TCGEMM_TYPE_BF16) return launch_forms<__nv_bfloat16>(a, ctx, stream);
  return launch_forms<__half>(a, ctx, stream);
}

}  // namespace tcgemm::detail
