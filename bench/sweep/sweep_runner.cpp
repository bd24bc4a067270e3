#include "sweep_runner.hpp"

#include <climits>
#include <cmath>
#include <limits>
#include <exception>
#include <stdexcept>

#include <cstring>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

#include "random_fill.hpp"
#include "reference_check.hpp"
#include "timing.hpp"

namespace tcgemm::sweep {
namespace {

// All bits set is a NaN in IEEE 754 double: C is poisoned with it before the checked run, so a kernel
// that reads C although beta = 0, or leaves an element unwritten, fails the check.
constexpr int kNaNByte = 0xFF;
constexpr double kAlpha = 1.0;
constexpr double kBeta = 0.0;

std::string cuda_text(cudaError_t e, const char* what) {
  return std::string(what) + ": " + cudaGetErrorName(e) + ": " + cudaGetErrorString(e);
}

std::string cublas_text(cublasStatus_t s, const char* what) {
  return std::string(what) + ": " + cublasGetStatusName(s) + ": " + cublasGetStatusString(s);
}

// The row's reason for a failed check: the worst element (1-based, as in the article's Fortran) and how
// many elements are off.
std::string failure_text(const check::Report& r) {
  char buf[256];
  const check::Mismatch& w = r.worst;
  std::snprintf(buf, sizeof buf,
                "wrong result: C(%lld,%lld) = %.17g, cuBLAS %.17g; |diff| %.3e > tolerance %.3e "
                "(%lld of %lld elements)",
                static_cast<long long>(w.i + 1), static_cast<long long>(w.j + 1), w.value, w.reference, w.diff, w.tol,
                static_cast<long long>(r.outside_tolerance), static_cast<long long>(r.elements));
  return buf;
}

void free_device(void** p) {
  if (*p) (void)cudaFree(*p);
  *p = nullptr;
}

// ---- element types of the lower precisions -----------------------------------------------------------

int32_t element_bytes(int32_t type) {
  return type == TCGEMM_TYPE_F64 ? 8 : type == TCGEMM_TYPE_F32 ? 4 : 2;
}

// v rounded to TF32 (10 mantissa bits, to nearest, ties to even), as an FP32 value: what the tensor cores
// multiply, so tcgemm's own rounding and cuBLAS's leave it unchanged. |v| <= 1 here: no overflow case.
float round_to_tf32(float v) {
  uint32_t bits = 0;
  std::memcpy(&bits, &v, 4);
  bits += 0xFFFu + ((bits >> 13) & 1u);
  bits &= ~0x1FFFu;
  float out = 0;
  std::memcpy(&out, &bits, 4);
  return out;
}

// Stores v as element i of a buffer of `type` (which must hold it exactly: the caller rounded it first).
void store(int32_t type, double v, unsigned char* buf, size_t i) {
  switch (type) {
    case TCGEMM_TYPE_F64: std::memcpy(buf + 8 * i, &v, 8); break;
    case TCGEMM_TYPE_F32: {
      const float f = float(v);
      std::memcpy(buf + 4 * i, &f, 4);
      break;
    }
    case TCGEMM_TYPE_F16: {
      const __half h = __double2half(v);
      std::memcpy(buf + 2 * i, &h, 2);
      break;
    }
    default: {
      const __nv_bfloat16 h = __double2bfloat16(v);
      std::memcpy(buf + 2 * i, &h, 2);
    }
  }
}

double load(int32_t type, const unsigned char* buf, size_t i) {
  switch (type) {
    case TCGEMM_TYPE_F64: {
      double v;
      std::memcpy(&v, buf + 8 * i, 8);
      return v;
    }
    case TCGEMM_TYPE_F32: {
      float f;
      std::memcpy(&f, buf + 4 * i, 4);
      return f;
    }
    case TCGEMM_TYPE_F16: {
      __half h;
      std::memcpy(&h, buf + 2 * i, 2);
      return __half2float(h);
    }
    default: {
      __nv_bfloat16 h;
      std::memcpy(&h, buf + 2 * i, 2);
      return __bfloat162float(h);
    }
  }
}

// v rounded to what the point's tensor cores multiply.
double round_input(Precision p, double v) {
  switch (p) {
    case Precision::kFp64: return v;
    case Precision::kF16:
    case Precision::kF16Acc16: return __half2float(__double2half(v));
    case Precision::kBf16: return __bfloat162float(__double2bfloat16(v));
    case Precision::kTf32: return round_to_tf32(float(v));
  }
  return v;
}

// The unit the reference check's bound counts in: the accumulator's machine epsilon (FP32: 2^-23, FP16:
// 2^-10), whose k additions are all that separates two correct results on the same rounded inputs.
double accumulation_eps(Precision p) {
  switch (p) {
    case Precision::kFp64: return std::numeric_limits<double>::epsilon();
    case Precision::kF16Acc16: return std::ldexp(1.0, -10);
    default: return std::ldexp(1.0, -23);
  }
}

cudaDataType_t cuda_type(int32_t type) {
  switch (type) {
    case TCGEMM_TYPE_F64: return CUDA_R_64F;
    case TCGEMM_TYPE_F32: return CUDA_R_32F;
    case TCGEMM_TYPE_F16: return CUDA_R_16F;
    default: return CUDA_R_16BF;
  }
}

}  // namespace

SweepRunner::SweepRunner(const RunnerOptions& options) : opt_(options) {}

SweepRunner::~SweepRunner() {
  free_device(&dA_);
  free_device(&dB_);
  free_device(&dC_);
  free_device(&dRef_);
  if (cublas_) (void)cublasDestroy(cublas_);
  if (stream_) (void)cudaStreamDestroy(stream_);
}

bool SweepRunner::init(std::string* error) {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    *error = e != cudaSuccess ? "no CUDA device (" + cuda_text(e, "cudaGetDeviceCount") + ")" : "no CUDA device";
    (void)cudaGetLastError();
    return false;
  }
  if (opt_.device >= 0) {
    if (opt_.device >= count) {
      *error = "--device " + std::to_string(opt_.device) + ": there are only " + std::to_string(count) + " devices";
      return false;
    }
    device_ = opt_.device;
    if ((e = cudaSetDevice(device_)) != cudaSuccess) return *error = cuda_text(e, "cudaSetDevice"), false;
  } else if ((e = cudaGetDevice(&device_)) != cudaSuccess) {
    return *error = cuda_text(e, "cudaGetDevice"), false;
  }
  tcgemm_device_info info;
  if (tcgemm_device_info_get(device_, &info) != TCGEMM_SUCCESS) return *error = tcgemm_last_error(), false;
  device_name_ = info.name;

  int v = 0;
  const auto attr = [&](cudaDeviceAttr a, const char* name) {
    cudaError_t err = cudaDeviceGetAttribute(&v, a, device_);
    if (err != cudaSuccess) throw std::runtime_error(cuda_text(err, name));
    return v;
  };
  try {
    limits_.max_threads_per_sm = attr(cudaDevAttrMaxThreadsPerMultiProcessor, "cudaDevAttrMaxThreadsPerMultiProcessor");
    limits_.max_blocks_per_sm = attr(cudaDevAttrMaxBlocksPerMultiprocessor, "cudaDevAttrMaxBlocksPerMultiprocessor");
    limits_.shared_memory_per_sm =
        attr(cudaDevAttrMaxSharedMemoryPerMultiprocessor, "cudaDevAttrMaxSharedMemoryPerMultiprocessor");
    limits_.reserved_shared_per_block =
        attr(cudaDevAttrReservedSharedMemoryPerBlock, "cudaDevAttrReservedSharedMemoryPerBlock");
    smem_optin_ = attr(cudaDevAttrMaxSharedMemoryPerBlockOptin, "cudaDevAttrMaxSharedMemoryPerBlockOptin");
    cc_major_ = attr(cudaDevAttrComputeCapabilityMajor, "cudaDevAttrComputeCapabilityMajor");
  } catch (const std::exception& ex) {
    *error = ex.what();
    return false;
  }
  if ((e = cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)) != cudaSuccess)
    return *error = cuda_text(e, "cudaStreamCreateWithFlags"), false;
  cublasStatus_t s = cublasCreate(&cublas_);
  if (s != CUBLAS_STATUS_SUCCESS) return *error = cublas_text(s, "cublasCreate"), false;
  if ((s = cublasSetStream(cublas_, stream_)) != CUBLAS_STATUS_SUCCESS)
    return *error = cublas_text(s, "cublasSetStream"), false;
  return true;
}

bool SweepRunner::fits_device(const SweepPoint& p, std::string* reason) const {
  if (!p.valid()) {
    *reason = p.invalid_reason;
    return false;
  }
  if (p.precision != Precision::kFp64) {  // the WMMA family: compute capability 8.0 and its shared memory
    if (cc_major_ < 8) {
      *reason = "the WMMA family of the lower precisions needs compute capability 8.0 or later";
      return false;
    }
    if (p.smem_bytes > smem_optin_) {
      *reason = "needs " + std::to_string(p.smem_bytes) + " bytes of shared memory per block; device " +
                std::to_string(device_) + " allows " + std::to_string(smem_optin_);
      return false;
    }
    return true;
  }
  if (tcgemm_config_check_device(&p.config, device_) != TCGEMM_SUCCESS) {
    *reason = tcgemm_last_error();
    return false;
  }
  return true;
}

bool SweepRunner::ensure_buffers(const SweepPoint& p, std::string* error) {
  const auto grow = [&](void** d, size_t* have, size_t need, const char* name) {
    if (*have >= need) return true;
    free_device(d);
    *have = 0;
    cudaError_t e = cudaMalloc(d, need);
    if (e != cudaSuccess) {
      *d = nullptr;
      (void)cudaGetLastError();
      *error = cuda_text(e, name) + " (" + std::to_string(need) + " bytes)";
      return false;
    }
    *have = need;
    return true;
  };
  const size_t in = size_t(input_bytes_of(p.precision)), out = size_t(element_bytes(output_type_of(p.precision)));
  const size_t mk = size_t(p.m) * size_t(p.k), kn = size_t(p.k) * size_t(p.n), mn = size_t(p.m) * size_t(p.n);
  if (!grow(&dA_, &a_bytes_, mk * in, "cudaMalloc(A)") || !grow(&dB_, &b_bytes_, kn * in, "cudaMalloc(B)") ||
      !grow(&dC_, &c_bytes_, mn * out, "cudaMalloc(C)") ||
      !grow(&dRef_, &ref_bytes_, mn * out, "cudaMalloc(C reference)"))
    return false;
  hA_.resize(mk);
  hB_.resize(kn);
  hC_.resize(mn);
  hRef_.resize(mn);
  return true;
}

bool SweepRunner::upload_operands(const SweepPoint& p, uint64_t seed, std::string* error) {
  bench::fill_uniform(&hA_, seed);
  bench::fill_uniform(&hB_, seed + 1);
  const int32_t type = input_type_of(p.precision);
  const size_t in = size_t(element_bytes(type));
  // On the sweep's stream, then synchronized. A plain cudaMemcpy from pageable memory runs on the legacy stream,
  // which the non-blocking stream_ does not wait for, and may return before its DMA has finished: under load (ctest
  // running GPU tests side by side) the checked tcgemm call then read A and B half old, half new, while cuBLAS,
  // launched after it, read them whole (shared_a 256^3 failed the check on the H200 with 6112 of 65536 elements off).
  // The stream order also keeps the previous point's timed runs from reading A and B while they are replaced.
  auto upload = [&](void* d, const void* h, size_t bytes) {
    cudaError_t u = cudaMemcpyAsync(d, h, bytes, cudaMemcpyHostToDevice, stream_);
    return u == cudaSuccess ? cudaStreamSynchronize(stream_) : u;
  };
  cudaError_t e = cudaSuccess;
  for (int which = 0; which < 2 && e == cudaSuccess; ++which) {
    std::vector<double>& h = which == 0 ? hA_ : hB_;
    void* d = which == 0 ? dA_ : dB_;
    if (type == TCGEMM_TYPE_F64) {
      e = upload(d, h.data(), h.size() * in);
      continue;
    }
    staging_.resize(h.size() * in);
    for (size_t i = 0; i < h.size(); ++i) {
      h[i] = round_input(p.precision, h[i]);  // the check then sees exactly what was multiplied
      store(type, h[i], staging_.data(), i);
    }
    e = upload(d, staging_.data(), staging_.size());
  }
  if (e != cudaSuccess) *error = cuda_text(e, "copying A and B to the device");
  return e == cudaSuccess;
}

bool SweepRunner::download_results(const SweepPoint& p, std::string* error) {
  const int32_t type = output_type_of(p.precision);
  const size_t out = size_t(element_bytes(type));
  cudaError_t e = cudaSuccess;
  for (int which = 0; which < 2 && e == cudaSuccess; ++which) {
    std::vector<double>& h = which == 0 ? hC_ : hRef_;
    const void* d = which == 0 ? dC_ : dRef_;
    if (type == TCGEMM_TYPE_F64) {
      e = cudaMemcpyAsync(h.data(), d, h.size() * out, cudaMemcpyDeviceToHost, stream_);
      if (e == cudaSuccess) e = cudaStreamSynchronize(stream_);
      continue;
    }
    staging_.resize(h.size() * out);
    e = cudaMemcpyAsync(staging_.data(), d, staging_.size(), cudaMemcpyDeviceToHost, stream_);
    if (e == cudaSuccess) e = cudaStreamSynchronize(stream_);
    if (e == cudaSuccess)
      for (size_t i = 0; i < h.size(); ++i) h[i] = load(type, staging_.data(), i);
  }
  if (e != cudaSuccess) *error = cuda_text(e, "copying C and the cuBLAS reference to the host");
  return e == cudaSuccess;
}

bool SweepRunner::launch_tcgemm(const SweepPoint& p, std::string* error) {
  tcgemm_status s;
  const char* what = "tcgemm_dgemm_config";
  if (p.precision == Precision::kFp64) {
    s = tcgemm_dgemm_config(&p.config, 'N', 'N', p.m, p.n, p.k, kAlpha, static_cast<const double*>(dA_), p.m,
                            static_cast<const double*>(dB_), p.k, kBeta, static_cast<double*>(dC_), p.m, stream_);
  } else {
    what = "tcgemm_gemm_ex";
    const int32_t in = input_type_of(p.precision);
    s = tcgemm_gemm_ex('N', 'N', p.m, p.n, p.k, float(kAlpha), dA_, in, p.m, dB_, in, p.k, float(kBeta), dC_,
                       output_type_of(p.precision), p.m, compute_type_of(p.precision), &p.wmma, stream_);
  }
  if (s == TCGEMM_SUCCESS) return true;
  *error = std::string(what) + ": " + tcgemm_status_string(s) + ": " + tcgemm_last_error();
  return false;
}

bool SweepRunner::launch_cublas(const SweepPoint& p, void* C, std::string* error) {
  if (p.m > INT_MAX || p.n > INT_MAX || p.k > INT_MAX) {
    *error = "cuBLAS reference: sizes must be < 2^31";
    return false;
  }
  const int m = int(p.m), n = int(p.n), k = int(p.k);
  cublasStatus_t s;
  const char* what = "cublasGemmEx";
  if (p.precision == Precision::kFp64) {
    what = "cublasDgemm";
    s = cublasDgemm(cublas_, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &kAlpha, static_cast<const double*>(dA_), m,
                    static_cast<const double*>(dB_), k, &kBeta, static_cast<double*>(C), m);
  } else {
    const cudaDataType_t in = cuda_type(input_type_of(p.precision)), out = cuda_type(output_type_of(p.precision));
    if (p.precision == Precision::kF16Acc16) {  // FP16 compute takes FP16 alpha and beta
      const __half alpha = __double2half(kAlpha), beta = __double2half(kBeta);
      s = cublasGemmEx(cublas_, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, dA_, in, m, dB_, in, k, &beta, C, out, m,
                       CUBLAS_COMPUTE_16F, CUBLAS_GEMM_DEFAULT);
    } else {
      const float alpha = float(kAlpha), beta = float(kBeta);
      s = cublasGemmEx(cublas_, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, dA_, in, m, dB_, in, k, &beta, C, out, m,
                       p.precision == Precision::kTf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F,
                       CUBLAS_GEMM_DEFAULT);
    }
  }
  if (s == CUBLAS_STATUS_SUCCESS) return true;
  *error = cublas_text(s, what);
  return false;
}

void SweepRunner::fail(SweepRow* row, const std::string& what) {
  row->status = RowStatus::kError;
  row->reason = what;
  // A sticky error (illegal address, launch failure) poisons the context: every later CUDA call fails.
  // Clear what can be cleared, then see whether the device still answers.
  (void)cudaGetLastError();
  const cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    broken_ = true;
    broken_reason_ = "the CUDA context was lost at " + point_label(row->point) + " (" +
                     cuda_text(e, "cudaDeviceSynchronize") + ")";
  }
}

void SweepRunner::run_profiled(const SweepPoint& p, SweepRow* row) {
  std::string err;
  const std::string key = point_key(p);
  nvtxRangePushA(key.c_str());
  const bool ok = launch_tcgemm(p, &err);
  nvtxRangePop();
  if (!ok) return fail(row, err);
  const cudaError_t e = cudaStreamSynchronize(stream_);
  if (e != cudaSuccess) return fail(row, cuda_text(e, "tcgemm (asynchronous)"));
  row->status = RowStatus::kProfiled;
}

void SweepRunner::run_checked_and_timed(const SweepPoint& p, SweepRow* row) {
  std::string err;
  cudaError_t e;
  // All bits set is a NaN in every element type here (FP64, FP32, FP16).
  const size_t c_bytes = hC_.size() * size_t(element_bytes(output_type_of(p.precision)));
  if ((e = cudaMemsetAsync(dC_, kNaNByte, c_bytes, stream_)) != cudaSuccess)
    return fail(row, cuda_text(e, "cudaMemsetAsync(C)"));
  if (!launch_tcgemm(p, &err)) return fail(row, err);
  if ((e = cudaStreamSynchronize(stream_)) != cudaSuccess)
    return fail(row, cuda_text(e, "tcgemm (asynchronous)"));
  if (!launch_cublas(p, dRef_, &err)) return fail(row, err);
  if (!download_results(p, &err)) return fail(row, err);

  check::Gemm gemm{'N', 'N', p.m, p.n, p.k, kAlpha, kBeta, hA_.data(), p.m, hB_.data(), p.k};
  gemm.eps = accumulation_eps(p.precision);
  const check::Report check = check::check_result(gemm, check::OutputLayout{p.m}, nullptr, hC_.data(), hRef_.data());
  row->max_rel_err = check.max_normwise_err;
  if (!check.pass()) {
    // Timing a wrong kernel would put a meaningless number in the table.
    row->status = RowStatus::kFailed;
    row->reason = failure_text(check);
    return;
  }

  bench::Timing mine, theirs;
  try {
    mine = bench::time_launches([&] { return launch_tcgemm(p, &err); }, opt_.warmup, opt_.reps, stream_);
  } catch (const std::exception& ex) {
    return fail(row, err.empty() ? ex.what() : err);
  }
  try {
    theirs = bench::time_launches([&] { return launch_cublas(p, dRef_, &err); }, opt_.warmup, opt_.reps, stream_);
  } catch (const std::exception& ex) {
    return fail(row, err.empty() ? ex.what() : err);
  }
  row->median_ms = mine.median_ms;
  row->min_ms = mine.min_ms;
  row->max_ms = mine.max_ms;
  row->tflops = bench::gemm_tflops(double(p.m), double(p.n), double(p.k), mine.median_ms);
  row->cublas_tflops = bench::gemm_tflops(double(p.m), double(p.n), double(p.k), theirs.median_ms);
  row->ratio_to_cublas = row->tflops / row->cublas_tflops;
  row->status = RowStatus::kOk;
}

SweepRow SweepRunner::run_point(const SweepPoint& p) {
  SweepRow row = make_row(p, device_name_);
  if (row.status == RowStatus::kSkipped) return row;
  if (broken_) {
    row.status = RowStatus::kNotRun;
    row.reason = broken_reason_;
    return row;
  }
  std::string reason;
  if (!fits_device(p, &reason)) {
    row.status = RowStatus::kSkipped;
    row.reason = reason;
    return row;
  }
  row.blocks_per_sm = blocks_per_sm_upper_bound(p.threads, p.smem_bytes, limits_);
  try {
    std::string err;
    if (!ensure_buffers(p, &err)) {
      row.status = RowStatus::kError;
      row.reason = err;
      return row;
    }
    // Fresh operands for every point (seed + index), uploaded before anything runs.
    if (!upload_operands(p, opt_.seed + 2 * uint64_t(p.index), &err)) {
      fail(&row, err);
      return row;
    }
    if (opt_.profile_once)
      run_profiled(p, &row);
    else
      run_checked_and_timed(p, &row);
  } catch (const std::exception& ex) {  // std::bad_alloc for host buffers of a huge size, mostly
    row.status = RowStatus::kError;
    row.reason = ex.what();
  }
  return row;
}

std::vector<SweepRow> run_points(SweepRunner& runner, const std::vector<SweepPoint>& points,
                                 std::FILE* progress_out) {
  std::vector<bool> runnable(points.size());
  size_t runnable_count = 0;
  for (size_t i = 0; i < points.size(); ++i) {
    std::string reason;
    runnable[i] = runner.fits_device(points[i], &reason);
    runnable_count += runnable[i];
  }
  ProgressReporter progress(progress_out, ProgressReporter::is_terminal(progress_out), points.size(),
                            runnable_count);
  std::vector<SweepRow> rows;
  rows.reserve(points.size());
  for (size_t i = 0; i < points.size(); ++i) {
    progress.begin_point(i + 1, point_label(points[i]));
    rows.push_back(runner.run_point(points[i]));
    progress.end_point(i + 1, rows.back(), runnable[i]);
  }
  progress.finish();
  return rows;
}

}  // namespace tcgemm::sweep
