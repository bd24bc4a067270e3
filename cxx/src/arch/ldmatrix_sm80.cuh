// ldmatrix (sm_75 and newer): a warp reads four (.x4) or two (.x2) 8 x 8 blocks of 16-bit elements (8 lines of
// 16 bytes each) from shared memory, lanes 8q .. 8q + 7 giving the line addresses of block q, and every lane
// receives one 32-bit register per block: lane l gets elements 2 (l % 4) and 2 (l % 4) + 1 of line l / 4
// (.trans: of column l / 4, i.e. the block transposed). That register is one of an mma.sync operand's
// (g = l / 4, t = l % 4), so both lower-precision families fill fragments with it. Volatile asm without a
// "memory" clobber: the compiler keeps it in source order with the other volatile asm (cp.async waits) and the
// barriers, and the families order the loads themselves (double-buffered fragments).
#pragma once

#include <cstdint>

namespace tcgemm::detail::arch {

template <bool kTrans>
__device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], uint32_t smem) {
  if constexpr (kTrans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(smem));
  else
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(smem));
}

// Two blocks: lanes 0 .. 15 give the line addresses (the others' are not read), every lane receives two registers.
template <bool kTrans>
__device__ __forceinline__ void ldmatrix_x2(uint32_t (&r)[2], uint32_t smem) {
  if constexpr (kTrans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n"
                 : "=r"(r[0]), "=r"(r[1])
                 : "r"(smem));
  else
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\n" : "=r"(r[0]), "=r"(r[1]) : "r"(smem));
}

}  // namespace tcgemm::detail::arch
