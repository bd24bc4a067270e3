// The shape paths of tcgemm_dgemm: split-K on sm90_mma (deterministic, fixed-order reduction, workspace from
// tcgemm's pool), the memory-bound skinny family for m or n <= 8, and the plan that chooses between them.
// Every run is judged by the shared reference check against cuBLAS (random data, NaN-poisoned C, guards).
#include <array>
#include <atomic>
#include <vector>
#include <string>
#include <functional>
#include <memory>
#include <thread>

#include "core/problem.hpp"
#include "families/skinny/rules.hpp"  // white-box: the column-stream route's decision and edges
#include "gpu_test_util.hpp"

namespace {

using namespace tcgemm::test;

#define TCGEMM_REQUIRE_SM90_PATH()                                                                           \
  do {                                                                                                       \
    TCGEMM_REQUIRE_GPU();                                                                                    \
    if (!hopper_path_expected()) GTEST_SKIP() << "sm90_mma needs compute capability 9.x and sm_90 code";     \
  } while (0)

const char* const kForms[] = {"NN", "NT", "TN", "TT"};

tcgemm_config sm90_split(int tile_m, int tile_n, int k_splits, int tile_k = 16) {
  return sm90_mma_config(tile_m, tile_n, tile_k, /*stages: default*/ 0, k_splits);
}

tcgemm_config skinny(int k_splits) {
  tcgemm_config c{};
  c.family = TCGEMM_FAMILY_SKINNY;
  c.k_splits = k_splits;
  return c;
}

// The library's internal form of one call (what the skinny route decision reads).
tcgemm::detail::GemmProblem problem_of(const GemmSpec& g, const double* A, int64_t lda, const double* B, int64_t ldb,
                                       double* C, int64_t ldc) {
  tcgemm::detail::GemmProblem p;
  p.transa = g.transa;
  p.transb = g.transb;
  p.m = g.m;
  p.n = g.n;
  p.k = g.k;
  p.alpha = g.alpha;
  p.A = A;
  p.lda = lda;
  p.B = B;
  p.ldb = ldb;
  p.beta = g.beta;
  p.C = C;
  p.ldc = ldc;
  return p;
}

// The names of the kernels one call launches, read from a CUDA graph captured from it on a stream of its own
// (nothing runs): what the launcher actually chose, not what a decision function says it would.
std::vector<std::string> captured_kernels(const std::function<tcgemm_status(cudaStream_t)>& call) {
  std::vector<std::string> names;
  cudaStream_t stream = nullptr;
  if (cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) != cudaSuccess) return names;
  cudaGraph_t graph = nullptr;
  if (cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal) == cudaSuccess) {
    const tcgemm_status st = call(stream);
    if (cudaStreamEndCapture(stream, &graph) == cudaSuccess && graph != nullptr && st == TCGEMM_SUCCESS) {
      size_t count = 0;
      cudaGraphGetNodes(graph, nullptr, &count);
      std::vector<cudaGraphNode_t> nodes(count);
      cudaGraphGetNodes(graph, nodes.data(), &count);
      for (cudaGraphNode_t node : nodes) {
        cudaGraphNodeType type;
        cudaKernelNodeParams params{};
        const char* name = nullptr;
        if (cudaGraphNodeGetType(node, &type) == cudaSuccess && type == cudaGraphNodeTypeKernel &&
            cudaGraphKernelNodeGetParams(node, &params) == cudaSuccess &&
            cudaFuncGetName(&name, params.func) == cudaSuccess && name != nullptr)
          names.emplace_back(name);
      }
    }
    if (graph != nullptr) cudaGraphDestroy(graph);
  }
  cudaStreamDestroy(stream);
  return names;
}

// The case's form, leading-dimension pads and base offsets on fresh random data, with the alpha (1 or -1.5)
// and beta (0: C NaN-poisoned and not read, or 0.25) its seed picks.
GemmSpec layout_spec(char ta, char tb, int64_t m, int64_t n, int64_t k, int64_t lda_pad, int64_t ldb_pad,
                     int64_t a_offset, int64_t b_offset, uint64_t seed) {
  GemmSpec s = spec(m, n, k, seed);
  s.transa = ta;
  s.transb = tb;
  s.lda_pad = lda_pad;
  s.ldb_pad = ldb_pad;
  s.a_offset = a_offset;
  s.b_offset = b_offset;
  s.alpha = (seed % 2) ? 1.0 : -1.5;
  s.beta = (seed % 3) ? 0.0 : 0.25;
  return s;
}

bool launches(const std::vector<std::string>& names, const char* kernel) {
  for (const std::string& n : names)
    if (n.find(kernel) != std::string::npos) return true;
  return false;
}

// Split-K: every form and shape, slice counts that divide k evenly, leave a short last slice, exceed the
// number of k-tiles (fewer slices run), with alpha/beta, odd leading dimensions and misaligned bases.
TEST(SplitK, EveryFormShapeAndSliceCount) {
  TCGEMM_REQUIRE_SM90_PATH();
  struct Case {
    int64_t m, n, k;
    int splits;
  };
  const Case cases[] = {{64, 64, 4096, 8}, {130, 67, 1000, 3}, {17, 9, 333, 64}, {256, 200, 2048, 5},
                        {1, 300, 100, 2}, {129, 129, 40, 7}};
  // The 32-deep tiles too: the plan splits 32x64 and 32x32 through workspace and (32x32, 2 slices) in clusters.
  const int tiles[][3] = {{128, 64, 16}, {64, 64, 16}, {128, 128, 16}, {32, 64, 32}, {32, 32, 32}};
  uint64_t seed = 20000;
  for (const auto& t : tiles)
    for (const Case& c : cases)
      for (const char* f : kForms) {
        GemmSpec s = spec(c.m, c.n, c.k, ++seed);
        s.transa = f[0];
        s.transb = f[1];
        s.alpha = (seed % 2) ? 1.0 : -0.5;
        s.beta = (seed % 3) ? 0.0 : 0.75;
        if (seed % 4 == 1) s.lda_pad = s.ldb_pad = s.ldc_pad = 1;
        if (seed % 4 == 2) s.a_offset = s.b_offset = s.c_offset = 1;
        EXPECT_TRUE(run_and_check(s, dgemm_config_call(sm90_split(t[0], t[1], c.splits, t[2]))))
            << t[0] << "x" << t[1] << " k_splits " << c.splits;
      }
}

// Two runs of a split-K product (through workspace: 37 and 200 slices; in a cluster: 5 and 8), and of the
// automatic plan on a deep-k shape, give the same bits.
TEST(SplitK, BitIdenticalFromRunToRun) {
  TCGEMM_REQUIRE_SM90_PATH();
  const int64_t m = 96, n = 80, k = 30000;
  const std::vector<double> hA = random_matrix(m, k, m, 31), hB = random_matrix(k, n, k, 32);
  DeviceBuffer<double> dA{hA.size()}, dB{hB.size()}, dC{size_t(m * n)};
  ASSERT_TRUE(dA.ok() && dB.ok() && dC.ok());
  CUDA_OK(dA.upload(hA));
  CUDA_OK(dB.upload(hB));
  for (const tcgemm_config& cfg : {sm90_split(64, 64, 37), sm90_split(128, 64, 200), sm90_split(64, 64, 5),
                                    sm90_split(128, 64, 8), tcgemm_config{}}) {
    std::vector<double> first, again;
    for (int run = 0; run < 3; ++run) {
      CUDA_OK(cudaMemset(dC.get(), 0xff, m * n * sizeof(double)));
      ASSERT_EQ(tcgemm_dgemm_config(&cfg, 'N', 'N', m, n, k, 1.0, dA.get(), m, dB.get(), k, 0.0, dC.get(), m, nullptr),
                TCGEMM_SUCCESS)
          << tcgemm_last_error();
      CUDA_OK(cudaDeviceSynchronize());
      CUDA_OK(dC.download(run == 0 ? &first : &again));
      if (run > 0) ASSERT_EQ(0, std::memcmp(first.data(), again.data(), first.size() * sizeof(double)));
    }
  }
}

// The two routes of a split-K product add the same slices in the same order: 128x64 at 3 stages runs 2..7
// slices of 20 tiles as clusters (they fit: rules.hpp, sm90_cluster_split), at 2 stages through workspace and
// the reduction kernel (2 stages cannot park a warp tile for the cluster). Every count of the reduction's
// few-slices kernel (split_k_reduce.cu) against the cluster's sum, bit for bit, in 'N','N' and 'T','N', with
// alpha and beta; C's element count is not a multiple of a reduction block's.
TEST(SplitK, WorkspaceAndClusterRoutesGiveTheSameBits) {
  TCGEMM_REQUIRE_SM90_PATH();
  const int64_t m = 250, n = 637, k = 2085;  // 2 x 10 tiles; 131 k-tiles, at least 18 per slice
  const std::vector<double> hA = random_matrix(k, k, k, 71), hB = random_matrix(k, n, k, 72),
                            hC = random_matrix(m, n, m, 73);
  DeviceBuffer<double> dA{hA.size()}, dB{hB.size()}, dC{size_t(m * n)};
  ASSERT_TRUE(dA.ok() && dB.ok() && dC.ok());
  CUDA_OK(dA.upload(hA));
  CUDA_OK(dB.upload(hB));
  for (const char* f : {"NN", "TN"})
    for (int splits = 2; splits <= 7; ++splits) {
      std::vector<double> out[2];
      for (const int stages : {2, 3}) {
        const tcgemm_config cfg = sm90_mma_config(128, 64, 16, stages, splits);
        CUDA_OK(dC.upload(hC));
        ASSERT_EQ(tcgemm_dgemm_config(&cfg, f[0], f[1], m, n, k, -0.75, dA.get(), k, dB.get(), k, 0.5, dC.get(), m,
                                      nullptr),
                  TCGEMM_SUCCESS)
            << tcgemm_last_error();
        CUDA_OK(cudaDeviceSynchronize());
        CUDA_OK(dC.download(&out[stages - 2]));
      }
      EXPECT_EQ(0, std::memcmp(out[0].data(), out[1].data(), out[0].size() * sizeof(double)))
          << f << " k_splits " << splits;
    }
  // And the sum itself, through the workspace route, against cuBLAS for every few-slices count.
  uint64_t seed = 20500;
  for (int splits = 2; splits <= 7; ++splits)
    for (const char* f : kForms) {
      GemmSpec s = spec(131, 77, 1500, ++seed);
      s.transa = f[0];
      s.transb = f[1];
      s.beta = splits % 2 ? 0.0 : 1.5;
      EXPECT_TRUE(run_and_check(s, dgemm_config_call(sm90_split(128, 128, splits)))) << f << " k_splits " << splits;
    }
}

// Deep-k shapes through tcgemm_dgemm itself (the plan splits them).
TEST(SplitK, DeepKThroughTheAutomaticPlan) {
  TCGEMM_REQUIRE_SM90_PATH();
  struct Case {
    int64_t m, n, k;
  };
  const Case cases[] = {{64, 64, 65536}, {100, 37, 20001}, {256, 256, 8192}, {512, 300, 4096}};
  uint64_t seed = 21000;
  for (const Case& c : cases)
    for (const char* f : kForms) {
      GemmSpec s = spec(c.m, c.n, c.k, ++seed);
      s.transa = f[0];
      s.transb = f[1];
      s.beta = (seed % 2) ? 0.0 : 1.25;
      tcgemm_plan p{};
      ASSERT_EQ(tcgemm_dgemm_plan(f[0], f[1], c.m, c.n, c.k, &p), TCGEMM_SUCCESS) << tcgemm_last_error();
      EXPECT_TRUE(run_and_check(s, dgemm_auto_call())) << p.summary;
    }
}

// Split-K inside CUDA graph capture: the workspace becomes the graph's own allocation.
TEST(SplitK, InsideStreamCapture) {
  TCGEMM_REQUIRE_SM90_PATH();
  const int64_t m = 64, n = 64, k = 8192;
  const std::vector<double> hA = random_matrix(m, k, m, 41), hB = random_matrix(k, n, k, 42);
  DeviceBuffer<double> dA{hA.size()}, dB{hB.size()}, dC{size_t(m * n)}, dRef{size_t(m * n)};
  ASSERT_TRUE(dA.ok() && dB.ok() && dC.ok() && dRef.ok());
  CUDA_OK(dA.upload(hA));
  CUDA_OK(dB.upload(hB));
  const tcgemm_config cfg = sm90_split(64, 64, 32);
  ASSERT_EQ(tcgemm_dgemm_config(&cfg, 'N', 'N', m, n, k, 1.0, dA.get(), m, dB.get(), k, 0.0, dRef.get(), m, nullptr),
            TCGEMM_SUCCESS);
  cudaStream_t stream = nullptr;
  CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  CUDA_OK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  const tcgemm_status st =
      tcgemm_dgemm_config(&cfg, 'N', 'N', m, n, k, 1.0, dA.get(), m, dB.get(), k, 0.0, dC.get(), m, stream);
  CUDA_OK(cudaStreamEndCapture(stream, &graph));
  ASSERT_EQ(st, TCGEMM_SUCCESS) << tcgemm_last_error();
  CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
  CUDA_OK(cudaMemset(dC.get(), 0xff, m * n * sizeof(double)));
  CUDA_OK(cudaGraphLaunch(exec, stream));
  CUDA_OK(cudaGraphLaunch(exec, stream));
  CUDA_OK(cudaStreamSynchronize(stream));
  std::vector<double> got, want;
  CUDA_OK(dC.download(&got));
  CUDA_OK(dRef.download(&want));
  EXPECT_EQ(0, std::memcmp(got.data(), want.data(), got.size() * sizeof(double)));
  CUDA_OK(cudaGraphExecDestroy(exec));
  CUDA_OK(cudaGraphDestroy(graph));
  CUDA_OK(cudaStreamDestroy(stream));
}

// The split-K reduction is a programmatic dependent launch on sm_90 (it may start before the kernel that writes
// its partial products has ended, and waits for it there). Calls back to back on one stream, each with its own
// B and C and no synchronisation between them, take in turn the workspace the call before freed: each result
// must be bit for bit what the same call gives alone (split-K sums in a fixed order), not a mix with the
// previous call's partial products. sm90_mma through workspace, and the skinny family's both layouts.
TEST(SplitK, BackToBackCallsEachReduceTheirOwnPartials) {
  TCGEMM_REQUIRE_GPU();
  struct Case {
    char ta, tb;
    int64_t m, n, k;
    bool sm90;  // sm90_mma's split (on cc 9.x with sm_90 code; elsewhere shared_ab, which does not split)
  };
  const Case cases[] = {{'N', 'N', 240, 31, 17059, true},  // sm90_mma, 60 slices through workspace
                        {'T', 'N', 168, 314, 17746, true},
                        {'N', 'N', 4096, 1, 4096, false},  // skinny, cols-contiguous G, 8 chunks
                        {'N', 'T', 1, 2000, 2000, false},
                        {'N', 'N', 8, 3000, 8192, false}};  // skinny, k-contiguous G, 16 chunks (no cluster)
  constexpr int kCalls = 4;
  cudaStream_t stream = nullptr;
  CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  uint64_t seed = 24100;
  for (const Case& c : cases) {
    SCOPED_TRACE(testing::Message() << c.ta << c.tb << " " << c.m << "x" << c.n << "x" << c.k);
    if (c.sm90 && !tcgemm::test::hopper_path_expected()) continue;
    tcgemm_plan plan{};
    ASSERT_EQ(tcgemm_dgemm_plan(c.ta, c.tb, c.m, c.n, c.k, &plan), TCGEMM_SUCCESS) << tcgemm_last_error();
    if (plan.workspace_bytes == 0) {
      ADD_FAILURE() << "the case must split through workspace: " << plan.summary;
      continue;
    }
    const int64_t a_rows = c.ta == 'N' ? c.m : c.k, b_rows = c.tb == 'N' ? c.k : c.n;
    const int64_t a_cols = c.ta == 'N' ? c.k : c.m, b_cols = c.tb == 'N' ? c.n : c.k;
    const std::vector<double> hA = random_matrix(a_rows, a_cols, a_rows, ++seed);
    DeviceBuffer<double> dA{hA.size()};
    ASSERT_TRUE(dA.ok());
    CUDA_OK(dA.upload(hA));
    std::vector<std::unique_ptr<DeviceBuffer<double>>> dB, dC, dRef;
    for (int j = 0; j < kCalls; ++j) {
      dB.push_back(std::make_unique<DeviceBuffer<double>>(size_t(b_rows * b_cols)));
      dC.push_back(std::make_unique<DeviceBuffer<double>>(size_t(c.m * c.n)));
      dRef.push_back(std::make_unique<DeviceBuffer<double>>(size_t(c.m * c.n)));
      ASSERT_TRUE(dB[j]->ok() && dC[j]->ok() && dRef[j]->ok());
      CUDA_OK(dB[j]->upload(random_matrix(b_rows, b_cols, b_rows, ++seed)));
      CUDA_OK(cudaMemset(dC[j]->get(), 0xff, size_t(c.m * c.n) * sizeof(double)));  // NaN: beta = 0 must not read
      // Alone: the call, then a synchronisation.
      ASSERT_EQ(tcgemm_dgemm(c.ta, c.tb, c.m, c.n, c.k, 1.0, dA.get(), a_rows, dB[j]->get(), b_rows, 0.0,
                             dRef[j]->get(), c.m, stream),
                TCGEMM_SUCCESS)
          << tcgemm_last_error();
      CUDA_OK(cudaStreamSynchronize(stream));
    }
    for (int j = 0; j < kCalls; ++j)
      ASSERT_EQ(tcgemm_dgemm(c.ta, c.tb, c.m, c.n, c.k, 1.0, dA.get(), a_rows, dB[j]->get(), b_rows, 0.0,
                             dC[j]->get(), c.m, stream),
                TCGEMM_SUCCESS)
          << tcgemm_last_error();
    CUDA_OK(cudaStreamSynchronize(stream));
    // Each against the call alone (bit for bit), and the call alone against cuBLAS (so that a reduction that
    // read too early cannot pass by spoiling both alike): |C - C_cublas| <= 8 k eps (entries in [-1, 1]).
    const double tol = 8.0 * double(c.k) * 2.220446049250313e-16;
    const double one = 1.0, zero = 0.0;
    DeviceBuffer<double> dCublas{size_t(c.m * c.n)};
    ASSERT_TRUE(dCublas.ok());
    for (int j = 0; j < kCalls; ++j) {
      std::vector<double> got, want, blas;
      CUDA_OK(dC[j]->download(&got));
      CUDA_OK(dRef[j]->download(&want));
      EXPECT_EQ(0, std::memcmp(got.data(), want.data(), got.size() * sizeof(double))) << "call " << j;
      ASSERT_EQ(cublasDgemm(cublas_handle(), c.ta == 'N' ? CUBLAS_OP_N : CUBLAS_OP_T,
                            c.tb == 'N' ? CUBLAS_OP_N : CUBLAS_OP_T, int(c.m), int(c.n), int(c.k), &one, dA.get(),
                            int(a_rows), dB[j]->get(), int(b_rows), &zero, dCublas.get(), int(c.m)),
                CUBLAS_STATUS_SUCCESS);
      CUDA_OK(cudaDeviceSynchronize());
      CUDA_OK(dCublas.download(&blas));
      double worst = 0.0;
      for (size_t e = 0; e < want.size(); ++e) worst = std::max(worst, std::abs(want[e] - blas[e]));
      EXPECT_LE(worst, tol) << "call " << j << " alone against cuBLAS";
    }
  }
  CUDA_OK(cudaStreamDestroy(stream));
}

// Many threads, each on its own stream, running split-K and skinny products at once: workspaces are
// stream-ordered, never shared.
TEST(SplitK, ManyThreadsAndStreams) {
  TCGEMM_REQUIRE_SM90_PATH();
  constexpr int kThreads = 8;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([t, &failures] {
      cudaStream_t stream = nullptr;
      if (cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) != cudaSuccess) return void(++failures);
      for (int rep = 0; rep < 3; ++rep) {
        GemmSpec s = spec(t % 2 ? 64 : 3, 96 + t, 6000 + 100 * t, uint64_t(22000 + 10 * t + rep));
        s.beta = rep % 2 ? 0.5 : 0.0;
        if (!run_and_check(s, dgemm_auto_call(), stream)) ++failures;
      }
      (void)cudaStreamDestroy(stream);
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
}

// Tiles that cross the m or n edge are moved back inside the matrix (by an odd amount too, where the copies
// allow it: Sm90Mma.EdgeTilesMovedByAnOddCount) and must not write the rows and columns of their neighbours:
// sizes just past tile multiples, beta != 0 (a second write of an element would apply beta twice), every form
// and tile, odd leading dimensions and misaligned bases.
TEST(EdgeTiles, MovedInsideWriteOnlyTheirOwnPart) {
  TCGEMM_REQUIRE_SM90_PATH();
  struct Case {
    int64_t m, n, k;
  };
  // k = 4200 (> 256 k-tiles): the direct epilogue; the others: the staged one (kernel.cuh).
  const Case cases[] = {{129, 65, 100}, {200, 130, 40}, {257, 193, 300}, {131, 64, 17}, {64, 127, 64},
                        {130, 66, 4200}};
  const int tiles[][2] = {{128, 64}, {64, 64}, {128, 128}};
  uint64_t seed = 25000;
  for (const auto& t : tiles)
    for (const Case& c : cases)
      for (const char* f : kForms) {
        GemmSpec s = spec(c.m, c.n, c.k, ++seed);
        s.transa = f[0];
        s.transb = f[1];
        s.beta = 0.75;
        if (seed % 3 == 1) s.lda_pad = s.ldb_pad = s.ldc_pad = 1;
        if (seed % 3 == 2) s.a_offset = s.b_offset = s.c_offset = 1;
        EXPECT_TRUE(run_and_check(s, dgemm_config_call(sm90_split(t[0], t[1], seed % 2 ? 0 : 3))))
            << t[0] << "x" << t[1];
      }
}

// 'T','N' products of the sizes that used to transpose A into workspace first (n >= 1024), now run by the
// 'T','N' instances themselves (8-byte left-operand fragment loads, warp tiles with their sides swapped):
// odd m, odd leading dimensions, misaligned bases, beta, and split-K on top.
TEST(TnForm, LargeAndOddProducts) {
  TCGEMM_REQUIRE_SM90_PATH();
  struct Case {
    int64_t m, n, k;
  };
  const Case cases[] = {{37, 1030, 50}, {300, 1100, 257}, {129, 2048, 1000}, {64, 1024, 9000}};
  uint64_t seed = 24000;
  for (const Case& c : cases)
    for (int layout = 0; layout < 3; ++layout) {
      GemmSpec s = spec(c.m, c.n, c.k, ++seed);
      s.transa = 'T';
      s.transb = 'N';
      s.alpha = -1.5;
      s.beta = layout == 1 ? 0.5 : 0.0;
      if (layout == 1) s.lda_pad = s.ldb_pad = s.ldc_pad = 1;
      if (layout == 2) s.a_offset = s.b_offset = s.c_offset = 1;
      EXPECT_TRUE(run_and_check(s, dgemm_auto_call()));
      EXPECT_TRUE(run_and_check(s, dgemm_config_call(sm90_split(128, 64, 4))));
    }
}

// skinny: m or n from 1 to 8, every form, k from 1 to several chunks, both copy widths, alpha/beta.
TEST(Skinny, EveryFormSmallSideAndDepth) {
  TCGEMM_REQUIRE_GPU();
  struct Case {
    int64_t m, n, k;
  };
  const Case cases[] = {{1, 700, 1},   {1, 1000, 513},  {2, 64, 2000},  {3, 1025, 77},  {5, 129, 4097},
                        {8, 513, 640}, {700, 1, 300},   {1000, 2, 1},   {77, 3, 5000},  {2049, 8, 129},
                        {1, 1, 3000},  {8, 8, 8},       {4, 6, 1500},   {6, 4, 64}};
  uint64_t seed = 23000;
  for (const Case& c : cases)
    for (const char* f : kForms)
      for (int ks : {0, 3}) {
        GemmSpec s = spec(c.m, c.n, c.k, ++seed);
        s.transa = f[0];
        s.transb = f[1];
        s.alpha = (seed % 2) ? 1.0 : 2.5;
        s.beta = (seed % 3) ? 0.0 : -1.0;
        if (seed % 5 == 1) s.lda_pad = s.ldb_pad = s.ldc_pad = 1;
        if (seed % 5 == 2) s.a_offset = s.b_offset = s.c_offset = 1;
        if (seed % 5 == 3) s.lda_pad = s.ldb_pad = 2;
        EXPECT_TRUE(run_and_check(s, dgemm_config_call(skinny(ks)))) << "k_splits " << ks;
      }
}

// k-chunk counts from 2 to 12: up to 8 chunks of a k-contiguous G (4 with 5-8 rows) add up in a cluster (on
// cc 9.x with sm_90 code); more, and the cols-contiguous kernel's, through workspace. Both layouts of the large
// operand with 1, 3 and 8 rows (8 rows x 64 columns: the cluster's blocks above rank 0 write outputs too), a
// partial last column block, both copy widths, leading dimensions 1 and 4097 past the rows, misaligned bases,
// beta 0 (NaN-poisoned C not read) and beta != 0.
TEST(Skinny, ClusterAndWorkspaceChunkCounts) {
  TCGEMM_REQUIRE_GPU();
  struct Case {
    char ta, tb;
    int64_t m, n;
  };
  // m <= 8 with B 'N': k-contiguous G; n <= 8 with A 'N': cols-contiguous G.
  const Case cases[] = {{'N', 'N', 1, 130}, {'N', 'N', 3, 1000}, {'N', 'N', 8, 200}, {'T', 'T', 8, 200},
                        {'N', 'N', 130, 1}, {'N', 'T', 1000, 3}, {'N', 'N', 333, 8}};
  uint64_t seed = 23500;
  for (const Case& c : cases)
    for (int chunks : {2, 3, 4, 5, 8, 9, 12}) {
      GemmSpec s = spec(c.m, c.n, 64 * chunks * 2 - 7, ++seed);  // chunks of 128 k, the last one short
      s.transa = c.ta;
      s.transb = c.tb;
      s.alpha = (seed % 2) ? 1.0 : -2.0;
      s.beta = (seed % 3) ? 0.0 : 0.5;
      if (seed % 4 == 1) s.lda_pad = s.ldb_pad = s.ldc_pad = 1;
      if (seed % 4 == 2) s.a_offset = s.b_offset = s.c_offset = 1;
      if (seed % 4 == 3) s.lda_pad = s.ldb_pad = s.ldc_pad = 4097;  // leading dimensions far past the rows, odd
      EXPECT_TRUE(run_and_check(s, dgemm_config_call(skinny(chunks))))
          << c.ta << c.tb << " " << c.m << "x" << c.n << "x" << s.k << " chunks " << chunks;
    }
}

// The column-stream route (one or two rows over a k-contiguous G, a warp per whole column): every layout
// of S it takes (k-contiguous rows with 16-byte or 8-byte loads, dense columns), odd k, columns that start
// off a 16-byte boundary (odd leading dimension, misaligned G), few columns, both sides (m or n small),
// alpha/beta; and beside them calls the launcher sends to the chunked kernel instead (strided S, too few columns
// for a deep k, too shallow). Each call first asserts the route, both as the decision function gives it for the
// call's own pointers and as the kernels the call launches (captured into a graph), then the result is checked
// against cuBLAS (NaN-poisoned C).
TEST(Skinny, ColumnStreamRouteEveryLayout) {
  TCGEMM_REQUIRE_GPU();
  int sms = 0;
  CUDA_OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  using tcgemm::detail::kSkinnyStreamMinK;
  // Past k = 4096: kSkinnyStreamDeepWarpsPerSm warps per SM, up to 8 warps per column. From `single` columns
  // on, one warp per column.
  const int64_t deep =
      int64_t(tcgemm::detail::kSkinnyStreamDeepWarpsPerSm) * sms / tcgemm::detail::kSkinnyStreamMaxWarpsPerColumn;
  const int64_t single = int64_t(tcgemm::detail::kSkinnyStreamSharedWarpsPerSm) * sms;
  struct Case {
    char ta, tb;
    int64_t m, n, k;
    int64_t lda_pad, ldb_pad, a_offset, b_offset;
    bool streams;
  };
  const Case cases[] = {
      {'N', 'N', 1, 263, 2048, 0, 0, 0, 0, true},          // few columns (up to k = 4096 any number)
      {'N', 'N', 1, 5, 4096, 0, 0, 0, 0, true},            // ... fewer than one block's 8
      {'N', 'N', 1, 3000, kSkinnyStreamMinK, 0, 0, 0, 0, true},  // the shallowest k
      {'N', 'N', 1, single + 37, 4097, 0, 1, 0, 0, true},  // odd k over ldb = 4098: the odd tail
      {'N', 'N', 1, single + 3, 4097, 0, 0, 0, 0, true},   // odd ldb: every other column peels its first k
      {'N', 'N', 1, deep + 37, 4097, 0, 1, 0, 0, true},    // the same two with 8 warps per column
      {'N', 'N', 1, deep + 3, 4097, 0, 0, 0, 0, true},
      {'N', 'N', 2, 3000, 3001, 0, 2, 0, 0, true},         // 2 rows, odd k, ldb = 3003
      {'T', 'N', 1, 3000, 4096, 0, 0, 1, 0, true},         // S misaligned: 8-byte S loads
      {'N', 'N', 2, 3001, 8192, 0, 0, 0, 0, true},         // S's columns dense, rows x k at the cap
      {'T', 'N', 2, 2500, 3000, 1, 0, 0, 0, true},         // S's rows k-contiguous at an odd stride
      {'T', 'N', 2, 2500, 3000, 0, 0, 0, 0, true},         // ... at an even stride: 16-byte S loads
      {'T', 'N', single + 5, 1, 6000, 0, 0, 0, 0, true},   // n = 1: G = A^T
      {'T', 'T', 1000, 2, 4096, 2, 0, 0, 0, true},         // n = 2, S = B^T with dense columns, lda = k + 2
      {'N', 'N', 1, 3000, 4096, 2, 0, 0, 0, false},        // S strided (lda = 3): the chunked kernel
      {'N', 'N', 1, 3000, 4096, 0, 0, 0, 1, true},         // G misaligned: every column peels
      {'T', 'N', 2, 3000, 4096, 0, 0, 0, 1, true},         // ... with 16-byte aligned S rows: 8-byte S loads
      {'N', 'N', 1, 3000, kSkinnyStreamMinK - 1, 0, 0, 0, 0, false},  // too shallow: the chunked kernel
      {'N', 'N', 1, deep - 1, 6000, 0, 0, 0, 0, false},    // ... for a deeper k
      // Few columns: warps share a column (skinny_stream_warps_per_column), a partial last block.
      {'N', 'N', 1, 263, 4096, 0, 0, 0, 0, true},          // 8 warps per column
      {'N', 'N', 2, 301, 4099, 0, 1, 0, 1, true},          // 8, odd k, odd ldb, G misaligned: peeled heads
      {'N', 'N', 1, 1055, 6000, 0, 0, 0, 0, true},         // 4 warps per column, 2 columns per block
      {'T', 'N', 1, 700, 2047, 0, 0, 1, 0, true},          // 2 (each keeps 512 of k), S misaligned
      {'T', 'T', 501, 2, 5000, 0, 0, 0, 0, true}};         // 8, n = 2: C transposed
  uint64_t seed = 23700;
  for (const Case& c : cases) {
    const GemmSpec s = layout_spec(c.ta, c.tb, c.m, c.n, c.k, c.lda_pad, c.ldb_pad, c.a_offset, c.b_offset, ++seed);
    const GemmCall checked_route = [&c, sms, single](const GemmSpec& g, const double* A, int64_t lda,
                                                     const double* B, int64_t ldb, double* C, int64_t ldc,
                                                     cudaStream_t stream) {
      const tcgemm::detail::GemmProblem p = problem_of(g, A, lda, B, ldb, C, ldc);
      EXPECT_EQ(tcgemm::detail::skinny_route(p, tcgemm_config{}, sms) == tcgemm::detail::SkinnyRoute::kColumnStream,
                c.streams)
          << describe(g);
      const tcgemm_config cfg = skinny(0);  // the family's automatic chunking, whatever the plan would pick
      auto call = [&](cudaStream_t s) {
        return tcgemm_dgemm_config(&cfg, g.transa, g.transb, g.m, g.n, g.k, g.alpha, A, lda, B, ldb, g.beta, C, ldc,
                                   s);
      };
      // A streamed call shares its columns between warps exactly where the rule says (the cases' comments
      // assume 132 SMs); a call that does not stream has no warps per column.
      const tcgemm::detail::SkinnyShape shape = tcgemm::detail::skinny_shape(g.transa, g.transb, g.m, g.n, g.k);
      const int w = tcgemm::detail::skinny_stream_warps_per_column(shape, sms);
      const bool shared = shape.cols < single && tcgemm::detail::skinny_stream_max_warps_per_column(shape) > 1;
      if (c.streams) EXPECT_EQ(w > 1, shared) << describe(g) << ": " << w << " warps per column";
      const std::vector<std::string> names = captured_kernels(call);
      EXPECT_FALSE(names.empty()) << describe(g);
      EXPECT_EQ(launches(names, "skinny_column_stream_kernel"), c.streams) << describe(g);
      return call(stream);
    };
    EXPECT_TRUE(run_and_check(s, checked_route)) << describe(s);
  }
}

// The tensor-core kernel (5 to 8 rows over a k-contiguous G whose columns start 16-byte aligned, on the sm_90
// path): both sides (m or n small, C transposed), both layouts of S (k-contiguous rows, dense columns), a
// strided and a misaligned S, k below one MMA step and not a multiple of 4 (the 8-byte
// tail), a last chunk too short for the second half of the warps, column counts off the 16-column MMA and the
// 64-column block, one chunk, a cluster of chunks and workspace, alpha/beta with NaN-poisoned C. Beside them,
// calls that keep the CUDA-core kernel: 4 rows, an odd leading dimension of G, a misaligned G. Each call
// asserts which kernel it launches (captured into a graph), then is checked against cuBLAS.
TEST(Skinny, TensorCoreKernelEveryLayout) {
  TCGEMM_REQUIRE_GPU();
  const bool sm90 = hopper_path_expected();
  struct Case {
    char ta, tb;
    int64_t m, n, k;
    int k_splits;
    int64_t lda_pad, ldb_pad, a_offset, b_offset;
    bool tensor_cores;  // on the sm_90 path
  };
  const Case cases[] = {
      {'N', 'N', 8, 1000, 512, 0, 0, 0, 0, 0, true},     // S with dense columns, automatic chunks (workspace)
      {'N', 'N', 5, 130, 4099, 0, 0, 1, 0, 0, true},     // odd k (ldb 4100), 2 columns past the last block
      {'T', 'N', 7, 3000, 2000, 3, 0, 0, 0, 0, true},    // S rows k-contiguous; 3 chunks through workspace
      {'N', 'N', 8, 8192, 600, 2, 0, 0, 0, 0, true},     // 2 chunks in a cluster (the automatic count on 132 SMs)
      {'T', 'N', 5, 64, 40000, 0, 0, 0, 0, 0, true},     // automatic (132 SMs: 209 chunks of 192, 1.5 segments)
      {'N', 'N', 6, 777, 1000, 12, 0, 0, 0, 0, true},    // 8 chunks of 128 through workspace
      {'N', 'N', 8, 300, 5000, 1, 0, 0, 0, 0, true},     // one chunk over 40 S segments
      {'T', 'T', 5000, 8, 1030, 0, 0, 0, 0, 0, true},    // n = 8: G = A^T, S = B^T with dense columns
      {'T', 'N', 4001, 5, 333, 0, 1, 0, 0, 0, true},     // n = 5, S = B^T k-contiguous, lda 334
      {'N', 'N', 8, 300, 10, 0, 0, 0, 0, 0, true},       // k below one MMA step
      {'N', 'N', 8, 64, 3, 0, 0, 1, 0, 0, true},         // k = 3, ldb 4
      {'N', 'N', 8, 200, 135, 3, 0, 1, 0, 0, true},      // chunks 64, 64, 7: the last one's second half idle
      {'N', 'N', 8, 300, 700, 0, 0, 0, 1, 0, true},      // S misaligned (8-byte staging), G aligned
      {'N', 'N', 7, 400, 900, 0, 5, 0, 0, 0, true},      // S strided (lda = 12)
      {'N', 'N', 8, 17, 2048, 2, 0, 0, 0, 0, true},      // fewer columns than one MMA's 16 ... 17
      {'N', 'N', 4, 500, 1000, 0, 0, 0, 0, 0, false},    // 4 rows: the CUDA-core kernel
      {'N', 'N', 8, 500, 1001, 0, 0, 0, 0, 0, false},    // odd ldb: 8-byte loads of G
      {'N', 'N', 6, 500, 1000, 0, 0, 0, 0, 1, false}};   // G misaligned
  uint64_t seed = 23800;
  for (const Case& c : cases) {
    const GemmSpec s = layout_spec(c.ta, c.tb, c.m, c.n, c.k, c.lda_pad, c.ldb_pad, c.a_offset, c.b_offset, ++seed);
    const GemmCall checked_route = [&c, sm90](const GemmSpec& g, const double* A, int64_t lda, const double* B,
                                              int64_t ldb, double* C, int64_t ldc, cudaStream_t stream) {
      const tcgemm_config cfg = skinny(c.k_splits);
      auto call = [&](cudaStream_t s) {
        return tcgemm_dgemm_config(&cfg, g.transa, g.transb, g.m, g.n, g.k, g.alpha, A, lda, B, ldb, g.beta, C, ldc,
                                   s);
      };
      const std::vector<std::string> names = captured_kernels(call);
      EXPECT_FALSE(names.empty()) << describe(g);
      EXPECT_EQ(launches(names, "skinny_k_contiguous_mma_kernel"), sm90 && c.tensor_cores) << describe(g);
      EXPECT_EQ(launches(names, "skinny_k_contiguous_kernel"), !(sm90 && c.tensor_cores)) << describe(g);
      return call(stream);
    };
    EXPECT_TRUE(run_and_check(s, checked_route)) << describe(s) << " k_splits " << c.k_splits;
  }
}

// One row of S over a cols-contiguous G (y = A x with A 'N', x^T B^T), the classic matrix-vector product, with
// automatic chunking (the chunked kernel: S staged, chunks through workspace): both sides and every form, k from
// 1 to deep (dozens of chunks), columns that are not a multiple of the block's 64, strided S (a leading
// dimension past the row), odd leading dimensions and misaligned bases (8-byte loads of G), alpha/beta. Each
// call asserts the launcher's route.
TEST(Skinny, OneRowOverAColsContiguousOperandEveryForm) {
  TCGEMM_REQUIRE_GPU();
  int sms = 0;
  CUDA_OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  struct Case {
    char ta, tb;
    int64_t m, n, k;
  };
  const Case cases[] = {{'N', 'N', 1000, 1, 1000}, {'N', 'N', 4097, 1, 333},  {'N', 'N', 2049, 1, 16385},
                        {'N', 'N', 77, 1, 5000},   {'N', 'N', 100000, 1, 7},  {'N', 'N', 5, 1, 1},
                        {'N', 'T', 3000, 1, 2000}, {'N', 'T', 1, 3001, 999},  {'T', 'T', 1, 2500, 4000},
                        {'N', 'T', 1, 130, 70000}};
  uint64_t seed = 23900;
  for (const Case& c : cases)
    for (int layout = 0; layout < 3; ++layout) {
      GemmSpec s = spec(c.m, c.n, c.k, ++seed);
      s.transa = c.ta;
      s.transb = c.tb;
      s.alpha = (seed % 2) ? 1.0 : 0.5;
      s.beta = (seed % 3) ? 0.0 : -2.0;
      if (layout == 1) s.lda_pad = s.ldb_pad = s.ldc_pad = 3;  // odd leading dimensions, S strided
      if (layout == 2) s.a_offset = s.b_offset = s.c_offset = 1;
      const GemmCall checked_route = [sms](const GemmSpec& g, const double* A, int64_t lda, const double* B,
                                           int64_t ldb, double* C, int64_t ldc, cudaStream_t stream) {
        const tcgemm::detail::GemmProblem p = problem_of(g, A, lda, B, ldb, C, ldc);
        EXPECT_TRUE(tcgemm::detail::skinny_route(p, tcgemm_config{}, sms) == tcgemm::detail::SkinnyRoute::kChunked)
            << describe(g);
        const tcgemm_config cfg = skinny(0);
        return tcgemm_dgemm_config(&cfg, g.transa, g.transb, g.m, g.n, g.k, g.alpha, A, lda, B, ldb, g.beta, C, ldc,
                                   stream);
      };
      EXPECT_TRUE(run_and_check(s, checked_route)) << describe(s);
    }
}

// Two runs give the same bits, through workspace (18 chunks), in a cluster (6 chunks, k-contiguous G), on the
// column-stream route (1 row, no chunks), for one row over a cols-contiguous G (chunks through workspace) and on
// the tensor-core kernel (3 chunks through workspace, 2 in a cluster; on the sm_90 path). The chunked cases ask
// for their chunk counts, so that the routes do not depend on the device's SM count.
// (The two chunked routes add the chunks in the same order; the API has no way to run one product through
// both.)
TEST(Skinny, BitIdenticalFromRunToRun) {
  TCGEMM_REQUIRE_GPU();
  struct Case {
    int64_t m, n, k;
    int k_splits;  // 0: automatic
  };
  // 1 x 5000 x 4096: the column-stream route; 5000 x 1 x 3000: one row over a cols-contiguous G; 1 x 1055 x 6000:
  // the column stream with 4 warps per column; 8 x 5000 x 9000 and 6 x 8192 x 3000: the tensor-core kernel.
  const Case cases[] = {{3, 5000, 9000, 18}, {3, 5000, 3000, 6}, {1, 5000, 4096, 0},    {5000, 1, 3000, 0},
                        {1, 1055, 6000, 0},  {8, 5000, 9000, 3}, {6, 8192, 3000, 2}};
  for (const Case& c : cases) {
    const int64_t m = c.m, n = c.n, k = c.k;
    const std::vector<double> hA = random_matrix(m, k, m, 51), hB = random_matrix(k, n, k, 52);
    DeviceBuffer<double> dA{hA.size()}, dB{hB.size()}, dC{size_t(m * n)};
    ASSERT_TRUE(dA.ok() && dB.ok() && dC.ok());
    CUDA_OK(dA.upload(hA));
    CUDA_OK(dB.upload(hB));
    const tcgemm_config cfg = skinny(c.k_splits);
    std::vector<double> first, again;
    for (int run = 0; run < 3; ++run) {
      ASSERT_EQ(tcgemm_dgemm_config(&cfg, 'N', 'N', m, n, k, 1.0, dA.get(), m, dB.get(), k, 0.0, dC.get(), m, nullptr),
                TCGEMM_SUCCESS);
      CUDA_OK(cudaDeviceSynchronize());
      CUDA_OK(dC.download(run == 0 ? &first : &again));
      if (run > 0)
        ASSERT_EQ(0, std::memcmp(first.data(), again.data(), first.size() * sizeof(double)))
            << m << "x" << n << "x" << k << " k_splits " << c.k_splits;
    }
  }
}

// An explicit skinny configuration on a product without a small side is a named configuration error, with
// nothing launched and C untouched.
TEST(Skinny, RejectsProductsWithoutASmallSide) {
  TCGEMM_REQUIRE_GPU();
  DeviceBuffer<double> d{size_t(16 * 16)};
  ASSERT_TRUE(d.ok());
  const tcgemm_config cfg = skinny(0);
  EXPECT_EQ(tcgemm_dgemm_config(&cfg, 'N', 'N', 16, 16, 16, 1.0, d.get(), 16, d.get(), 16, 0.0, d.get(), 16, nullptr),
            TCGEMM_ERROR_INVALID_CONFIG);
  EXPECT_NE(std::string(tcgemm_last_error()).find("family skinny computes products with m <= 8 or n <= 8"),
            std::string::npos)
      << tcgemm_last_error();
  EXPECT_EQ(tcgemm_last_error_argument(), TCGEMM_ARG_CONFIG);
}

// The plan's configuration is what tcgemm_dgemm runs: tcgemm_dgemm_config with it gives the same bits.
TEST(Plan, ConfigReproducesTcgemmDgemmBitForBit) {
  TCGEMM_REQUIRE_GPU();
  struct Case {
    char ta, tb;
    int64_t m, n, k;
  };
  const Case cases[] = {{'N', 'N', 64, 64, 20000}, {'T', 'N', 1, 900, 3000}, {'N', 'T', 700, 5, 1000},
                        {'N', 'N', 300, 200, 100}, {'T', 'T', 1024, 1024, 1024}, {'N', 'N', 40, 40, 9000},
                        {'T', 'N', 130, 1500, 300}};
  for (const Case& c : cases) {
    const int64_t a_rows = c.ta == 'N' ? c.m : c.k, a_cols = c.ta == 'N' ? c.k : c.m;
    const int64_t b_rows = c.tb == 'N' ? c.k : c.n, b_cols = c.tb == 'N' ? c.n : c.k;
    const std::vector<double> hA = random_matrix(a_rows, a_cols, a_rows, 61), hB = random_matrix(b_rows, b_cols, b_rows, 62);
    DeviceBuffer<double> dA{hA.size()}, dB{hB.size()}, dC1{size_t(c.m * c.n)}, dC2{size_t(c.m * c.n)};
    ASSERT_TRUE(dA.ok() && dB.ok() && dC1.ok() && dC2.ok());
    CUDA_OK(dA.upload(hA));
    CUDA_OK(dB.upload(hB));
    tcgemm_plan p{};
    ASSERT_EQ(tcgemm_dgemm_plan(c.ta, c.tb, c.m, c.n, c.k, &p), TCGEMM_SUCCESS) << tcgemm_last_error();
    EXPECT_GT(std::strlen(p.summary), 20u);
    EXPECT_GE(p.k_slices, 1);
    EXPECT_EQ(p.blocks, p.tiles * p.k_slices) << p.summary;
    ASSERT_EQ(tcgemm_dgemm(c.ta, c.tb, c.m, c.n, c.k, 0.5, dA.get(), a_rows, dB.get(), b_rows, 0.0, dC1.get(), c.m,
                           nullptr),
              TCGEMM_SUCCESS)
        << tcgemm_last_error();
    ASSERT_EQ(tcgemm_dgemm_config(&p.config, c.ta, c.tb, c.m, c.n, c.k, 0.5, dA.get(), a_rows, dB.get(), b_rows, 0.0,
                                  dC2.get(), c.m, nullptr),
              TCGEMM_SUCCESS)
        << tcgemm_last_error() << " " << p.summary;
    CUDA_OK(cudaDeviceSynchronize());
    std::vector<double> h1, h2;
    CUDA_OK(dC1.download(&h1));
    CUDA_OK(dC2.download(&h2));
    EXPECT_EQ(0, std::memcmp(h1.data(), h2.data(), h1.size() * sizeof(double))) << p.summary;
  }
}

// On the H100 path the plan takes the memory-bound family for vector-like shapes and splits deep k.
TEST(Plan, ChoosesSkinnyAndSplitKWhereTheyApply) {
  TCGEMM_REQUIRE_SM90_PATH();
  tcgemm_plan p{};
  ASSERT_EQ(tcgemm_dgemm_plan('N', 'N', 1, 4096, 4096, &p), TCGEMM_SUCCESS);
  EXPECT_EQ(p.config.family, TCGEMM_FAMILY_SKINNY) << p.summary;
  ASSERT_EQ(tcgemm_dgemm_plan('N', 'N', 64, 64, 65536, &p), TCGEMM_SUCCESS);
  EXPECT_EQ(p.config.family, TCGEMM_FAMILY_SM90_MMA) << p.summary;
  EXPECT_GT(p.k_slices, 16) << p.summary;
  EXPECT_GT(p.workspace_bytes, 0) << p.summary;
  ASSERT_EQ(tcgemm_dgemm_plan('N', 'N', 4096, 4096, 4096, &p), TCGEMM_SUCCESS);
  EXPECT_EQ(p.k_slices, 1) << p.summary;
  EXPECT_EQ(p.workspace_bytes, 0) << p.summary;
}

}  // namespace
