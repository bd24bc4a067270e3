// cp.async (sm_80 and newer): global -> shared copies that do not pass through registers, in the forms the
// families use. One set of wrappers for every family; what differs between them is a template parameter:
//   kBytes   16 copies use .cg by default (cached in L2 only: where a block reads each element once and the
//            copies line up with their sectors, L1 would only be polluted; Cache says when it is not so);
//            .cg exists only for 16 bytes, so 8-byte copies use .ca;
//   kClobber whether the asm statement carries a "memory" clobber (see Clobber);
//   kCache   (whole copies) where a 16-byte copy's source is cached (see Cache).
// The _zfill forms take a source byte count: only src_bytes are read and the rest of the destination is
// zero-filled, which is how edge tiles are padded with zeros.
#pragma once

#include <cstdint>
#include <utility>

#include <cuda_runtime.h>

namespace tcgemm::detail::arch {

// kMemory: the compiler may move no memory access across the copy. The WMMA families want this: they read
// their shared tiles between barriers with wmma::load_matrix_sync and keep the code simple.
// kNone: other memory accesses (fragment loads from other pipeline stages) may be scheduled across the
// copies. Safe when the destination is read only after cp_async_wait and __syncthreads, which are compiler
// barriers themselves (sm90_mma's pipeline; it measurably needs the freedom).
enum class Clobber { kMemory, kNone };

// kL2: .cg, the default. kL1: .ca, for destinations whose 32-byte chunks do not line up with the source's
// 32-byte sectors (a padded tile whose lines start 16 bytes past a 32-byte boundary every other line, as the
// WMMA family's do): with .cg each source sector is fetched from L2 once per destination chunk it lands in (24
// L2 sectors per warp's copy where 16 hold the data); with .ca the second fetch hits L1 (ncu, F16 'N','N' at
// n = 4096 on the H200: the kernel's L2 read sectors 74 M -> 48 M).
enum class Cache { kL2, kL1 };

__device__ __forceinline__ uint32_t smem_address(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

template <int kBytes, Clobber kClobber>
__device__ __forceinline__ void cp_async_zfill(uint32_t dst, const void* src, int src_bytes) {
  static_assert(kBytes == 16 || kBytes == 8, "cp.async copies 4, 8 or 16 bytes; tcgemm uses 8 and 16");
  if constexpr (kBytes == 16 && kClobber == Clobber::kNone)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(src_bytes));
  else if constexpr (kBytes == 16)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(src_bytes) : "memory");
  else if constexpr (kClobber == Clobber::kNone)
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;\n" ::"r"(dst), "l"(src), "r"(src_bytes));
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;\n" ::"r"(dst), "l"(src), "r"(src_bytes) : "memory");
}

// An 8-byte copy issued only where `pred` is nonzero (a predicated instruction, not a branch: callers issue many
// per-lane conditional copies in a row), src_bytes (0 or 8) of it read and the rest zero-filled. With a "memory"
// clobber.
__device__ __forceinline__ void cp_async8_zfill_if(uint32_t pred, uint32_t dst, const void* src, int src_bytes) {
  asm volatile(
      "{\n .reg .pred p;\n setp.ne.b32 p, %0, 0;\n @p cp.async.ca.shared.global [%1], [%2], 8, %3;\n}\n" ::"r"(pred),
      "r"(dst), "l"(__cvta_generic_to_global(src)), "r"(src_bytes)
      : "memory");
}

// Whole-chunk copies, for sources known to be in bounds.
template <int kBytes, Clobber kClobber, Cache kCache = Cache::kL2>
__device__ __forceinline__ void cp_async(uint32_t dst, const void* src) {
  static_assert(kBytes == 16 || kBytes == 8, "cp.async copies 4, 8 or 16 bytes; tcgemm uses 8 and 16");
  constexpr bool kCg = kBytes == 16 && kCache == Cache::kL2;
  if constexpr (kCg && kClobber == Clobber::kNone)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(src));
  else if constexpr (kCg)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(src) : "memory");
  else if constexpr (kClobber == Clobber::kNone)
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(dst), "l"(src), "n"(kBytes));
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(dst), "l"(src), "n"(kBytes) : "memory");
}
// The same from generic pointers (the source converted to a global-space address).
template <int kBytes, Clobber kClobber>
__device__ __forceinline__ void cp_async(void* smem_dst, const void* gmem_src) {
  cp_async<kBytes, kClobber>(smem_address(smem_dst),
                             reinterpret_cast<const void*>(__cvta_generic_to_global(gmem_src)));
}

// Host side: whether 16-byte copies of pairs of doubles along every stored column of a column-major matrix
// are aligned (a 16-byte aligned base and an even leading dimension; then every pair that starts at an even
// row is). Decided once per call, per operand.
inline bool cp_async16_aligned(const void* base, int64_t ld) {
  return reinterpret_cast<uintptr_t>(base) % 16 == 0 && ld % 2 == 0;
}

template <Clobber kClobber>
__device__ __forceinline__ void cp_async_commit() {
  if constexpr (kClobber == Clobber::kNone) asm volatile("cp.async.commit_group;\n");
  else asm volatile("cp.async.commit_group;\n" ::: "memory");
}

// Waits until at most kPending of this thread's committed groups are still in flight. Always a compiler
// barrier: what the wait protects is read right after it.
template <int kPending>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending) : "memory");
}

// The largest count a wait takes here (cp.async.wait_group's immediate; kernels check their depth against it).
constexpr int kWaitPendingMax = 7;

// Waits until at most `pending` (0..kMax, a run-time value) of this thread's committed groups are in flight.
// wait_group takes an immediate, so a run-time count needs one wait per possible value: here each is
// predicated on `pending` (setp + @p wait_group per value below kMax, then wait_group kMax, which a smaller
// count has already satisfied). ptxas turns each predicated wait into a short forward branch around it; a
// switch over the counts had compiled to an indirect branch (BRX) through a jump table, and sm90_mma's main
// loop, which waits once per k-tile, stalled on it (ncu at 4096^3: 0.20 branch-resolving stall cycles per
// instruction, cuBLAS 0.02): the predicated waits measured 0.5-1.5% faster at 2048^3-8192^3.
template <int kCount>
__device__ __forceinline__ void cp_async_wait_if_pending(int pending) {
  asm volatile("{\n .reg .pred p;\n setp.eq.s32 p, %0, %1;\n @p cp.async.wait_group %1;\n}\n" ::"r"(pending),
               "n"(kCount)
               : "memory");
}
template <int kMax, int... kCounts>
__device__ __forceinline__ void cp_async_wait_pending_upto(int pending, std::integer_sequence<int, kCounts...>) {
  (cp_async_wait_if_pending<kCounts>(pending), ...);
  cp_async_wait<kMax>();
}
template <int kMax>
__device__ __forceinline__ void cp_async_wait_pending_upto(int pending) {
  static_assert(kMax >= 0 && kMax <= kWaitPendingMax, "cp.async.wait_group counts 0..kWaitPendingMax");
  cp_async_wait_pending_upto<kMax>(pending, std::make_integer_sequence<int, kMax>{});
}

}  // namespace tcgemm::detail::arch
