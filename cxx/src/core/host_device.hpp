// TCGEMM_HOST_DEVICE marks small functions that both the host-only rules (compiled by the host compiler
// alone) and the kernels call.
#pragma once

#ifdef __CUDACC__
#define TCGEMM_HOST_DEVICE __host__ __device__
#else
#define TCGEMM_HOST_DEVICE
#endif
