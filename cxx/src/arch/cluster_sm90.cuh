// Thread-block clusters (sm_90): the cluster-wide barrier and loads from another block's shared memory
// (distributed shared memory). The sm90_mma family's cluster split-K adds its k-slices' partial tiles with
// them (families/sm90/kernel.cuh; that kernel body is compiled for sm_90 alone), the skinny family its
// k-chunks' partial sums (families/skinny/kernel.cu, behind __CUDA_ARCH__ >= 900). Only code compiled for
// sm_90 may call these.
#pragma once

#include <cuda_runtime.h>

namespace tcgemm::detail::arch {

// Every thread of every block of the cluster arrives, then waits for all the others. The release/acquire
// pair orders each block's shared-memory writes before the barrier with the other blocks' reads after it.
__device__ __forceinline__ void cluster_sync() {
  asm volatile(
      "barrier.cluster.arrive.release;\n"
      "barrier.cluster.wait.acquire;\n" ::
          : "memory");
}

// The 16 bytes at `local` (a pointer into this block's shared memory) as they are in the shared memory of
// the cluster's block `rank`: the same offset in every block, as all run the same kernel.
__device__ __forceinline__ double2 cluster_load_double2(const void* local, int rank) {
  const unsigned cta_addr = static_cast<unsigned>(__cvta_generic_to_shared(local));
  unsigned remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;\n" : "=r"(remote) : "r"(cta_addr), "r"(rank));
  double2 v;
  asm volatile("ld.shared::cluster.v2.f64 {%0, %1}, [%2];\n" : "=d"(v.x), "=d"(v.y) : "r"(remote) : "memory");
  return v;
}

// The double at `local` as it is in the shared memory of the cluster's block `rank` (as above, 8 bytes).
__device__ __forceinline__ double cluster_load_double(const void* local, int rank) {
  const unsigned cta_addr = static_cast<unsigned>(__cvta_generic_to_shared(local));
  unsigned remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;\n" : "=r"(remote) : "r"(cta_addr), "r"(rank));
  double v;
  asm volatile("ld.shared::cluster.f64 %0, [%1];\n" : "=d"(v) : "r"(remote) : "memory");
  return v;
}

// Host side: one launch of `kernel` on `grid` whose blocks of one grid column (gridDim.y of them) form one
// thread-block cluster, as both cluster reductions want (sm90 split-K slices of a tile, skinny k-chunks of
// a column block). The caller checks that the device and the build support clusters.
template <class P>
cudaError_t launch_in_column_clusters(void (*kernel)(P), dim3 grid, dim3 block, size_t smem_bytes,
                                      cudaStream_t stream, const P& params) {
  cudaLaunchConfig_t config = {};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = smem_bytes;
  config.stream = stream;
  cudaLaunchAttribute cluster;
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = 1;
  cluster.val.clusterDim.y = grid.y;
  cluster.val.clusterDim.z = 1;
  config.attrs = &cluster;
  config.numAttrs = 1;
  const cudaError_t e = cudaLaunchKernelEx(&config, kernel, params);
  return e != cudaSuccess ? e : cudaGetLastError();
}

}  // namespace tcgemm::detail::arch
