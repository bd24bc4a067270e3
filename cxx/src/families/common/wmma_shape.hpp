// The FP64 WMMA fragment shape and the warp facts every WMMA family builds on (host-only: included by the
// family rules that CPU CI tests and by the kernels, whose static_asserts use the same numbers).
#pragma once

#include <cstdint>

namespace tcgemm::detail {

// FP64 WMMA fragment shape (nvcuda::wmma, 8x8x4 double; = mma.m8n8k4.f64).
constexpr int kWmmaM = 8;
constexpr int kWmmaN = 8;
constexpr int kWmmaK = 4;
constexpr int kWarpSize = 32;

}  // namespace tcgemm::detail
