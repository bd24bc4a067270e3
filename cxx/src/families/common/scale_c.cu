// C <- beta C, the whole GEMM when alpha == 0 or k == 0 (A and B are not read).
#include "families/common/scale_c.hpp"

#include "core/errors.hpp"

namespace tcgemm::detail {
namespace {

constexpr int kScaleThreads = 256;
constexpr int kScaleMaxBlocks = 4096;  // grid-stride beyond this

__global__ void scale_c_kernel(int64_t m, int64_t n, double beta, double* C, int64_t ldc) {
  const int64_t total = m * n;
  for (int64_t idx = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; idx < total;
       idx += int64_t(gridDim.x) * blockDim.x) {
    const int64_t col = idx / m, row = idx - col * m;
    double* c = C + col * ldc + row;
    // beta == 0 must not read C: BLAS callers may pass uninitialised (even NaN) C.
    *c = beta == 0.0 ? 0.0 : beta * *c;
  }
}

}  // namespace

tcgemm_status launch_scale_c(int64_t m, int64_t n, double beta, double* C, int64_t ldc, cudaStream_t stream) {
  const int64_t total = m * n;
  const int64_t wanted = (total + kScaleThreads - 1) / kScaleThreads;
  const unsigned blocks = unsigned(wanted < kScaleMaxBlocks ? wanted : kScaleMaxBlocks);
  scale_c_kernel<<<blocks, kScaleThreads, 0, stream>>>(m, n, beta, C, ldc);
  TCGEMM_CHECK_LAUNCH("scale_c_kernel");
  return TCGEMM_SUCCESS;
}

}  // namespace tcgemm::detail
