// The host-array path's device list and split, without a GPU: TCGEMM_DEVICES / TCGEMM_DEVICE parsing, the
// local-rank rule of each launcher and the precedence of the sources (host/device_list.hpp, a pure function of
// the values and the device count); the cut of C into per-device blocks (host/multi_device.hpp); and the
// argument checks of tcgemm_set_host_devices / tcgemm_get_host_devices that come before any CUDA call.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "host/device_list.hpp"
#include "host/multi_device.hpp"
#include "tcgemm/tcgemm.h"

namespace {

using tcgemm::detail::choose_host_devices;
using tcgemm::detail::DeviceListChoice;
using tcgemm::detail::DeviceListEnv;
using tcgemm::detail::HostSplit;
using tcgemm::detail::split_host_product;

DeviceListEnv with_devices(const char* devices) {
  DeviceListEnv e;
  e.devices = devices;
  return e;
}

std::vector<int> list(std::initializer_list<int> v) { return std::vector<int>(v); }

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(HostDeviceList, CommaListsAndAll) {
  EXPECT_EQ(choose_host_devices(with_devices("0,1"), 2).devices, list({0, 1}));
  EXPECT_EQ(choose_host_devices(with_devices("1,0"), 2).devices, list({1, 0}));
  EXPECT_EQ(choose_host_devices(with_devices(" 0 , 1 "), 2).devices, list({0, 1}));
  EXPECT_EQ(choose_host_devices(with_devices("\t1"), 4).devices, list({1}));
  EXPECT_EQ(choose_host_devices(with_devices("all"), 3).devices, list({0, 1, 2}));
  EXPECT_EQ(choose_host_devices(with_devices(" all "), 1).devices, list({0}));
  const DeviceListChoice c = choose_host_devices(with_devices("0,1"), 2);
  EXPECT_TRUE(c.ok());
  EXPECT_EQ(c.source, "TCGEMM_DEVICES");
  EXPECT_FALSE(c.every_device);
  EXPECT_TRUE(choose_host_devices(with_devices("all"), 2).every_device);
}

// A repeated ordinal is allowed: its parts run on that GPU at once (how the split is tested on one GPU).
TEST(HostDeviceList, RepeatedOrdinals) {
  EXPECT_EQ(choose_host_devices(with_devices("0,0"), 1).devices, list({0, 0}));
  EXPECT_EQ(choose_host_devices(with_devices("1,0,1"), 2).devices, list({1, 0, 1}));
}

TEST(HostDeviceList, BadEntriesNameTheVariableAndTheEntry) {
  struct Bad {
    const char* text;
    std::vector<std::string> parts;  // pieces the message must hold
  };
  for (const Bad& b : {Bad{"", {"TCGEMM_DEVICES", "empty"}}, Bad{"   ", {"TCGEMM_DEVICES", "empty"}},
                       Bad{"0,x", {"TCGEMM_DEVICES", "entry 2", "\"x\""}},
                       Bad{"0,,1", {"TCGEMM_DEVICES", "entry 2", "\"\""}},
                       Bad{"0,1,", {"TCGEMM_DEVICES", "entry 3"}}, Bad{"-1", {"TCGEMM_DEVICES", "entry 1", "-1"}},
                       Bad{"1.5", {"TCGEMM_DEVICES", "1.5"}}, Bad{"0;1", {"TCGEMM_DEVICES", "0;1"}},
                       Bad{"al", {"TCGEMM_DEVICES", "\"al\""}}, Bad{"0, all", {"TCGEMM_DEVICES", "entry 2"}}}) {
    const DeviceListChoice c = choose_host_devices(with_devices(b.text), 2);
    EXPECT_FALSE(c.ok()) << "\"" << b.text << "\"";
    EXPECT_TRUE(c.devices.empty());
    for (const std::string& part : b.parts) EXPECT_TRUE(contains(c.error, part)) << c.error << " lacks " << part;
  }
}

TEST(HostDeviceList, OrdinalsOutOfRange) {
  DeviceListChoice c = choose_host_devices(with_devices("0,2"), 2);
  EXPECT_FALSE(c.ok());
  EXPECT_TRUE(contains(c.error, "TCGEMM_DEVICES")) << c.error;
  EXPECT_TRUE(contains(c.error, "entry 2 (2)")) << c.error;
  EXPECT_TRUE(contains(c.error, "number of CUDA devices (2)")) << c.error;
  c = choose_host_devices(with_devices("123456789012"), 2);
  EXPECT_FALSE(c.ok());
  // More entries than the limit.
  std::string many = "0";
  for (int i = 0; i < tcgemm::detail::kMaxHostDevices; ++i) many += ",0";
  c = choose_host_devices(with_devices(many.c_str()), 1);
  EXPECT_FALSE(c.ok());
  EXPECT_TRUE(contains(c.error, "more than")) << c.error;
  // No device at all.
  c = choose_host_devices(DeviceListEnv{}, 0);
  EXPECT_FALSE(c.ok());
  EXPECT_TRUE(contains(c.error, "no CUDA device")) << c.error;
}

TEST(HostDeviceList, SingleDeviceVariable) {
  DeviceListEnv e;
  e.device = "1";
  DeviceListChoice c = choose_host_devices(e, 2);
  EXPECT_EQ(c.devices, list({1}));
  EXPECT_EQ(c.source, "TCGEMM_DEVICE");
  e.device = " 0 ";
  EXPECT_EQ(choose_host_devices(e, 2).devices, list({0}));
  for (const char* bad : {"", "x", "0,1", "-1", "all"}) {
    e.device = bad;
    c = choose_host_devices(e, 2);
    EXPECT_FALSE(c.ok()) << bad;
    EXPECT_TRUE(contains(c.error, "TCGEMM_DEVICE=")) << c.error;
  }
  e.device = "2";
  c = choose_host_devices(e, 2);
  EXPECT_FALSE(c.ok());
  EXPECT_TRUE(contains(c.error, "TCGEMM_DEVICE=2 must be < the number of CUDA devices (2)")) << c.error;
}

TEST(HostDeviceList, DefaultIsEveryDevice) {
  const DeviceListChoice c = choose_host_devices(DeviceListEnv{}, 4);
  EXPECT_EQ(c.devices, list({0, 1, 2, 3}));
  EXPECT_EQ(c.source, "all devices");
  EXPECT_TRUE(c.every_device);
}

TEST(HostDeviceList, LocalRankOfEachLauncher) {
  DeviceListEnv e;
  e.ompi_local_rank = "3";
  e.ompi_local_size = "4";
  DeviceListChoice c = choose_host_devices(e, 2);
  EXPECT_EQ(c.devices, list({1}));  // 3 % 2
  EXPECT_EQ(c.source, "local rank 3 of 4 (Open MPI)");

  e = {};
  e.mpich_local_rank = "1";
  e.mpich_local_size = "2";
  c = choose_host_devices(e, 4);
  EXPECT_EQ(c.devices, list({1}));
  EXPECT_TRUE(contains(c.source, "MPICH")) << c.source;

  e = {};
  e.slurm_local_id = "2";
  e.slurm_ntasks_per_node = "4";
  EXPECT_EQ(choose_host_devices(e, 2).devices, list({0}));
  e.slurm_ntasks_per_node = nullptr;
  e.slurm_tasks_per_node = "4(x3)";  // uniform: 4 tasks on each of 3 nodes
  c = choose_host_devices(e, 8);
  EXPECT_EQ(c.devices, list({2}));
  EXPECT_TRUE(contains(c.source, "Slurm")) << c.source;
  e.slurm_tasks_per_node = "3";
  EXPECT_EQ(choose_host_devices(e, 8).devices, list({2}));
  // Not uniform, malformed, or no size: the rank rule does not apply, every device is used.
  for (const char* tasks : {"4,2", "4(x3", "4(3)", "x", ""}) {
    e.slurm_tasks_per_node = tasks;
    EXPECT_EQ(choose_host_devices(e, 2).devices, list({0, 1})) << tasks;
  }
  e.slurm_tasks_per_node = nullptr;
  EXPECT_EQ(choose_host_devices(e, 2).devices, list({0, 1}));
}

TEST(HostDeviceList, LocalRankNeedsSeveralWellFormedRanks) {
  DeviceListEnv e;
  e.ompi_local_rank = "0";
  e.ompi_local_size = "1";  // one rank on the node: every device
  EXPECT_EQ(choose_host_devices(e, 2).devices, list({0, 1}));
  e.ompi_local_size = "2";
  e.ompi_local_rank = "2";  // rank >= size: ignored
  EXPECT_EQ(choose_host_devices(e, 2).devices, list({0, 1}));
  e.ompi_local_rank = "x";  // malformed: not tcgemm's variable, ignored
  EXPECT_EQ(choose_host_devices(e, 2).devices, list({0, 1}));
  e.ompi_local_rank = "1";
  e.ompi_local_size = nullptr;  // rank without size
  EXPECT_EQ(choose_host_devices(e, 2).devices, list({0, 1}));
  // A malformed Open MPI pair falls through to the next launcher.
  e.ompi_local_size = "x";
  e.mpich_local_rank = "1";
  e.mpich_local_size = "3";
  EXPECT_EQ(choose_host_devices(e, 4).devices, list({1}));
  int rank = -1, size = -1;
  const char* launcher = nullptr;
  EXPECT_TRUE(tcgemm::detail::local_rank_of(e, &rank, &size, &launcher));
  EXPECT_EQ(rank, 1);
  EXPECT_EQ(size, 3);
  EXPECT_STREQ(launcher, "MPICH");
}

TEST(HostDeviceList, Precedence) {
  DeviceListEnv e;
  e.ompi_local_rank = "1";
  e.ompi_local_size = "2";
  EXPECT_EQ(choose_host_devices(e, 4).devices, list({1}));  // the rank rule
  e.device = "3";
  EXPECT_EQ(choose_host_devices(e, 4).devices, list({3}));  // TCGEMM_DEVICE over the rank
  e.devices = "0,2";
  EXPECT_EQ(choose_host_devices(e, 4).devices, list({0, 2}));  // TCGEMM_DEVICES over both
  e.devices = "all";
  EXPECT_EQ(choose_host_devices(e, 4).devices, list({0, 1, 2, 3}));
  e.device = "bad";  // not read when TCGEMM_DEVICES is set
  EXPECT_TRUE(choose_host_devices(e, 4).ok());
  e.devices = nullptr;
  EXPECT_FALSE(choose_host_devices(e, 4).ok());  // ... but an error when it decides
}

// ---- the split -----------------------------------------------------------------------------------------

// Parts cover [0, len) in order, none empty, inner boundaries on the granule, each at least one granule.
void expect_well_formed(const HostSplit& s, int64_t len, int64_t g, size_t devices) {
  ASSERT_FALSE(s.parts.empty());
  ASSERT_LE(s.parts.size(), devices);
  int64_t at = 0;
  for (size_t i = 0; i < s.parts.size(); ++i) {
    const auto& p = s.parts[i];
    EXPECT_EQ(p.begin, at) << "part " << i;
    EXPECT_GT(p.length, 0) << "part " << i;
    EXPECT_EQ(p.device_index, int(i));
    if (s.parts.size() > 1) EXPECT_GE(p.length, g) << "part " << i;
    if (i + 1 < s.parts.size()) EXPECT_EQ((p.begin + p.length) % g, 0) << "part " << i;
    at += p.length;
  }
  EXPECT_EQ(at, len);
}

TEST(HostSplit, CoversTheLongerSide) {
  const std::vector<double> two(2, 132.0);
  HostSplit s = split_host_product(1000, 5000, 300, two, 0.0, 256);
  EXPECT_TRUE(s.by_columns);
  expect_well_formed(s, 5000, 256, 2);
  ASSERT_EQ(s.parts.size(), 2u);
  EXPECT_EQ(s.parts[0].length, 2560);  // 2500 to the nearest granule
  s = split_host_product(5000, 1000, 300, two, 0.0, 256);
  EXPECT_FALSE(s.by_columns);
  expect_well_formed(s, 5000, 256, 2);
  s = split_host_product(4096, 4096, 300, two, 0.0, 256);  // a tie cuts columns
  EXPECT_TRUE(s.by_columns);
  EXPECT_EQ(s.parts[0].length, 2048);
  EXPECT_EQ(s.parts[1].length, 2048);
}

TEST(HostSplit, ManyShapesAndDeviceCounts) {
  for (int64_t len : {512, 513, 700, 1000, 1023, 1024, 2049, 4097, 8192, 10000, 32768, 100003})
    for (size_t devices : {2u, 3u, 4u, 7u, 8u})
      for (int64_t g : {64, 256}) {
        const std::vector<double> w(devices, 1.0);
        const HostSplit s = split_host_product(7, len, 11, w, 0.0, g);
        expect_well_formed(s, len, g, devices);
        const size_t expected = size_t(std::min<int64_t>(int64_t(devices), len / g));
        EXPECT_EQ(s.parts.size(), expected) << len << " " << devices << " " << g;
        // Equal weights: every part within one granule of an equal share.
        for (const auto& p : s.parts)
          EXPECT_LE(std::abs(double(p.length) - double(len) / double(s.parts.size())), double(g))
              << len << " " << devices << " " << g;
      }
}

TEST(HostSplit, ProportionalToWeights) {
  HostSplit s = split_host_product(100, 4096, 100, {1.0, 3.0}, 0.0, 256);
  ASSERT_EQ(s.parts.size(), 2u);
  EXPECT_EQ(s.parts[0].length, 1024);
  EXPECT_EQ(s.parts[1].length, 3072);
  s = split_host_product(100, 10240, 100, {132.0, 114.0, 132.0}, 0.0, 256);
  expect_well_formed(s, 10240, 256, 3);
  EXPECT_LT(s.parts[1].length, s.parts[0].length);
  // A tiny weight still gets a granule.
  s = split_host_product(100, 4096, 100, {1.0, 1e-9}, 0.0, 256);
  expect_well_formed(s, 4096, 256, 2);
  EXPECT_EQ(s.parts[1].length, 256);
}

TEST(HostSplit, SmallProductsStayOnOneDevice) {
  const std::vector<double> two(2, 1.0);
  const double threshold = tcgemm::detail::kDefaultMinSplitFlops;
  // Under the threshold: one part, the whole side.
  HostSplit s = split_host_product(2000, 2000, 2000, two, threshold, 256);
  ASSERT_EQ(s.parts.size(), 1u);
  EXPECT_EQ(s.parts[0].length, 2000);
  EXPECT_EQ(s.parts[0].device_index, 0);
  // Over it: two.
  EXPECT_EQ(split_host_product(4096, 4096, 1024, two, threshold, 256).parts.size(), 2u);
  // A side under two granules, or one device: one part whatever the size.
  EXPECT_EQ(split_host_product(511, 500, 1 << 20, two, 0.0, 256).parts.size(), 1u);
  EXPECT_EQ(split_host_product(8192, 8192, 8192, {1.0}, 0.0, 256).parts.size(), 1u);
  // More devices than granules: the first ones.
  s = split_host_product(10, 800, 10, std::vector<double>(8, 1.0), 0.0, 256);
  ASSERT_EQ(s.parts.size(), 3u);
  expect_well_formed(s, 800, 256, 8);
}

// ---- the C calls' checks before any CUDA call ------------------------------------------------------------

TEST(HostDeviceApi, SetValidatesItsArguments) {
  EXPECT_EQ(tcgemm_set_host_devices(nullptr, -1), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tcgemm_last_error_argument(), 2);
  EXPECT_TRUE(contains(tcgemm_last_error(), "count=-1")) << tcgemm_last_error();
  EXPECT_EQ(tcgemm_set_host_devices(nullptr, 2), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tcgemm_last_error_argument(), 1);
  EXPECT_TRUE(contains(tcgemm_last_error(), "devices is NULL")) << tcgemm_last_error();
  const int32_t negative[] = {0, -3};
  EXPECT_EQ(tcgemm_set_host_devices(negative, 2), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tcgemm_last_error_argument(), 1);
  EXPECT_TRUE(contains(tcgemm_last_error(), "devices[1] = -3")) << tcgemm_last_error();
  std::vector<int32_t> many(size_t(tcgemm::detail::kMaxHostDevices) + 1, 0);
  EXPECT_EQ(tcgemm_set_host_devices(many.data(), int32_t(many.size())), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tcgemm_last_error_argument(), 2);
  // count 0 (back to the environment's rule) needs no GPU.
  EXPECT_EQ(tcgemm_set_host_devices(nullptr, 0), TCGEMM_SUCCESS);
  EXPECT_STREQ(tcgemm_last_error(), "");
}

TEST(HostDeviceApi, GetValidatesItsArguments) {
  int32_t count = -5, buffer[4];
  EXPECT_EQ(tcgemm_get_host_devices(buffer, -1, &count), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tcgemm_last_error_argument(), 2);
  EXPECT_EQ(tcgemm_get_host_devices(nullptr, 2, &count), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tcgemm_last_error_argument(), 1);
  EXPECT_EQ(tcgemm_get_host_devices(buffer, 4, nullptr), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tcgemm_last_error_argument(), 3);
}

// Without a GPU: an ordinal cannot be checked, so setting one is TCGEMM_ERROR_NO_DEVICE, as is asking for
// the list; with one, an ordinal past the last device is argument 1's error. (The GPU suite covers the rest.)
TEST(HostDeviceApi, OrdinalsAgainstTheVisibleDevices) {
  int visible = 0;
  if (cudaGetDeviceCount(&visible) != cudaSuccess) visible = 0;
  (void)cudaGetLastError();
  const int32_t zero[] = {0};
  int32_t count = -5, buffer[4];
  if (visible == 0) {
    EXPECT_EQ(tcgemm_set_host_devices(zero, 1), TCGEMM_ERROR_NO_DEVICE);
    EXPECT_EQ(tcgemm_get_host_devices(buffer, 4, &count), TCGEMM_ERROR_NO_DEVICE);
    EXPECT_EQ(count, 0);
    const double a = 1.0, b = 1.0;
    double c = 7.0;
    EXPECT_EQ(tcgemm_dgemm_host('N', 'N', 1, 1, 1, 1.0, &a, 1, &b, 1, 0.0, &c, 1), TCGEMM_ERROR_NO_DEVICE);
    EXPECT_EQ(c, 7.0);
    return;
  }
  const int32_t past[] = {0, visible};
  EXPECT_EQ(tcgemm_set_host_devices(past, 2), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tcgemm_last_error_argument(), 1);
  EXPECT_TRUE(contains(tcgemm_last_error(), "devices[1] = " + std::to_string(visible))) << tcgemm_last_error();
}

}  // namespace
