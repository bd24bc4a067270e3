// A program that calls BLAS dgemm_ and links libtcgemm_blas in place of the system BLAS (built only: the
// install test checks that the package's tcgemm::blas target and tcgemm-blas.pc link).
#include <cstddef>
#include <cstdio>

extern "C" void dgemm_(const char*, const char*, const int*, const int*, const int*, const double*, const double*,
                       const int*, const double*, const int*, const double*, double*, const int*, size_t, size_t);

int main() {
  const int n = 2;
  const double a[4] = {1, 2, 3, 4}, b[4] = {1, 0, 0, 1}, one = 1.0, zero = 0.0;
  double c[4] = {0, 0, 0, 0};
  dgemm_("N", "N", &n, &n, &n, &one, a, &n, b, &n, &zero, c, &n, 1, 1);
  std::printf("%g %g %g %g\n", c[0], c[1], c[2], c[3]);
  return c[3] == 4.0 ? 0 : 1;
}
