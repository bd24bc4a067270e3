// Family mma_lowp's TMA route (sm_90): when the TMA kernel (kernel_tma.cuh) takes a problem, and the tensor
// maps that describe its operands to the copy engine.
#pragma once

#include <cstdint>

#include <cuda.h>

#include "core/problem.hpp"
#include "families/wmma_lowp/launch.hpp"

namespace tcgemm::detail {

// Whether the operands of a fast-path problem (mma_lowp_eligible, or the packed TF32 copies) can be described
// to TMA: element coordinates are signed 32-bit and a box reaches up to 256 elements past its corner, so m, n
// and k stay below 2^31 - 512; leading dimensions in bytes are multiples of 16 below 2^40 (TMA's global strides); A and B 16-byte
// aligned. Host-only (pointers checked by value), so CPU tests check it.
bool mma_lowp_tma_layout_ok(const LowpProblem& p);

// Whether this call takes the TMA kernel: the layout above, a cc 9.x device with the build's sm_90 code
// loaded (sm90_code_available: a compute_80 PTX JIT-compiled for it has no TMA instructions) whose blocks may
// have kMmaLowpTmaSmemBytes, and TCGEMM_LOWP_TMA not set to 0 (the switch that lets the tests run the cp.async
// kernel on the same device). Only a refusal of the driver's encoder (encode_lowp_tma_maps) can still send
// such a call to the cp.async kernel.
bool mma_lowp_tma_applies(const LowpProblem& p, const DeviceContext& ctx);

// The two maps of a problem for a tiling of tile_m x tile_n x tile_k, all with the 128-byte swizzle:
//  - K-major operands (A^T, untransposed B): boxes of tile_k x tile rows, one per k-tile;
//  - MN-major operands (A, B^T; 16-bit elements): the swizzle caps a box's contiguous side at 64 elements, so
//    a tile is tile / 64 such pieces. Where the extent (m for A, n for B) is a whole number of 64-element
//    blocks, the map views the operand as 64 x k x (extent / 64) and one 3-D box brings all the pieces
//    (a_one_box, b_one_box): one copy instruction per operand and k-tile instead of up to four. Otherwise
//    (a last block that ends inside a column) that view would read past the matrix's last column, so the map
//    stays 2-D and the kernel issues one box per piece.
// False when the driver's encoder is missing or refuses the operands; nothing is launched then and no CUDA
// error is left pending (the caller runs the cp.async kernel).
struct LowpTmaMaps {
  CUtensorMap a, b;
  bool a_one_box = false, b_one_box = false;
};
bool encode_lowp_tma_maps(const LowpProblem& p, int tile_m, int tile_n, int tile_k, LowpTmaMaps* maps);

}  // namespace tcgemm::detail
