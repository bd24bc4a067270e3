// The GPU local product (local_product.hpp): the local C goes up once (on a thread of its own, while the
// first panel is gathered), every panel goes up into one of two device buffers while the other is
// multiplied by tcgemm_dgemm, and the result comes down once at the end.
//
// Buffers (device: C, two A panels, two B panels; host: pinned panels for the broadcasts to land in, so the
// uploads are direct DMA) stay allocated between calls and only grow: a program that calls PDGEMM in a loop
// allocates once. tcgemm_pblas_release_workspace() frees them.
#include <cuda_runtime.h>

#include <algorithm>
#include <mutex>
#include <thread>

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
    if (uploader_.joinable()) uploader_.join();
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
    if (beta != 0.0 && mloc > 0 && nloc > 0) {
      // Pageable C: the copy holds its thread until the last byte is staged, so it gets a thread of its own
      // and overlaps the gathering of the first panel.
      uploader_ = std::thread([this] {
        upload_status_ = cudaSetDevice(device_);
        if (upload_status_ == cudaSuccess)
          upload_status_ = cudaMemcpy2DAsync(ws_->c, mloc_ * sizeof(double), c_, ldc_ * sizeof(double),
                                             mloc_ * sizeof(double), nloc_, cudaMemcpyHostToDevice, ws_->c_stream);
        if (upload_status_ == cudaSuccess) upload_status_ = cudaStreamSynchronize(ws_->c_stream);
      });
    }
    return true;
  }
  double* panel_a(int buffer) override { return ws_->host_a[buffer]; }
  double* panel_b(int buffer) override { return ws_->host_b[buffer]; }
  bool reclaim(int buffer, std::string* why) override {
    return cuda_ok(cudaEventSynchronize(ws_->uploaded[buffer]), "waiting for a panel upload", why);
  }
  bool add_panel(int buffer, int64_t width, double alpha, const std::vector<PanelPiece>& pieces,
                 std::string* why) override {
    if (first_) {
      first_ = false;
      if (uploader_.joinable()) uploader_.join();
      if (!cuda_ok(upload_status_, "uploading the local C", why)) return false;
    }
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
    const tcgemm_status st = tcgemm_dgemm('N', 'N', mloc_, nloc_, width, alpha, w.dev_a[buffer], mloc_,
                                          w.dev_b[buffer], width, beta_, w.c, mloc_, w.compute_stream);
    if (st != TCGEMM_SUCCESS) {
      *why = std::string("tcgemm_dgemm: ") + tcgemm_last_error();
      return false;
    }
    beta_ = 1.0;  // later panels add to the sum
    return cuda_ok(cudaEventRecord(w.multiplied[buffer], w.compute_stream), "cudaEventRecord", why);
  }
  bool finish(std::string* why) override {
    if (uploader_.joinable()) uploader_.join();  // no panel came (a process with no local C)
    if (!cuda_ok(upload_status_, "uploading the local C", why)) return false;
    return cuda_ok(cudaStreamSynchronize(ws_->compute_stream), "the local products", why) &&
           cuda_ok(cudaStreamSynchronize(ws_->up_stream), "the panel uploads", why);
  }
  bool write_back(std::string* why) override {
    if (mloc_ == 0 || nloc_ == 0) return true;
    const size_t d = sizeof(double);
    return cuda_ok(cudaMemcpy2D(c_, ldc_ * d, ws_->c, mloc_ * d, mloc_ * d, nloc_, cudaMemcpyDeviceToHost),
                   "downloading the local C", why);
  }
  void abandon() override {
    if (uploader_.joinable()) uploader_.join();
    if (ws_) {
      (void)cudaStreamSynchronize(ws_->compute_stream);
      (void)cudaStreamSynchronize(ws_->up_stream);
      (void)cudaGetLastError();
    }
  }

 private:
  int device_;
  int previous_device_ = -1;
  GpuWorkspace* ws_ = nullptr;
  int64_t mloc_ = 0, nloc_ = 0, ldc_ = 1;
  double* c_ = nullptr;
  double beta_ = 0.0;
  bool first_ = true;
  std::thread uploader_;
  cudaError_t upload_status_ = cudaSuccess;
};

}  // namespace

std::unique_ptr<LocalProduct> make_gpu_product(int device) { return std::make_unique<GpuProduct>(device); }

}  // namespace tcgemm::pblas
