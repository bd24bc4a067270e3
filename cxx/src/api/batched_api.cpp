// Batches of small DGEMMs on device arrays: tcgemm_dgemm_strided_batched, tcgemm_dgemm_batched and
// tcgemm_dgemm_grouped_batched (tcgemm.h). Every product is checked as tcgemm_dgemm checks one (validate_problem
// on the first product's arguments: the others differ only by the strides or pointers), plus the batch count,
// the strides and the extent of the whole batch (each group of a grouped batch is checked as one batch). Then
// one launch of family batched_direct for products up to 24 (rules.hpp: but for 14..16 x 14..16 and 16 x 9..16),
// of family batched_small for the others up to 40, sm90_mma's kernel with one grid row per product beyond
// (strided batches on a device with its code), or, for pointer arrays past batched_small's sizes, one
// tcgemm_dgemm per product.
#include <cinttypes>
#include <string>
#include <vector>

#include "api/batched_args.hpp"
#include "core/arguments.hpp"
#include "core/checked_math.hpp"
#include "core/device.hpp"
#include "core/errors.hpp"
#include "core/env.hpp"
#include "families/batched_direct/launch.hpp"
#include "families/batched_small/launch.hpp"
#include "families/sm90/rules.hpp"

using namespace tcgemm::detail;
using tcgemm::detail::batched_small::BatchedArgs;

namespace {

// Prototype positions (tcgemm.h).
constexpr ArgPositions kStridedPositions{1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 13, 14, 15, 0, 0, 0, 0, 0, 0, 0, 0};
constexpr ArgPositions kArrayPositions{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 0, 0, 0, 0, 0, 0, 0, 0};
constexpr int kStrideAPos = 9, kStrideBPos = 12, kStrideCPos = 16, kArrayBatchPos = 14;
constexpr int kStridedBatchPos = kStridedBatchArgument;

tcgemm_status fail_arg(int pos, const char* name, int64_t value, const char* rule) {
  return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, pos, "argument %d (%s) = %" PRId64 ": %s", pos, name, value,
                       rule);
}

// The last product's matrix starts stride * (batch - 1) elements after the first: that offset plus one
// matrix must stay within TCGEMM_MAX_MATRIX_BYTES, as one matrix must.
tcgemm_status check_batch_extent(int pos, const char* name, int64_t stride, int64_t batch, int64_t ld, int64_t cols) {
  int64_t offset = 0, one = 0, total = 0, bytes = 0;
  if (!checked_mul(stride, batch - 1, &offset) || !checked_mul(ld, cols, &one) || !checked_add(offset, one, &total) ||
      !checked_mul(total, int64_t(8), &bytes) || bytes > TCGEMM_MAX_MATRIX_BYTES)
    return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, pos,
                         "argument %d (%s) = %" PRId64 ": the batch of %" PRId64 " matrices spans more than 2^52 "
                         "bytes (TCGEMM_MAX_MATRIX_BYTES)",
                         pos, name, stride, batch);
  return TCGEMM_SUCCESS;
}

}  // namespace

namespace tcgemm::detail {

tcgemm_status validate_strided_batch(char transa, char transb, int64_t m, int64_t n, int64_t k, double alpha,
                                     const double* A, int64_t lda, int64_t strideA, const double* B, int64_t ldb,
                                     int64_t strideB, double beta, double* C, int64_t ldc, int64_t strideC,
                                     int64_t batch, GemmProblem* p) {
  TCGEMM_TRY(validate_problem(blas_problem(transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc),
                              ArgNaming::Blas, kStridedPositions, p));
  if (batch < 0) return fail_arg(kStridedBatchPos, "batch", batch, "must be >= 0");
  if (strideA < 0) return fail_arg(kStrideAPos, "strideA", strideA, "must be >= 0 (0: one A for every product)");
  if (strideB < 0) return fail_arg(kStrideBPos, "strideB", strideB, "must be >= 0 (0: one B for every product)");
  if (strideC < 0) return fail_arg(kStrideCPos, "strideC", strideC, "must be >= 0");
  if (batch > 1 && p->m > 0 && p->n > 0) {
    const int64_t c_extent = (p->n - 1) * p->ldc + p->m;  // validated: fits
    if (strideC < c_extent)
      return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, kStrideCPos,
                           "argument %d (strideC) = %" PRId64 ": must be >= (n - 1) ldc + m = %" PRId64
                           ", or the C matrices of the batch overlap",
                           kStrideCPos, strideC, c_extent);
    TCGEMM_TRY(check_batch_extent(kStrideCPos, "strideC", strideC, batch, p->ldc, p->n));
    if (p->alpha != 0.0 && p->k > 0) {
      TCGEMM_TRY(check_batch_extent(kStrideAPos, "strideA", strideA, batch, p->lda, p->transa == 'N' ? p->k : p->m));
      TCGEMM_TRY(check_batch_extent(kStrideBPos, "strideB", strideB, batch, p->ldb, p->transb == 'N' ? p->n : p->k));
    }
  }
  return TCGEMM_SUCCESS;
}

}  // namespace tcgemm::detail

namespace {

// Strided batches whose products are larger than 40 (max(m, n) >= kSm90BatchMinSize) run on sm90_mma's kernel,
// one grid row per product, where the device has its code: from there on a product has enough arithmetic
// that the FP64 WMMA 8x8x4 instruction of batched_small (half the FP64 tensor rate on a Hopper) and the padding
// to its 48/64/128 classes limit it, while sm90_mma's mma.sync.m16n8k8 runs at the full rate. Blocks of 64 x
// 64 up to 128, 128 x 64 beyond (the 128 x 64 and 128 x 128 blocks measured slower at 80, 96 and 128).
// Measured on the H100 (bench/results/2026-11-27-h100-batched-ring): with batched_small's cp.async ring the
// crossover moved from 33 to 41 (33^3 0.99 -> 1.14 x cuBLAS, 40^3 0.79 -> 0.83, 33x8x70 0.65 -> 0.73,
// 40x16x40 0.64 -> 0.79 on batched_small's 48-class); at 44^3 both are at 0.87-0.88, at 48^3 and 64^3 sm90_mma
// is ahead (0.99 and 1.01 against 0.91 and 0.94). TCGEMM_BATCHED_SM90_MIN_SIZE moves the crossover (for
// measurements).
constexpr int64_t kSm90BatchMinSize = 41;

bool batch_on_sm90(const GemmProblem& p, bool arrays, const DeviceContext& ctx, tcgemm_config* cfg) {
  if (arrays || !sm90_code_available(ctx)) return false;
  static const int64_t min_size = env_int("TCGEMM_BATCHED_SM90_MIN_SIZE", 1, INT64_MAX, kSm90BatchMinSize);
  const int64_t size = p.m > p.n ? p.m : p.n;
  if (size < min_size) return false;
  *cfg = sm90_shape_config(kSm90Shapes[size <= kBatchedMaxSize ? find_sm90_shape(64, 64, 16) : kSm90DefaultShape]);
  return true;
}

// Products of up to 24 rows and columns: batched_direct (each warp copies its own m8n8k4 fragments; rules.hpp says
// why it beats batched_small's block-wide staging there, and where batched_small's 16-class still wins).
// TCGEMM_BATCHED_DIRECT_MAX_SIZE lowers the bound (0: never), for measurements and for the tests of
// batched_small's small classes.
bool batch_on_direct(const GemmProblem& p) {
  static const int64_t max_size =
      env_int("TCGEMM_BATCHED_DIRECT_MAX_SIZE", 0, kBatchedDirectLargestSize, kBatchedDirectMaxSize);
  return batched_direct_takes(p.m, p.n, p.beta != 0.0, max_size);
}

// BLAS's quick returns for a validated batch: nothing to compute and C unchanged.
bool batch_is_noop(const GemmProblem& p, int64_t batch) {
  return batch == 0 || p.m == 0 || p.n == 0 || ((p.alpha == 0.0 || p.k == 0) && p.beta == 1.0);
}

// The current device, checked and free of a sticky error, before a call's first launch.
tcgemm_status gate_current_device(DeviceContext* ctx) {
  TCGEMM_TRY(device_gate(-1, ctx));
  return take_pending_cuda_error();
}

// A validated batch that is not a quick return, on the gated device ctx.
tcgemm_status run_gated(const GemmProblem& p, BatchedArgs a, bool arrays, int64_t batch, const DeviceContext& ctx,
                        cudaStream_t stream) {
  a.m = p.m;
  a.n = p.n;
  a.k = p.k;
  a.batch = batch;
  a.alpha = p.alpha;
  a.beta = p.beta;
  a.trans_a = p.transa == 'T';
  a.trans_b = p.transb == 'T';
  a.lda = p.lda;
  a.ldb = p.ldb;
  a.ldc = p.ldc;
  if (p.alpha == 0.0 || p.k == 0) return launch_batched_scale(a, arrays, ctx, stream);
  if (batch_on_direct(p)) return launch_batched_direct(a, arrays, ctx, stream);
  tcgemm_config sm90_cfg{};
  if (batch_on_sm90(p, arrays, ctx, &sm90_cfg))
    return launch_sm90_strided_batched(p, batch, a.stride_a, a.stride_b, a.stride_c, sm90_cfg, ctx, stream);
  if (batched_class_index(p.m, p.n) >= 0) return launch_batched_small(a, arrays, ctx, stream);
  // Products past the batched kernel's sizes: each fills the GPU alone, through tcgemm_dgemm's plan.
  std::vector<const double*> pa, pb;
  std::vector<double*> pc;
  if (arrays) {
    pa.resize(batch);
    pb.resize(batch);
    pc.resize(batch);
    TCGEMM_CUDA_TRY(cudaMemcpyAsync(pa.data(), a.A_array, batch * sizeof(double*), cudaMemcpyDeviceToHost, stream));
    TCGEMM_CUDA_TRY(cudaMemcpyAsync(pb.data(), a.B_array, batch * sizeof(double*), cudaMemcpyDeviceToHost, stream));
    TCGEMM_CUDA_TRY(cudaMemcpyAsync(pc.data(), a.C_array, batch * sizeof(double*), cudaMemcpyDeviceToHost, stream));
    TCGEMM_CUDA_TRY(cudaStreamSynchronize(stream));
  }
  for (int64_t g = 0; g < batch; ++g) {
    const double* A = arrays ? pa[g] : a.A + g * a.stride_a;
    const double* B = arrays ? pb[g] : a.B + g * a.stride_b;
    double* C = arrays ? pc[g] : a.C + g * a.stride_c;
    const tcgemm_status st = tcgemm_dgemm(p.transa, p.transb, p.m, p.n, p.k, p.alpha, A, p.lda, B, p.ldb, p.beta,
                                          C, p.ldc, stream);
    if (st != TCGEMM_SUCCESS) {
      const std::string reason = tcgemm_last_error();
      return set_error(st, "product %" PRId64 " of the batch: %s", g, reason.c_str());
    }
  }
  return TCGEMM_SUCCESS;
}

// The common part: p validated, batch >= 0; runs or quick-returns.
tcgemm_status run_batch(const GemmProblem& p, const BatchedArgs& a, bool arrays, int64_t batch,
                        cudaStream_t stream) {
  if (batch_is_noop(p, batch)) return TCGEMM_SUCCESS;
  DeviceContext ctx;
  TCGEMM_TRY(gate_current_device(&ctx));
  return run_gated(p, a, arrays, batch, ctx, stream);
}

// The recorded failure st again, its message prefixed with the group and its argument position kept.
tcgemm_status name_group(tcgemm_status st, int64_t group) {
  const std::string reason = tcgemm_last_error();
  return set_arg_error(st, tcgemm_last_error_argument(), "group %" PRId64 ": %s", group, reason.c_str());
}

}  // namespace

extern "C" {

tcgemm_status tcgemm_dgemm_strided_batched(char transa, char transb, int64_t m, int64_t n, int64_t k, double alpha,
                                           const double* A, int64_t lda, int64_t strideA, const double* B,
                                           int64_t ldb, int64_t strideB, double beta, double* C, int64_t ldc,
                                           int64_t strideC, int64_t batch, cudaStream_t stream) {
  clear_error();
  GemmProblem p;
  TCGEMM_TRY(validate_strided_batch(transa, transb, m, n, k, alpha, A, lda, strideA, B, ldb, strideB, beta, C, ldc,
                                    strideC, batch, &p));
  BatchedArgs a{};
  a.A = p.A;
  a.B = p.B;
  a.C = p.C;
  a.stride_a = strideA;
  a.stride_b = strideB;
  a.stride_c = strideC;
  return run_batch(p, a, false, batch, stream);
}

tcgemm_status tcgemm_dgemm_batched(char transa, char transb, int64_t m, int64_t n, int64_t k, double alpha,
                                   const double* const* A, int64_t lda, const double* const* B, int64_t ldb,
                                   double beta, double* const* C, int64_t ldc, int64_t batch, cudaStream_t stream) {
  clear_error();
  // The pointer arrays take the matrices' places in the checks: NULL where a matrix is read is an error.
  GemmProblem p;
  TCGEMM_TRY(validate_problem(
      blas_problem(transa, transb, m, n, k, alpha, reinterpret_cast<const double*>(A), lda,
                   reinterpret_cast<const double*>(B), ldb, beta, reinterpret_cast<double*>(const_cast<double**>(C)), ldc),
      ArgNaming::Blas, kArrayPositions, &p));
  if (batch < 0) return fail_arg(kArrayBatchPos, "batch", batch, "must be >= 0");
  BatchedArgs a{};
  a.A_array = A;
  a.B_array = B;
  a.C_array = C;
  return run_batch(p, a, true, batch, stream);
}

tcgemm_status tcgemm_dgemm_grouped_batched(const char* transa, const char* transb, const int64_t* m,
                                           const int64_t* n, const int64_t* k, const double* alpha,
                                           const double* const* A, const int64_t* lda, const double* const* B,
                                           const int64_t* ldb, const double* beta, double* const* C,
                                           const int64_t* ldc, int64_t group_count, const int64_t* group_size,
                                           cudaStream_t stream) {
  clear_error();
  constexpr int kGroupCountPos = 14, kGroupSizePos = 15;
  if (group_count < 0) return fail_arg(kGroupCountPos, "group_count", group_count, "must be >= 0");
  if (group_count == 0) return TCGEMM_SUCCESS;
  // The per-group values are host arrays of group_count entries.
  const struct {
    const void* array;
    int pos;
    const char* name;
  } host_arrays[] = {{transa, 1, "transa"}, {transb, 2, "transb"}, {m, 3, "m"},     {n, 4, "n"},
                     {k, 5, "k"},           {alpha, 6, "alpha"},   {lda, 8, "lda"}, {ldb, 10, "ldb"},
                     {beta, 11, "beta"},    {ldc, 13, "ldc"},      {group_size, kGroupSizePos, "group_size"}};
  for (const auto& h : host_arrays)
    if (h.array == nullptr)
      return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, h.pos,
                           "argument %d (%s) is NULL: a host array of group_count = %" PRId64 " values is needed",
                           h.pos, h.name, group_count);
  // Every group checked before any runs, as tcgemm_dgemm_batched checks a batch (its pointer arrays being the
  // group's slices of A, B and C); a failure names the group.
  std::vector<GemmProblem> problems(static_cast<size_t>(group_count));
  int64_t products = 0;  // before group g: the index of its first product in A, B and C
  auto slice = [](auto* array, int64_t first) { return array ? array + first : nullptr; };
  for (int64_t g = 0; g < group_count; ++g) {
    if (group_size[g] < 0)
      return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, kGroupSizePos,
                           "argument %d (group_size): group %" PRId64 ": group_size = %" PRId64 ": must be >= 0",
                           kGroupSizePos, g, group_size[g]);
    const tcgemm_status st = validate_problem(
        blas_problem(transa[g], transb[g], m[g], n[g], k[g], alpha[g],
                     reinterpret_cast<const double*>(slice(A, products)), lda[g],
                     reinterpret_cast<const double*>(slice(B, products)), ldb[g], beta[g],
                     reinterpret_cast<double*>(const_cast<double**>(slice(C, products))), ldc[g]),
        ArgNaming::Blas, kArrayPositions, &problems[g]);
    if (st != TCGEMM_SUCCESS) return name_group(st, g);
    if (!checked_add(products, group_size[g], &products))
      return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, kGroupSizePos,
                           "argument %d (group_size): the groups' sizes add up past 2^63 - 1 at group %" PRId64,
                           kGroupSizePos, g);
  }
  // The device is gated once, before the first group that launches; the groups run in order.
  DeviceContext ctx;
  bool gated = false;
  products = 0;
  for (int64_t g = 0; g < group_count; products += group_size[g], ++g) {
    if (batch_is_noop(problems[g], group_size[g])) continue;
    if (!gated) {
      TCGEMM_TRY(gate_current_device(&ctx));
      gated = true;
    }
    BatchedArgs a{};
    a.A_array = slice(A, products);
    a.B_array = slice(B, products);
    a.C_array = slice(C, products);
    const tcgemm_status st = run_gated(problems[g], a, true, group_size[g], ctx, stream);
    if (st != TCGEMM_SUCCESS) return name_group(st, g);
  }
  return TCGEMM_SUCCESS;
}

}  // extern "C"
