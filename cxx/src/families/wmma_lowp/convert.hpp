// FP32 -> FP16 / BF16 conversion for tcgemm_sgemm's FP16 and BF16 precisions (convert.cu).
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

#include "tcgemm/tcgemm.h"

namespace tcgemm::detail {

// dst (packed, leading dimension rows) <- src (rows x cols, leading dimension ld), each element rounded to
// nearest in `type` (TCGEMM_TYPE_F16 or TCGEMM_TYPE_BF16), on `stream`.
tcgemm_status launch_convert_f32(const float* src, int64_t ld, int64_t rows, int64_t cols, void* dst, int32_t type,
                                 cudaStream_t stream);

}  // namespace tcgemm::detail
