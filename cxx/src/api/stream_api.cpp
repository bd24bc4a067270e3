// CUDA streams for callers without the CUDA headers (Fortran above all): create, destroy, synchronize.
//
// The streams are blocking (cudaStreamDefault), not non-blocking: tcgemm_memcpy_to_device and the Fortran
// module's copies are plain cudaMemcpy calls on the legacy default stream, and a pageable upload may return
// before its DMA has finished. A blocking stream waits for that work before its next launch, so "copy, then
// launch on the stream" is ordered without an extra synchronization by the caller.
#include <cstdint>

#include "core/device.hpp"
#include "core/errors.hpp"

using namespace tcgemm::detail;

extern "C" {

tcgemm_status tcgemm_stream_create(cudaStream_t* stream) {
  clear_error();
  if (!stream)
    return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, 1,
                         "stream is NULL: pass the address of a cudaStream_t to receive the new stream");
  *stream = nullptr;  // a failed call leaves no stale handle behind
  DeviceContext ctx;
  TCGEMM_TRY(device_gate(-1, &ctx));
  cudaStream_t created = nullptr;
  TCGEMM_CUDA_TRY(cudaStreamCreateWithFlags(&created, cudaStreamDefault));
  *stream = created;
  return TCGEMM_SUCCESS;
}

tcgemm_status tcgemm_stream_destroy(cudaStream_t stream) {
  clear_error();
  // NULL (the default stream, or a handle never created) is a no-op, as tcgemm_free(NULL) is, so clean-up code
  // may call this unconditionally.
  if (!stream) return TCGEMM_SUCCESS;
  TCGEMM_CUDA_TRY(cudaStreamDestroy(stream));
  return TCGEMM_SUCCESS;
}

// The same call as tcgemm_synchronize (memory_api.cpp), under the name of this group.
tcgemm_status tcgemm_stream_synchronize(cudaStream_t stream) { return tcgemm_synchronize(stream); }

}  // extern "C"
