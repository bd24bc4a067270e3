// Programmatic dependent launch (sm_90). A kernel launched with the programmatic stream serialization
// attribute (cudaLaunchAttributeProgrammaticStreamSerialization) may be launched before the kernel ahead of it
// on the stream has finished: once every block of that kernel has called launch_dependents (or exited), its
// blocks are scheduled as room frees up, and each waits in wait_for_prerequisite_grids until the kernel ahead
// has completed and its memory writes are visible. What this saves is the launch latency between the two
// (the split-K reduction after the kernels that write its partial products: ~2-4 us of a 50 us call).
// Compiled for an older architecture both are no-ops, so a launcher may set the attribute only where the
// dependent kernel runs sm_90 code (sm90_code_available); otherwise it must launch normally.
#pragma once

namespace tcgemm::detail::arch {

// The kernels behind this one on the stream may be launched (a hint: this block's remaining work is short).
// No memory clobber: the dependents wait for this whole grid's completion anyway (wait_for_prerequisite_grids),
// so nothing needs ordering here, and a clobber made the register allocator spill in the 8-row skinny kernel.
__device__ __forceinline__ void launch_dependents() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;\n");
#endif
}

// Waits until the kernels this one depends on have completed and their writes are visible (returns at once
// when the kernel was launched without the programmatic attribute).
__device__ __forceinline__ void wait_for_prerequisite_grids() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;\n" ::: "memory");
#endif
}

}  // namespace tcgemm::detail::arch
