// The pipelined host-array DGEMM (pipelined_dgemm.hpp).
#include "host/pipelined_dgemm.hpp"

#include <algorithm>
#include <cstdint>

#include "api/gemm_call.hpp"
#include "core/arguments.hpp"
#include "core/env.hpp"
#include "core/errors.hpp"
#include "core/memory_pool.hpp"
#include "host/copy_workers.hpp"
#include "host/host_engine.hpp"
#include "host/pipeline_profile.hpp"

namespace tcgemm::detail {

int64_t staging_piece_count(int64_t rows, int64_t cols, int64_t cap) {
  return rows <= cap ? (cols + cap / rows - 1) / (cap / rows) : cols * ((rows + cap - 1) / cap);
}

StagingPiece staging_piece(int64_t rows, int64_t cols, int64_t cap, int64_t n) {
  if (rows <= cap) {
    const int64_t per = cap / rows, c = n * per;
    return {0, c, rows, std::min(per, cols - c), c * rows};
  }
  const int64_t per_column = (rows + cap - 1) / cap, c = n / per_column, r = n % per_column * cap;
  return {r, c, std::min(cap, rows - r), 1, c * rows + r};
}

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
// Pinned row panels (and C tiles) copied by strided 2D DMA: at least this many rows (32 KiB per copied row),
// within kStridedPanelGrowth x the tile and panel caps (see plan_host_schedule).
constexpr int64_t kMinStridedPanel = 4096;
constexpr int64_t kStridedPanelGrowth = 4;
// ... except the tapered last panels, down to 1024 rows (8 KiB rows, copied at the full rate; only the one
// 2048-row step meets the slow 16 KiB rows, on a small copy).
constexpr int64_t kMinStridedTaper = 1024;
// The compute-bound cut (plan_host_schedule): the device speed the model assumes (tcgemm's large-square
// DGEMM on the H100, about 50 TFLOP/s), at most this many chunks, and the least gain worth a cut.
constexpr double kModelFlops = 50e12;
constexpr double kPinnedLinkGbs = 50.0;  // measured 50-55 GB/s each way on the H100 machine
constexpr int64_t kMaxComputeBoundChunks = 4;
constexpr double kMinSplitGain = 0.03;
// The resident operand's share of device memory.
constexpr double kResidentShare = 0.30;

int64_t round_up(int64_t x, int64_t q) { return (x + q - 1) / q * q; }

// TCGEMM_HOST_RESIDENT_BYTES (bytes, at least 1 MiB), else kResidentShare of the device's memory, but at
// most half of what is free now (a GPU shared with other work gets smaller chunks, not an allocation failure).
// Shared by `share` calls running on the device at once: 1/share of that.
int64_t resident_budget_bytes(int64_t device_memory, int share) {
  const int64_t asked = env_int("TCGEMM_HOST_RESIDENT_BYTES", kMiB, INT64_MAX, 0);
  if (asked) return asked;
  int64_t budget = int64_t(kResidentShare * double(device_memory) / double(std::max(share, 1)));
  size_t free_bytes = 0, total_bytes = 0;
  if (cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess)
    budget = std::min(budget, int64_t(free_bytes / 2 / size_t(std::max(share, 1))));
  else (void)cudaGetLastError();
  return std::max(budget, kMiB);
}

// TCGEMM_HOST_RESIDENT_CHUNKS (2..64): cut a resident operand that fits into that many double-buffered
// chunks; 0 (unset, or anything else): the schedule's own choice.
int forced_resident_chunks() { return int(env_int("TCGEMM_HOST_RESIDENT_CHUNKS", 2, 64, 0)); }

// TCGEMM_HOST_MIN_STRIDED_PANEL (rows, 64..65536): the least height of a streamed row panel copied by
// strided 2D DMA; else kMinStridedPanel.
int64_t min_strided_panel() { return env_int("TCGEMM_HOST_MIN_STRIDED_PANEL", 64, 65536, kMinStridedPanel); }

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

// Whether a pinned block can go by one 2D copy: its pitch must be within the device's limit (else, as for
// pageable memory, it goes by pieces through the staging buffers).
bool direct_copy(const HostEngine& e, bool pinned, int64_t ld) { return pinned && ld * 8 <= e.max_pitch; }

// Host block -> packed device copy (leading dimension b.rows), on the engine's upload stream.
tcgemm_status upload(HostEngine& e, const HostBlock& b, bool pinned, double* dst) {
  if (direct_copy(e, pinned, b.ld)) {
    TCGEMM_CUDA_TRY(cudaMemcpy2DAsync(dst, size_t(b.rows) * 8, b.first, size_t(b.ld) * 8, size_t(b.rows) * 8,
                                      size_t(b.cols), cudaMemcpyHostToDevice, e.upload));
    return TCGEMM_SUCCESS;
  }
  const int64_t cap = e.staging_bytes / 8, count = staging_piece_count(b.rows, b.cols, cap);
  for (int64_t n = 0; n < count; ++n) {
    const StagingPiece p = staging_piece(b.rows, b.cols, cap, n);
    const int i = e.next_up_staging;
    e.next_up_staging = (i + 1) % HostEngine::kStagingBuffers;
    // The buffer's previous upload must have read it before the host overwrites it.
    TCGEMM_CUDA_TRY(cudaEventSynchronize(e.up_staging_free[i]));
    copy_runs({reinterpret_cast<const char*>(b.first + p.row0 + p.col0 * b.ld), b.ld * 8, e.up_staging[i],
               p.rows * 8, p.rows * 8, p.cols});
    TCGEMM_CUDA_TRY(cudaMemcpyAsync(dst + p.offset, e.up_staging[i], size_t(p.rows * p.cols) * 8,
                                    cudaMemcpyHostToDevice, e.upload));
    TCGEMM_CUDA_TRY(cudaEventRecord(e.up_staging_free[i], e.upload));
  }
  return TCGEMM_SUCCESS;
}

// Packed device copy (leading dimension rows) -> the caller's C block, on the download stream. Pageable C:
// up to kStagingBuffers pieces are in flight while the host copies finished ones out; returns when the
// block is in C. Pinned C: returns once the copy is queued. *written is set once anything may have
// reached C.
tcgemm_status download(HostEngine& e, const double* src, double* c_first, int64_t ldc, int64_t rows, int64_t cols,
                       bool pinned, bool* written) {
  if (direct_copy(e, pinned, ldc)) {
    TCGEMM_CUDA_TRY(cudaMemcpy2DAsync(c_first, size_t(ldc) * 8, src, size_t(rows) * 8, size_t(rows) * 8,
                                      size_t(cols), cudaMemcpyDeviceToHost, e.download));
    *written = true;
    return TCGEMM_SUCCESS;
  }
  const int64_t cap = e.staging_bytes / 8, count = staging_piece_count(rows, cols, cap);
  constexpr int kBuffers = HostEngine::kStagingBuffers;
  auto issue = [&](int64_t n) -> tcgemm_status {
    const StagingPiece p = staging_piece(rows, cols, cap, n);
    const int i = int(n % kBuffers);
    TCGEMM_CUDA_TRY(cudaMemcpyAsync(e.down_staging[i], src + p.offset, size_t(p.rows * p.cols) * 8,
                                    cudaMemcpyDeviceToHost, e.download));
    TCGEMM_CUDA_TRY(cudaEventRecord(e.down_staging_ready[i], e.download));
    return TCGEMM_SUCCESS;
  };
  for (int64_t n = 0; n < count && n < kBuffers; ++n) TCGEMM_TRY(issue(n));
  for (int64_t n = 0; n < count; ++n) {
    const StagingPiece p = staging_piece(rows, cols, cap, n);
    const int i = int(n % kBuffers);
    TCGEMM_CUDA_TRY(cudaEventSynchronize(e.down_staging_ready[i]));
    *written = true;
    copy_runs({e.down_staging[i], p.rows * 8, reinterpret_cast<char*>(c_first + p.row0 + p.col0 * ldc), ldc * 8,
               p.rows * 8, p.cols});
    if (n + kBuffers < count) TCGEMM_TRY(issue(n + kBuffers));
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
    for (cudaStream_t s : {e.upload, e.compute, e.download}) {
      const cudaError_t err = cudaStreamSynchronize(s);
      if (err != cudaSuccess && *first_error == cudaSuccess) *first_error = err;
    }
    if (*first_error != cudaSuccess) (void)cudaGetLastError();
  }
};

}  // namespace

HostSchedule plan_host_schedule(int64_t m, int64_t n, int64_t k, int64_t resident_bytes, HostLink link) {
  HostSchedule s;
  // Keep the smaller operand resident: the other streams through in panels. Ties keep op(A).
  s.resident_a = m <= n;
  const int64_t resident_len = s.resident_a ? m : n, streamed_len = s.resident_a ? n : m;
  const int64_t budget = resident_bytes / 8;  // doubles
  s.resident_chunk = std::min(resident_len, std::max<int64_t>(kPanelQuantum, budget / k));
  if (s.resident_chunk == resident_len && link.forced_chunks > 1) {
    const int64_t r = link.forced_chunks;
    s.resident_chunk = std::min(resident_len, round_up((resident_len + r - 1) / r, kPanelQuantum));
    s.double_buffer = s.resident_chunk < resident_len;
  } else if (s.resident_chunk == resident_len && link.link_gbs > 0.0) {
    // Compute-bound products wait for the whole resident operand before their first product. With r
    // chunks (double-buffered) they wait for 1/r of it, but the streamed operand crosses the link r times:
    //   time(r) = max(link bytes(r) / rate, first chunk / rate + products).
    const double rate = link.link_gbs * 1e9, products = 2.0 * double(m) * double(n) * double(k) / kModelFlops;
    const double resident_b = 8.0 * double(resident_len) * double(k), streamed_b = 8.0 * double(streamed_len) * double(k);
    const double c_b = link.c_uploaded ? 8.0 * double(m) * double(n) : 0.0;
    // (Keeping the streamed panels on the GPU after the first pass, where they fit, does not pay: that pass
    // then carries all of them while computing 1/r of the product, and becomes upload-bound. On the H100,
    // 16384^3 pinned, 3 such chunks ran in 210 ms against 195 ms for 2 re-streamed ones.)
    double best = 0.0;
    for (int64_t r = 1; r <= kMaxComputeBoundChunks; ++r) {
      const int64_t chunk = std::min(resident_len, round_up((resident_len + r - 1) / r, kPanelQuantum));
      if (r > 1 && (chunk == resident_len || 2 * chunk * k > budget)) break;
      const double t = std::max((resident_b + double(r) * streamed_b + c_b) / rate,
                                8.0 * double(chunk) * double(k) / rate + products);
      // A split must gain at least kMinSplitGain, so that a near tie keeps the simpler schedule.
      if (r == 1 || t < best * (1.0 - kMinSplitGain)) {
        best = t;
        s.resident_chunk = chunk;
        s.double_buffer = r > 1;
      }
    }
  }
  int64_t w = std::max(kMinPanel, round_up((streamed_len + kTargetPanels - 1) / kTargetPanels, kPanelQuantum));
  w = std::min(w, std::max(kPanelQuantum, kMaxTileBytes / 8 / s.resident_chunk / kPanelQuantum * kPanelQuantum));
  w = std::min(w, std::max(kPanelQuantum, kMaxPanelBytes / 8 / k / kPanelQuantum * kPanelQuantum));
  // Strided copies of short rows run slower than the first wait and the tail of a few wide panels cost
  // (on the H100: 16384 x 2048 x 8192, pinned, 12.4 TFLOP/s with rows of 2048 doubles, 16.0 with 4096). The
  // streamed panels are strided when they are row panels of op(A) (with their C tiles: op(B) resident) or
  // column panels of a transposed B. The wider panel may take kStridedPanelGrowth x the tile and panel caps,
  // no more.
  const bool strided = link.min_panel > 0 && (!s.resident_a || link.b_transposed);
  if (strided) {
    const int64_t cap = std::min(kStridedPanelGrowth * kMaxTileBytes / 8 / s.resident_chunk,
                                 kStridedPanelGrowth * kMaxPanelBytes / 8 / k);
    w = std::max(w, std::min(round_up(link.min_panel, kPanelQuantum), cap / kPanelQuantum * kPanelQuantum));
  }
  s.panel = std::min(w, streamed_len);
  // The last panel's product and its C tile's download overlap nothing (on the H100, 8192^3 pinned: 3.6 ms of
  // 33.6; 16384 x 2048 x 8192 with strided panels of 4096 rows: 3.7 ms of 34.2), so the last stretch goes in
  // halving panels.
  s.taper_floor = strided ? std::min({s.panel, round_up(link.min_panel, kPanelQuantum), kMinStridedTaper}) : kMinPanel;
  return s;
}

int64_t host_panel_width(const HostSchedule& s, int64_t remaining) {
  if (s.taper_floor > 0 && remaining <= s.panel && remaining >= 2 * s.taper_floor)
    return round_up((remaining + 1) / 2, kPanelQuantum);
  return std::min(s.panel, remaining);
}

int64_t host_panel_count(const HostSchedule& s, int64_t streamed_len) {
  int64_t count = 0;
  for (int64_t s0 = 0; s0 < streamed_len; s0 += host_panel_width(s, streamed_len - s0)) ++count;
  return count;
}

tcgemm_status pipelined_host_dgemm(const GemmProblem& p, const DeviceContext& ctx, bool* c_written, int device_share) {
  *c_written = false;
  HostEngineLease lease(ctx);
  TCGEMM_TRY(lease.acquire());
  HostEngine& e = lease.get();
  const bool ta = p.transa != 'N', tb = p.transb != 'N';

  // Rows i0.. (count) of op(A) and columns j0.. of op(B), as blocks of the stored matrices.
  auto a_rows = [&](int64_t i0, int64_t count) {
    return ta ? HostBlock{p.A + i0 * p.lda, p.lda, p.k, count} : HostBlock{p.A + i0, p.lda, count, p.k};
  };
  auto b_cols = [&](int64_t j0, int64_t count) {
    return tb ? HostBlock{p.B + j0, p.ldb, count, p.k} : HostBlock{p.B + j0 * p.ldb, p.ldb, p.k, count};
  };
  const int64_t a_stored_rows = ta ? p.k : p.m, a_stored_cols = ta ? p.m : p.k;
  const int64_t b_stored_rows = tb ? p.n : p.k, b_stored_cols = tb ? p.k : p.n;
  const bool a_pinned = is_pinned(p.A, a_stored_rows, a_stored_cols, p.lda);
  const bool b_pinned = is_pinned(p.B, b_stored_rows, b_stored_cols, p.ldb);
  const bool c_pinned = is_pinned(p.C, p.m, p.n, p.ldc);
  // The compute-bound cut is for pinned arrays, whose link rate the model knows (kPinnedLinkGbs); pageable
  // arrays are paced by the host's staging copies.
  HostLink link;
  link.link_gbs = a_pinned && b_pinned && c_pinned ? kPinnedLinkGbs : 0.0;
  link.c_uploaded = p.beta != 0.0;
  link.forced_chunks = forced_resident_chunks();
  // Pinned panels go by direct 2D copies; the plan makes the strided ones tall enough.
  if (link.link_gbs > 0.0) link.min_panel = min_strided_panel();
  link.b_transposed = tb;
  const HostSchedule s = plan_host_schedule(p.m, p.n, p.k, resident_budget_bytes(e.device_memory, device_share), link);

  cudaError_t wait_error = cudaSuccess;
  PipelineProfile profile;  // TCGEMM_HOST_PROFILE=1: where the time goes, one line per call
  int64_t bytes_up = 0, bytes_down = 0;
  auto run = [&]() -> tcgemm_status {
    const int64_t resident_len = s.resident_a ? p.m : p.n, streamed_len = s.resident_a ? p.n : p.m;
    const int64_t rows_cap = s.resident_a ? s.resident_chunk : s.panel;  // most rows of a C tile
    const int64_t cols_cap = s.resident_a ? s.panel : s.resident_chunk;
    // Device buffers: all allocated on the compute stream, which the copy streams then wait for.
    StreamScratch resident_buf[2], panel_buf[HostEngine::kSlots], tile_buf[HostEngine::kSlots];
    double* resident_of[2] = {};
    double* panel[HostEngine::kSlots] = {};
    double* tile[HostEngine::kSlots] = {};
    void* ptr = nullptr;
    for (int i = 0; i < (s.double_buffer ? 2 : 1); ++i) {
      TCGEMM_TRY(resident_buf[i].allocate(ctx, size_t(s.resident_chunk * p.k) * 8, e.compute, &ptr));
      resident_of[i] = static_cast<double*>(ptr);
    }
    for (int i = 0; i < HostEngine::kSlots; ++i) {
      TCGEMM_TRY(panel_buf[i].allocate(ctx, size_t(s.panel * p.k) * 8, e.compute, &ptr));
      panel[i] = static_cast<double*>(ptr);
      TCGEMM_TRY(tile_buf[i].allocate(ctx, size_t(rows_cap * cols_cap) * 8, e.compute, &ptr));
      tile[i] = static_cast<double*>(ptr);
    }
    StreamsDrained drained{e, &wait_error};
    profile.start(e.compute);
    TCGEMM_CUDA_TRY(cudaEventRecord(e.join, e.compute));
    TCGEMM_CUDA_TRY(cudaStreamWaitEvent(e.upload, e.join, 0));
    TCGEMM_CUDA_TRY(cudaStreamWaitEvent(e.download, e.join, 0));

    struct Tile {
      int slot;
      int64_t i0, j0, rows, cols;
    };
    Tile pending{};
    bool have_pending = false;
    auto finish = [&](const Tile& t) -> tcgemm_status {
      TCGEMM_CUDA_TRY(cudaStreamWaitEvent(e.download, e.slot_computed[t.slot], 0));
      const int span = profile.begin(PipelineProfile::kDownload, e.download);
      TCGEMM_TRY(download(e, tile[t.slot], p.C + t.i0 + t.j0 * p.ldc, p.ldc, t.rows, t.cols, c_pinned, c_written));
      profile.end(span, e.download);
      bytes_down += t.rows * t.cols * 8;
      TCGEMM_CUDA_TRY(cudaEventRecord(e.slot_free[t.slot], e.download));
      return TCGEMM_SUCCESS;
    };

    // The resident operand's rows r0.. (count rc) as a block of the stored matrix; part `part` of `parts`
    // of its columns goes to the same place in the packed device copy (leading dimension: the block's rows).
    auto resident_block = [&](int64_t r0, int64_t rc) { return s.resident_a ? a_rows(r0, rc) : b_cols(r0, rc); };
    const bool resident_pinned = s.resident_a ? a_pinned : b_pinned;
    auto upload_resident = [&](const HostBlock& rb, double* dst, int64_t part, int64_t parts) -> tcgemm_status {
      const int64_t c0 = rb.cols * part / parts, c1 = rb.cols * (part + 1) / parts;
      if (c1 <= c0) return TCGEMM_SUCCESS;
      const HostBlock piece{rb.first + c0 * rb.ld, rb.ld, rb.rows, c1 - c0};
      const int span = profile.begin(PipelineProfile::kUpload, e.upload);
      TCGEMM_TRY(upload(e, piece, resident_pinned, dst + c0 * rb.rows));
      profile.end(span, e.upload);
      bytes_up += piece.rows * piece.cols * 8;
      return TCGEMM_SUCCESS;
    };
    const int64_t pass_tiles = host_panel_count(s, streamed_len);

    int64_t count = 0;
    for (int64_t r0 = 0, chunk = 0; r0 < resident_len; r0 += s.resident_chunk, ++chunk) {
      const int64_t rc = std::min(s.resident_chunk, resident_len - r0);
      // A resident buffer is refilled only after every product that read its previous chunk. Double-buffered,
      // that is the chunk before last, so this chunk uploads while the last one's products run (below).
      const int buf = s.double_buffer ? int(chunk % 2) : 0;
      double* const resident = resident_of[buf];
      const HostBlock rb = resident_block(r0, rc);
      if (!s.double_buffer || chunk == 0) {
        if (chunk >= 1) TCGEMM_CUDA_TRY(cudaStreamWaitEvent(e.upload, e.resident_used[buf], 0));
        TCGEMM_TRY(upload_resident(rb, resident, 0, 1));
      }
      // Double-buffered: the next chunk goes up in parts between this pass's panels (after the first, whose
      // product starts the pass), not all after the last one, where the next pass's first product would wait
      // for all of it with only the last few products queued (16384^3 pinned on the H100: about 10 ms).
      const int64_t next_r0 = r0 + s.resident_chunk;
      const bool next_interleaved = s.double_buffer && next_r0 < resident_len;
      const HostBlock next_rb =
          next_interleaved ? resident_block(next_r0, std::min(s.resident_chunk, resident_len - next_r0)) : HostBlock{};
      const int next_buf = int((chunk + 1) % 2);
      const int64_t next_parts = std::max<int64_t>(1, pass_tiles - 1);
      for (int64_t s0 = 0, sc = 0, j = 0; s0 < streamed_len; s0 += sc, ++count, ++j) {
        sc = host_panel_width(s, streamed_len - s0);
        const int slot = int(count % HostEngine::kSlots);
        const Tile t = s.resident_a ? Tile{slot, r0, s0, rc, sc} : Tile{slot, s0, r0, sc, rc};
        // The slot's previous C tile must have left before its buffers are refilled.
        TCGEMM_CUDA_TRY(cudaStreamWaitEvent(e.upload, e.slot_free[slot], 0));
        const HostBlock sb = s.resident_a ? b_cols(s0, sc) : a_rows(s0, sc);
        const int up_span = profile.begin(PipelineProfile::kUpload, e.upload);
        TCGEMM_TRY(upload(e, sb, s.resident_a ? b_pinned : a_pinned, panel[slot]));
        bytes_up += sb.rows * sb.cols * 8;
        if (p.beta != 0.0) {
          TCGEMM_TRY(upload(e, {p.C + t.i0 + t.j0 * p.ldc, p.ldc, t.rows, t.cols}, c_pinned, tile[slot]));
          bytes_up += t.rows * t.cols * 8;
        }
        profile.end(up_span, e.upload);
        TCGEMM_CUDA_TRY(cudaEventRecord(e.slot_uploaded[slot], e.upload));
        if (next_interleaved && (j >= 1 || pass_tiles == 1)) {
          const int64_t part = pass_tiles == 1 ? 0 : j - 1;
          // Its buffer last held the chunk before this one: wait for that chunk's products (queued ahead).
          if (part == 0 && chunk + 1 >= 2) TCGEMM_CUDA_TRY(cudaStreamWaitEvent(e.upload, e.resident_used[next_buf], 0));
          TCGEMM_TRY(upload_resident(next_rb, resident_of[next_buf], part, next_parts));
        }

        // The tile's product, on the packed device copies (leading dimension: their stored rows).
        TCGEMM_CUDA_TRY(cudaStreamWaitEvent(e.compute, e.slot_uploaded[slot], 0));
        const HostBlock ab = s.resident_a ? rb : sb, bb = s.resident_a ? sb : rb;
        GemmProblem d = p;
        d.m = t.rows;
        d.n = t.cols;
        d.A = s.resident_a ? resident : panel[slot];
        d.lda = ab.rows;
        d.B = s.resident_a ? panel[slot] : resident;
        d.ldb = bb.rows;
        d.C = tile[slot];
        d.ldc = t.rows;
        const int product_span = profile.begin(PipelineProfile::kCompute, e.compute);
        TCGEMM_TRY(run_on_device(d, tcgemm_config{}, ctx, ArgNaming::Blas, kBlasPositions, e.compute));
        profile.end(product_span, e.compute);
        TCGEMM_CUDA_TRY(cudaEventRecord(e.slot_computed[slot], e.compute));
        TCGEMM_CUDA_TRY(cudaEventRecord(e.resident_used[buf], e.compute));

        // The previous tile goes home now that this one's uploads are queued ahead of the host's waits.
        if (have_pending) TCGEMM_TRY(finish(pending));
        pending = t;
        have_pending = true;
      }
    }
    if (have_pending) TCGEMM_TRY(finish(pending));
    // The buffers go back to the pool on the compute stream, after the last download has read them.
    TCGEMM_CUDA_TRY(cudaEventRecord(e.join, e.download));
    TCGEMM_CUDA_TRY(cudaStreamWaitEvent(e.compute, e.join, 0));
    return TCGEMM_SUCCESS;
  };
  tcgemm_status status = run();
  // The buffers were released on the compute stream; wait for that too, so the pool trims now.
  if (const cudaError_t err = cudaStreamSynchronize(e.compute); err != cudaSuccess && wait_error == cudaSuccess)
    wait_error = err;
  if (status == TCGEMM_SUCCESS && wait_error != cudaSuccess)
    status = set_cuda_error(wait_error, "the host path's streams (cudaStreamSynchronize)");
  lease.mark_healthy(status == TCGEMM_SUCCESS && wait_error == cudaSuccess);
  if (status == TCGEMM_SUCCESS) profile.report(p.m, p.n, p.k, s, link.link_gbs > 0.0, bytes_up, bytes_down);
  return status;
}

}  // namespace tcgemm::detail
