// White-box GPU test of the WMMA family's ldmatrix fragment loads (cxx/src/families/wmma_lowp/
// fragment_ldmatrix.cuh): the WMMA API leaves a fragment's register layout unspecified, and the pipelined kernel
// fills F16 and BF16 16x16x16 and TF32 16x16x8 fragments with ldmatrix on the assumption that the layout is
// the one the mma.sync instruction behind them takes (F16's eight registers: those four twice). This compares,
// for every fragment kind it fills, each lane's registers after ldmatrix_fragment with those after
// wmma::load_matrix_sync from the same shared tile, on the device the suite runs on. Every element of the tile
// is distinct, so a register in the wrong place fails.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <gtest/gtest.h>
#include <mma.h>

#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "families/wmma_lowp/fragment_ldmatrix.cuh"
#include "gpu_test_util.hpp"

namespace {

namespace wmma = nvcuda::wmma;
using tcgemm::detail::wmma_lowp::ldmatrix_fills;
using tcgemm::detail::wmma_lowp::ldmatrix_fragment;
using tcgemm::detail::wmma_lowp::ldmatrix_lane_offset;

// A 16 (o) x one k step (FK) operand block in a shared tile of leading dimension kLd: k-contiguous (lines are
// o's) or not (lines are k's), as the family's tiles lie. Element (o, k) holds code(o, k), distinct for every
// element; each lane writes its fragment's 4 registers from load_matrix_sync, then from ldmatrix.
template <class In, class FragT, int FK, bool kMatrixA, bool kKContig, int kLd>
__global__ void compare_fragment_kernel(uint32_t* out) {
  constexpr int kLines = kKContig ? 16 : FK, kE = int(sizeof(In));
  __shared__ __align__(128) In tile[kLines * kLd];
  for (int e = int(threadIdx.x); e < kLines * kLd; e += 32) {
    const int line = e / kLd, at = e % kLd;
    const int o = kKContig ? line : at, k = kKContig ? at : line;
    const uint32_t code = uint32_t(o * 32 + k + 1);  // o < 16 and k < 16 inside the block; padding differs
    if constexpr (kE == 2) {
      const uint16_t bits = uint16_t(0x4000u | code);  // normal F16 and BF16 numbers; moved as bits either way
      std::memcpy(&tile[e], &bits, 2);
    } else {
      tile[e] = float(code);  // small integers: exact in TF32
    }
  }
  __syncthreads();
  using Layout = typename std::conditional<kMatrixA == kKContig, wmma::row_major, wmma::col_major>::type;
  using Frag = wmma::fragment<typename std::conditional<kMatrixA, wmma::matrix_a, wmma::matrix_b>::type, 16, 16, FK,
                              FragT, Layout>;
  Frag by_wmma, by_ldmatrix;
  wmma::load_matrix_sync(by_wmma, tile, kLd);
  const int lane = int(threadIdx.x);
  ldmatrix_fragment<kKContig>(by_ldmatrix, static_cast<uint32_t>(__cvta_generic_to_shared(tile)) +
                                               ldmatrix_lane_offset<kMatrixA, kKContig, kLd, kE>(lane));
  constexpr int kRegs = int(sizeof(by_wmma.x)) / 4;
  uint32_t w[kRegs], l[kRegs];
  std::memcpy(w, &by_wmma.x[0], sizeof(w));
  std::memcpy(l, &by_ldmatrix.x[0], sizeof(l));
  for (int r = 0; r < kRegs; ++r) {
    out[lane * 8 + r] = w[r];
    out[256 + lane * 8 + r] = l[r];
  }
}

// The (o, k) pairs a register holds, for messages.
std::string decode(uint32_t reg, int elem_bytes) {
  std::ostringstream s;
  const auto one = [&](uint32_t code) { s << "(" << (code - 1) / 32 << "," << (code - 1) % 32 << ")"; };
  if (elem_bytes == 2) {
    one(reg & 0x3FFFu);
    one((reg >> 16) & 0x3FFFu);
  } else {
    float f;
    std::memcpy(&f, &reg, 4);
    one(uint32_t(f));
  }
  return s.str();
}

template <class In, class FragT, int FK, bool kMatrixA, bool kKContig, int kLd>
void expect_same_registers(const char* what) {
  static_assert(ldmatrix_fills<In, 16, 16, FK, kKContig>(), "a fragment kind the family fills with ldmatrix");
  SCOPED_TRACE(what);
  constexpr int kRegs = sizeof(In) == 2 && std::is_same<FragT, __half>::value ? 8 : 4;  // per lane
  uint32_t* d = nullptr;
  ASSERT_EQ(cudaMalloc(&d, 512 * sizeof(uint32_t)), cudaSuccess);
  compare_fragment_kernel<In, FragT, FK, kMatrixA, kKContig, kLd><<<1, 32>>>(d);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  std::vector<uint32_t> h(512);
  ASSERT_EQ(cudaMemcpy(h.data(), d, h.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost), cudaSuccess);
  cudaFree(d);
  int bad = 0;
  for (int lane = 0; lane < 32; ++lane)
    for (int r = 0; r < kRegs; ++r) {
      const uint32_t w = h[lane * 8 + r], l = h[256 + lane * 8 + r];
      if (w != l && ++bad <= 8)
        ADD_FAILURE() << "lane " << lane << " register " << r << ": load_matrix_sync " << decode(w, sizeof(In))
                      << ", ldmatrix " << decode(l, sizeof(In));
    }
  EXPECT_EQ(bad, 0) << "registers that differ, of " << 32 * kRegs;
}

TEST(WmmaFragments, LdmatrixFillsTheRegistersLoadMatrixSyncDoes) {
  TCGEMM_REQUIRE_GPU();
  // Leading dimensions padded by 16 bytes, as the family's tiles are (and whole 16-byte units: ldmatrix's rule).
  expect_same_registers<__half, __half, 16, true, true, 24>("F16 matrix_a, k-contiguous (row_major)");
  expect_same_registers<__half, __half, 16, true, false, 24>("F16 matrix_a, m-contiguous (col_major)");
  expect_same_registers<__half, __half, 16, false, true, 24>("F16 matrix_b, k-contiguous (col_major)");
  expect_same_registers<__half, __half, 16, false, false, 24>("F16 matrix_b, n-contiguous (row_major)");
  expect_same_registers<__nv_bfloat16, __nv_bfloat16, 16, true, true, 24>("BF16 matrix_a, k-contiguous (row_major)");
  expect_same_registers<__nv_bfloat16, __nv_bfloat16, 16, true, false, 24>("BF16 matrix_a, m-contiguous (col_major)");
  expect_same_registers<__nv_bfloat16, __nv_bfloat16, 16, false, true, 24>("BF16 matrix_b, k-contiguous (col_major)");
  expect_same_registers<__nv_bfloat16, __nv_bfloat16, 16, false, false, 24>("BF16 matrix_b, n-contiguous (row_major)");
  expect_same_registers<float, wmma::precision::tf32, 8, true, true, 12>("TF32 matrix_a, k-contiguous (row_major)");
  expect_same_registers<float, wmma::precision::tf32, 8, false, true, 12>("TF32 matrix_b, k-contiguous (col_major)");
}

}  // namespace
