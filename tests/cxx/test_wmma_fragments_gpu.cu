// White-box GPU test of the WMMA family's ldmatrix fragment loads (cxx/src/families/wmma_lowp/
// fragment_ldmatrix.cuh): the WMMA API leaves a fragment's register layout unspecified, and the pipelined kernel
// fills every fragment it uses (F16 and BF16 in the three 16-bit shapes, TF32 16x16x8) with ldmatrix on the
// assumption that the layout is made of the operands of the mma.sync instruction behind them. This compares,
// for every fragment kind it fills, each lane's registers after LdmatrixFill::fill with those after
// wmma::load_matrix_sync from the same shared tile, laid out as the pipelined kernel's (padded by 16 bytes), on
// the device the suite runs on. Every element of the tile is distinct, so a register
// in the wrong place fails.
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
using tcgemm::detail::wmma_lowp::LdmatrixFill;

// One fragment (FM x FN x FK, matrix_a or matrix_b) at o = k = 0 of a shared tile laid out as the family's:
// k-contiguous (lines are o's) or not (lines are k's), leading dimension kLd. Element (o, k) holds code(o, k),
// distinct for every element; each lane writes its fragment's registers from load_matrix_sync, then from
// ldmatrix.
template <class In, class FragT, int FM, int FN, int FK, bool kMatrixA, bool kKContig, int kLd>
__global__ void compare_fragment_kernel(uint32_t* out) {
  constexpr int kO = kMatrixA ? FM : FN;
  constexpr int kLines = kKContig ? kO : FK, kE = int(sizeof(In));
  __shared__ __align__(128) In tile[kLines * kLd];
  for (int e = int(threadIdx.x); e < kLines * kLd; e += 32) std::memset(&tile[e], 0, sizeof(In));
  __syncthreads();
  for (int e = int(threadIdx.x); e < kO * FK; e += 32) {
    const int o = e % kO, k = e / kO;
    const uint32_t code = uint32_t(o * 32 + k + 1);  // o < 32, k < 16
    In* at = &tile[kKContig ? o * kLd + k : k * kLd + o];
    if constexpr (kE == 2) {
      const uint16_t bits = uint16_t(0x4000u | code);  // normal F16 and BF16 numbers; moved as bits either way
      std::memcpy(at, &bits, 2);
    } else {
      *at = float(code);  // small integers: exact in TF32
    }
  }
  __syncthreads();
  using Layout = typename std::conditional<kMatrixA == kKContig, wmma::row_major, wmma::col_major>::type;
  using Frag = wmma::fragment<typename std::conditional<kMatrixA, wmma::matrix_a, wmma::matrix_b>::type, FM, FN, FK,
                              FragT, Layout>;
  using Fill = LdmatrixFill<In, FM, FN, FK, kMatrixA, kKContig, kLd>;
  Frag by_wmma, by_ldmatrix;
  wmma::load_matrix_sync(by_wmma, tile, kLd);
  const int lane = int(threadIdx.x);
  Fill::fill(by_ldmatrix, static_cast<uint32_t>(__cvta_generic_to_shared(tile)) + Fill::lane_offset(lane));
  constexpr int kRegs = int(sizeof(by_wmma.x)) / 4;
  static_assert(kRegs <= 8, "at most eight registers a fragment");
  uint32_t w[kRegs], l[kRegs];
  std::memcpy(w, &by_wmma.x[0], sizeof(w));
  std::memcpy(l, &by_ldmatrix.x[0], sizeof(l));
  for (int r = 0; r < kRegs; ++r) {
    out[lane * 8 + r] = w[r];
    out[256 + lane * 8 + r] = l[r];
  }
  if (lane == 0) out[512] = uint32_t(kRegs);
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

// kLd: the tile's lines padded by 16 bytes, as the fixed configurations' are.
template <class In, class FragT, int FM, int FN, int FK, bool kMatrixA, bool kKContig>
void expect_same_registers(const char* what) {
  constexpr int kO = kMatrixA ? FM : FN;
  constexpr int kLd = (kKContig ? FK : kO) + 16 / int(sizeof(In));
  static_assert(LdmatrixFill<In, FM, FN, FK, kMatrixA, kKContig, kLd>::kFills,
                "a fragment kind the family fills with ldmatrix");
  SCOPED_TRACE(what);
  uint32_t* d = nullptr;
  ASSERT_EQ(cudaMalloc(&d, 513 * sizeof(uint32_t)), cudaSuccess);
  compare_fragment_kernel<In, FragT, FM, FN, FK, kMatrixA, kKContig, kLd><<<1, 32>>>(d);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  std::vector<uint32_t> h(513);
  ASSERT_EQ(cudaMemcpy(h.data(), d, h.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost), cudaSuccess);
  cudaFree(d);
  const int regs = int(h[512]);
  ASSERT_TRUE(regs >= 2 && regs <= 8) << regs;
  int bad = 0;
  for (int lane = 0; lane < 32; ++lane)
    for (int r = 0; r < regs; ++r) {
      const uint32_t w = h[lane * 8 + r], l = h[256 + lane * 8 + r];
      if (w != l && ++bad <= 8)
        ADD_FAILURE() << "lane " << lane << " register " << r << ": load_matrix_sync " << decode(w, sizeof(In))
                      << ", ldmatrix " << decode(l, sizeof(In));
    }
  EXPECT_EQ(bad, 0) << "registers that differ, of " << 32 * regs;
}

// Every operand and order of a 16-bit shape.
template <class In, int FM, int FN>
void expect_shape(const char* type, const char* shape) {
  const std::string t = std::string(type) + " " + shape + " ";
  expect_same_registers<In, In, FM, FN, 16, true, true>((t + "matrix_a, k-contiguous (row_major)").c_str());
  expect_same_registers<In, In, FM, FN, 16, true, false>((t + "matrix_a, m-contiguous (col_major)").c_str());
  expect_same_registers<In, In, FM, FN, 16, false, true>((t + "matrix_b, k-contiguous (col_major)").c_str());
  expect_same_registers<In, In, FM, FN, 16, false, false>((t + "matrix_b, n-contiguous (row_major)").c_str());
}

TEST(WmmaFragments, LdmatrixFillsTheRegistersLoadMatrixSyncDoes) {
  TCGEMM_REQUIRE_GPU();
  expect_shape<__half, 16, 16>("F16", "16x16x16");
  expect_shape<__half, 32, 8>("F16", "32x8x16");
  expect_shape<__half, 8, 32>("F16", "8x32x16");
  expect_shape<__nv_bfloat16, 16, 16>("BF16", "16x16x16");
  expect_shape<__nv_bfloat16, 32, 8>("BF16", "32x8x16");
  expect_shape<__nv_bfloat16, 8, 32>("BF16", "8x32x16");
  using Tf32 = wmma::precision::tf32;
  expect_same_registers<float, Tf32, 16, 16, 8, true, true>("TF32 16x16x8 matrix_a, k-contiguous (row_major)");
  expect_same_registers<float, Tf32, 16, 16, 8, false, true>("TF32 16x16x8 matrix_b, k-contiguous (col_major)");
}

}  // namespace
