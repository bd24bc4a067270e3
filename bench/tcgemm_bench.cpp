// tcgemm-bench: times tcgemm's DGEMM families against cuBLAS DGEMM on the same data in the same process.
//
// For every point (family configuration x trans x size):
//   1. fresh random A, B, C (uniform in [-1, 1], a new seed per point);
//   2. one tcgemm call and one cuBLAS call on the same inputs; the results are compared element by element
//      with the tolerance 2 (k + 1) eps |alpha| ||row_i(op(A))|| ||col_j(op(B))|| + 4 eps |beta C0_ij|;
//      a failed check prints FAIL and the point's timing is not reported as valid;
//   3. warm-up (tcgemm and cuBLAS alternately, at least --warmup runs each and 100 ms of GPU time), then
//      --reps rounds of one CUDA-event timed tcgemm run and one cuBLAS run; the medians are reported.
// Output: a table on stdout, optionally the same rows as CSV (--csv FILE).
//
// Examples:
//   tcgemm-bench --family shared_ab --tile 64,128 --tile-k 16,32,64 --pad-a 0,4 --pad-b 0,4 --sizes 4096
//   tcgemm-bench --family shared_a --tile 32 --pad-a 0,2,4,6 --sizes 3200
//   tcgemm-bench --family auto,shared_ab --trans NN,NT,TN,TT --sizes 1000x2000x300
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli_args.hpp"
#include "tcgemm/tcgemm.h"
#include "timing.hpp"

namespace {

using tcgemm::bench::cuda_check;

constexpr int kMinReps = 10;
constexpr int kDefaultReps = 20;
constexpr int kDefaultWarmup = 3;

struct Size {
  int64_t m, n, k;
};

struct Options {
  std::vector<int32_t> families{TCGEMM_FAMILY_SHARED_AB};
  std::vector<int> tiles, tiles_n, tile_ks, pads_a, pads_b, stages;  // empty: the family's default
  std::vector<Size> sizes{{2048, 2048, 2048}, {3200, 3200, 3200}, {4096, 4096, 4096}, {8192, 8192, 8192}};
  std::vector<std::string> trans{"NN"};
  double alpha = 1.0, beta = 0.0;
  int reps = kDefaultReps;
  int warmup = kDefaultWarmup;
  uint64_t seed = 2024;
  std::string csv;
};

[[noreturn]] void usage(const char* prog) {
  std::printf("usage: %s [options]\n"
              "  --family LIST    shared_a, shared_ab, sm90_mma, auto (comma-separated list; default shared_ab)\n"
              "  --tile LIST      C tile (tile_m = tile_n): 32, 64, 96, 128 for shared_a/shared_ab\n"
              "  --tile-n LIST    sm90_mma: tile_n when it differs from tile_m (e.g. --tile 128 --tile-n 64)\n"
              "  --tile-k LIST    shared_ab: k depth of the shared tiles (multiple of 4, 4..256)\n"
              "  --pad-a LIST     shared-memory padding of the A tile in doubles (multiple of 2)\n"
              "  --pad-b LIST     shared_ab: padding of the B tile in doubles\n"
              "  --stages LIST    shared_ab: 1 (load, sync, compute) or 2 (cp.async double buffer)\n"
              "  --sizes LIST     N (square) or MxNxK; default 2048,3200,4096,8192\n"
              "  --trans LIST     NN, NT, TN, TT (default NN)\n"
              "  --alpha X --beta Y   default 1 and 0\n"
              "  --reps R         timed runs per point, >= %d (default %d); the median is reported\n"
              "  --warmup W       untimed runs before timing (default %d)\n"
              "  --seed S         base seed of the random data (default 2024)\n"
              "  --csv FILE       also write the rows as CSV\n"
              "Lists may be given for tile, tile-k, pad-a, pad-b and stages: every combination is measured.\n"
              "Exit status: 0 when every point passed or was skipped, 1 when a check failed or CUDA reported an\n"
              "error, 2 on a usage error (reported before any CUDA call).\n",
              prog, kMinReps, kDefaultReps, kDefaultWarmup);
  std::exit(0);
}

// Every command-line error ends here, before any CUDA call: a bad value must not start a GPU run.
[[noreturn]] void usage_error(const std::string& message) {
  std::fprintf(stderr, "tcgemm-bench: %s (see --help)\n", message.c_str());
  std::exit(2);
}

[[noreturn]] void bad_value(const std::string& option, const std::string& value, const std::string& why) {
  usage_error(option + " " + value + ": " + why);
}

// Every field, empty ones included: "64,,128" and "12x" must be seen as malformed, not shortened.
std::vector<std::string> split(const std::string& s, char sep = ',') {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t pos; (pos = s.find(sep, start)) != std::string::npos; start = pos + 1)
    out.push_back(s.substr(start, pos - start));
  out.push_back(s.substr(start));
  return out;
}

long long int_value(const std::string& option, const std::string& value, long long min, long long max) {
  long long v = 0;
  std::string why;
  if (!tcgemm::bench::parse_integer(value, min, max, &v, &why)) bad_value(option, value, why);
  return v;
}

double double_value(const std::string& option, const std::string& value) {
  double v = 0;
  std::string why;
  if (!tcgemm::bench::parse_finite_double(value, &v, &why)) bad_value(option, value, why);
  return v;
}

// A list of tcgemm_config fields (int32_t): 0 is the family's default; no field has a negative meaning.
std::vector<int> config_list(const std::string& option, const std::string& value) {
  std::vector<int> out;
  for (const auto& item : split(value)) {
    long long v = 0;
    std::string why;
    if (!tcgemm::bench::parse_integer(item, 0, INT32_MAX, &v, &why))
      bad_value(option, value, "'" + item + "': " + why);
    out.push_back(int(v));
  }
  return out;
}

// One dimension of a --sizes item; at most INT_MAX because cuBLAS, the yardstick, takes int dimensions.
int64_t dimension(const std::string& value, const std::string& dim) {
  long long v = 0;
  std::string why;
  if (!tcgemm::bench::parse_integer(dim, 1, INT_MAX, &v, &why)) bad_value("--sizes", value, "'" + dim + "': " + why);
  return v;
}

std::vector<Size> size_list(const std::string& value) {
  std::vector<Size> out;
  for (const auto& item : split(value)) {
    const auto dims = split(item, 'x');
    if (dims.size() == 1) {
      const int64_t n = dimension(value, dims[0]);
      out.push_back({n, n, n});
    } else if (dims.size() == 3) {
      out.push_back({dimension(value, dims[0]), dimension(value, dims[1]), dimension(value, dims[2])});
    } else {
      bad_value("--sizes", value, "'" + item + "' is neither N nor MxNxK");
    }
  }
  return out;
}

bool family_from_name(const std::string& name, int32_t* family) {
  if (name == "shared_a") *family = TCGEMM_FAMILY_SHARED_A;
  else if (name == "shared_ab") *family = TCGEMM_FAMILY_SHARED_AB;
  else if (name == "sm90_mma") *family = TCGEMM_FAMILY_SM90_MMA;
  else if (name == "auto") *family = TCGEMM_FAMILY_AUTO;
  else return false;
  return true;
}

std::vector<int32_t> family_list(const std::string& value) {
  std::vector<int32_t> out;
  for (const auto& name : split(value)) {
    int32_t family = 0;
    if (!family_from_name(name, &family))
      bad_value("--family", value, "'" + name + "' is not shared_a, shared_ab, sm90_mma or auto");
    out.push_back(family);
  }
  return out;
}

std::vector<std::string> trans_list(const std::string& value) {
  const auto out = split(value);
  for (const auto& t : out)
    if (t.size() != 2 || !std::strchr("NnTtCc", t[0]) || !std::strchr("NnTtCc", t[1]))
      bad_value("--trans", value, "'" + t + "' must be two of N/T/C, e.g. NN or TN");
  return out;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "-h" || a == "--help") usage(argv[0]);
    if (i + 1 >= argc) usage_error("option " + a + " needs a value");
    const std::string v = argv[++i];
    if (a == "--family") {
      o.families = family_list(v);
    } else if (a == "--tile") {
      o.tiles = config_list(a, v);
    } else if (a == "--tile-n") {
      o.tiles_n = config_list(a, v);
    } else if (a == "--tile-k") {
      o.tile_ks = config_list(a, v);
    } else if (a == "--pad-a") {
      o.pads_a = config_list(a, v);
    } else if (a == "--pad-b") {
      o.pads_b = config_list(a, v);
    } else if (a == "--stages") {
      o.stages = config_list(a, v);
    } else if (a == "--sizes") {
      o.sizes = size_list(v);
    } else if (a == "--trans") {
      o.trans = trans_list(v);
    } else if (a == "--alpha") {
      o.alpha = double_value(a, v);
    } else if (a == "--beta") {
      o.beta = double_value(a, v);
    } else if (a == "--reps") {
      o.reps = int(int_value(a, v, kMinReps, INT_MAX));
    } else if (a == "--warmup") {
      o.warmup = int(int_value(a, v, 0, INT_MAX));
    } else if (a == "--seed") {
      o.seed = uint64_t(int_value(a, v, 0, LLONG_MAX));
    } else if (a == "--csv") {
      if (v.empty()) usage_error("--csv needs a file name");
      o.csv = v;
    } else {
      usage_error("unknown option " + a);
    }
  }
  std::string why;
  // Checked now rather than when the results are written, after the whole GPU run.
  if (!o.csv.empty() && !tcgemm::bench::check_writable(o.csv, &why)) bad_value("--csv", o.csv, "cannot write: " + why);
  return o;
}

// Every configuration of the family the options ask for (the family's default where a list is empty).
std::vector<tcgemm_config> expand_configs(const Options& o, int32_t family) {
  tcgemm_config base{};
  base.family = family;
  if (family == TCGEMM_FAMILY_AUTO) return {base};
  if (tcgemm_default_config(family, &base) != TCGEMM_SUCCESS) return {};
  auto or_default = [](const std::vector<int>& list, int def) { return list.empty() ? std::vector<int>{def} : list; };
  std::vector<tcgemm_config> out;
  for (int tile : or_default(o.tiles, base.tile_m))
    for (int tn : or_default(o.tiles_n, o.tiles.empty() ? base.tile_n : tile))
    for (int tk : or_default(o.tile_ks, base.tile_k))
      for (int pa : or_default(o.pads_a, base.pad_a))
        for (int pb : or_default(o.pads_b, base.pad_b))
          for (int st : or_default(o.stages, base.stages)) {
            tcgemm_config c = base;
            c.tile_m = tile;
            // shared_a/shared_ab tiles are square (validation rejects tile_n != tile_m there); sm90_mma has
            // rectangular shapes such as its default 128x64.
            c.tile_n = tn;
            c.pad_a = pa;
            if (family == TCGEMM_FAMILY_SHARED_A) {  // the only legal values for the fields shared_a lacks
              c.tile_k = base.tile_k;
              c.pad_b = 0;
              c.stages = base.stages;
            } else if (family == TCGEMM_FAMILY_SM90_MMA) {  // fixed shared-memory layout: no paddings
              c.tile_k = o.tile_ks.empty() ? base.tile_k : tk;
              c.pad_a = c.pad_b = 0;
              c.stages = st;
            } else {
              c.tile_k = tk;
              c.pad_b = pb;
              c.stages = st;
            }
            const bool duplicate = std::any_of(out.begin(), out.end(),
                                               [&](const tcgemm_config& x) { return !std::memcmp(&x, &c, sizeof c); });
            if (!duplicate) out.push_back(c);
          }
  return out;
}

const char* family_label(int32_t f) {
  switch (f) {
    case TCGEMM_FAMILY_SHARED_A: return "shared_a";
    case TCGEMM_FAMILY_SHARED_AB: return "shared_ab";
    case TCGEMM_FAMILY_SM90_MMA: return "sm90_mma";
    case TCGEMM_FAMILY_AUTO: return "auto";
    default: return "?";
  }
}

std::string config_label(const tcgemm_config& c) {
  char buf[128];
  if (c.family == TCGEMM_FAMILY_AUTO) return "(default)";
  std::snprintf(buf, sizeof buf, "%dx%dx%d pad %d/%d st %d", c.tile_m, c.tile_n, c.tile_k, c.pad_a, c.pad_b,
                c.stages);
  return buf;
}

// splitmix64: fast enough to refill 8192^2 matrices for every point.
struct Rng {
  uint64_t s;
  double uniform() {  // [-1, 1)
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return double(z >> 11) * (2.0 / 9007199254740992.0) - 1.0;
  }
};

void fill_random(std::vector<double>& v, uint64_t seed) {
  Rng r{seed};
  for (auto& x : v) x = r.uniform();
}

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

// Compares C with the cuBLAS result; returns max |diff| and max |diff| / tol.
void check_against_reference(const Size& sz, bool ta, bool tb, double alpha, double beta, const std::vector<double>& hA,
                             int64_t lda, const std::vector<double>& hB, int64_t ldb, const std::vector<double>& hC0,
                             const std::vector<double>& hC, const std::vector<double>& hRef, Row* row) {
  std::vector<double> rnorm(size_t(sz.m), 0.0), cnorm(size_t(sz.n), 0.0);
  for (int64_t l = 0; l < sz.k; ++l)
    for (int64_t i = 0; i < sz.m; ++i) {
      const double a = ta ? hA[size_t(l + i * lda)] : hA[size_t(i + l * lda)];
      rnorm[size_t(i)] += a * a;
    }
  for (int64_t j = 0; j < sz.n; ++j)
    for (int64_t l = 0; l < sz.k; ++l) {
      const double b = tb ? hB[size_t(j + l * ldb)] : hB[size_t(l + j * ldb)];
      cnorm[size_t(j)] += b * b;
    }
  for (auto& x : rnorm) x = std::sqrt(x);
  for (auto& x : cnorm) x = std::sqrt(x);
  const double eps = std::numeric_limits<double>::epsilon();
  double max_abs = 0, max_ratio = 0;
  for (int64_t j = 0; j < sz.n; ++j)
    for (int64_t i = 0; i < sz.m; ++i) {
      const size_t idx = size_t(i + j * sz.m);
      const double tol = 2.0 * double(sz.k + 1) * eps * std::fabs(alpha) * rnorm[size_t(i)] * cnorm[size_t(j)] +
                         4.0 * eps * std::fabs(beta * hC0[idx]) + 1e-300;
      const double diff = std::fabs(hC[idx] - hRef[idx]);
      if (std::isnan(diff)) {
        max_abs = max_ratio = std::numeric_limits<double>::infinity();
        continue;
      }
      max_abs = std::max(max_abs, diff);
      max_ratio = std::max(max_ratio, diff / tol);
    }
  row->max_abs_err = max_abs;
  row->max_err_over_tol = max_ratio;
  row->checked = true;
  row->passed = max_ratio <= 1.0;
}

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

int run(const Options& o) {
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
        fill_random(hA, o.seed * 1000003u + 3 * point);
        fill_random(hB, o.seed * 1000003u + 3 * point + 1);
        fill_random(hC0, o.seed * 1000003u + 3 * point + 2);
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
        check_against_reference(sz, ta, tb, o.alpha, o.beta, hA, lda, hB, ldb, hC0, hC, hRef, &row);
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

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(parse(argc, argv));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tcgemm-bench: %s\n", e.what());
    return 1;
  }
}
