#include "family_bench.hpp"

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
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

}  // namespace

int run_family_bench(const FamilyOptions& o) {
  tcgemm_device_info info;
  if (tcgemm_device_info_get(-1, &info) != TCGEMM_SUCCESS) {
    std::fprintf(stderr, "tcgemm-bench: %s\n", tcgemm_last_error());
    return 1;
  }
  int runtime = 0;
  cuda_check(cudaRuntimeGetVersion(&runtime), "cudaRuntimeGetVersion");
  char date[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M", std::localtime(&now));
  std::printf("tcgemm-bench %s | %s | device %s (cc %d.%d, %d SMs, %lld KB shared/block opt-in) | CUDA runtime %d.%d\n",
              tcgemm_version_string(), date, info.name, info.cc_major, info.cc_minor, info.sm_count,
              (long long)(info.shared_memory_per_block_optin / 1024), runtime / 1000, (runtime % 1000) / 10);
  std::printf("alpha = %g, beta = %g, median of %d interleaved timed runs after >= %d warm-up runs and >= 100 ms;"
              " ratio = tcgemm / cuBLAS\n\n",
              o.alpha, o.beta, o.reps, o.warmup);

  cublasHandle_t handle = nullptr;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) throw std::runtime_error("cublasCreate failed");
  cudaStream_t stream = nullptr;
  cuda_check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  cublasSetStream(handle, stream);

  std::vector<std::pair<int32_t, tcgemm_config>> configs;
  for (const int32_t family : o.families)
    for (const auto& c : expand_configs(o, family)) configs.emplace_back(family, c);

  print_header();
  std::vector<Row> rows;
  DeviceArray dA, dB, dC, dRef, dC0;
  uint64_t point = 0;
  for (const auto& sz : o.sizes) {
    for (const auto& tr : o.trans) {
      const char ta_c = tr[0], tb_c = tr[1];
      const bool ta = std::strchr("TtCc", ta_c) != nullptr, tb = std::strchr("TtCc", tb_c) != nullptr;
      const int64_t lda = ta ? sz.k : sz.m, ldb = tb ? sz.n : sz.k, ldc = sz.m;
      const size_t a_count = size_t(sz.m * sz.k), b_count = size_t(sz.k * sz.n), c_count = size_t(sz.m * sz.n);
      dA.ensure(a_count);
      dB.ensure(b_count);
      dC.ensure(c_count);
      dRef.ensure(c_count);
      dC0.ensure(c_count);
      std::vector<double> hA(a_count), hB(b_count), hC0(c_count), hC(c_count), hRef(c_count);
      const double flops_m = double(sz.m), flops_n = double(sz.n), flops_k = double(sz.k);
      for (const auto& fc : configs) {
        const tcgemm_config& cfg = fc.second;
        Row row;
        row.family = family_label(fc.first);
        row.config = config_label(cfg);
        row.trans = tr;
        row.size = sz;
        if (tcgemm_config_check_device(&cfg, -1) != TCGEMM_SUCCESS) {
          row.note = std::string("SKIP: ") + tcgemm_last_error();
          print_row(row);
          rows.push_back(row);
          continue;
        }
        // Fresh data for every point.
        ++point;
        fill_uniform(&hA, o.seed * 1000003u + 3 * point);
        fill_uniform(&hB, o.seed * 1000003u + 3 * point + 1);
        fill_uniform(&hC0, o.seed * 1000003u + 3 * point + 2);
        // Uploads on the launch stream: a plain cudaMemcpy from pageable memory runs on the legacy stream,
        // which a non-blocking stream does not wait for, and may return before its DMA has finished. The
        // stream synchronization makes the host buffers free to refill for the next point.
        cuda_check(cudaMemcpyAsync(dA.ptr, hA.data(), a_count * sizeof(double), cudaMemcpyHostToDevice, stream),
                   "upload A");
        cuda_check(cudaMemcpyAsync(dB.ptr, hB.data(), b_count * sizeof(double), cudaMemcpyHostToDevice, stream),
                   "upload B");
        cuda_check(cudaMemcpyAsync(dC0.ptr, hC0.data(), c_count * sizeof(double), cudaMemcpyHostToDevice, stream),
                   "upload C");
        cuda_check(cudaStreamSynchronize(stream), "uploads");

        auto run_tcgemm = [&]() {
          const tcgemm_status s =
              fc.first == TCGEMM_FAMILY_AUTO
                  ? tcgemm_dgemm(ta_c, tb_c, sz.m, sz.n, sz.k, o.alpha, dA.ptr, lda, dB.ptr, ldb, o.beta, dC.ptr,
                                 ldc, stream)
                  : tcgemm_dgemm_config(&cfg, ta_c, tb_c, sz.m, sz.n, sz.k, o.alpha, dA.ptr, lda, dB.ptr, ldb,
                                        o.beta, dC.ptr, ldc, stream);
          if (s != TCGEMM_SUCCESS)
            std::fprintf(stderr, "tcgemm: %s: %s\n", tcgemm_status_string(s), tcgemm_last_error());
          return s == TCGEMM_SUCCESS;
        };
        const cublasOperation_t opA = ta ? CUBLAS_OP_T : CUBLAS_OP_N, opB = tb ? CUBLAS_OP_T : CUBLAS_OP_N;
        auto run_cublas = [&]() {
          return cublasDgemm(handle, opA, opB, int(sz.m), int(sz.n), int(sz.k), &o.alpha, dA.ptr, int(lda), dB.ptr,
                             int(ldb), &o.beta, dRef.ptr, int(ldc)) == CUBLAS_STATUS_SUCCESS;
        };

        // Correctness first, from the same C0 for both.
        const size_t c_bytes = c_count * sizeof(double);
        cuda_check(cudaMemcpyAsync(dC.ptr, dC0.ptr, c_bytes, cudaMemcpyDeviceToDevice, stream), "copy C0");
        cuda_check(cudaMemcpyAsync(dRef.ptr, dC0.ptr, c_bytes, cudaMemcpyDeviceToDevice, stream), "copy C0");
        if (!run_tcgemm() || !run_cublas()) {
          row.note = "ERROR: launch failed";
          print_row(row);
          rows.push_back(row);
          continue;
        }
        cuda_check(cudaStreamSynchronize(stream), "check runs");
        cuda_check(cudaMemcpy(hC.data(), dC.ptr, c_count * sizeof(double), cudaMemcpyDeviceToHost), "download C");
        cuda_check(cudaMemcpy(hRef.data(), dRef.ptr, c_count * sizeof(double), cudaMemcpyDeviceToHost), "download ref");
        const check::Gemm gemm{ta_c, tb_c, sz.m, sz.n, sz.k, o.alpha, o.beta, hA.data(), lda, hB.data(), ldb};
        const check::Report report =
            check::check_result(gemm, check::OutputLayout{ldc, 0, int64_t(c_count)}, hC0.data(), hC.data(), hRef.data());
        row.checked = true;
        row.passed = report.pass();
        row.max_abs_err = report.max_abs_err;
        row.max_err_over_tol = report.max_err_over_tol;
        if (row.passed) {
          // With beta != 0 the timed runs keep accumulating into C; the value no longer matters.
          const auto pair = tcgemm::bench::time_interleaved(run_tcgemm, run_cublas, o.warmup, o.reps, stream);
          const auto& t = pair.first;
          const auto& tc = pair.second;
          row.ms = t.median_ms;
          row.tflops = tcgemm::bench::gemm_tflops(flops_m, flops_n, flops_k, t.median_ms);
          row.cublas_ms = tc.median_ms;
          row.cublas_tflops = tcgemm::bench::gemm_tflops(flops_m, flops_n, flops_k, tc.median_ms);
        }
        print_row(row);
        rows.push_back(row);
      }
    }
  }
  cublasDestroy(handle);
  cudaStreamDestroy(stream);
  if (!o.csv.empty()) {
    write_csv(o.csv, rows, info.name);
    std::printf("\nCSV written to %s\n", o.csv.c_str());
  }
  const bool any_fail = std::any_of(rows.begin(), rows.end(), [](const Row& r) { return r.note.empty() && !r.passed; });
  return any_fail ? 1 : 0;
}

}  // namespace tcgemm::bench
