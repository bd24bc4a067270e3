// Runs sweep points on the GPU through the public API only (tcgemm_dgemm_config with the point's
// configuration; tcgemm_gemm_ex with its WMMA configuration for a lower precision), with cuBLAS on the same
// data (DGEMM; GemmEx in the point's types) as correctness reference and speed yardstick.
// Used by both tcgemm-bench's sweep mode and the GPU smoke test, so the test exercises the real path.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include "sweep_format.hpp"
#include "sweep_grid.hpp"
#include "sweep_occupancy.hpp"
#include "sweep_progress.hpp"

namespace tcgemm::sweep {

constexpr int kDefaultReps = 20;   // the article's nRuns
constexpr int kDefaultWarmup = 5;  // untimed runs first, so the clocks have ramped up (the article's Example 5)

struct RunnerOptions {
  int reps = kDefaultReps;
  int warmup = kDefaultWarmup;
  uint64_t seed = 1;          // point i fills A from seed + 2i and B from seed + 2i + 1
  bool profile_once = false;  // run each point's GEMM exactly once inside an NVTX range; no check, no timing
  int device = -1;            // -1: the current device
};

// Per point:
//   1. invalid configuration (host validation) or not fitting the device (tcgemm_config_check_device)
//      -> skipped, with the library's message;
//   2. fresh random A, B (uniform [-1, 1), rounded to the input type on the host, so that tcgemm and cuBLAS
//      multiply the same numbers), C poisoned with NaN; one tcgemm call (beta = 0, so C must not be read),
//      checked against cuBLAS on the same operands by the shared reference check
//      (bench/check/reference_check.hpp) with the accumulator's unit roundoff in place of FP64's;
//   3. warm-up, then `reps` runs each between its own pair of CUDA events (bench/timing.hpp): median,
//      min, max; the same for cuBLAS on the same data; TFLOP/s = 2 m n k / median.
// A library or CUDA error becomes an "error" row. If it leaves the CUDA context unusable (a sticky error
// such as an illegal address), the remaining points are reported as "not run" instead of crashing.
class SweepRunner {
 public:
  explicit SweepRunner(const RunnerOptions& options);
  ~SweepRunner();
  SweepRunner(const SweepRunner&) = delete;
  SweepRunner& operator=(const SweepRunner&) = delete;

  // Selects the device, creates the stream and the cuBLAS handle, reads the device limits. False (with
  // a message) when there is no usable device.
  bool init(std::string* error);
  const std::string& device_name() const { return device_name_; }
  const SmLimits& sm_limits() const { return limits_; }

  // Whether the point is valid and fits this device; *reason gets the library's message otherwise.
  bool fits_device(const SweepPoint& point, std::string* reason) const;
  SweepRow run_point(const SweepPoint& point);

 private:
  bool ensure_buffers(const SweepPoint& p, std::string* error);
  // A and B of the point's precision: hA_/hB_ rounded to the input type, uploaded to dA_/dB_.
  bool upload_operands(const SweepPoint& p, uint64_t seed, std::string* error);
  // C of tcgemm (dC_) and of cuBLAS (dRef_), in the point's output type, into hC_/hRef_ as doubles.
  bool download_results(const SweepPoint& p, std::string* error);
  bool launch_tcgemm(const SweepPoint& p, std::string* error);
  bool launch_cublas(const SweepPoint& p, void* C, std::string* error);
  // Records a CUDA/library failure on the row; marks the runner broken when the context is lost.
  void fail(SweepRow* row, const std::string& what);
  void run_checked_and_timed(const SweepPoint& p, SweepRow* row);
  void run_profiled(const SweepPoint& p, SweepRow* row);

  RunnerOptions opt_;
  int device_ = 0;
  std::string device_name_;
  SmLimits limits_;
  cudaStream_t stream_ = nullptr;
  cublasHandle_t cublas_ = nullptr;
  // Device buffers as bytes, in the point's element types (double for FP64).
  void *dA_ = nullptr, *dB_ = nullptr, *dC_ = nullptr, *dRef_ = nullptr;
  size_t a_bytes_ = 0, b_bytes_ = 0, c_bytes_ = 0, ref_bytes_ = 0;
  std::vector<double> hA_, hB_, hC_, hRef_;
  std::vector<unsigned char> staging_;  // typed copies on their way to or from the device
  int smem_optin_ = 0;  // bytes of shared memory a block may opt in to
  int cc_major_ = 0;
  bool broken_ = false;
  std::string broken_reason_;
};

// Runs every point in order and returns one row per point; progress goes to progress_out (null: silent),
// as a redrawn bar when that is a terminal, as plain lines otherwise. tcgemm-bench's sweep mode and the
// GPU smoke test both go through here.
std::vector<SweepRow> run_points(SweepRunner& runner, const std::vector<SweepPoint>& points,
                                 std::FILE* progress_out);

}  // namespace tcgemm::sweep
