/*
 * tcgemm: tensor-core matrix multiply (FP64 first) callable from C, C++ and Fortran (iso_c_binding).
 *
 * Conventions of every entry point:
 *   - matrices are column-major, as in BLAS and Fortran;
 *   - A, B, C are device pointers (cudaMalloc'ed); sizes and leading dimensions are 64-bit;
 *   - every launch takes a cudaStream_t (NULL = the default stream) and is asynchronous on it;
 *   - arguments are validated on the host before anything touches the GPU: on any error no kernel is
 *     launched, C is untouched, the call returns a named status, tcgemm_last_error() says which argument
 *     broke which rule (with CUDA's own text when CUDA failed) and tcgemm_last_error_argument() gives the
 *     argument's position as a number;
 *   - sizes whose matrices could not be addressed with 64-bit byte offsets (any matrix of more than
 *     TCGEMM_MAX_MATRIX_BYTES, far beyond any GPU's memory) are rejected like any other invalid argument;
 *   - a CUDA error left pending by the caller's own code is not reported as tcgemm's; a sticky one (the
 *     context is corrupt) gives TCGEMM_ERROR_CONTEXT_LOST before anything is launched.
 */
#ifndef TCGEMM_TCGEMM_H
#define TCGEMM_TCGEMM_H

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TCGEMM_VERSION_MAJOR 0
#define TCGEMM_VERSION_MINOR 1
#define TCGEMM_VERSION_PATCH 0

/* Status codes. Values are part of the ABI (the Fortran module mirrors them). */
typedef enum tcgemm_status {
  TCGEMM_SUCCESS = 0,
  TCGEMM_ERROR_INVALID_ARGUMENT = 1, /* a size, leading dimension, pointer, trans flag or niter is invalid; or
                                        a device list (tcgemm_set_host_devices, TCGEMM_DEVICES, TCGEMM_DEVICE) */
  TCGEMM_ERROR_INVALID_CONFIG = 2,   /* family, tile, tile_k, padding or stages breaks a kernel rule */
  TCGEMM_ERROR_NO_DEVICE = 3,        /* no CUDA device is visible */
  TCGEMM_ERROR_ARCHITECTURE = 4,     /* the device's compute capability cannot run the requested kernel */
  TCGEMM_ERROR_SHARED_MEMORY = 5,    /* the configuration needs more shared memory than the device allows */
  TCGEMM_ERROR_CUDA = 6,             /* a CUDA runtime call failed; the message carries CUDA's text */
  TCGEMM_ERROR_CONTEXT_LOST = 7      /* the CUDA context is corrupt after a sticky error (a kernel of the process
                                        faulted): nothing was launched; cudaDeviceReset or a restart recovers */
} tcgemm_status;

/* Kernel families, one per example of the reference design plus the Hopper path. */
typedef enum tcgemm_family {
  TCGEMM_FAMILY_AUTO = 0,           /* tcgemm_dgemm chooses (sm90_mma on cc 9.x, shared_ab on cc 8.x) */
  TCGEMM_FAMILY_SINGLE = 1,         /* Example 1: one warp, one 8x8x4 WMMA tile */
  TCGEMM_FAMILY_ROW = 2,            /* Example 2: one warp, C(8x8) = A(8xK) B(Kx8) */
  TCGEMM_FAMILY_WARP_PER_BLOCK = 3, /* Example 3: grid of one-warp blocks, one 8x8 C tile each */
  TCGEMM_FAMILY_BLOCK_TILE = 4,     /* Example 4: tile_m x tile_n C tile per multi-warp block */
  TCGEMM_FAMILY_PEAK = 5,           /* Figure 1: one load, niter mma_sync, one store */
  TCGEMM_FAMILY_SHARED_A = 6,       /* Example 5: A tile (tile_m x 4) in shared memory, padding pad_a */
  TCGEMM_FAMILY_SHARED_AB = 7,      /* Example 6: A and B tiles in dynamic shared memory, tile_k deep */
  TCGEMM_FAMILY_SM90_MMA = 8,       /* Hopper: mma.sync m16n8k*.f64 with a cp.async multistage pipeline */
  TCGEMM_FAMILY_SKINNY = 9          /* m <= 8 or n <= 8: memory-bound, streams the large operand once
                                       (matrix-vector-like products) on the FP64 CUDA cores; 5-8 rows over an
                                       aligned k-contiguous operand on the FP64 tensor cores (sm_90) */
} tcgemm_family;

/*
 * A kernel configuration. Zero in tile_m/tile_n/tile_k/stages means "the family's default"; paddings are
 * taken as given (0 is a legal padding). tcgemm_default_config() fills a complete one.
 *   tile_m, tile_n : C tile computed by one thread block (shared_a: tile_n = tile_m, as in the article)
 *   tile_k         : depth of the shared-memory A/B tiles (shared_ab, sm90_mma)
 *   pad_a, pad_b   : doubles added to the leading dimension of the shared-memory A and B tiles
 *   stages         : shared-memory pipeline depth (shared_ab, sm90_mma)
 */
typedef struct tcgemm_config {
  int32_t family; /* tcgemm_family */
  int32_t tile_m;
  int32_t tile_n;
  int32_t tile_k;
  int32_t pad_a;
  int32_t pad_b;
  int32_t stages;
  int32_t k_splits; /* split-K: 0 or 1 = none; > 1 = k cut into at most this many slices whose partial
                     * products are added in a fixed order (bit-identical from run to run), using workspace
                     * from tcgemm's pool (families sm90_mma and skinny; skinny: at least ceil(k / 512)).
                     * skinny with 0: automatic, which may stream whole columns without slices; 1 or more:
                     * always the chunked kernel */
} tcgemm_config;

typedef struct tcgemm_device_info {
  char name[256];
  int32_t device;
  int32_t cc_major;
  int32_t cc_minor;
  int32_t sm_count;
  int64_t shared_memory_per_block_optin; /* bytes a block may use after opting in */
  int64_t shared_memory_per_sm;          /* bytes */
  int64_t global_memory;                 /* bytes */
} tcgemm_device_info;

/* Largest matrix (ld x columns x 8 bytes) any entry point accepts: 2^52 bytes (4 PiB). Every element offset,
 * tile origin and prefetch offset the kernels and the host path compute in 64-bit arithmetic then stays
 * exact, with a margin of several tiles past each edge. */
#define TCGEMM_MAX_MATRIX_BYTES (INT64_C(1) << 52)

/* ---- status and errors ------------------------------------------------------------------------- */
const char* tcgemm_status_string(tcgemm_status status);
/* Message of the last failed call on this thread ("" after a successful call). Valid until the next call. */
const char* tcgemm_last_error(void);
/* The argument the last failed call on this thread blamed, as a number; 0 when no argument is at fault
 * (success, no device, a CUDA failure, an architecture or shared-memory limit of the device).
 *   tcgemm_dgemm, tcgemm_dgemm_config, tcgemm_dgemm_host: reference DGEMM's numbering, as XERBLA's INFO:
 *     1 transa, 2 transb, 3 m, 4 n, 5 k, 6 alpha, 7 A, 8 lda, 9 B, 10 ldb, 11 beta, 12 C, 13 ldc;
 *     tcgemm_dgemm_config's configuration (any of its fields) is TCGEMM_ARG_CONFIG.
 *   every other entry point: the argument's 1-based position in its prototype below (for
 *     tcgemm_dmma_shared_ab, 5 is tile_k; for the tcgemm_config_* calls, 1 is the configuration). */
int32_t tcgemm_last_error_argument(void);
#define TCGEMM_ARG_CONFIG 14
/* 1 when the last failed call on this thread had already written part of C, else 0. Only the host-array calls
 * can fail that way (a CUDA failure while C comes back; for tcgemm_dgemm_host in the middle of its pipeline,
 * after the first C tiles came back: the tiles that came back before the failure, and possibly part of the
 * one coming back, hold the result; the rest of C is unchanged). A caller can then recompute from the
 * original C only where beta == 0. */
int32_t tcgemm_last_error_output_written(void);
const char* tcgemm_version_string(void);

/* ---- device ------------------------------------------------------------------------------------- */
/* device < 0 means the current device. */
tcgemm_status tcgemm_device_info_get(int32_t device, tcgemm_device_info* info);

/* ---- configurations (host only: no CUDA call) ---------------------------------------------------- */
tcgemm_status tcgemm_default_config(int32_t family, tcgemm_config* config);
/* Checks every rule of the configuration's family that does not depend on the device. */
tcgemm_status tcgemm_config_validate(const tcgemm_config* config);
/* Dynamic + static shared memory one block of this configuration needs, in bytes. */
tcgemm_status tcgemm_config_shared_memory_bytes(const tcgemm_config* config, int64_t* bytes);
/* Threads per block of this configuration. */
tcgemm_status tcgemm_config_threads_per_block(const tcgemm_config* config, int32_t* threads);
/* Full check of a configuration against a device (validate + architecture + shared memory limit). */
tcgemm_status tcgemm_config_check_device(const tcgemm_config* config, int32_t device);

/* ---- FP64 WMMA families of the reference design: C = A * B (alpha = 1, beta = 0, no transpose) ---- */
/* Example 1: C(8x8) = A(8x4) B(4x8); lda >= 8, ldb >= 4, ldc >= 8. */
tcgemm_status tcgemm_dmma_single(const double* A, int64_t lda, const double* B, int64_t ldb, double* C,
                                 int64_t ldc, cudaStream_t stream);
/* Example 2: C(8x8) = A(8xK) B(Kx8), any k >= 0. */
tcgemm_status tcgemm_dmma_row(int64_t k, const double* A, int64_t lda, const double* B, int64_t ldb,
                              double* C, int64_t ldc, cudaStream_t stream);
/* Example 3: one warp per block, one 8x8 C tile per block; any m, n, k. */
tcgemm_status tcgemm_dmma_warp_per_block(int64_t m, int64_t n, int64_t k, const double* A, int64_t lda,
                                         const double* B, int64_t ldb, double* C, int64_t ldc,
                                         cudaStream_t stream);
/* Example 4: tile_m x tile_n C tile per block (multiples of 8, see tcgemm_config_validate). */
tcgemm_status tcgemm_dmma_block_tile(int64_t m, int64_t n, int64_t k, int32_t tile_m, int32_t tile_n,
                                     const double* A, int64_t lda, const double* B, int64_t ldb, double* C,
                                     int64_t ldc, cudaStream_t stream);
/* Figure 1 benchmark: A is 8x4 (lda >= 8), B is 4x8 (ldb >= 4); every 8x8 tile of the m x n matrix C
 * receives niter * (A B), accumulated by niter mma_sync calls from one load of A and B. */
tcgemm_status tcgemm_dmma_peak(int64_t m, int64_t n, int32_t niter, const double* A, int64_t lda,
                               const double* B, int64_t ldb, double* C, int64_t ldc, cudaStream_t stream);
/* Example 5: tile_m x 4 A tile in shared memory with leading dimension tile_m + pad_a. */
tcgemm_status tcgemm_dmma_shared_a(int64_t m, int64_t n, int64_t k, int32_t tile_m, int32_t pad_a,
                                   const double* A, int64_t lda, const double* B, int64_t ldb, double* C,
                                   int64_t ldc, cudaStream_t stream);
/* Example 6: tile x tile_k A tile and tile_k x tile B tile in dynamic shared memory. */
tcgemm_status tcgemm_dmma_shared_ab(int64_t m, int64_t n, int64_t k, int32_t tile, int32_t tile_k,
                                    int32_t pad_a, int32_t pad_b, const double* A, int64_t lda,
                                    const double* B, int64_t ldb, double* C, int64_t ldc,
                                    cudaStream_t stream);

/* ---- BLAS-semantics DGEMM ------------------------------------------------------------------------ */
/* C <- alpha op(A) op(B) + beta C, op(X) = X for 'N'/'n', X^T for 'T'/'t'/'C'/'c' (real data).
 * Reference-BLAS rules: quick return when m = 0, n = 0, or (alpha = 0 or k = 0) and beta = 1;
 * beta = 0 means C is not read; alpha = 0 means A and B are not read.
 * Errors name the argument by its BLAS position, e.g. "argument 8 (lda) must be >= max(1, m) = 100". */
tcgemm_status tcgemm_dgemm(char transa, char transb, int64_t m, int64_t n, int64_t k, double alpha,
                           const double* A, int64_t lda, const double* B, int64_t ldb, double beta, double* C,
                           int64_t ldc, cudaStream_t stream);
/* The same with an explicit kernel configuration (family shared_a, shared_ab or sm90_mma). */
tcgemm_status tcgemm_dgemm_config(const tcgemm_config* config, char transa, char transb, int64_t m, int64_t n,
                                  int64_t k, double alpha, const double* A, int64_t lda, const double* B,
                                  int64_t ldb, double beta, double* C, int64_t ldc, cudaStream_t stream);
/* The family tcgemm_dgemm uses on this device for large problems (family AUTO resolved: sm90_mma on cc 9.x
 * when the build has sm_90 code, else shared_ab), with that family's default tile. The configuration for a
 * given shape (tile, stages, split-K, or the skinny family for m or n <= 8) comes from tcgemm_dgemm_plan. */
tcgemm_status tcgemm_dgemm_select_config(int32_t device, tcgemm_config* config);

/* How tcgemm_dgemm runs a problem on the current device, and the model's reasons. tcgemm_dgemm chooses the
 * kernel family, block tile, pipeline depth and split-K slice count from a performance model (tile waves over
 * the SMs, arithmetic per block, compulsory memory traffic, fixed costs), not from a list of shapes.
 * plan->config is exactly what tcgemm_dgemm runs: tcgemm_dgemm_config with it gives the same result, bit for
 * bit. The plan depends on the shape only: it weighs operands stored as whole arrays (lda and ldb equal to the
 * row counts of A's and B's storage), whose odd row counts mean slower 8-byte copies; other leading
 * dimensions run the same configuration at their own copy width. Setting the environment variable
 * TCGEMM_PLAN_LOG=1 prints the summary line of every tcgemm_dgemm call to stderr. Arguments are numbered as tcgemm_dgemm's (1 transa, 2 transb, 3 m, 4 n, 5 k); plan is 6. */
#define TCGEMM_PLAN_SUMMARY_LEN 320
typedef struct tcgemm_plan {
  tcgemm_config config;    /* what tcgemm_dgemm runs (family auto resolved) */
  int64_t tiles;           /* output tiles = thread blocks per k-slice */
  int64_t k_slices;        /* k-slices actually run (1: no split); their partial products are added in order */
  int64_t k_per_slice;     /* k depth of each slice (the last may be shorter) */
  int64_t blocks;          /* thread blocks of the main kernel = tiles x k_slices */
  int64_t workspace_bytes; /* split-K partial products, taken from tcgemm's memory pool on the call's
                            * stream */
  int32_t blocks_per_sm;   /* blocks resident at once on one SM */
  int32_t sm_count;
  int32_t cluster_split;   /* 1: the k-slices (at most 8) are one thread-block cluster per tile and add their
                            * partial products in shared memory (no workspace, no second kernel) */
  double waves;            /* blocks / (sm_count x blocks_per_sm) */
  double compute_us;       /* model: arithmetic time over the waves */
  double memory_us;        /* model: compulsory HBM traffic time */
  double predicted_us;     /* model: time of the call */
  char summary[320];       /* one line describing all of the above (TCGEMM_PLAN_SUMMARY_LEN) */
} tcgemm_plan;
tcgemm_status tcgemm_dgemm_plan(char transa, char transb, int64_t m, int64_t n, int64_t k, tcgemm_plan* plan);

/* DGEMM on host arrays (pageable or pinned), on the host device list's GPUs (below: every visible GPU unless
 * told otherwise); returns when C is complete. Argument numbering as tcgemm_dgemm.
 *   Devices: C is cut into one contiguous block per device of the list along the longer of m and n (column
 *     blocks when n >= m, else row blocks; the smaller operand goes to every device), in proportion to the
 *     devices' SM counts at multiples of 256, and each block runs the pipeline below on its own host thread
 *     and device. Products under 2 x 2048^3 operations (TCGEMM_HOST_SPLIT_MIN_FLOPS to choose another
 *     threshold) run on one device: the calling thread's current device when the list holds it, else the
 *     list's first. The calling thread's current device is unchanged by the call. See
 *     tcgemm_set_host_devices for the list.
 *   Pipeline: the smaller of op(A) and op(B) is copied to the GPU once; the other, with C, goes through in
 *     panels on three streams, so the upload of one panel, the product of the next and the download of the
 *     C tile before overlap (both copy directions and the SMs busy at once). Each byte of A, B and C crosses
 *     the link once while the smaller operand fits in 30% of the device memory (TCGEMM_HOST_RESIDENT_BYTES to
 *     choose another size; else it goes in chunks and the other operand once per chunk). With pinned arrays a
 *     compute-bound product (large n) cuts even a resident operand that fits into 2-4 double-buffered chunks,
 *     so its first product waits for a part of it, not all (TCGEMM_HOST_RESIDENT_CHUNKS forces a count).
 *     The last panel's width is halved down to 256 columns or rows (1024 rows for pinned row panels copied
 *     by strided DMA), so the product and download that nothing overlaps are short.
 *     alpha == 0 or k == 0 scales C on the host (beta == 0 writes zeros without reading C).
 *   Copies: arrays the caller has pinned (tcgemm_host_register, cudaHostRegister, cudaMallocHost) go by
 *     direct DMA from and to their own memory; pageable arrays through pinned staging buffers that several
 *     host threads fill and empty (TCGEMM_HOST_COPY_THREADS helper threads, default half the hardware
 *     threads up to 8; TCGEMM_HOST_STAGING_BYTES per buffer, default 16 MiB, 8 buffers per engine).
 *   Threads and streams: the streams, events and staging buffers form an engine that tcgemm keeps per CUDA
 *     context and reuses; concurrent calls take separate engines (at most four per context, further calls
 *     wait for one), so calls from several threads overlap and none uses the legacy default stream.
 *   Memory: device buffers come from tcgemm's memory pool (one per CUDA context, shared by all threads); at
 *     the end of each call the pool keeps at most TCGEMM_HOST_WORKSPACE_BYTES (environment variable, bytes;
 *     default 1/16 of the device memory, at least 1 GiB) and returns the rest to the device.
 *     tcgemm_release_workspace() returns all of it and the
 *     idle engines' staging buffers (current device). After cudaDeviceReset new pools and engines are made;
 *     nothing from the destroyed context is used again.
 *   Failure: argument, device-list, device and pending-error checks fail before any copy (C untouched). A
 *     CUDA failure during the pipeline can come after C tiles were written: see
 *     tcgemm_last_error_output_written(). With several devices every block runs to its end; the call returns
 *     the first failure (in time), its message prefixed by the device and the block, and C is partly written
 *     when any block wrote. */
tcgemm_status tcgemm_dgemm_host(char transa, char transb, int64_t m, int64_t n, int64_t k, double alpha,
                                const double* A, int64_t lda, const double* B, int64_t ldb, double beta,
                                double* C, int64_t ldc);
tcgemm_status tcgemm_release_workspace(void);
/* ---- batches of small products (device arrays) -------------------------------------------------------
 * C_g <- alpha op(A_g) op(B_g) + beta C_g for g = 0 .. batch - 1, every product with the same transa, transb,
 * m, n, k, alpha, beta and leading dimensions, with tcgemm_dgemm's semantics and checks per product (column-
 * major, ld >= max(1, rows), beta = 0 never reads C, alpha = 0 or k = 0 never reads A or B), 64-bit sizes,
 * strides and batch counts; batch = 0 returns at once.
 *   tcgemm_dgemm_strided_batched: A_g = A + g strideA (likewise B, C). strideA and strideB >= 0 (0: one matrix
 *     for the whole batch); strideC at least the extent of one C ((n - 1) ldc + m) when batch > 1, so that no
 *     two products write the same element.
 *   tcgemm_dgemm_batched: A, B and C are device arrays of batch device pointers (as cuBLAS's batched calls);
 *     the pointers themselves are read on the device.
 * Products with m, n <= 24 run in one launch of family batched_direct (each warp copies its own lanes' elements
 * of the FP64 8x8x4 tile of the CUDA Fortran tensor-core article into shared memory and multiplies them), but
 * those with both m and n in 9..16 only up to max(m, n) = 15 (beta = 0) or 13 (beta != 0); the others up to 40
 * in one launch of family batched_small (several products per block, whole small matrices streamed into shared
 * memory, the same 8x8x4 tile through WMMA). Larger
 * products of a strided batch run on sm90_mma's kernel (cc 9.x, one grid row per product, one launch per 65535
 * products); elsewhere batched_small takes them up to 128, and pointer arrays of larger products go one by one
 * through tcgemm_dgemm. Argument numbers in messages are the prototype's (strided:
 * A 7, lda 8, strideA 9, B 10, ldb 11, strideB 12, beta 13, C 14, ldc 15, strideC 16, batch 17; pointer
 * arrays: A 7, lda 8, B 9, ldb 10, beta 11, C 12, ldc 13, batch 14). */
tcgemm_status tcgemm_dgemm_strided_batched(char transa, char transb, int64_t m, int64_t n, int64_t k, double alpha,
                                           const double* A, int64_t lda, int64_t strideA, const double* B,
                                           int64_t ldb, int64_t strideB, double beta, double* C, int64_t ldc,
                                           int64_t strideC, int64_t batch, cudaStream_t stream);
tcgemm_status tcgemm_dgemm_batched(char transa, char transb, int64_t m, int64_t n, int64_t k, double alpha,
                                   const double* const* A, int64_t lda, const double* const* B, int64_t ldb,
                                   double beta, double* const* C, int64_t ldc, int64_t batch, cudaStream_t stream);
/* Batches of products of several shapes (as cublasDgemmGroupedBatched): group_count groups, group i of
 * group_size[i] products with transa[i], transb[i], m[i], n[i], k[i], alpha[i], lda[i], ldb[i], beta[i] and ldc[i]
 * (host arrays of group_count entries). A, B and C are device arrays of device pointers with one entry per
 * product, the groups' products one after the other (group 0's first). Each group is checked as
 * tcgemm_dgemm_batched checks a batch, all of them before anything runs: a bad argument in any group fails the
 * call with nothing launched and no C written, and the message names the group ("group 2: argument 8 (lda) =
 * 3: ..."); tcgemm_last_error_argument() gives the argument's position (A 7, lda 8, B 9, ldb 10, beta 11, C 12,
 * ldc 13, group_count 14, group_size 15). Then each group runs as one tcgemm_dgemm_batched launch, in order, on
 * `stream`: per-product sizes (MAGMA's vbatched) are groups of products of one shape, and a group costs a
 * launch, so products of equal shape belong in one group. group_count = 0 returns at once. */
tcgemm_status tcgemm_dgemm_grouped_batched(const char* transa, const char* transb, const int64_t* m,
                                           const int64_t* n, const int64_t* k, const double* alpha,
                                           const double* const* A, const int64_t* lda, const double* const* B,
                                           const int64_t* ldb, const double* beta, double* const* C,
                                           const int64_t* ldc, int64_t group_count, const int64_t* group_size,
                                           cudaStream_t stream);
/* tcgemm_dgemm_strided_batched on host arrays (pageable or pinned), on the current GPU; returns when C is
 * written. Same semantics, checks and argument numbering (1 to 17) as the device call. The matrices the batch
 * uses go to the device packed (rows x columns each: one copy when each matrix is one run of elements or the
 * columns of the whole batch are evenly spaced, as in a Fortran array a(lda, cols, batch); else one per
 * matrix); a stride-0 A or B goes up once; C only when beta != 0. The batch runs on a stream of the call's own
 * and only the m x n block of each C comes back: elements of C between the matrices (rows past m, gaps past
 * the last column) are never written, and beta = 0 never reads C (NaN in it does not matter). Device buffers
 * come from tcgemm's memory pool (as tcgemm_dgemm_host's). The packed copies must fit the device together: a
 * batch whose copies exceed the device's memory fails with TCGEMM_ERROR_INVALID_ARGUMENT (argument 17) before
 * anything is copied, and a shortage of free memory with CUDA's out-of-memory message, C unchanged.
 * alpha = 0 or k = 0 scales C on the host. Argument, device and pending-error checks fail before any copy. */
tcgemm_status tcgemm_dgemm_strided_batched_host(char transa, char transb, int64_t m, int64_t n, int64_t k,
                                                double alpha, const double* A, int64_t lda, int64_t strideA,
                                                const double* B, int64_t ldb, int64_t strideB, double beta,
                                                double* C, int64_t ldc, int64_t strideC, int64_t batch);

/* The GPUs tcgemm_dgemm_host (and libtcgemm_blas's dgemm_ on host arrays) uses on the calling thread. The
 * list is, in order of precedence:
 *   1. the thread's own list, set here (count entries of devices; count = 0 removes it);
 *   2. the environment variable TCGEMM_DEVICES: "all" or a comma list of device ordinals such as "0,1";
 *   3. TCGEMM_DEVICE: one ordinal;
 *   4. when the process is one of several MPI ranks on its node (OMPI_COMM_WORLD_LOCAL_RANK and
 *      OMPI_COMM_WORLD_LOCAL_SIZE, MPI_LOCALRANKID and MPI_LOCALNRANKS, or SLURM_LOCALID with
 *      SLURM_NTASKS_PER_NODE or a uniform SLURM_TASKS_PER_NODE, with more than one rank): the one device
 *      local rank % number of devices;
 *   5. every visible device (of compute capability 8.0 or newer).
 * An ordinal may appear more than once: its blocks then run on that GPU at the same time, each on its own
 * streams (a way to exercise the split on one GPU; it does not make one GPU faster). Device arrays
 * (tcgemm_dgemm and libtcgemm_blas's dgemm_ on device pointers) always use the current device.
 * Errors: count < 0 or > 64 (argument 2), devices NULL with count > 0 or an ordinal < 0 or >= the number of
 * devices (argument 1): TCGEMM_ERROR_INVALID_ARGUMENT, list unchanged; no GPU: TCGEMM_ERROR_NO_DEVICE (count
 * = 0 always succeeds). A malformed TCGEMM_DEVICES or TCGEMM_DEVICE (not an ordinal, out of range, empty)
 * makes tcgemm_dgemm_host fail with TCGEMM_ERROR_INVALID_ARGUMENT, argument 0, a message naming the variable
 * and the entry, before any work. */
tcgemm_status tcgemm_set_host_devices(const int32_t* devices, int32_t count);
/* The calling thread's effective host device list (the rules above, checked against the visible devices):
 * its length in *count, and its first min(*count, capacity) entries in devices (NULL allowed with capacity 0,
 * to ask the length). Errors: capacity < 0 (argument 2), devices NULL with capacity > 0 (argument 1), count
 * NULL (argument 3); otherwise those of the list (*count = 0 then). */
tcgemm_status tcgemm_get_host_devices(int32_t* devices, int32_t capacity, int32_t* count);
/* Page-locks (pins) a host array for the GPU, so that tcgemm_dgemm_host and libtcgemm_blas copy it by direct
 * DMA at the link's full speed (cudaHostRegister, portable to every device); tcgemm_host_unregister undoes it.
 * Pin arrays that are used in many calls: pinning itself costs about as much as one copy. */
tcgemm_status tcgemm_host_register(void* host_ptr, int64_t bytes);
tcgemm_status tcgemm_host_unregister(void* host_ptr);

/* ---- lower precisions on the WMMA tensor-core shapes (device arrays) ----------------------------------
 * The CUDA Fortran tensor-core article's Table 1 lists, besides FP64 8x8x4, WMMA shapes for 16-bit inputs
 * (16x16x16, 32x8x16, 8x32x16; FP16 with FP16 or FP32 accumulation, BF16 with FP32) and TF32 16x16x8 with
 * FP32 accumulation. tcgemm_gemm_ex runs them with BLAS semantics on device arrays:
 *   C <- alpha op(A) op(B) + beta C, column-major, any m, n, k >= 0, transa/transb 'N' or 'T' (or 'C').
 * Inputs: A and B both TCGEMM_TYPE_F16, both TCGEMM_TYPE_BF16, or both TCGEMM_TYPE_F32 (multiplied in TF32:
 * each input rounded to 10 mantissa bits). C: TCGEMM_TYPE_F32, TCGEMM_TYPE_F16 or TCGEMM_TYPE_BF16.
 * compute: TCGEMM_TYPE_F32 (FP32 accumulation, every input type) or TCGEMM_TYPE_F16 (FP16 accumulation,
 * F16 inputs only). alpha and beta are floats; beta = 0 never reads C; alpha = 0 or k = 0 never reads A or B.
 * Accuracy: each product is exact in FP32, so the error is that of rounding the inputs (unit roundoff
 * 2^-11 for F16 and TF32, 2^-8 for BF16), of accumulating k terms at the accumulator's roundoff, and of
 * rounding C to its type. */
typedef enum tcgemm_datatype {
  TCGEMM_TYPE_F64 = 0,
  TCGEMM_TYPE_F32 = 1,
  TCGEMM_TYPE_F16 = 2,
  TCGEMM_TYPE_BF16 = 3
} tcgemm_datatype;
typedef enum tcgemm_wmma_shape {
  TCGEMM_WMMA_SHAPE_DEFAULT = 0, /* 16x16x16 for 16-bit inputs, 16x16x8 for TF32 */
  TCGEMM_WMMA_16x16x16 = 1,
  TCGEMM_WMMA_32x8x16 = 2,
  TCGEMM_WMMA_8x32x16 = 3,
  TCGEMM_WMMA_16x16x8 = 4 /* TF32 */
} tcgemm_wmma_shape;
/* The WMMA family's configuration: shape, tile, tile_n, tile_k and stages 0 mean their defaults; the paddings
 * are taken as given (0: none, as in the article's tables); a NULL configuration means every default. A
 * block computes a tile x tile_n block of C: 64 x 64 (4 warps of 32 x 32), 128 x 128 (4 warps of 64 x 64),
 * 256 x 128 or 128 x 256 (8 warps of 64 x 64); default 128 x 128, and tile_n 0 means tile_n = tile. A and B
 * tiles live in dynamic shared memory as in the article's Example 6, each kept in its order in memory: a
 * tile x tile_k tile of op(A) (leading dimension tile_k + pad_a elements when A is transposed, else
 * tile + pad_a) and a tile_k x tile_n tile of op(B) (tile_k + pad_b when B is not transposed, else
 * tile_n + pad_b; an m- or n-contiguous operand whose fragments are 8 wide along it, A of 8x32x16 and B of
 * 32x8x16, takes twice its tile side + pad, every group of 8 at the start of a 16-element slot, because WMMA
 * needs 32-byte aligned fragments). WMMA loads need leading dimensions that are whole 16-byte units, so
 * pad_a and pad_b must be multiples of 16 bytes of the input type (8 for F16/BF16, 4 for TF32). tile_k: a
 * multiple of the shape's k between it and 256, default 32; stages: 1 (the article's loop: copy a k-tile,
 * wait, compute it) or 2 .. 4 (a ring of buffers: the next stages - 1 k-tiles are copied with cp.async
 * while one is multiplied), default 3; default pads 16 bytes' worth (8 or 4 elements). A NULL configuration
 * that reaches the WMMA family runs the defaults fitted to the device's shared memory per block: fewer
 * stages, then 64 x 64 (TF32's 3 stages of 128 x 128 need 113 KB; cc 8.6/8.9 devices allow 99 KB). */
typedef struct tcgemm_wmma_config {
  int32_t shape; /* tcgemm_wmma_shape */
  int32_t tile;
  int32_t tile_k;
  int32_t pad_a;
  int32_t pad_b;
  int32_t stages;
  int32_t tile_n;
  int32_t reserved[1]; /* must be 0 */
} tcgemm_wmma_config;
/* config NULL: the default path. F16 or BF16 inputs with FP32 accumulation (and F16 inputs with FP16
 * accumulation) then run on mma.sync.m16n8k16 (a cp.async pipeline of 256 x 128 or 128 x 128 tiles) where A
 * and B are 16-byte aligned, lda and ldb multiples of 8, and each operand's contiguous extent (m of an
 * untransposed A, k of a transposed A and of an untransposed B, n of a transposed B) a multiple of 8; TF32 runs
 * on mma.sync.m16n8k8 over k-contiguous copies of op(A) and op(B) rounded to TF32 in tcgemm's pool (any
 * layout; 4 (m + n) roundup(k, 4) bytes; above 256 MiB only while the device has twice that free; when the
 * copies cannot be had the product runs in place on the WMMA family, with the same rounding).
 * TCGEMM_PLAN_LOG=1 prints the kernel each call ran. Otherwise, and for a given configuration, the WMMA family
 * with that configuration (NULL: every default); TF32 with one of the family's fixed configurations (C tiles
 * 128 x 128, 256 x 128 or 128 x 256, tile_k 32, paddings 4, 3 stages) also runs on those rounded copies when
 * alpha != 0, k >= 1 and the configuration fits the device's shared memory in the copies' form ('T','N'; the
 * 256-wide tiles do not on cc 8.0), with the same fallback; otherwise in place. Errors as tcgemm_dgemm's (argument positions as in this
 * prototype: A is 7, a_type 8, lda 9, ..., config 18), plus TCGEMM_ERROR_INVALID_ARGUMENT for an unsupported
 * type combination and TCGEMM_ERROR_INVALID_CONFIG for a shape, tile, tile_n, tile_k, padding or stages that breaks a rule (the
 * message says which). Needs compute capability 8.0 or later (TCGEMM_ERROR_ARCHITECTURE otherwise). */
tcgemm_status tcgemm_gemm_ex(char transa, char transb, int64_t m, int64_t n, int64_t k, float alpha,
                             const void* A, int32_t a_type, int64_t lda, const void* B, int32_t b_type,
                             int64_t ldb, float beta, void* C, int32_t c_type, int64_t ldc, int32_t compute,
                             const tcgemm_wmma_config* config, cudaStream_t stream);
/* The configuration tcgemm_gemm_ex would use for these input and accumulator types (every field resolved),
 * and its dynamic shared memory per block (the most of the four operand forms: the tiles' leading
 * dimensions follow the forms); errors as tcgemm_gemm_ex's configuration checks. */
tcgemm_status tcgemm_wmma_config_resolve(int32_t input_type, int32_t compute, const tcgemm_wmma_config* config,
                                         tcgemm_wmma_config* resolved, int64_t* shared_memory_bytes);

/* FP32 arrays on the device, computed in a chosen precision (BLAS sgemm semantics and argument numbering:
 * precision is argument 14):
 *   TCGEMM_PRECISION_TF32: the inputs rounded to TF32 (nearest, ties away from zero), FP32 accumulation:
 *     tcgemm_gemm_ex's default path (mma.sync m16n8k8 on k-contiguous rounded copies in tcgemm's pool, or
 *     the WMMA 16x16x8 family in place when the device lacks the memory for them);
 *   TCGEMM_PRECISION_FP16, TCGEMM_PRECISION_BF16: A and B converted to that type first (into workspace from
 *     tcgemm's pool; FP16 overflows to infinity past 65504), FP32 accumulation, FP32 C; the product as
 *     tcgemm_gemm_ex's default path on the packed copies (mma.sync where their rows are multiples of 8);
 *   TCGEMM_PRECISION_FP32: exact FP32 on the CUDA cores (no tensor cores: the reference to compare with).
 * The unit roundoff of the inputs' rounding is 2^-11 for TF32 and FP16, 2^-8 for BF16. */
typedef enum tcgemm_precision {
  TCGEMM_PRECISION_TF32 = 1,
  TCGEMM_PRECISION_FP16 = 2,
  TCGEMM_PRECISION_BF16 = 3,
  TCGEMM_PRECISION_FP32 = 4
} tcgemm_precision;
tcgemm_status tcgemm_sgemm(char transa, char transb, int64_t m, int64_t n, int64_t k, float alpha, const float* A,
                           int64_t lda, const float* B, int64_t ldb, float beta, float* C, int64_t ldc,
                           int32_t precision, cudaStream_t stream);
/* The same on FP32 host arrays (BLAS semantics and argument numbering, precision argument 14): the parts of
 * A, B and C the call uses go to the device (2D copies of the used rows; C only when beta != 0), the product
 * runs as tcgemm_sgemm's on a stream of the call's own, and C's m x n block comes back; the call returns when
 * C is written. No panel pipeline (unlike tcgemm_dgemm_host): A, B and C must fit the device together,
 * otherwise CUDA's out-of-memory error with C unchanged. alpha = 0 or k = 0 scales C on the host. */
tcgemm_status tcgemm_sgemm_host(char transa, char transb, int64_t m, int64_t n, int64_t k, float alpha,
                                const float* A, int64_t lda, const float* B, int64_t ldb, float beta, float* C,
                                int64_t ldc, int32_t precision);

/* ---- small device-memory helpers (for Fortran and C callers without the CUDA headers' helpers) ---- */
tcgemm_status tcgemm_malloc(void** device_ptr, int64_t bytes);
tcgemm_status tcgemm_free(void* device_ptr);
tcgemm_status tcgemm_memcpy_to_device(void* device_dst, const void* host_src, int64_t bytes);
tcgemm_status tcgemm_memcpy_to_host(void* host_dst, const void* device_src, int64_t bytes);
tcgemm_status tcgemm_synchronize(cudaStream_t stream);

/* ---- streams (for Fortran and C callers without the CUDA headers) --------------------------------- */
/* A new CUDA stream on the current device, for the `stream` argument of the launches above. It is a blocking
 * stream (cudaStreamDefault): its work waits for earlier work on the legacy default stream, where
 * tcgemm_memcpy_to_device runs, so an upload followed by a launch on the stream needs no synchronization in
 * between. *stream is NULL after a failure. Errors: stream == NULL is argument 1
 * (TCGEMM_ERROR_INVALID_ARGUMENT); no GPU gives TCGEMM_ERROR_NO_DEVICE; a failure of CUDA gives
 * TCGEMM_ERROR_CUDA with CUDA's own text in tcgemm_last_error(). */
tcgemm_status tcgemm_stream_create(cudaStream_t* stream);
/* Destroys a stream of tcgemm_stream_create (or cudaStreamCreate); work already queued on it still completes.
 * NULL is a no-op, as in tcgemm_free, so clean-up code may call it unconditionally. */
tcgemm_status tcgemm_stream_destroy(cudaStream_t stream);
/* tcgemm_synchronize under this group's name: waits until all work queued on the stream (NULL: the legacy
 * default stream) has finished; errors of earlier asynchronous launches surface here (TCGEMM_ERROR_CUDA, or
 * TCGEMM_ERROR_CONTEXT_LOST for a sticky one); without a GPU, TCGEMM_ERROR_NO_DEVICE. */
tcgemm_status tcgemm_stream_synchronize(cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* TCGEMM_TCGEMM_H */
