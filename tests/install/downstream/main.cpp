// A downstream C++ program built against an installed tcgemm (find_package or pkg-config).
#include <cstdio>
#include <vector>

#include <tcgemm/tcgemm.h>

int main() {
  std::printf("tcgemm %s\n", tcgemm_version_string());
  tcgemm_device_info info;
  if (tcgemm_device_info_get(-1, &info) != TCGEMM_SUCCESS) {
    std::printf("no usable device: %s\n", tcgemm_last_error());
    return 0;
  }
  const int64_t m = 64, n = 48, k = 32;
  std::vector<double> a(m * k, 1.0), b(k * n, 2.0), c(m * n, 0.0);
  const tcgemm_status s =
      tcgemm_dgemm_host('N', 'N', m, n, k, 1.0, a.data(), m, b.data(), k, 0.0, c.data(), m);
  if (s != TCGEMM_SUCCESS) {
    std::printf("tcgemm_dgemm_host: %s: %s\n", tcgemm_status_string(s), tcgemm_last_error());
    return 1;
  }
  std::printf("%s: C(1,1) = %g (expected %g)\n", info.name, c[0], 2.0 * k);
  return c[0] == 2.0 * k ? 0 : 1;
}
