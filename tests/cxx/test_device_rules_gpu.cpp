// Device-dependent rules: a configuration that needs more shared memory than the device allows, and a
// family the device's architecture cannot run, are named errors raised before any launch, C untouched.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpu_test_util.hpp"

namespace {

using tcgemm::test::DeviceBuffer;

std::vector<double> run_rejected(const tcgemm_config& cfg, tcgemm_status expected, std::string* message) {
  const int64_t m = 64, n = 64, k = 64;
  const std::vector<double> hA = tcgemm::test::random_matrix(m, k, m, 11);
  const std::vector<double> hB = tcgemm::test::random_matrix(k, n, k, 12);
  const std::vector<double> sentinel(size_t(m * n), 7.0);
  DeviceBuffer<double> dA{hA.size()}, dB{hB.size()}, dC{sentinel.size()};
  EXPECT_EQ(dA.upload(hA), cudaSuccess);
  EXPECT_EQ(dB.upload(hB), cudaSuccess);
  EXPECT_EQ(dC.upload(sentinel), cudaSuccess);
  EXPECT_EQ(tcgemm_dgemm_config(&cfg, 'N', 'N', m, n, k, 1.0, dA.get(), m, dB.get(), k, 0.0, dC.get(), m, nullptr),
            expected);
  *message = tcgemm_last_error();
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<double> after;
  EXPECT_EQ(dC.download(&after), cudaSuccess);
  return after;
}

TEST(DeviceRules, SharedMemoryLimitIsANamedErrorWithByteCounts) {
  TCGEMM_REQUIRE_GPU();
  // The article's 128x128 tile with tile_k = 128 and pads 4: 270336 bytes, more than any current GPU allows.
  tcgemm_config cfg{};
  cfg.family = TCGEMM_FAMILY_SHARED_AB;
  cfg.tile_m = cfg.tile_n = 128;
  cfg.tile_k = 128;
  cfg.pad_a = cfg.pad_b = 4;
  cfg.stages = 1;
  tcgemm_device_info info;
  ASSERT_EQ(tcgemm_device_info_get(-1, &info), TCGEMM_SUCCESS);
  if (info.shared_memory_per_block_optin >= 270336) GTEST_SKIP() << "this device allows 270336 bytes per block";
  std::string message;
  const std::vector<double> after = run_rejected(cfg, TCGEMM_ERROR_SHARED_MEMORY, &message);
  EXPECT_THAT(message, ::testing::HasSubstr("needs 270336 bytes of shared memory per block"));
  EXPECT_THAT(message, ::testing::HasSubstr("allows " + std::to_string(info.shared_memory_per_block_optin)));
  for (double v : after) ASSERT_EQ(v, 7.0) << "C was written by a rejected call";
  EXPECT_EQ(tcgemm_config_check_device(&cfg, -1), TCGEMM_ERROR_SHARED_MEMORY);
}

TEST(DeviceRules, Sm90FamilyOnOtherArchitecturesIsANamedError) {
  TCGEMM_REQUIRE_GPU();
  if (tcgemm::test::device_cc_major() == 9) GTEST_SKIP() << "needs a device of compute capability other than 9.x";
  tcgemm_config cfg{};
  cfg.family = TCGEMM_FAMILY_SM90_MMA;
  std::string message;
  const std::vector<double> after = run_rejected(cfg, TCGEMM_ERROR_ARCHITECTURE, &message);
  EXPECT_THAT(message, ::testing::HasSubstr("family sm90_mma needs compute capability 9.x"));
  for (double v : after) ASSERT_EQ(v, 7.0) << "C was written by a rejected call";
}

TEST(DeviceRules, AutoPicksTheHopperFamilyOnlyOnHopper) {
  TCGEMM_REQUIRE_GPU();
  tcgemm_config cfg{};
  ASSERT_EQ(tcgemm_dgemm_select_config(-1, &cfg), TCGEMM_SUCCESS);
  EXPECT_EQ(cfg.family, tcgemm::test::hopper_path_expected() ? TCGEMM_FAMILY_SM90_MMA : TCGEMM_FAMILY_SHARED_AB);
  EXPECT_EQ(tcgemm_config_check_device(&cfg, -1), TCGEMM_SUCCESS);
}

// A Hopper with a build that has no sm_90 code (CMAKE_CUDA_ARCHITECTURES=80): the driver JIT-compiles the
// compute_80 PTX, in which the sm90_mma kernel's body is compiled away. The family must refuse to run (a
// named error, C untouched) rather than launch an empty kernel and report success.
TEST(DeviceRules, Sm90FamilyWithoutSm90CodeIsANamedError) {
  TCGEMM_REQUIRE_GPU();
  if (tcgemm::test::device_cc_major() != 9) GTEST_SKIP() << "needs a device of compute capability 9.x";
  if (TCGEMM_TEST_SM90_CODE) GTEST_SKIP() << "needs a build without sm_90 code (CMAKE_CUDA_ARCHITECTURES=80)";
  tcgemm_config cfg{};
  cfg.family = TCGEMM_FAMILY_SM90_MMA;
  std::string message;
  const std::vector<double> after = run_rejected(cfg, TCGEMM_ERROR_ARCHITECTURE, &message);
  EXPECT_THAT(message, ::testing::HasSubstr("CMAKE_CUDA_ARCHITECTURES including 90"));
  for (double v : after) ASSERT_EQ(v, 7.0) << "C was written by a rejected call";
  EXPECT_EQ(tcgemm_config_check_device(&cfg, -1), TCGEMM_ERROR_ARCHITECTURE) << tcgemm_last_error();
}

}  // namespace
