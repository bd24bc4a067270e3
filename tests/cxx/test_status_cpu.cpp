// Status strings, version, and the device gate's behaviour where no GPU exists.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <set>
#include <string>
#include <vector>

#include "tcgemm/tcgemm.h"

namespace {

TEST(Status, EveryCodeHasItsOwnName) {
  const tcgemm_status all[] = {TCGEMM_SUCCESS,          TCGEMM_ERROR_INVALID_ARGUMENT, TCGEMM_ERROR_INVALID_CONFIG,
                               TCGEMM_ERROR_NO_DEVICE,  TCGEMM_ERROR_ARCHITECTURE,     TCGEMM_ERROR_SHARED_MEMORY,
                               TCGEMM_ERROR_CUDA};
  std::set<std::string> names;
  for (tcgemm_status s : all) names.insert(tcgemm_status_string(s));
  EXPECT_EQ(names.size(), sizeof all / sizeof all[0]);
  EXPECT_STREQ(tcgemm_status_string(TCGEMM_ERROR_SHARED_MEMORY), "TCGEMM_ERROR_SHARED_MEMORY");
  EXPECT_STREQ(tcgemm_status_string(static_cast<tcgemm_status>(99)), "TCGEMM_ERROR_UNKNOWN_STATUS");
}

TEST(Status, AbiValuesAreStable) {  // the Fortran module mirrors these numbers
  EXPECT_EQ(int(TCGEMM_SUCCESS), 0);
  EXPECT_EQ(int(TCGEMM_ERROR_INVALID_ARGUMENT), 1);
  EXPECT_EQ(int(TCGEMM_ERROR_INVALID_CONFIG), 2);
  EXPECT_EQ(int(TCGEMM_ERROR_NO_DEVICE), 3);
  EXPECT_EQ(int(TCGEMM_ERROR_ARCHITECTURE), 4);
  EXPECT_EQ(int(TCGEMM_ERROR_SHARED_MEMORY), 5);
  EXPECT_EQ(int(TCGEMM_ERROR_CUDA), 6);
  EXPECT_EQ(sizeof(tcgemm_config), 32u);
  EXPECT_EQ(sizeof(tcgemm_device_info), 256u + 4 * 4 + 3 * 8);
}

TEST(Status, Version) {
  EXPECT_EQ(std::string(tcgemm_version_string()),
            std::to_string(TCGEMM_VERSION_MAJOR) + "." + std::to_string(TCGEMM_VERSION_MINOR) + "." +
                std::to_string(TCGEMM_VERSION_PATCH));
}

bool has_gpu() {
  int n = 0;
  const bool ok = cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
  (void)cudaGetLastError();
  return ok;
}

// On a machine without a GPU, a valid call passes validation and stops at the device gate.
TEST(DeviceGate, NoDeviceIsANamedError) {
  if (has_gpu()) GTEST_SKIP() << "this checks the behaviour without a CUDA device; a GPU is present";
  std::vector<double> a(16, 1.0), b(16, 1.0), c(16, 7.0);
  EXPECT_EQ(tcgemm_dgemm('N', 'N', 4, 2, 2, 1.0, a.data(), 4, b.data(), 2, 0.0, c.data(), 4, nullptr),
            TCGEMM_ERROR_NO_DEVICE);
  EXPECT_THAT(tcgemm_last_error(), ::testing::HasSubstr("no CUDA device is available"));
  for (double v : c) EXPECT_EQ(v, 7.0);
  tcgemm_device_info info;
  EXPECT_EQ(tcgemm_device_info_get(-1, &info), TCGEMM_ERROR_NO_DEVICE);
  tcgemm_config cfg{};
  cfg.family = TCGEMM_FAMILY_SHARED_AB;
  EXPECT_EQ(tcgemm_config_check_device(&cfg, 0), TCGEMM_ERROR_NO_DEVICE);
  EXPECT_EQ(tcgemm_dmma_peak(8, 8, 1, a.data(), 8, b.data(), 4, c.data(), 8, nullptr), TCGEMM_ERROR_NO_DEVICE);
}

}  // namespace
