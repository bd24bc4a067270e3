#include "family_bench.hpp"

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli_args.hpp"
#include "random_fill.hpp"
#include "reference_check.hpp"
#include "tcgemm/tcgemm.h"
#include "timing.hpp"

namespace tcgemm::bench {
namespace {

struct DeviceArray {
  double* ptr = nullptr;
  size_t count = 0;
  void ensure(size_t n) {
    if (n <= count) return;
    if (ptr) cuda_check(cudaFree(ptr), "cudaFree");
    ptr = nullptr;
    count = 0;
    cuda_check(cudaMalloc(reinterpret_cast<void**>(&ptr), n * sizeof(double)), "cudaMalloc");
    count = n;
  }
  ~DeviceArray() {
    if (ptr) cudaFree(ptr);
  }
};

struct Row {
  std::string family, config, trans;
  Size size{};
  bool checked = false, passed = false;
  double max_abs_err = 0, max_err_over_tol = 0;
  double ms = 0, tflops = 0, cublas_ms = 0, cublas_tflops = 0;
  std::string note;
  std::string plan;  // suite: tcgemm_dgemm_plan's choice, compact
};

void print_header() {
  std::printf("%-9s %-26s %-2s %17s %9s %8s %9s %8s %7s %10s %8s %s\n", "family", "config", "tr", "M x N x K", "ms",
              "TFLOP/s", "cuBLAS ms", "cuBLAS", "ratio", "max|err|", "err/tol", "check");
}

void print_row(const Row& r) {
  char dims[64];
  std::snprintf(dims, sizeof dims, "%lldx%lldx%lld", (long long)r.size.m, (long long)r.size.n, (long long)r.size.k);
  if (!r.note.empty()) {
    std::printf("%-9s %-26s %-2s %17s  %s\n", r.family.c_str(), r.config.c_str(), r.trans.c_str(), dims,
                r.note.c_str());
    return;
  }
  if (r.passed)
    std::printf("%-9s %-26s %-2s %17s %9.3f %8.2f %9.3f %8.2f %7.3f %10.2e %8.3f %s\n", r.family.c_str(),
                r.config.c_str(), r.trans.c_str(), dims, r.ms, r.tflops, r.cublas_ms, r.cublas_tflops,
                r.tflops / r.cublas_tflops, r.max_abs_err, r.max_err_over_tol, "PASS");
  else
    std::printf("%-9s %-26s %-2s %17s %9s %8s %9s %8s %7s %10.2e %8.3g %s\n", r.family.c_str(), r.config.c_str(),
                r.trans.c_str(), dims, "-", "-", "-", "-", "-", r.max_abs_err, r.max_err_over_tol,
                "FAIL (timing not valid)");
  std::fflush(stdout);
}

void write_csv(const std::string& path, const std::vector<Row>& rows, const char* device) {
  FILE* f = std::fopen(path.c_str(), "w");
  if (!f) throw std::runtime_error("cannot open " + path);
  std::fprintf(f,
               "device,family,config,trans,m,n,k,status,ms,tflops,cublas_ms,cublas_tflops,ratio,max_abs_err,"
               "max_err_over_tol\n");
  for (const auto& r : rows) {
    const char* status = !r.note.empty() ? "skipped" : (r.passed ? "pass" : "fail");
    std::fprintf(f, "\"%s\",%s,\"%s\",%s,%lld,%lld,%lld,%s,", device, r.family.c_str(), r.config.c_str(),
                 r.trans.c_str(), (long long)r.size.m, (long long)r.size.n, (long long)r.size.k, status);
    if (r.passed && r.note.empty())
      std::fprintf(f, "%.4f,%.3f,%.4f,%.3f,%.4f,", r.ms, r.tflops, r.cublas_ms, r.cublas_tflops,
                   r.tflops / r.cublas_tflops);
    else
      std::fprintf(f, ",,,,,");
    if (r.checked)
      std::fprintf(f, "%.3e,%.4g\n", r.max_abs_err, r.max_err_over_tol);
    else
      std::fprintf(f, ",\n");
  }
  std::fclose(f);
}

// Everything a run of points shares: the device, the cuBLAS handle and stream, the buffers (grown as needed,
// reused from point to point) and the point counter behind each point's seeds. Used by the family benchmark
// and by the suite, so that both check and time a point the same way.
class PointBench {
 public:
  explicit PointBench(const FamilyOptions& o) : o_(o) {
    if (tcgemm_device_info_get(-1, &info_) != TCGEMM_SUCCESS) throw std::runtime_error(tcgemm_last_error());
    if (cublasCreate(&handle_) != CUBLAS_STATUS_SUCCESS) throw std::runtime_error("cublasCreate failed");
    cuda_check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
    cublasSetStream(handle_, stream_);
  }
  PointBench(const PointBench&) = delete;
  PointBench& operator=(const PointBench&) = delete;
  ~PointBench() {
    if (handle_) cublasDestroy(handle_);
    if (stream_) cudaStreamDestroy(stream_);
  }

  const tcgemm_device_info& info() const { return info_; }

  // The run's first lines: program, date, device, runtime, and how the points are timed.
  void print_banner() const {
    int runtime = 0;
    cuda_check(cudaRuntimeGetVersion(&runtime), "cudaRuntimeGetVersion");
    char date[32];
    const std::time_t now = std::time(nullptr);
    std::strftime(date, sizeof date, "%Y-%m-%d %H:%M", std::localtime(&now));
    std::printf(
        "tcgemm-bench %s | %s | device %s (cc %d.%d, %d SMs, %lld KB shared/block opt-in) | CUDA runtime %d.%d\n",
        tcgemm_version_string(), date, info_.name, info_.cc_major, info_.cc_minor, info_.sm_count,
        (long long)(info_.shared_memory_per_block_optin / 1024), runtime / 1000, (runtime % 1000) / 10);
    std::printf("alpha = %g, beta = %g, median of %d interleaved timed runs after >= %d warm-up runs and >= 100 ms;"
                " ratio = tcgemm / cuBLAS\n",
                o_.alpha, o_.beta, o_.reps, o_.warmup);
    if (o_.calls_per_run > 1)
      std::printf("each timed run: %d back-to-back calls, time per call reported (launch latency and host time hidden "
                  "behind the previous call, as in a loop of calls)\n",
                  o_.calls_per_run);
    std::printf("\n");
  }

  // One point: fresh random A, B, C; one tcgemm and one cuBLAS run from the same C checked by the shared
  // reference check; when it passes, the interleaved timing of the two.
  Row measure(const Size& sz, const std::string& tr, int32_t family, const tcgemm_config& cfg) {
    const FamilyOptions& o = o_;
    Row row;
    row.family = family_label(family);
    row.config = config_label(cfg);
    row.trans = tr;
    row.size = sz;
    if (tcgemm_config_check_device(&cfg, -1) != TCGEMM_SUCCESS) {
      row.note = std::string("SKIP: ") + tcgemm_last_error();
      return row;
    }
    const char ta_c = tr[0], tb_c = tr[1];
    const bool ta = std::strchr("TtCc", ta_c) != nullptr, tb = std::strchr("TtCc", tb_c) != nullptr;
    const int64_t lda = ta ? sz.k : sz.m, ldb = tb ? sz.n : sz.k, ldc = sz.m;
    const size_t a_count = size_t(sz.m * sz.k), b_count = size_t(sz.k * sz.n), c_count = size_t(sz.m * sz.n);
    dA_.ensure(a_count);
    dB_.ensure(b_count);
    dC_.ensure(c_count);
    dRef_.ensure(c_count);
    dC0_.ensure(c_count);
    hA_.resize(a_count);
    hB_.resize(b_count);
    hC0_.resize(c_count);
    hC_.resize(c_count);
    hRef_.resize(c_count);
    const double flops_m = double(sz.m), flops_n = double(sz.n), flops_k = double(sz.k);
    cudaStream_t stream = stream_;
    // Fresh data for every point.
    ++point_;
    fill_uniform(&hA_, o.seed * 1000003u + 3 * point_);
    fill_uniform(&hB_, o.seed * 1000003u + 3 * point_ + 1);
    fill_uniform(&hC0_, o.seed * 1000003u + 3 * point_ + 2);
    // Uploads on the launch stream: a plain cudaMemcpy from pageable memory runs on the legacy stream,
    // which a non-blocking stream does not wait for, and may return before its DMA has finished. The
    // stream synchronization makes the host buffers free to refill for the next point.
    cuda_check(cudaMemcpyAsync(dA_.ptr, hA_.data(), a_count * sizeof(double), cudaMemcpyHostToDevice, stream),
               "upload A");
    cuda_check(cudaMemcpyAsync(dB_.ptr, hB_.data(), b_count * sizeof(double), cudaMemcpyHostToDevice, stream),
               "upload B");
    cuda_check(cudaMemcpyAsync(dC0_.ptr, hC0_.data(), c_count * sizeof(double), cudaMemcpyHostToDevice, stream),
               "upload C");
    cuda_check(cudaStreamSynchronize(stream), "uploads");

    auto run_tcgemm = [&]() {
      const tcgemm_status s =
          family == TCGEMM_FAMILY_AUTO
              ? tcgemm_dgemm(ta_c, tb_c, sz.m, sz.n, sz.k, o.alpha, dA_.ptr, lda, dB_.ptr, ldb, o.beta, dC_.ptr, ldc,
                             stream)
              : tcgemm_dgemm_config(&cfg, ta_c, tb_c, sz.m, sz.n, sz.k, o.alpha, dA_.ptr, lda, dB_.ptr, ldb, o.beta,
                                    dC_.ptr, ldc, stream);
      if (s != TCGEMM_SUCCESS) std::fprintf(stderr, "tcgemm: %s: %s\n", tcgemm_status_string(s), tcgemm_last_error());
      return s == TCGEMM_SUCCESS;
    };
    const cublasOperation_t opA = ta ? CUBLAS_OP_T : CUBLAS_OP_N, opB = tb ? CUBLAS_OP_T : CUBLAS_OP_N;
    auto run_cublas = [&]() {
      return cublasDgemm(handle_, opA, opB, int(sz.m), int(sz.n), int(sz.k), &o.alpha, dA_.ptr, int(lda), dB_.ptr,
                         int(ldb), &o.beta, dRef_.ptr, int(ldc)) == CUBLAS_STATUS_SUCCESS;
    };

    // Correctness first, from the same C0 for both.
    const size_t c_bytes = c_count * sizeof(double);
    cuda_check(cudaMemcpyAsync(dC_.ptr, dC0_.ptr, c_bytes, cudaMemcpyDeviceToDevice, stream), "copy C0");
    cuda_check(cudaMemcpyAsync(dRef_.ptr, dC0_.ptr, c_bytes, cudaMemcpyDeviceToDevice, stream), "copy C0");
    if (!run_tcgemm() || !run_cublas()) {
      row.note = "ERROR: launch failed";
      return row;
    }
    cuda_check(cudaStreamSynchronize(stream), "check runs");
    cuda_check(cudaMemcpy(hC_.data(), dC_.ptr, c_bytes, cudaMemcpyDeviceToHost), "download C");
    cuda_check(cudaMemcpy(hRef_.data(), dRef_.ptr, c_bytes, cudaMemcpyDeviceToHost), "download ref");
    const check::Gemm gemm{ta_c, tb_c, sz.m, sz.n, sz.k, o.alpha, o.beta, hA_.data(), lda, hB_.data(), ldb};
    const check::Report report =
        check::check_result(gemm, check::OutputLayout{ldc, 0, int64_t(c_count)}, hC0_.data(), hC_.data(), hRef_.data());
    row.checked = true;
    row.passed = report.pass();
    row.max_abs_err = report.max_abs_err;
    row.max_err_over_tol = report.max_err_over_tol;
    if (row.passed) {
      // With beta != 0 the timed runs keep accumulating into C; the value no longer matters.
      // --calls-per-run: each timed run is that many back-to-back calls; the time per call is reported.
      const int calls = o.calls_per_run;
      auto repeat = [calls](auto& run) {
        return [&run, calls]() {
          for (int i = 0; i < calls; ++i)
            if (!run()) return false;
          return true;
        };
      };
      const auto pair = tcgemm::bench::time_interleaved(repeat(run_tcgemm), repeat(run_cublas), o.warmup, o.reps, stream);
      const double t_ms = pair.first.median_ms / calls, tc_ms = pair.second.median_ms / calls;
      row.ms = t_ms;
      row.tflops = tcgemm::bench::gemm_tflops(flops_m, flops_n, flops_k, t_ms);
      row.cublas_ms = tc_ms;
      row.cublas_tflops = tcgemm::bench::gemm_tflops(flops_m, flops_n, flops_k, tc_ms);
    }
    return row;
  }

 private:
  const FamilyOptions& o_;
  tcgemm_device_info info_{};
  cublasHandle_t handle_ = nullptr;
  cudaStream_t stream_ = nullptr;
  DeviceArray dA_, dB_, dC_, dRef_, dC0_;
  std::vector<double> hA_, hB_, hC0_, hC_, hRef_;
  uint64_t point_ = 0;
};

bool failed(const Row& r) { return r.note.empty() && !r.passed; }

// ---- the suite's table ---------------------------------------------------------------------------------

std::string dims_of(const Size& s) {
  char dims[64];
  std::snprintf(dims, sizeof dims, "%lldx%lldx%lld", (long long)s.m, (long long)s.n, (long long)s.k);
  return dims;
}

// "sm90_mma 64x64 st4 x128 slices (model 21 us)": the plan's essentials for the suite's table.
std::string plan_label(const Size& s, const std::string& form) {
  tcgemm_plan p{};
  if (tcgemm_dgemm_plan(form[0], form[1], s.m, s.n, s.k, &p) != TCGEMM_SUCCESS) return "(no plan)";
  char buf[128];
  if (p.config.family == TCGEMM_FAMILY_SKINNY)
    std::snprintf(buf, sizeof buf, "skinny x%lld chunks (model %.0f us)", (long long)p.k_slices, p.predicted_us);
  else
    std::snprintf(buf, sizeof buf, "%s %dx%d st%d x%lld slices (model %.0f us)", family_label(p.config.family),
                  p.config.tile_m, p.config.tile_n, p.config.stages, (long long)p.k_slices, p.predicted_us);
  return buf;
}

void print_suite_header() {
  std::printf("%23s %-4s %10s %8s %10s %8s %7s %-5s %s\n", "M x N x K", "form", "tcgemm ms", "TFLOP/s", "cuBLAS ms",
              "TFLOP/s", "ratio", "check", "plan (tcgemm_dgemm_plan)");
}

void print_suite_row(const Row& r) {
  const std::string dims = dims_of(r.size);
  if (!r.note.empty())
    std::printf("%23s %-4s  %s\n", dims.c_str(), r.trans.c_str(), r.note.c_str());
  else if (r.passed)
    std::printf("%23s %-4s %10.3f %8.2f %10.3f %8.2f %7.3f PASS  %s\n", dims.c_str(), r.trans.c_str(), r.ms,
                r.tflops, r.cublas_ms, r.cublas_tflops, r.tflops / r.cublas_tflops, r.plan.c_str());
  else
    std::printf("%23s %-4s %10s %8s %10s %8s %7s FAIL (max|err| %.2e, err/tol %.3g; not timed)\n", dims.c_str(),
                r.trans.c_str(), "-", "-", "-", "-", "-", r.max_abs_err, r.max_err_over_tol);
  std::fflush(stdout);
}

// Ratios below this count as shapes where tcgemm falls clearly behind cuBLAS.
constexpr double kSuiteSlowRatio = 0.90;

void print_suite_summary(const std::vector<Row>& rows) {
  size_t timed = 0, below = 0, fails = 0, other = 0;
  double log_sum = 0, min_ratio = 0;
  const Row* min_row = nullptr;
  for (const Row& r : rows) {
    if (!r.note.empty()) {
      ++other;
      continue;
    }
    if (!r.passed) {
      ++fails;
      continue;
    }
    const double ratio = r.tflops / r.cublas_tflops;
    ++timed;
    log_sum += std::log(ratio);
    if (ratio < kSuiteSlowRatio) ++below;
    if (!min_row || ratio < min_ratio) min_ratio = ratio, min_row = &r;
  }
  std::printf("\nsummary: %zu shapes (size x form), %zu timed, %zu failed the check, %zu skipped or errors\n",
              rows.size(), timed, fails, other);
  if (min_row) {
    std::printf("  min ratio tcgemm/cuBLAS: %.3f at %s %s\n", min_ratio, dims_of(min_row->size).c_str(),
                min_row->trans.c_str());
    std::printf("  geometric mean of the ratios: %.3f\n", std::exp(log_sum / double(timed)));
    std::printf("  shapes below %.2f: %zu of %zu\n", kSuiteSlowRatio, below, timed);
  }
}

}  // namespace

int run_family_bench(const FamilyOptions& o) {
  PointBench bench(o);
  bench.print_banner();
  std::vector<std::pair<int32_t, tcgemm_config>> configs;
  for (const int32_t family : o.families)
    for (const auto& c : expand_configs(o, family)) configs.emplace_back(family, c);

  print_header();
  std::vector<Row> rows;
  for (const auto& sz : o.sizes)
    for (const auto& tr : o.trans)
      for (const auto& fc : configs) {
        rows.push_back(bench.measure(sz, tr, fc.first, fc.second));
        print_row(rows.back());
      }
  if (!o.csv.empty()) {
    write_csv(o.csv, rows, bench.info().name);
    std::printf("\nCSV written to %s\n", o.csv.c_str());
  }
  return std::any_of(rows.begin(), rows.end(), failed) ? 1 : 0;
}

int print_suite(const SuiteOptions& suite) {
  std::fputs(format_suite(suite.path, suite.shapes).c_str(), stdout);
  return 0;
}

int run_suite_bench(const FamilyOptions& o, const SuiteOptions& suite) {
  PointBench bench(o);
  bench.print_banner();
  std::printf("suite %s: %zu shapes (size x form) from %zu lines; tcgemm_dgemm (family auto) vs cuBLAS DGEMM\n\n",
              suite.path.c_str(), suite_points(suite.shapes), suite.shapes.size());
  const std::vector<tcgemm_config> auto_config = expand_configs(o, TCGEMM_FAMILY_AUTO);
  print_suite_header();
  std::vector<Row> rows;
  for (const auto& shape : suite.shapes)
    for (const auto& form : shape.forms) {
      rows.push_back(bench.measure(shape.size, form, TCGEMM_FAMILY_AUTO, auto_config.front()));
      rows.back().plan = plan_label(shape.size, form);
      print_suite_row(rows.back());
    }
  print_suite_summary(rows);
  if (!o.csv.empty()) {
    write_csv(o.csv, rows, bench.info().name);
    std::printf("\nCSV written to %s\n", o.csv.c_str());
  }
  return std::any_of(rows.begin(), rows.end(), failed) ? 1 : 0;
}

}  // namespace tcgemm::bench
