// The CPU local product (local_product.hpp): C_loc is updated in place by the BLAS's dgemm_, panel piece by
// panel piece; nothing here can fail.
#include <vector>

#include "local_product.hpp"

extern "C" void dgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
                       const double* alpha, const double* a, const int* lda, const double* b, const int* ldb,
                       const double* beta, double* c, const int* ldc, size_t, size_t);

namespace tcgemm::pblas {
namespace {

class CpuProduct final : public LocalProduct {
 public:
  bool begin(int64_t mloc, int64_t nloc, int64_t panel, double beta, double* c, int64_t ldc, std::string*) override {
    mloc_ = mloc;
    nloc_ = nloc;
    c_ = c;
    ldc_ = ldc;
    for (auto& buf : a_) buf.resize(static_cast<size_t>(std::max<int64_t>(1, mloc * panel)));
    for (auto& buf : b_) buf.resize(static_cast<size_t>(std::max<int64_t>(1, panel * nloc)));
    // beta = 0: C is not read (it may hold NaN).
    for (int64_t j = 0; j < nloc; ++j)
      for (int64_t i = 0; i < mloc; ++i) {
        double& x = c[i + j * ldc];
        x = beta == 0.0 ? 0.0 : beta * x;
      }
    return true;
  }
  double* panel_a(int buffer) override { return a_[buffer].data(); }
  double* panel_b(int buffer) override { return b_[buffer].data(); }
  bool reclaim(int, std::string*) override { return true; }
  bool add_panel(int buffer, int64_t, double alpha, const std::vector<PanelPiece>& pieces, bool,
                 std::string*) override {
    const int m = static_cast<int>(mloc_), n = static_cast<int>(nloc_), ldc = static_cast<int>(ldc_);
    const double one = 1.0;
    for (const PanelPiece& piece : pieces) {
      const int k = static_cast<int>(piece.rows);
      dgemm_("N", "N", &m, &n, &k, &alpha, a_[buffer].data() + piece.row * mloc_, &m, piece.data, &k, &one, c_, &ldc,
             1, 1);
    }
    return true;
  }
  bool finish(std::string*) override { return true; }
  bool write_back(std::string*) override { return true; }
  void abandon() override {}

 private:
  int64_t mloc_ = 0, nloc_ = 0, ldc_ = 1;
  double* c_ = nullptr;
  std::vector<double> a_[2], b_[2];
};

}  // namespace

std::unique_ptr<LocalProduct> make_cpu_product() { return std::make_unique<CpuProduct>(); }

}  // namespace tcgemm::pblas
