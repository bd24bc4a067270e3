// Family wmma_lowp: WMMA operand fragments filled by ldmatrix instead of wmma::load_matrix_sync, in the
// pipelined kernel (every fragment it loads):
//  - BF16: from an m- or n-contiguous tile the compiler loads the elements one by one and transposes them in
//    registers (MOVM in the SASS); BF16 'N','N' stood at 0.36 of the WMMA ceiling that way (2026-12-01), and its
//    8-wide shapes at 0.23-0.45 with the 16-wide ones filled here (2026-12-02);
//  - TF32 from k-contiguous tiles: 32-bit elements loaded one by one;
//  - F16: load_matrix_sync already issues ldmatrix (LDSM, LDSM.T on the H200), but as ordinary code that the
//    compiler schedules; here the loads are volatile asm and stay where the double-buffered loop puts them,
//    as they do for the other two types.
// Every fragment is made of the operand registers of the mma.sync instruction WMMA compiles to (m16n8k16 for
// F16 and BF16, m16n8k8 for TF32; g = lane / 4, t = lane % 4, a k step = 32 bytes of k, two 16-byte halves).
// Two kinds of block, by the number of o's (rows of A, columns of B) they cover:
//  - a 16-o block, the instruction's A operand: registers (o g, half 0), (g + 8, half 0), (g, half 1),
//    (g + 8, half 1), each the 4 bytes at byte 4t of its half;
//  - an 8-o block, its B operand: registers (o g, half 0), (g, half 1).
// The fragments, as the WMMA library lays them out on sm_80 and sm_90 (dumped on the H200):
//  - 16x16x16 and 16x16x8 matrix_a: one 16-o block; matrix_b: two 8-o blocks (o 0..7, then 8..15);
//  - 32x8x16 matrix_a and 8x32x16 matrix_b (32 o's): two 16-o blocks (o 0..15, then 16..31): the instruction's
//    A operand twice. 8x32x16 is computed transposed, its B columns in the instruction's A rows;
//  - 32x8x16 matrix_b and 8x32x16 matrix_a (8 o's): one 8-o block, the instruction's B operand.
// F16 fragments have eight registers whatever they hold (the sm_70 instruction's layout): the distinct ones
// repeat to fill them (16x16x16: four twice; the 8-o fragments: two four times). BF16 and TF32 fragments have
// exactly the distinct registers.
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

// How ldmatrix fills one fragment kind: inputs In, WMMA shape FM x FN x FK, the operand (kMatrixA), and the
// shared tile it is read from (k-contiguous or not, leading dimension kLd elements; never stretched: ldmatrix
// needs 16-byte aligned lines only, rules.hpp's LowpOperandTile).
template <class In, int FM, int FN, int FK, bool kMatrixA, bool kKContig, int kLd>
struct LdmatrixFill {
  static constexpr int kE = int(sizeof(In));
  static constexpr int kO = kMatrixA ? FM : FN;  // o's the fragment covers
  // ldmatrix's .trans form moves 16-bit elements only, so TF32 is filled from k-contiguous tiles only.
  static constexpr bool kFills =
      kE == 2 ? ((FM == 16 && FN == 16 && FK == 16) || (FM == 32 && FN == 8 && FK == 16) ||
                 (FM == 8 && FN == 32 && FK == 16))
              : (std::is_same<In, float>::value && FM == 16 && FN == 16 && FK == 8 && kKContig);
  // Blocks: 16-o blocks (kALike), one ldmatrix.x4 each, or 8-o blocks, two per x4 (16 o's) or one x2 (8).
  static constexpr bool kALike = kO == 32 || (kO == 16 && kMatrixA);
  static constexpr int kX4 = kO == 32 ? 2 : kO == 16 ? 1 : 0;
  static constexpr int kRegs = kX4 ? 4 * kX4 : 2;  // distinct registers

  // Byte offset, within the tile, of the line this lane gives ldmatrix for the fragment whose first o and k
  // are both 0 (other fragments add their (o, k) offset: the layouts are linear in both).
  // Block q = lane / 8 of an x4: 16-o blocks: o 8 (q % 2), k half q / 2; 8-o blocks: o 8 (q / 2), half q % 2
  // (the register orders above; an x2 reads blocks 0 and 1 only).
  //  - k-contiguous tile (lines are o's): line o + lane % 8, at the half's first byte (no transpose);
  //  - o-contiguous tile (lines are k's): line 8 half + lane % 8, at o's first byte (.trans).
  static __device__ __forceinline__ uint32_t lane_offset(int lane) {
    const int q = lane >> 3, r = lane & 7;
    const int o = (kALike ? (q & 1) : (q >> 1)) * 8, half = kALike ? (q >> 1) : (q & 1);
    if constexpr (kKContig) return uint32_t((o + r) * kLd * kE + half * 16);
    else return uint32_t(((half * 8 + r) * kLd + o) * kE);
  }

  // Fills fragment f from shared byte address `at` (the lane's address: tile + lane_offset + the fragment's own
  // offset). The registers go in as ldmatrix gives them, no conversion, repeated to fill the fragment.
  template <class Frag>
  static __device__ __forceinline__ void fill(Frag& f, uint32_t at) {
    static_assert(kFills, "wmma_lowp: a fragment kind ldmatrix does not fill");
    constexpr int kFragRegs = int(sizeof(f.x)) / 4;
    static_assert(sizeof(f.x) % 4 == 0 && kFragRegs % kRegs == 0,
                  "wmma_lowp: a fragment holds its distinct registers a whole number of times");
    uint32_t r[kRegs];
    if constexpr (kX4 == 0) {
      arch::ldmatrix_x2<!kKContig>(reinterpret_cast<uint32_t(&)[2]>(r), at);
    } else {
      arch::ldmatrix_x4<!kKContig>(reinterpret_cast<uint32_t(&)[4]>(r[0]), at);
      if constexpr (kX4 == 2)  // the second 16-o block
        arch::ldmatrix_x4<!kKContig>(reinterpret_cast<uint32_t(&)[4]>(r[4]),
                                     at + uint32_t((kKContig ? 16 * kLd : 16) * kE));
    }
    unsigned char* x = reinterpret_cast<unsigned char*>(&f.x[0]);
#pragma unroll
    for (int i = 0; i < kFragRegs; ++i) std::memcpy(x + 4 * i, &r[i % kRegs], 4);
  }
};

}  // namespace tcgemm::detail::wmma_lowp
