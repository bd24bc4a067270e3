// Tensor maps for the Tensor Memory Accelerator (sm_90), host side: the driver's cuTensorMapEncodeTiled,
// reached through the runtime (the library links no libcuda), behind one description of a tiled map (rank,
// extents, strides, box, swizzle) for the families that load tiles with TMA (mma_lowp).
#pragma once

#include <cstdint>

#include <cuda.h>

namespace tcgemm::detail {

enum class TmaSwizzle { kNone, k128B };

// Encodes a tiled map of `rank` (2 or 3) dimensions over raw elements of elem_bytes (2 or 4; the bits are
// copied as they are): dims[0] contiguous, strides_bytes[i] between consecutive indices of dimension i + 1,
// boxes of box[0] x box[1] (x box[2]) elements, zeros for elements outside the tensor, L2 promotion of 256
// bytes. False when the driver has no encoder or refuses the description; no CUDA error is left pending
// then (the caller falls back to its cp.async kernel).
bool tma_encode_tiled(CUtensorMap* map, const void* base, int elem_bytes, int rank, const uint64_t* dims,
                      const uint64_t* strides_bytes, const uint32_t* box, TmaSwizzle swizzle);

}  // namespace tcgemm::detail
