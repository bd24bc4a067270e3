// Family wmma_lowp: WMMA operand fragments filled by ldmatrix instead of wmma::load_matrix_sync, in the
// pipelined kernel's 16-wide shapes (16x16x16, 16x16x8):
//  - BF16: from an m- or n-contiguous tile the compiler loads the elements one by one and transposes them in
//    registers (MOVM in the SASS); BF16 'N','N' stood at 0.36 of the WMMA ceiling that way (2026-12-01);
//  - TF32 from k-contiguous tiles: 32-bit elements loaded one by one;
//  - F16: load_matrix_sync already issues ldmatrix (LDSM, LDSM.T on the H200), but as ordinary code that the
//    compiler schedules; here the loads are volatile asm and stay where the double-buffered loop puts them,
//    as they do for the other two types.
// A fragment's registers are then the ones the mma.sync instruction that WMMA compiles to takes (m16n8k16 for
// F16 and BF16, m16n8k8 for TF32; g = lane / 4, t = lane % 4, a k step = 32 bytes of k, two 16-byte halves):
//  - matrix_a (16 x one k step): registers (rows g, half 0), (g + 8, half 0), (g, half 1), (g + 8, half 1),
//    each the 4 bytes at byte 4t of its half;
//  - matrix_b (one k step x 16): two 8-column blocks, registers (column g, half 0), (g, half 1) of columns
//    0..7, then of columns 8..15.
// F16 fragments have eight registers (the sm_70 instruction's 16 elements); on sm_80 and sm_90 the last four
// are a copy of the first four.
// The WMMA API leaves the fragment layout unspecified; test_wmma_fragments_gpu compares every fragment kind
// this file fills against load_matrix_sync's, register by register, on the device the suite runs on.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

#include "arch/ldmatrix_sm80.cuh"

namespace tcgemm::detail::wmma_lowp {

// Whether ldmatrix fills the fragments of inputs In, shape FM x FN x FK, from tiles that are k-contiguous
// (kKContig) or not. ldmatrix's .trans form moves 16-bit elements only, so TF32 takes k-contiguous tiles only.
template <class In, int FM, int FN, int FK, bool kKContig>
constexpr bool ldmatrix_fills() {
  if constexpr (sizeof(In) == 2) return FM == 16 && FN == 16 && FK == 16;
  else if constexpr (std::is_same<In, float>::value) return FM == 16 && FN == 16 && FK == 8 && kKContig;
  else return false;
}

// Byte offset, within an operand tile of leading dimension kLd elements (rules.hpp, LowpOperandTile; never a
// stretched layout: 16-wide fragments only), of the line this lane gives ldmatrix.x4 for the fragment whose
// first o (row of A, column of B) and k are both 0. Block q = lane / 8 of the four is:
//  - A: o 8 (q % 2), k half q / 2; B: o 8 (q / 2), k half q % 2 (the register orders above);
//  - k-contiguous tile (lines are o's): line o + lane % 8, at the half's first byte (no transpose);
//  - o-contiguous tile (lines are k's): line 8 half + lane % 8, at o's first byte (.trans).
// Other fragments add (o, k) through tile_offset, which is linear in both for these layouts.
template <bool kMatrixA, bool kKContig, int kLd, int kElemBytes>
__device__ __forceinline__ uint32_t ldmatrix_lane_offset(int lane) {
  const int q = lane >> 3, r = lane & 7;
  const int o = (kMatrixA ? (q & 1) : (q >> 1)) * 8, half = kMatrixA ? (q >> 1) : (q & 1);
  if constexpr (kKContig) return uint32_t(((o + r) * kLd) * kElemBytes + half * 16);
  else return uint32_t(((half * 8 + r) * kLd + o) * kElemBytes);
}

// Fills fragment f from shared byte address `at` (the lane's address: tile + its ldmatrix_lane_offset + the
// fragment's own offset).
template <bool kKContig, class Frag>
__device__ __forceinline__ void ldmatrix_fragment(Frag& f, uint32_t at) {
  static_assert(sizeof(f.x) == 16 || sizeof(f.x) == 32,
                "wmma_lowp: ldmatrix fills fragments of four 32-bit registers, or eight holding them twice");
  uint32_t r[4];
  arch::ldmatrix_x4<!kKContig>(r, at);
  // The registers as they are, no conversion; an eight-register fragment gets them twice.
  unsigned char* x = reinterpret_cast<unsigned char*>(&f.x[0]);
  std::memcpy(x, r, sizeof(r));
  if constexpr (sizeof(f.x) == 32) std::memcpy(x + sizeof(r), r, sizeof(r));
}

}  // namespace tcgemm::detail::wmma_lowp
