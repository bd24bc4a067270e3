#include "sweep_runner.hpp"

#include <climits>
#include <exception>
#include <stdexcept>

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

template <typename T>
void free_device(T** p) {
  if (*p) (void)cudaFree(*p);
  *p = nullptr;
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
  if (tcgemm_config_check_device(&p.config, device_) != TCGEMM_SUCCESS) {
    *reason = tcgemm_last_error();
    return false;
  }
  return true;
}

bool SweepRunner::ensure_buffers(int64_t m, int64_t n, int64_t k, std::string* error) {
  const auto grow = [&](double** d, size_t* have, size_t need, const char* name) {
    if (*have >= need) return true;
    free_device(d);
    *have = 0;
    cudaError_t e = cudaMalloc(reinterpret_cast<void**>(d), need * sizeof(double));
    if (e != cudaSuccess) {
      *d = nullptr;
      (void)cudaGetLastError();
      *error = cuda_text(e, name) + " (" + std::to_string(need * sizeof(double)) + " bytes)";
      return false;
    }
    *have = need;
    return true;
  };
  size_t c_have = c_elems_;  // C and the reference have the same size
  if (!grow(&dA_, &a_elems_, size_t(m) * size_t(k), "cudaMalloc(A)") ||
      !grow(&dB_, &b_elems_, size_t(k) * size_t(n), "cudaMalloc(B)") ||
      !grow(&dC_, &c_elems_, size_t(m) * size_t(n), "cudaMalloc(C)") ||
      !grow(&dRef_, &c_have, size_t(m) * size_t(n), "cudaMalloc(C reference)"))
    return false;
  hA_.resize(size_t(m) * size_t(k));
  hB_.resize(size_t(k) * size_t(n));
  hC_.resize(size_t(m) * size_t(n));
  hRef_.resize(size_t(m) * size_t(n));
  return true;
}

bool SweepRunner::launch_tcgemm(const SweepPoint& p, std::string* error) {
  const tcgemm_status s = tcgemm_dgemm_config(&p.config, 'N', 'N', p.m, p.n, p.k, kAlpha, dA_, p.m, dB_, p.k, kBeta,
                                              dC_, p.m, stream_);
  if (s == TCGEMM_SUCCESS) return true;
  *error = std::string("tcgemm_dgemm_config: ") + tcgemm_status_string(s) + ": " + tcgemm_last_error();
  return false;
}

bool SweepRunner::launch_cublas(const SweepPoint& p, double* C, std::string* error) {
  if (p.m > INT_MAX || p.n > INT_MAX || p.k > INT_MAX) {
    *error = "cuBLAS reference: sizes must be < 2^31";
    return false;
  }
  const int m = int(p.m), n = int(p.n), k = int(p.k);
  const cublasStatus_t s =
      cublasDgemm(cublas_, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &kAlpha, dA_, m, dB_, k, &kBeta, C, m);
  if (s == CUBLAS_STATUS_SUCCESS) return true;
  *error = cublas_text(s, "cublasDgemm");
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
  if (e != cudaSuccess) return fail(row, cuda_text(e, "tcgemm_dgemm_config (asynchronous)"));
  row->status = RowStatus::kProfiled;
}

void SweepRunner::run_checked_and_timed(const SweepPoint& p, SweepRow* row) {
  std::string err;
  cudaError_t e;
  const size_t c_bytes = hC_.size() * sizeof(double);
  if ((e = cudaMemsetAsync(dC_, kNaNByte, c_bytes, stream_)) != cudaSuccess)
    return fail(row, cuda_text(e, "cudaMemsetAsync(C)"));
  if (!launch_tcgemm(p, &err)) return fail(row, err);
  if ((e = cudaStreamSynchronize(stream_)) != cudaSuccess)
    return fail(row, cuda_text(e, "tcgemm_dgemm_config (asynchronous)"));
  if (!launch_cublas(p, dRef_, &err)) return fail(row, err);
  if ((e = cudaMemcpyAsync(hC_.data(), dC_, c_bytes, cudaMemcpyDeviceToHost, stream_)) != cudaSuccess ||
      (e = cudaMemcpyAsync(hRef_.data(), dRef_, c_bytes, cudaMemcpyDeviceToHost, stream_)) != cudaSuccess ||
      (e = cudaStreamSynchronize(stream_)) != cudaSuccess)
    return fail(row, cuda_text(e, "copying C and the cuBLAS reference to the host"));

  const check::Gemm gemm{'N', 'N', p.m, p.n, p.k, kAlpha, kBeta, hA_.data(), p.m, hB_.data(), p.k};
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
    if (!ensure_buffers(p.m, p.n, p.k, &err)) {
      row.status = RowStatus::kError;
      row.reason = err;
      return row;
    }
    // Fresh operands for every point (seed + index), uploaded before anything runs.
    const uint64_t seed = opt_.seed + 2 * uint64_t(p.index);
    bench::fill_uniform(&hA_, seed);
    bench::fill_uniform(&hB_, seed + 1);
    cudaError_t e;
    if ((e = cudaMemcpyAsync(dA_, hA_.data(), hA_.size() * sizeof(double), cudaMemcpyHostToDevice, stream_)) !=
            cudaSuccess ||
        (e = cudaMemcpyAsync(dB_, hB_.data(), hB_.size() * sizeof(double), cudaMemcpyHostToDevice, stream_)) !=
            cudaSuccess ||
        (e = cudaStreamSynchronize(stream_)) != cudaSuccess) {
      fail(&row, cuda_text(e, "copying A and B to the device"));
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
