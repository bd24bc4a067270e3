// The Tensor Memory Accelerator (sm_90): 2-D and 3-D tile loads global -> shared (cp.async.bulk.tensor), completed on a
// shared-memory mbarrier that counts the bytes delivered (PTX ISA: "Tensor copy", "mbarrier"). One thread issues
// a whole tile; the other threads neither compute addresses nor issue copies, which is why the mma_lowp family
// uses it on sm_90 (its cp.async copies cost 16% of its time at n = 8192, measured by leaving them out).
// Device code: the wrappers compile to nothing below sm_90, where no caller runs them (the launcher checks the
// device's compute capability).
#pragma once

#include <cstdint>

#include <cuda.h>

namespace tcgemm::detail::arch {

__device__ __forceinline__ void mbarrier_init(uint32_t bar, uint32_t arrivals) {
  asm volatile("mbarrier.init.shared.b64 [%0], %1;\n" ::"r"(bar), "r"(arrivals) : "memory");
}

// Makes initialized mbarriers visible to the TMA unit (the async proxy) before any copy signals them.
__device__ __forceinline__ void fence_mbarrier_init() {
#if __CUDA_ARCH__ >= 900
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
#endif
}

// One arrival that also tells the barrier to expect `bytes` more from copies before its phase completes.
__device__ __forceinline__ void mbarrier_arrive_expect_tx(uint32_t bar, uint32_t bytes) {
#if __CUDA_ARCH__ >= 900
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes) : "memory");
#endif
}

// Waits until the phase of parity `parity` of the barrier has completed (try_wait suspends the thread for a
// while before it polls again, so waiting warps leave the issue slots to the others).
__device__ __forceinline__ void mbarrier_wait(uint32_t bar, uint32_t parity) {
#if __CUDA_ARCH__ >= 900
  asm volatile(
      "{\n .reg .pred done;\n WAIT:\n mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n @!done bra WAIT;\n}\n" ::"r"(
          bar),
      "r"(parity)
      : "memory");
#endif
}

// Loads the box of `map` at element coordinates (c0 along the contiguous dimension, c1 along the other) into
// shared memory at `dst` (1024-byte aligned for the 128-byte swizzle); elements outside the tensor arrive as
// zeros and count towards the bytes the barrier expects, as the others do. `map` is a kernel parameter
// (__grid_constant__), addressed generically.
__device__ __forceinline__ void tma_load_2d(uint32_t dst, const CUtensorMap* map, int32_t c0, int32_t c1,
                                            uint32_t bar) {
#if __CUDA_ARCH__ >= 900
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n" ::"r"(
          dst),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(c0), "r"(c1), "r"(bar)
      : "memory");
#endif
}

// The 3-D form: coordinates c0 (contiguous), c1 and c2. The box lands in shared memory with c0 fastest, then c1,
// then c2, so a box of 64 x rows x blocks is `blocks` 2-D boxes of 64 x rows one after the other.
__device__ __forceinline__ void tma_load_3d(uint32_t dst, const CUtensorMap* map, int32_t c0, int32_t c1, int32_t c2,
                                            uint32_t bar) {
#if __CUDA_ARCH__ >= 900
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];\n" ::"r"(
          dst),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(c0), "r"(c1), "r"(c2), "r"(bar)
      : "memory");
#endif
}

}  // namespace tcgemm::detail::arch
