// The host-array DGEMM over several GPUs (multi_device.hpp).
#include "host/multi_device.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <map>
#include <string>
#include <thread>

#include "core/device.hpp"
#include "core/env.hpp"
#include "core/errors.hpp"
#include "host/pipelined_dgemm.hpp"

namespace tcgemm::detail {

HostSplit split_host_product(int64_t m, int64_t n, int64_t k, const std::vector<double>& weights, double min_flops,
                             int64_t granularity) {
  HostSplit s;
  s.by_columns = n >= m;
  const int64_t len = std::max(m, n), g = std::max<int64_t>(granularity, 1);
  const double flops = 2.0 * double(m) * double(n) * double(k);
  const int64_t parts = std::min<int64_t>(int64_t(weights.size()), len / g);
  if (parts < 2 || flops < min_flops) {
    s.parts.push_back({0, 0, len});
    return s;
  }
  auto weight = [&](int64_t i) { return weights[size_t(i)] > 0.0 ? weights[size_t(i)] : 1.0; };
  double total = 0.0;
  for (int64_t i = 0; i < parts; ++i) total += weight(i);
  double cumulative = 0.0;
  int64_t begin = 0;
  for (int64_t i = 0; i < parts; ++i) {
    int64_t end = len;
    if (i + 1 < parts) {
      cumulative += weight(i);
      end = int64_t(std::llround(double(len) * cumulative / total / double(g))) * g;
      end = std::max(end, begin + g);                 // no part shorter than a granule ...
      end = std::min(end, (len / g - (parts - 1 - i)) * g);  // ... the later ones included
    }
    s.parts.push_back({int(i), begin, end - begin});
    begin = end;
  }
  return s;
}

double min_split_flops() {
  const int64_t v = env_int("TCGEMM_HOST_SPLIT_MIN_FLOPS", 0, INT64_MAX, -1);
  return v >= 0 ? double(v) : kDefaultMinSplitFlops;
}

namespace {

// What one part left: its status, the message and argument its thread recorded, whether it wrote C.
struct PartResult {
  tcgemm_status status = TCGEMM_SUCCESS;
  std::string message;
  int32_t argument = 0;
  bool c_written = false;
  int failure_order = -1;  // among the failed parts, by the time they failed
  int ran_on = -1;         // the device current when the part ran (profile line)
  double ms = 0.0;
};

// The sub-problem of part `t`: pointer offsets into the caller's arrays (op(A)'s rows are A's columns when
// transa != 'N'; op(B)'s columns are B's rows when transb != 'N').
GemmProblem sub_problem(const GemmProblem& p, const HostSplit& s, const HostPart& t) {
  GemmProblem d = p;
  if (s.by_columns) {
    d.n = t.length;
    d.B = p.transb != 'N' ? p.B + t.begin : p.B + t.begin * p.ldb;
    d.C = p.C + t.begin * p.ldc;
  } else {
    d.m = t.length;
    d.A = p.transa != 'N' ? p.A + t.begin * p.lda : p.A + t.begin;
    d.C = p.C + t.begin;
  }
  return d;
}

// Runs one part on `device` on the calling thread; leaves the thread's error record holding its failure.
tcgemm_status run_part(const GemmProblem& d, int device, int share, bool* written, int* ran_on) {
  *written = false;
  CurrentDeviceSwitch on(device);
  if (on.status() != cudaSuccess) return set_cuda_error(on.status(), "cudaSetDevice (host device list)");
  if (cudaGetDevice(ran_on) != cudaSuccess) {
    (void)cudaGetLastError();
    *ran_on = -1;
  }
  DeviceContext ctx;
  TCGEMM_TRY(device_gate(-1, &ctx));
  TCGEMM_TRY(take_pending_cuda_error());
  try {
    return pipelined_host_dgemm(d, ctx, written, share);
  } catch (const std::exception& ex) {
    // Only host resources can throw here (memory, threads); nothing may cross into a C or Fortran caller, or
    // out of a worker thread. The engine's lease and the streams' drain ran during the unwinding.
    return set_error(TCGEMM_ERROR_CUDA, "tcgemm_dgemm_host: out of host resources: %s", ex.what());
  }
}

}  // namespace

tcgemm_status multi_device_host_dgemm(const GemmProblem& p, const std::vector<int>& devices, bool* c_written) {
  *c_written = false;
  std::vector<double> weights;
  for (int d : devices) {
    DeviceContext c;
    TCGEMM_TRY(device_gate(d, &c));
    weights.push_back(double(std::max(c.sm_count, 1)));
  }
  const HostSplit split = split_host_product(p.m, p.n, p.k, weights, min_split_flops());
  const size_t parts = split.parts.size();

  if (parts == 1) {
    // One device: the calling thread's current one when the list holds it, else the list's first.
    int device = devices.front(), current = -1;
    if (cudaGetDevice(&current) == cudaSuccess) {
      if (std::find(devices.begin(), devices.end(), current) != devices.end()) device = current;
    } else {
      (void)cudaGetLastError();
    }
    int ran_on = -1;
    return run_part(p, device, 1, c_written, &ran_on);
  }

  std::map<int, int> share;  // parts per device (a list that repeats an ordinal)
  for (const HostPart& t : split.parts) ++share[devices[size_t(t.device_index)]];
  std::vector<PartResult> results(parts);
  std::atomic<int> failures{0};
  const auto t0 = std::chrono::steady_clock::now();
  auto work = [&](size_t i) {
    const HostPart& t = split.parts[i];
    const int device = devices[size_t(t.device_index)];
    PartResult& r = results[i];
    clear_error();
    const auto start = std::chrono::steady_clock::now();
    r.status = run_part(sub_problem(p, split, t), device, share.at(device), &r.c_written, &r.ran_on);
    r.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (r.status != TCGEMM_SUCCESS) {
      r.failure_order = failures++;
      r.message = tcgemm_last_error();
      r.argument = tcgemm_last_error_argument();
    }
    clear_error();
  };

  std::vector<std::thread> threads;
  std::vector<size_t> inline_parts = {0};
  threads.reserve(parts);
  for (size_t i = 1; i < parts; ++i) {
    try {
      threads.emplace_back(work, i);
    } catch (const std::exception&) {
      inline_parts.push_back(i);  // no thread to be had: the calling thread runs it after part 0
    }
  }
  for (size_t i : inline_parts) work(i);
  for (std::thread& th : threads) th.join();
  const double wall = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();

  const PartResult* first = nullptr;
  size_t first_index = 0;
  for (size_t i = 0; i < parts; ++i) {
    *c_written = *c_written || results[i].c_written;
    if (results[i].status != TCGEMM_SUCCESS && (!first || results[i].failure_order < first->failure_order)) {
      first = &results[i];
      first_index = i;
    }
  }
  const char* unit = split.by_columns ? "columns" : "rows";
  if (first) {
    const HostPart& t = split.parts[first_index];
    return set_arg_error(first->status, first->argument, "device %d (part %zu of %zu: %s %lld..%lld of C): %s",
                         devices[size_t(t.device_index)], first_index + 1, parts, unit, (long long)t.begin,
                         (long long)(t.begin + t.length - 1), first->message.c_str());
  }
  if (env_flag("TCGEMM_HOST_PROFILE")) {
    std::string line;
    for (size_t i = 0; i < parts; ++i) {
      const HostPart& t = split.parts[i];
      char item[160];
      std::snprintf(item, sizeof item, "%sdevice %d %s %lld..%lld %.2f ms", i ? ", " : "", results[i].ran_on, unit,
                    (long long)t.begin, (long long)(t.begin + t.length - 1), results[i].ms);
      line += item;
    }
    std::fprintf(stderr, "tcgemm host split: %lldx%lldx%lld in %zu parts by %s: %s; wall %.2f ms (%.1f TFLOP/s)\n",
                 (long long)p.m, (long long)p.n, (long long)p.k, parts, unit, line.c_str(), wall,
                 wall > 0 ? 2.0 * double(p.m) * double(p.n) * double(p.k) / (wall * 1e9) : 0.0);
  }
  return TCGEMM_SUCCESS;
}

}  // namespace tcgemm::detail
