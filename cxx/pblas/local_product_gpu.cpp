// The GPU local product (local_product.hpp): every panel goes up into one of two device buffers while the
// other is multiplied by tcgemm_dgemm into the device's C, and the result comes down once at the end, where
// beta * C is added on the host (so the local C never goes up).
//
// Buffers (device: C, two A panels, two B panels; host: pinned panels for the broadcasts to land in, so the
// uploads are direct DMA) stay allocated between calls and only grow: a program that calls PDGEMM in a loop
// allocates once. tcgemm_pblas_release_workspace() frees them.
#include <cuda_runtime.h>

#include <algorithm>
#include <mutex>
#include <thread>

#include <cstring>

#include "host_threads.hpp"
#include "local_product.hpp"
#include "tcgemm/tcgemm.h"
#include "workspace.hpp"

namespace tcgemm::pblas {
namespace {

bool cuda_ok(cudaError_t e, const char* what, std::string* why) {
  if (e == cudaSuccess) return true;
  *why = std::string(what) + ": " + cudaGetErrorString(e);
  (void)cudaGetLastError();
  return false;
}

class GpuProduct final : public LocalProduct {
 public:
  explicit GpuProduct(int device) : device_(device) {}
  ~GpuProduct() override {
    if (ws_) release_gpu_workspace(ws_);
    if (previous_device_ >= 0) (void)cudaSetDevice(previous_device_);
  }

  bool begin(int64_t mloc, int64_t nloc, int64_t panel, double beta, double* c, int64_t ldc,
             std::string* why) override {
    mloc_ = mloc;
    nloc_ = nloc;
    c_ = c;
    ldc_ = ldc;
    beta_ = beta;
    if (!cuda_ok(cudaGetDevice(&previous_device_), "cudaGetDevice", why)) return false;
    if (!cuda_ok(cudaSetDevice(device_), "cudaSetDevice", why)) return false;
    ws_ = acquire_gpu_workspace(device_, mloc, nloc, panel, why);
    if (!ws_) return false;
    return true;
  }
  double* panel_a(int buffer) override { return ws_->host_a[buffer]; }
  double* panel_b(int buffer) override { return ws_->host_b[buffer]; }
  bool reclaim(int buffer, std::string* why) override {
    return cuda_ok(cudaEventSynchronize(ws_->uploaded[buffer]), "waiting for a panel upload", why);
  }
  bool add_panel(int buffer, int64_t width, double alpha, const std::vector<PanelPiece>& pieces, bool last,
                 std::string* why) override {
    GpuWorkspace& w = *ws_;
    const size_t d = sizeof(double);
    // The device panel buffers are free once the product two panels back has read them.
    if (!cuda_ok(cudaStreamWaitEvent(w.up_stream, w.multiplied[buffer], 0), "cudaStreamWaitEvent", why)) return false;
    if (!cuda_ok(cudaMemcpyAsync(w.dev_a[buffer], w.host_a[buffer], mloc_ * width * d, cudaMemcpyHostToDevice,
                                 w.up_stream),
                 "uploading an A panel", why))
      return false;
    for (const PanelPiece& piece : pieces)
      if (!cuda_ok(cudaMemcpy2DAsync(w.dev_b[buffer] + piece.row, width * d, piece.data, piece.rows * d,
                                     piece.rows * d, nloc_, cudaMemcpyHostToDevice, w.up_stream),
                   "uploading a B panel", why))
        return false;
    if (!cuda_ok(cudaEventRecord(w.uploaded[buffer], w.up_stream), "cudaEventRecord", why)) return false;
    if (!cuda_ok(cudaStreamWaitEvent(w.compute_stream, w.uploaded[buffer], 0), "cudaStreamWaitEvent", why))
      return false;
    // The device C holds alpha * (the panels so far): the first panel writes it (beta = 0: the uninitialized
    // memory is not read), the others add to it. beta * C is added on the host when the result comes back.
    // The last panel goes by the staging chunks' columns, each chunk's end marked, so that write_back
    // brings a chunk down as soon as its product is done.
    const int64_t per = last ? chunk_columns() : nloc_;
    const int64_t chunks = (nloc_ + per - 1) / per;
    while (last && static_cast<int64_t>(w.chunk_done.size()) < chunks) {
      cudaEvent_t e = nullptr;
      if (!cuda_ok(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreate", why)) return false;
      w.chunk_done.push_back(e);
    }
    for (int64_t c = 0; c < chunks; ++c) {
      const int64_t j0 = c * per, cols = std::min(per, nloc_ - j0);
      const tcgemm_status st =
          tcgemm_dgemm('N', 'N', mloc_, cols, width, alpha, w.dev_a[buffer], mloc_, w.dev_b[buffer] + j0 * width,
                       width, first_ ? 0.0 : 1.0, w.c + j0 * mloc_, mloc_, w.compute_stream);
      if (st != TCGEMM_SUCCESS) {
        *why = std::string("tcgemm_dgemm: ") + tcgemm_last_error();
        return false;
      }
      if (last && !cuda_ok(cudaEventRecord(w.chunk_done[c], w.compute_stream), "cudaEventRecord", why)) return false;
    }
    first_ = false;
    last_split_ = last;
    return cuda_ok(cudaEventRecord(w.multiplied[buffer], w.compute_stream), "cudaEventRecord", why);
  }
  // With the last panel split by chunks, its products are not waited for here but chunk by chunk in
  // write_back, so that C comes down while they run. What can fail is known here all the same: launch errors
  // were returned by tcgemm_dgemm, and the panel uploads are waited for. (A kernel that faults during the
  // last panel shows in write_back, after the grid agreed: the call then ends the job, see summa.cpp.)
  bool finish(std::string* why) override {
    if (!last_split_ && !cuda_ok(cudaStreamSynchronize(ws_->compute_stream), "the local products", why)) return false;
    return cuda_ok(cudaStreamSynchronize(ws_->up_stream), "the panel uploads", why) &&
           cuda_ok(cudaGetLastError(), "the local products", why);
  }
  bool write_back(std::string* why) override {
    if (mloc_ == 0 || nloc_ == 0) return true;
    return cuda_ok(download_c(), "downloading the local C", why);
  }
  void abandon() override {
    if (ws_) {
      (void)cudaStreamSynchronize(ws_->compute_stream);
      (void)cudaStreamSynchronize(ws_->up_stream);
      (void)cudaGetLastError();
    }
  }

 private:
  // The result comes back through the two pinned staging buffers, whole columns at a time: while the copy
  // engine brings one chunk, several threads write the other into the caller's C as C = chunk + beta * C
  // (beta = 0: C is not read). Pageable copies by the CUDA driver would run at a fraction of the link's
  // speed, and C never has to go up: only the panels cross the link towards the GPU.
  int64_t chunk_columns() const {
    return std::max<int64_t>(1, static_cast<int64_t>(ws_->stage_bytes / (sizeof(double) * mloc_)));
  }
  cudaError_t download_c() {
    GpuWorkspace& w = *ws_;
    const int64_t per = chunk_columns();
    auto fetch = [&](int64_t j0, int buffer) {
      const int64_t cols = std::min(per, nloc_ - j0);
      cudaError_t e = last_split_ ? cudaStreamWaitEvent(w.c_stream, w.chunk_done[j0 / per], 0) : cudaSuccess;
      if (e != cudaSuccess) return e;
      e = cudaMemcpyAsync(w.host_c[buffer], w.c + j0 * mloc_, cols * mloc_ * sizeof(double),
                                      cudaMemcpyDeviceToHost, w.c_stream);
      return e == cudaSuccess ? cudaEventRecord(w.staged[buffer], w.c_stream) : e;
    };
    if (cudaError_t e = fetch(0, 0); e != cudaSuccess) return e;
    int buffer = 0;
    for (int64_t j0 = 0; j0 < nloc_; j0 += per, buffer ^= 1) {
      const int64_t cols = std::min(per, nloc_ - j0);
      if (cudaError_t e = cudaEventSynchronize(w.staged[buffer]); e != cudaSuccess) return e;
      if (j0 + per < nloc_)  // the next chunk comes down while this one is unpacked
        if (cudaError_t e = fetch(j0 + per, buffer ^ 1); e != cudaSuccess) return e;
      const double* stage = w.host_c[buffer];
      parallel_for(cols, 1, [&](int64_t from, int64_t to) {
        for (int64_t j = from; j < to; ++j) {
          double* c = c_ + (j0 + j) * ldc_;
          const double* r = stage + j * mloc_;
          if (beta_ == 0.0)
            std::memcpy(c, r, static_cast<size_t>(mloc_) * sizeof(double));
          else
            for (int64_t i = 0; i < mloc_; ++i) c[i] = r[i] + beta_ * c[i];
        }
      });
    }
    return cudaSuccess;
  }

  int device_;
  int previous_device_ = -1;
  GpuWorkspace* ws_ = nullptr;
  int64_t mloc_ = 0, nloc_ = 0, ldc_ = 1;
  double* c_ = nullptr;
  double beta_ = 0.0;
  bool first_ = true;
  bool last_split_ = false;  // the last panel went by chunks, each with its event in chunk_done
};

}  // namespace

std::unique_ptr<LocalProduct> make_gpu_product(int device) { return std::make_unique<GpuProduct>(device); }

}  // namespace tcgemm::pblas
