// Family batched_direct's kernel (rules.hpp says what it does and why).
#pragma once

#include <cstdint>

#include "arch/cp_async_sm80.cuh"
#include "families/batched_direct/rules.hpp"
#include "families/batched_small/args.hpp"
#include "families/common/batched_operands.cuh"

namespace tcgemm::detail::batched_direct {

using batched_small::a_of;
using batched_small::b_of;
using batched_small::BatchedArgs;
using batched_small::c_of;

// D += A B on one 8x8x4 FP64 tile: mma.sync.m8n8k4.f64 (sm_80 and later; the library builds for sm_80 and sm_90
// only). Its fragments (PTX ISA, "matrix fragments for mma.m8n8k4 with .f64"): lane l holds A(l / 4, l % 4),
// B(l % 4, l / 4) and D(l / 4, 2 (l % 4)) and D(l / 4, 2 (l % 4) + 1). Issued as PTX rather than through WMMA
// because WMMA's fragment layout is opaque: here each lane copies exactly its own elements from global memory.
__device__ __forceinline__ void dmma_m8n8k4(double (&d)[2], double a, double b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
      : "+d"(d[0]), "+d"(d[1])
      : "d"(a), "d"(b));
#elif defined(__CUDA_ARCH__)
  __trap();  // no FP64 tensor cores before sm_80 (the library is not built for them)
#endif
}

// Every warp of the persistent grid works through its own sequence of jobs: pass 0, 1, ... (a pass: `items`
// consecutive tile-products, passes dealt to the grid's warps in turn, so neighbouring warps stream neighbouring
// memory), each pass in k-chunks of 4 x ksteps. In each item, lane l works on product q = (l / 4) / slot of the
// tile (always 0 when a product has tiles of its own): it copies op(A)'s row and op(B)'s column rc = (l / 4) % slot
// (plus 8 per further tile) at k = k0 + 4 s + l % 4, and writes C's row rc (plus 8 per further tile) at the
// columns 2 (l % 4) + {0, 1} of each tile that fall into its own product's diagonal block.
//   op(A)(i, kk) = A[i + kk lda] ('N') or A[kk + i lda] ('T');  op(B)(kk, j) = B[kk + j ldb] ('N') or
//   B[j + kk ldb] ('T').
// The small sizes are bound by instructions per product, so everything a lane's copies and stores need from m,
// n, k, the leading dimensions and its position is worked out once, before the loop: offsets within a product
// and which of them exist. A job then costs, per element, a 64-bit add and one cp.async. Rows of op(A) past m and
// columns of op(B) past n are not copied at all (what the buffer holds there only reaches elements of the tile
// that are not written); elements past k are zero-filled by the copy (both operands: stale data there could be
// a NaN of another product).
template <int kShape, bool kArrays, bool kReadC>
__global__ void __launch_bounds__(kBatchedDirectThreads, kBatchedDirectShapes[kShape].min_blocks)
    batched_direct_kernel(BatchedArgs p) {
  constexpr BatchedDirectShape kS = kBatchedDirectShapes[kShape];
  static_assert(kS.valid(), "batched_direct: a shape that breaks rules.hpp's rules");
  static_assert(kReadC == (kShape >= kBatchedDirectShapesPerBeta), "batched_direct: beta != 0 has its own shapes");
  constexpr int SLOT = kS.slot, TM = kS.tm, TN = kS.tn, ITEMS = kS.items, KSTEPS = kS.ksteps, PER = kS.per_tile();
  constexpr int STAGES = kS.stages, kWarps = kBatchedDirectThreads / 32, KC = 4 * KSTEPS;
  // A lane's elements in a job's buffer: op(A) at a_el(s, it, i), op(B) at b_el(s, it, j), C at c_el(it, i, j, e),
  // the C pointer of item it at ptr_el(it); each element is 32 doubles (256 bytes) apart, one per lane.
  constexpr int kA = ITEMS * KSTEPS * TM, kB = ITEMS * KSTEPS * TN, kC = kReadC ? ITEMS * TM * TN * 2 : 0;
  constexpr int kE = batched_direct_job_elements(kS, kReadC, kArrays);
  static_assert(kE == kA + kB + kC + (kArrays ? ITEMS : 0), "batched_direct: one description of a job's elements");
  constexpr uint32_t kBufBytes = kE * 32 * 8;
  auto a_el = [](int s, int it, int i) { return (s * ITEMS + it) * TM + i; };
  auto b_el = [](int s, int it, int j) { return kA + (s * ITEMS + it) * TN + j; };
  auto c_el = [](int it, int i, int j, int e) { return kA + kB + ((it * TM + i) * TN + j) * 2 + e; };
  auto ptr_el = [](int it) { return kA + kB + kC + it; };

  extern __shared__ double ring[];
  const int lane = threadIdx.x % 32, gid = lane / 4, tig = lane % 4;
  // This lane's column of its warp's ring: element e of buffer b at mine[(b kE + e) 32].
  double* const mine = ring + (threadIdx.x / 32) * STAGES * kE * 32 + lane;
  const uint32_t mine_smem = arch::smem_address(mine);
  const int q = gid / SLOT, rc = gid % SLOT;
  // The lane's offsets within a product, and which of its rows, columns and C elements exist.
  const int64_t a_row_step = p.trans_a ? p.lda : 1, a_k_step = p.trans_a ? 1 : p.lda;
  const int64_t b_col_step = p.trans_b ? 1 : p.ldb, b_k_step = p.trans_b ? p.ldb : 1;
  int64_t a_off[KSTEPS][TM], b_off[KSTEPS][TN], c_off[TM][TN][2];
  uint32_t a_row[TM], b_col[TN];
  bool c_in[TM][TN][2];
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    a_row[i] = i * 8 + rc < p.m;
#pragma unroll
    for (int s = 0; s < KSTEPS; ++s) a_off[s][i] = (i * 8 + rc) * a_row_step + (4 * s + tig) * a_k_step;
  }
#pragma unroll
  for (int j = 0; j < TN; ++j) {
    b_col[j] = j * 8 + rc < p.n;
#pragma unroll
    for (int s = 0; s < KSTEPS; ++s) b_off[s][j] = (j * 8 + rc) * b_col_step + (4 * s + tig) * b_k_step;
  }
  const int c_col0 = (2 * tig) % SLOT;  // this lane's first C column within its product
  const bool c_mine = (2 * tig) / SLOT == q;  // its C columns lie in its own product's diagonal block
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j)
#pragma unroll
      for (int e = 0; e < 2; ++e) {
        c_in[i][j][e] = c_mine && i * 8 + rc < p.m && j * 8 + c_col0 + e < p.n;
        c_off[i][j][e] = (i * 8 + rc) + (j * 8 + c_col0 + e) * p.ldc;
      }
  const int64_t a_chunk = KC * a_k_step, b_chunk = KC * b_k_step;  // from one k-chunk to the next

  const int64_t items = (p.batch + PER - 1) / PER;
  const int64_t passes = (items + ITEMS - 1) / ITEMS;
  const int64_t pass_step = int64_t(gridDim.x) * kWarps;
  const int64_t first_pass = int64_t(blockIdx.x) * kWarps + threadIdx.x / 32;
  const int64_t g_step = pass_step * ITEMS * PER;  // products from one of a warp's passes to its next
  // A cursor over a warp's jobs: its pass, this lane's product of item 0 (q included), k0 and buffer.
  struct Job {
    int64_t pass, g, k0;
    int buf;
    __device__ bool advance(int64_t k, int64_t step, int64_t gstep) {  // true when a new pass begins
      buf = buf + 1 == STAGES ? 0 : buf + 1;
      k0 += KC;
      if (k0 < k) return false;
      k0 = 0;
      pass += step;
      g += gstep;
      return true;
    }
  };
  // Past the batch a product's pointers are these (readable addresses, never read or written there: its copies
  // and stores are predicated off), so that no offset is ever added to a null pointer.
  const double* const none_a = kArrays ? reinterpret_cast<const double*>(p.A_array) : p.A;
  const double* const none_b = kArrays ? reinterpret_cast<const double*>(p.B_array) : p.B;
  double* const none_c = kArrays ? reinterpret_cast<double*>(const_cast<double**>(p.C_array)) : p.C;
  // The products of item it of a pass whose item 0 is this lane's product g: strided batches step them by a
  // constant per pass, pointer arrays load them.
  auto product = [&](int64_t g, int it, const double** a, const double** b, double** c) {
    const int64_t gi = g + it * PER;
    const bool in = gi < p.batch;
    *a = in ? a_of<kArrays>(p, gi) : none_a;
    *b = in ? b_of<kArrays>(p, gi) : none_b;
    *c = in ? c_of<kArrays>(p, gi) : none_c;
  };

  // The issue side: the next job to copy, its products, and their op(A) and op(B) at its k0.
  Job next{first_pass, first_pass * ITEMS * PER + q, 0, 0};
  const double* ia[ITEMS];
  const double* ib[ITEMS];
  double* ic[ITEMS];
  const double* ak[ITEMS];
  const double* bk[ITEMS];
#pragma unroll
  for (int it = 0; it < ITEMS; ++it) {
    product(next.g, it, &ia[it], &ib[it], &ic[it]);
    ak[it] = ia[it];
    bk[it] = ib[it];
  }
  auto issue = [&] {
    if (next.pass < passes) {
      const uint32_t buf = mine_smem + next.buf * kBufBytes;
      const int64_t k_left64 = p.k - next.k0;
      const int k_left = k_left64 < KC ? int(k_left64) : KC;
#pragma unroll
      for (int it = 0; it < ITEMS; ++it) {
        const uint32_t in = next.g + it * PER < p.batch;
#pragma unroll
        for (int s = 0; s < KSTEPS; ++s) {
          const int bytes = 4 * s + tig < k_left ? 8 : 0;  // past k: no bytes read, 8 zeros written
#pragma unroll
          for (int i = 0; i < TM; ++i)
            arch::cp_async8_zfill_if(in & a_row[i], buf + a_el(s, it, i) * 256, ak[it] + a_off[s][i], bytes);
#pragma unroll
          for (int j = 0; j < TN; ++j)
            arch::cp_async8_zfill_if(in & b_col[j], buf + b_el(s, it, j) * 256, bk[it] + b_off[s][j], bytes);
        }
        if constexpr (kReadC) {
          if (next.k0 == 0) {
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
              for (int j = 0; j < TN; ++j)
#pragma unroll
                for (int e = 0; e < 2; ++e)
                  arch::cp_async8_zfill_if(in & c_in[i][j][e], buf + c_el(it, i, j, e) * 256, ic[it] + c_off[i][j][e],
                                           8);
          }
        }
        if constexpr (kArrays) reinterpret_cast<double**>(mine + next.buf * kE * 32)[ptr_el(it) * 32] = ic[it];
      }
      if (next.advance(p.k, pass_step, g_step)) {
        if (next.pass < passes) {
#pragma unroll
          for (int it = 0; it < ITEMS; ++it) {
            if constexpr (kArrays) {
              product(next.g, it, &ia[it], &ib[it], &ic[it]);
            } else {
              const bool in = next.g + it * PER < p.batch;
              ia[it] = in ? ia[it] + g_step * p.stride_a : none_a;
              ib[it] = in ? ib[it] + g_step * p.stride_b : none_b;
              ic[it] = in ? ic[it] + g_step * p.stride_c : none_c;
            }
            ak[it] = ia[it];
            bk[it] = ib[it];
          }
        }
      } else {
#pragma unroll
        for (int it = 0; it < ITEMS; ++it) {
          ak[it] += a_chunk;
          bk[it] += b_chunk;
        }
      }
    }
    arch::cp_async_commit<arch::Clobber::kMemory>();  // possibly empty: one group per job keeps the count
  };
#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) issue();

  // The multiply side: the job whose copies are waited for, and (strided batches) its products' C.
  double acc[ITEMS][TM][TN][2];
  double c_old[kReadC ? ITEMS : 1][kReadC ? TM : 1][kReadC ? TN : 1][2];
  double* cc[ITEMS];
#pragma unroll
  for (int it = 0; it < ITEMS; ++it) {
    const int64_t g = first_pass * ITEMS * PER + q + it * PER;
    cc[it] = kArrays || g >= p.batch ? none_c : p.C + g * p.stride_c;  // pointer arrays: the job keeps C's pointer
  }
  for (Job cur{first_pass, first_pass * ITEMS * PER + q, 0, 0}; cur.pass < passes;) {
    arch::cp_async_wait<STAGES - 2>();  // this lane's copies of the job have landed (no other lane reads them)
    issue();                            // into the buffer multiplied in the previous iteration
    const double* buf = mine + cur.buf * kE * 32;
    if (cur.k0 == 0) {
#pragma unroll
      for (int it = 0; it < ITEMS; ++it)
#pragma unroll
        for (int i = 0; i < TM; ++i)
#pragma unroll
          for (int j = 0; j < TN; ++j) {
            acc[it][i][j][0] = acc[it][i][j][1] = 0.0;
            if constexpr (kReadC) {
              c_old[it][i][j][0] = buf[c_el(it, i, j, 0) * 32];
              c_old[it][i][j][1] = buf[c_el(it, i, j, 1) * 32];
            }
          }
    }
#pragma unroll
    for (int s = 0; s < KSTEPS; ++s) {
      if (cur.k0 + 4 * s >= p.k) break;  // warp-uniform: no multiplications of steps past k
#pragma unroll
      for (int it = 0; it < ITEMS; ++it) {
        double a[TM], b[TN];
#pragma unroll
        for (int i = 0; i < TM; ++i) a[i] = buf[a_el(s, it, i) * 32];
#pragma unroll
        for (int j = 0; j < TN; ++j) b[j] = buf[b_el(s, it, j) * 32];
#pragma unroll
        for (int i = 0; i < TM; ++i)
#pragma unroll
          for (int j = 0; j < TN; ++j) dmma_m8n8k4(acc[it][i][j], a[i], b[j]);
      }
    }
    if (cur.k0 + KC >= p.k) {
      // The pass's last k-chunk: C = alpha acc + beta C inside each product's m x n; C read only when beta != 0
      // (copied with the pass's first job).
#pragma unroll
      for (int it = 0; it < ITEMS; ++it) {
        if (cur.g + it * PER >= p.batch) continue;
        double* const c = kArrays ? reinterpret_cast<double* const*>(buf)[ptr_el(it) * 32] : cc[it];
#pragma unroll
        for (int i = 0; i < TM; ++i)
#pragma unroll
          for (int j = 0; j < TN; ++j)
#pragma unroll
            for (int e = 0; e < 2; ++e) {
              if (!c_in[i][j][e]) continue;
              const double v = p.alpha * acc[it][i][j][e];
              if constexpr (kReadC) c[c_off[i][j][e]] = v + p.beta * c_old[it][i][j][e];
              else c[c_off[i][j][e]] = v;  // beta = 0: C is not read
            }
      }
    }
    if (cur.advance(p.k, pass_step, g_step) && !kArrays) {
#pragma unroll
      for (int it = 0; it < ITEMS; ++it) cc[it] = cur.g + it * PER < p.batch ? cc[it] + g_step * p.stride_c : none_c;
    }
  }
  arch::cp_async_wait<0>();  // no copy outlives the block (the trailing groups are empty)
}

}  // namespace tcgemm::detail::batched_direct
