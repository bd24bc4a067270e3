// The pipelined host-array DGEMM (pipelined_dgemm.hpp).
#include "host/pipelined_dgemm.hpp"

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "api/gemm_call.hpp"
#include "core/arguments.hpp"
#include "core/errors.hpp"
#include "core/memory_pool.hpp"
#include "host/copy_workers.hpp"
#include "host/host_engine.hpp"

namespace tcgemm::detail {
namespace {

constexpr int64_t kMiB = int64_t(1) << 20;
// A streamed panel's C tile and operand panel stay under these sizes, so the last tile's compute and
// download (which nothing overlaps) are a small part of a large call.
constexpr int64_t kMaxTileBytes = 64 * kMiB;
constexpr int64_t kMaxPanelBytes = 128 * kMiB;
// At least this many panels when the streamed dimension allows (the same tail argument) ...
constexpr int64_t kTargetPanels = 8;
// ... but no panel narrower than this, where the GEMM on a panel would lose efficiency (and host calls
// would dominate). Rounded to multiples of kPanelQuantum, the sm90 tile width.
constexpr int64_t kMinPanel = 256;
constexpr int64_t kPanelQuantum = 64;
// Blocks of the cached schedule (both operands on the GPU): an eighth of the dimension, within these.
constexpr int64_t kMinBlock = 1024;
constexpr int64_t kMaxBlock = 2048;
constexpr int64_t kMaxBlockBytes = 256 * kMiB;  // one block of op(A) or op(B): the first ones are waited for
// The resident operands' share of device memory.
constexpr double kResidentShare = 0.30;

int64_t round_up(int64_t x, int64_t q) { return (x + q - 1) / q * q; }

// TCGEMM_HOST_RESIDENT_BYTES (bytes, at least 1 MiB) or kResidentShare of the device's memory.
int64_t resident_budget_bytes(int64_t device_memory) {
  const char* text = std::getenv("TCGEMM_HOST_RESIDENT_BYTES");
  if (text && *text) {
    char* end = nullptr;
    const long long v = std::strtoll(text, &end, 10);
    if (end && *end == '\0' && v >= kMiB) return int64_t(v);
  }
  return int64_t(kResidentShare * double(device_memory));
}

// A block of a column-major host matrix: `rows` x `cols` from `first`, leading dimension `ld` (elements).
struct HostBlock {
  const double* first = nullptr;
  int64_t ld = 0, rows = 0, cols = 0;
};

// Whether the CUDA driver treats the memory from `first` to `last` as pinned host memory.
bool is_pinned(const void* first, const void* last) {
  for (const void* p : {first, last}) {
    cudaPointerAttributes a{};
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
      (void)cudaGetLastError();
      return false;
    }
    if (a.type != cudaMemoryTypeHost) return false;
  }
  return true;
}
bool is_pinned(const double* base, int64_t rows, int64_t cols, int64_t ld) {
  return is_pinned(base, base + (cols - 1) * ld + rows - 1);
}

// Pieces of a block that fit one staging buffer of `cap` doubles: whole columns when a column fits, else
// parts of one column (rows and columns relative to the block's first element).
struct Piece {
  int64_t row0, col0, rows, cols;
};
std::vector<Piece> staging_pieces(const HostBlock& b, int64_t cap) {
  std::vector<Piece> out;
  if (b.rows <= cap) {
    const int64_t per = cap / b.rows;
    for (int64_t c = 0; c < b.cols; c += per) out.push_back({0, c, b.rows, std::min(per, b.cols - c)});
  } else {
    for (int64_t c = 0; c < b.cols; ++c)
      for (int64_t r = 0; r < b.rows; r += cap)
        out.push_back({r, c, std::min(cap, b.rows - r), 1});
  }
  return out;
}

// Host block -> device block at dst with leading dimension dst_ld (>= b.rows), on `stream` (one of the
// engine's upload streams).
tcgemm_status upload(HostEngine& e, cudaStream_t stream, const HostBlock& b, bool pinned, double* dst,
                     int64_t dst_ld) {
  if (pinned) {
    TCGEMM_CUDA_TRY(cudaMemcpy2DAsync(dst, size_t(dst_ld) * 8, b.first, size_t(b.ld) * 8, size_t(b.rows) * 8,
                                      size_t(b.cols), cudaMemcpyHostToDevice, stream));
    return TCGEMM_SUCCESS;
  }
  for (const Piece& p : staging_pieces(b, e.staging_bytes / 8)) {
    const int i = e.next_up_staging;
    e.next_up_staging = (i + 1) % HostEngine::kStagingBuffers;
    // The buffer's previous upload must have read it before the host overwrites it.
    TCGEMM_CUDA_TRY(cudaEventSynchronize(e.up_staging_free[i]));
    copy_runs({reinterpret_cast<const char*>(b.first + p.row0 + p.col0 * b.ld), b.ld * 8, e.up_staging[i],
               p.rows * 8, p.rows * 8, p.cols});
    TCGEMM_CUDA_TRY(cudaMemcpy2DAsync(dst + p.row0 + p.col0 * dst_ld, size_t(dst_ld) * 8, e.up_staging[i],
                                      size_t(p.rows) * 8, size_t(p.rows) * 8, size_t(p.cols),
                                      cudaMemcpyHostToDevice, stream));
    TCGEMM_CUDA_TRY(cudaEventRecord(e.up_staging_free[i], stream));
  }
  return TCGEMM_SUCCESS;
}

// Packed device copy (leading dimension rows) -> the caller's C block, on the download stream. Pageable C:
// up to kStagingBuffers pieces are in flight while the host copies finished ones out; returns when the
// block is in C. Pinned C: returns once the copy is queued.
tcgemm_status download(HostEngine& e, const double* src, double* c_first, int64_t ldc, int64_t rows, int64_t cols,
                       bool pinned) {
  if (pinned) {
    TCGEMM_CUDA_TRY(cudaMemcpy2DAsync(c_first, size_t(ldc) * 8, src, size_t(rows) * 8, size_t(rows) * 8,
                                      size_t(cols), cudaMemcpyDeviceToHost, e.download));
    return TCGEMM_SUCCESS;
  }
  const std::vector<Piece> pieces = staging_pieces({c_first, ldc, rows, cols}, e.staging_bytes / 8);
  constexpr int kBuffers = HostEngine::kStagingBuffers;
  auto issue = [&](size_t n) -> tcgemm_status {
    const Piece& p = pieces[n];
    const int i = int(n % kBuffers);
    TCGEMM_CUDA_TRY(cudaMemcpyAsync(e.down_staging[i], src + p.row0 + p.col0 * rows, size_t(p.rows * p.cols) * 8,
                                    cudaMemcpyDeviceToHost, e.download));
    TCGEMM_CUDA_TRY(cudaEventRecord(e.down_staging_ready[i], e.download));
    return TCGEMM_SUCCESS;
  };
  for (size_t n = 0; n < pieces.size() && n < size_t(kBuffers); ++n) TCGEMM_TRY(issue(n));
  for (size_t n = 0; n < pieces.size(); ++n) {
    const Piece& p = pieces[n];
    const int i = int(n % kBuffers);
    TCGEMM_CUDA_TRY(cudaEventSynchronize(e.down_staging_ready[i]));
    copy_runs({e.down_staging[i], p.rows * 8, reinterpret_cast<char*>(c_first + p.row0 + p.col0 * ldc), ldc * 8,
               p.rows * 8, p.cols});
    if (n + kBuffers < pieces.size()) TCGEMM_TRY(issue(n + kBuffers));
  }
  return TCGEMM_SUCCESS;
}

// Waits for the engine's three streams, whichever way the call ends: no copy may still run on the caller's
// arrays, or into device buffers about to be released, after it. Declared after the device buffers, so it
// runs before their (stream-ordered) release. Keeps the first CUDA error a wait reports (an asynchronous
// fault of a copy or a kernel).
struct StreamsDrained {
  HostEngine& e;
  cudaError_t* first_error;
  ~StreamsDrained() {
    for (cudaStream_t s : {e.upload, e.upload_blocks, e.compute, e.download}) {
      const cudaError_t err = cudaStreamSynchronize(s);
      if (err != cudaSuccess && *first_error == cudaSuccess) *first_error = err;
    }
    if (*first_error != cudaSuccess) (void)cudaGetLastError();
  }
};

}  // namespace

HostSchedule plan_host_schedule(int64_t m, int64_t n, int64_t k, int64_t resident_bytes) {
  HostSchedule s;
  const int64_t budget = resident_bytes / 8;  // doubles
  // Both operands fit: each is cut into blocks that go up once and stay (the "cached" order below).
  // Blocks of about an eighth of the dimension, kept between kMinBlock and kMaxBlock: large enough for
  // efficient products, small enough that the first ones arrive (and the last tile is done) quickly.
  if ((m + n) * k + 3 * kMaxBlock * kMaxBlock <= budget) {
    s.cached = true;
    auto block = [&](int64_t dim) {
      int64_t b = std::clamp(round_up((dim + kTargetPanels - 1) / kTargetPanels, kPanelQuantum), kMinBlock, kMaxBlock);
      b = std::min(b, std::max(kPanelQuantum, kMaxBlockBytes / 8 / k / kPanelQuantum * kPanelQuantum));
      return std::min(b, dim);
    };
    s.block_m = block(m);
    s.block_n = block(n);
    return s;
  }
  // Else keep the smaller operand resident (in chunks that fit the budget): the other streams through in
  // panels, once per chunk. Ties keep op(A).
  s.resident_a = m <= n;
  const int64_t resident_len = s.resident_a ? m : n, streamed_len = s.resident_a ? n : m;
  s.resident_chunk = std::min(resident_len, std::max<int64_t>(kPanelQuantum, budget / k));
  int64_t w = std::max(kMinPanel, round_up((streamed_len + kTargetPanels - 1) / kTargetPanels, kPanelQuantum));
  w = std::min(w, std::max(kPanelQuantum, kMaxTileBytes / 8 / s.resident_chunk / kPanelQuantum * kPanelQuantum));
  w = std::min(w, std::max(kPanelQuantum, kMaxPanelBytes / 8 / k / kPanelQuantum * kPanelQuantum));
  s.panel = std::min(w, streamed_len);
  return s;
}

namespace {

// One call's pipeline: the problem, its engine, and the three C-tile slots.
class Pipeline {
 public:
  Pipeline(const GemmProblem& p, const DeviceContext& ctx, HostEngine& e, bool* c_written)
      : p_(p), ctx_(ctx), e_(e), c_written_(c_written), ta_(p.transa != 'N'), tb_(p.transb != 'N') {
    a_pinned_ = is_pinned(p.A, ta_ ? p.k : p.m, ta_ ? p.m : p.k, p.lda);
    b_pinned_ = is_pinned(p.B, tb_ ? p.n : p.k, tb_ ? p.k : p.n, p.ldb);
    c_pinned_ = is_pinned(p.C, p.m, p.n, p.ldc);
  }

  // Rows i0.. (count) of op(A) and columns j0.. of op(B), as blocks of the stored matrices.
  HostBlock a_rows(int64_t i0, int64_t count) const {
    return ta_ ? HostBlock{p_.A + i0 * p_.lda, p_.lda, p_.k, count} : HostBlock{p_.A + i0, p_.lda, count, p_.k};
  }
  HostBlock b_cols(int64_t j0, int64_t count) const {
    return tb_ ? HostBlock{p_.B + j0, p_.ldb, count, p_.k} : HostBlock{p_.B + j0 * p_.ldb, p_.ldb, p_.k, count};
  }

  // Both operands whole on the GPU, C in tiles of block_m x block_n. Tiles go in "growing square" order:
  // step s uploads row block s of op(A) and column block s of op(B), then computes every tile (i, j) with
  // max(i, j) = s. The first product starts once one block of each has arrived, not the whole operand,
  // and each step's uploads overlap the products of the step before.
  tcgemm_status run_cached(const HostSchedule& s) {
    StreamScratch a_buf, b_buf, tile_buf[HostEngine::kSlots];
    double* a_dev = nullptr;
    double* b_dev = nullptr;
    TCGEMM_TRY(allocate(a_buf, p_.m * p_.k, &a_dev));
    TCGEMM_TRY(allocate(b_buf, p_.k * p_.n, &b_dev));
    for (int i = 0; i < HostEngine::kSlots; ++i) TCGEMM_TRY(allocate(tile_buf[i], s.block_m * s.block_n, &tile_[i]));
    StreamsDrained drained{e_, &wait_error_};  // after the buffers: runs before their release
    TCGEMM_TRY(start());
    // The device copies keep the stored layout, packed: op(A) rows i0.. start at i0 (leading dimension m)
    // for 'N', at column i0 (leading dimension k) for 'T'; the same for op(B)'s columns.
    const int64_t lda = ta_ ? p_.k : p_.m, ldb = tb_ ? p_.n : p_.k;
    auto a_at = [&](int64_t i0) { return a_dev + (ta_ ? i0 * p_.k : i0); };
    auto b_at = [&](int64_t j0) { return b_dev + (tb_ ? j0 : j0 * p_.k); };
    const int64_t mb = (p_.m + s.block_m - 1) / s.block_m, nb = (p_.n + s.block_n - 1) / s.block_n;
    for (int64_t step = 0; step < std::max(mb, nb); ++step) {
      if (step < mb) {
        const int64_t i0 = step * s.block_m;
        TCGEMM_TRY(upload(e_, e_.upload_blocks, a_rows(i0, std::min(s.block_m, p_.m - i0)), a_pinned_, a_at(i0), lda));
      }
      if (step < nb) {
        const int64_t j0 = step * s.block_n;
        TCGEMM_TRY(upload(e_, e_.upload_blocks, b_cols(j0, std::min(s.block_n, p_.n - j0)), b_pinned_, b_at(j0), ldb));
      }
      // This step's tiles wait for the blocks queued so far (the event's latest record).
      TCGEMM_CUDA_TRY(cudaEventRecord(e_.blocks_ready, e_.upload_blocks));
      waits_for_blocks_ = true;
      auto tile = [&](int64_t bi, int64_t bj) -> tcgemm_status {
        const int64_t i0 = bi * s.block_m, j0 = bj * s.block_n;
        const Tile t{next_slot(), i0, j0, std::min(s.block_m, p_.m - i0), std::min(s.block_n, p_.n - j0)};
        return product(t, a_at(i0), lda, b_at(j0), ldb);
      };
      if (step < mb)
        for (int64_t bj = 0; bj <= std::min(step, nb - 1); ++bj) TCGEMM_TRY(tile(step, bj));
      if (step < nb)
        for (int64_t bi = 0; bi < std::min(step, mb); ++bi) TCGEMM_TRY(tile(bi, step));
    }
    return finish_all();
  }

  // The smaller operand resident in chunks, the other streamed in panels (once per chunk).
  tcgemm_status run_streamed(const HostSchedule& s) {
    const int64_t resident_len = s.resident_a ? p_.m : p_.n, streamed_len = s.resident_a ? p_.n : p_.m;
    const int64_t rows_cap = s.resident_a ? s.resident_chunk : s.panel;  // most rows of a C tile
    const int64_t cols_cap = s.resident_a ? s.panel : s.resident_chunk;
    StreamScratch resident_buf, panel_buf[HostEngine::kSlots], tile_buf[HostEngine::kSlots];
    double* resident = nullptr;
    double* panel[HostEngine::kSlots] = {};
    TCGEMM_TRY(allocate(resident_buf, s.resident_chunk * p_.k, &resident));
    for (int i = 0; i < HostEngine::kSlots; ++i) {
      TCGEMM_TRY(allocate(panel_buf[i], s.panel * p_.k, &panel[i]));
      TCGEMM_TRY(allocate(tile_buf[i], rows_cap * cols_cap, &tile_[i]));
    }
    StreamsDrained drained{e_, &wait_error_};
    TCGEMM_TRY(start());
    for (int64_t r0 = 0; r0 < resident_len; r0 += s.resident_chunk) {
      const int64_t rc = std::min(s.resident_chunk, resident_len - r0);
      // A new resident chunk overwrites the old one only after every product that read it.
      if (r0 > 0) TCGEMM_CUDA_TRY(cudaStreamWaitEvent(e_.upload, e_.resident_used, 0));
      const HostBlock rb = s.resident_a ? a_rows(r0, rc) : b_cols(r0, rc);
      TCGEMM_TRY(upload(e_, e_.upload, rb, s.resident_a ? a_pinned_ : b_pinned_, resident, rb.rows));
      for (int64_t s0 = 0; s0 < streamed_len; s0 += s.panel) {
        const int64_t sc = std::min(s.panel, streamed_len - s0);
        const int slot = next_slot();
        // The slot's previous C tile must have left before its panel is refilled.
        TCGEMM_CUDA_TRY(cudaStreamWaitEvent(e_.upload, e_.slot_free[slot], 0));
        const HostBlock sb = s.resident_a ? b_cols(s0, sc) : a_rows(s0, sc);
        TCGEMM_TRY(upload(e_, e_.upload, sb, s.resident_a ? b_pinned_ : a_pinned_, panel[slot], sb.rows));
        const Tile t = s.resident_a ? Tile{slot, r0, s0, rc, sc} : Tile{slot, s0, r0, sc, rc};
        TCGEMM_TRY(s.resident_a ? product(t, resident, rb.rows, panel[slot], sb.rows)
                                : product(t, panel[slot], sb.rows, resident, rb.rows));
      }
    }
    return finish_all();
  }

  cudaError_t wait_error() const { return wait_error_; }

 private:
  struct Tile {
    int slot;
    int64_t i0, j0, rows, cols;
  };

  tcgemm_status allocate(StreamScratch& buf, int64_t elements, double** out) {
    void* ptr = nullptr;
    TCGEMM_TRY(buf.allocate(ctx_, size_t(elements) * 8, e_.compute, &ptr));
    *out = static_cast<double*>(ptr);
    return TCGEMM_SUCCESS;
  }
  // The buffers were allocated on the compute stream: the copy streams wait for that.
  tcgemm_status start() {
    TCGEMM_CUDA_TRY(cudaEventRecord(e_.join, e_.compute));
    for (cudaStream_t s : {e_.upload, e_.upload_blocks, e_.download}) TCGEMM_CUDA_TRY(cudaStreamWaitEvent(s, e_.join, 0));
    return TCGEMM_SUCCESS;
  }
  int next_slot() { return int(count_++ % HostEngine::kSlots); }

  // C tile t = alpha op(A) op(B) + beta C on the GPU from the device operands given, then home: its C
  // upload (beta != 0) follows the operand uploads queued before it, and the previous tile's download
  // goes after this tile's uploads are queued, so the host's waits for it never hold the upload stream.
  tcgemm_status product(const Tile& t, const double* a, int64_t lda, const double* b, int64_t ldb) {
    TCGEMM_CUDA_TRY(cudaStreamWaitEvent(e_.upload, e_.slot_free[t.slot], 0));
    if (p_.beta != 0.0)
      TCGEMM_TRY(upload(e_, e_.upload, {p_.C + t.i0 + t.j0 * p_.ldc, p_.ldc, t.rows, t.cols}, c_pinned_,
                        tile_[t.slot], t.rows));
    TCGEMM_CUDA_TRY(cudaEventRecord(e_.slot_uploaded[t.slot], e_.upload));
    TCGEMM_CUDA_TRY(cudaStreamWaitEvent(e_.compute, e_.slot_uploaded[t.slot], 0));
    if (waits_for_blocks_) TCGEMM_CUDA_TRY(cudaStreamWaitEvent(e_.compute, e_.blocks_ready, 0));
    GemmProblem d = p_;
    d.m = t.rows;
    d.n = t.cols;
    d.A = a;
    d.lda = lda;
    d.B = b;
    d.ldb = ldb;
    d.C = tile_[t.slot];
    d.ldc = t.rows;
    TCGEMM_TRY(run_on_device(d, tcgemm_config{}, ctx_, ArgNaming::Blas, kBlasPositions, e_.compute));
    TCGEMM_CUDA_TRY(cudaEventRecord(e_.slot_computed[t.slot], e_.compute));
    TCGEMM_CUDA_TRY(cudaEventRecord(e_.resident_used, e_.compute));
    if (have_pending_) TCGEMM_TRY(finish(pending_));
    pending_ = t;
    have_pending_ = true;
    return TCGEMM_SUCCESS;
  }
  tcgemm_status finish(const Tile& t) {
    TCGEMM_CUDA_TRY(cudaStreamWaitEvent(e_.download, e_.slot_computed[t.slot], 0));
    *c_written_ = true;
    TCGEMM_TRY(download(e_, tile_[t.slot], p_.C + t.i0 + t.j0 * p_.ldc, p_.ldc, t.rows, t.cols, c_pinned_));
    TCGEMM_CUDA_TRY(cudaEventRecord(e_.slot_free[t.slot], e_.download));
    return TCGEMM_SUCCESS;
  }
  // The last tile home; the buffers then go back to the pool on the compute stream after the last download.
  tcgemm_status finish_all() {
    if (have_pending_) TCGEMM_TRY(finish(pending_));
    have_pending_ = false;
    TCGEMM_CUDA_TRY(cudaEventRecord(e_.join, e_.download));
    TCGEMM_CUDA_TRY(cudaStreamWaitEvent(e_.compute, e_.join, 0));
    return TCGEMM_SUCCESS;
  }

  const GemmProblem& p_;
  const DeviceContext& ctx_;
  HostEngine& e_;
  bool* c_written_;
  const bool ta_, tb_;
  bool a_pinned_ = false, b_pinned_ = false, c_pinned_ = false;
  double* tile_[HostEngine::kSlots] = {};
  int64_t count_ = 0;
  Tile pending_{};
  bool have_pending_ = false;
  bool waits_for_blocks_ = false;  // products also wait for blocks_ready (cached schedule)
  cudaError_t wait_error_ = cudaSuccess;
};

}  // namespace

tcgemm_status pipelined_host_dgemm(const GemmProblem& p, const DeviceContext& ctx, bool* c_written) {
  *c_written = false;
  HostEngine* engine = nullptr;
  TCGEMM_TRY(acquire_host_engine(ctx, &engine));
  const HostSchedule s = plan_host_schedule(p.m, p.n, p.k, resident_budget_bytes(engine->device_memory));
  Pipeline pipeline(p, ctx, *engine, c_written);
  tcgemm_status status = s.cached ? pipeline.run_cached(s) : pipeline.run_streamed(s);
  cudaError_t wait_error = pipeline.wait_error();
  // The buffers were released on the compute stream; wait for that too, so the pool trims now.
  if (const cudaError_t err = cudaStreamSynchronize(engine->compute); err != cudaSuccess && wait_error == cudaSuccess)
    wait_error = err;
  if (status == TCGEMM_SUCCESS && wait_error != cudaSuccess)
    status = set_cuda_error(wait_error, "the host path's streams (cudaStreamSynchronize)");
  if (wait_error != cudaSuccess) (void)cudaGetLastError();
  release_host_engine(ctx, engine, status == TCGEMM_SUCCESS && wait_error == cudaSuccess);
  return status;
}

}  // namespace tcgemm::detail
