// The device list of the host-array path (device_list.hpp).
#include "host/device_list.hpp"

#include <cuda_runtime_api.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

#include "core/device.hpp"
#include "core/errors.hpp"

namespace tcgemm::detail {
namespace {

thread_local std::vector<int> g_thread_devices;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// `text` without leading and trailing white space.
std::string trimmed(const std::string& text) {
  size_t b = 0, e = text.size();
  while (b < e && is_space(text[b])) ++b;
  while (e > b && is_space(text[e - 1])) --e;
  return text.substr(b, e - b);
}

// A non-negative decimal integer (digits only, after trimming), at most 9 digits; else -1.
int parse_ordinal(const std::string& raw) {
  const std::string t = trimmed(raw);
  if (t.empty() || t.size() > 9) return -1;
  int v = 0;
  for (char c : t) {
    if (c < '0' || c > '9') return -1;
    v = v * 10 + (c - '0');
  }
  return v;
}

// Slurm's SLURM_TASKS_PER_NODE when every node runs the same count: "2" or "2(x4)"; else -1.
int uniform_slurm_tasks(const char* text) {
  if (!text) return -1;
  std::string t = trimmed(text);
  const size_t paren = t.find('(');
  if (paren != std::string::npos) {
    if (t.back() != ')' || t.compare(paren, 2, "(x") != 0 || parse_ordinal(t.substr(paren + 2, t.size() - paren - 3)) < 0)
      return -1;
    t = t.substr(0, paren);
  }
  return parse_ordinal(t);
}

bool rank_pair(const char* rank_text, int size, int* rank, int* out_size) {
  if (!rank_text) return false;
  const int r = parse_ordinal(rank_text);
  if (r < 0 || size <= 1 || r >= size) return false;
  *rank = r;
  *out_size = size;
  return true;
}

DeviceListChoice failure(std::string message) {
  DeviceListChoice c;
  c.error = std::move(message);
  return c;
}

}  // namespace

DeviceListEnv device_list_env() {
  DeviceListEnv e;
  e.devices = std::getenv("TCGEMM_DEVICES");
  e.device = std::getenv("TCGEMM_DEVICE");
  e.ompi_local_rank = std::getenv("OMPI_COMM_WORLD_LOCAL_RANK");
  e.ompi_local_size = std::getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
  e.mpich_local_rank = std::getenv("MPI_LOCALRANKID");
  e.mpich_local_size = std::getenv("MPI_LOCALNRANKS");
  e.slurm_local_id = std::getenv("SLURM_LOCALID");
  e.slurm_ntasks_per_node = std::getenv("SLURM_NTASKS_PER_NODE");
  e.slurm_tasks_per_node = std::getenv("SLURM_TASKS_PER_NODE");
  return e;
}

bool local_rank_of(const DeviceListEnv& env, int* rank, int* size, const char** launcher) {
  if (env.ompi_local_size && rank_pair(env.ompi_local_rank, parse_ordinal(env.ompi_local_size), rank, size)) {
    *launcher = "Open MPI";
    return true;
  }
  if (env.mpich_local_size && rank_pair(env.mpich_local_rank, parse_ordinal(env.mpich_local_size), rank, size)) {
    *launcher = "MPICH";
    return true;
  }
  int slurm_size = env.slurm_ntasks_per_node ? parse_ordinal(env.slurm_ntasks_per_node) : -1;
  if (slurm_size < 0) slurm_size = uniform_slurm_tasks(env.slurm_tasks_per_node);
  if (rank_pair(env.slurm_local_id, slurm_size, rank, size)) {
    *launcher = "Slurm";
    return true;
  }
  return false;
}

DeviceListChoice parse_device_list(const char* text, int device_count, const char* what) {
  const std::string all = trimmed(text ? text : "");
  if (all.empty()) return failure(std::string(what) + " is empty: give \"all\" or a comma list of device ordinals");
  if (all == "all" || all == "ALL" || all == "All") {
    DeviceListChoice c;
    for (int d = 0; d < device_count && d < kMaxHostDevices; ++d) c.devices.push_back(d);
    c.source = what;
    c.every_device = true;
    return c;
  }
  DeviceListChoice c;
  size_t begin = 0;
  for (int entry = 1;; ++entry) {
    const size_t comma = all.find(',', begin);
    const std::string item = all.substr(begin, comma == std::string::npos ? std::string::npos : comma - begin);
    const int d = parse_ordinal(item);
    if (d < 0)
      return failure(std::string(what) + "=\"" + all + "\": entry " + std::to_string(entry) + " (\"" + trimmed(item) +
                     "\") is not a device ordinal (a non-negative integer) or \"all\"");
    if (d >= device_count)
      return failure(std::string(what) + "=\"" + all + "\": entry " + std::to_string(entry) + " (" +
                     std::to_string(d) + ") must be < the number of CUDA devices (" + std::to_string(device_count) +
                     ")");
    if (int(c.devices.size()) == kMaxHostDevices)
      return failure(std::string(what) + "=\"" + all + "\": more than " + std::to_string(kMaxHostDevices) +
                     " entries");
    c.devices.push_back(d);
    if (comma == std::string::npos) break;
    begin = comma + 1;
  }
  c.source = what;
  return c;
}

DeviceListChoice choose_host_devices(const DeviceListEnv& env, int device_count) {
  if (device_count <= 0) return failure("no CUDA device is available");
  if (env.devices) return parse_device_list(env.devices, device_count, "TCGEMM_DEVICES");
  if (env.device) {
    const int d = parse_ordinal(env.device);
    if (d < 0)
      return failure(std::string("TCGEMM_DEVICE=\"") + trimmed(env.device) +
                     "\" is not a device ordinal (a non-negative integer)");
    if (d >= device_count)
      return failure(std::string("TCGEMM_DEVICE=") + std::to_string(d) + " must be < the number of CUDA devices (" +
                     std::to_string(device_count) + ")");
    DeviceListChoice c;
    c.devices = {d};
    c.source = "TCGEMM_DEVICE";
    return c;
  }
  int rank = 0, size = 0;
  const char* launcher = "";
  DeviceListChoice c;
  if (local_rank_of(env, &rank, &size, &launcher)) {
    c.devices = {rank % device_count};
    c.source = "local rank " + std::to_string(rank) + " of " + std::to_string(size) + " (" + launcher + ")";
    return c;
  }
  for (int d = 0; d < device_count && d < kMaxHostDevices; ++d) c.devices.push_back(d);
  c.source = "all devices";
  c.every_device = true;
  return c;
}

void set_thread_host_devices(std::vector<int> devices) { g_thread_devices = std::move(devices); }

const std::vector<int>& thread_host_devices() { return g_thread_devices; }

tcgemm_status visible_device_count(int* count) {
  *count = 0;
  const cudaError_t e = cudaGetDeviceCount(count);
  if (is_no_device_error(e) || (e == cudaSuccess && *count == 0)) {
    (void)cudaGetLastError();
    *count = 0;
    return set_error(TCGEMM_ERROR_NO_DEVICE, "no CUDA device is available (%s: %s)",
                     e == cudaSuccess ? "cudaGetDeviceCount" : cudaGetErrorName(e),
                     e == cudaSuccess ? "0 devices" : cudaGetErrorString(e));
  }
  if (e != cudaSuccess) return set_cuda_error(e, "cudaGetDeviceCount");
  return TCGEMM_SUCCESS;
}

tcgemm_status host_device_list(std::vector<int>* devices) {
  int count = 0;
  TCGEMM_TRY(visible_device_count(&count));
  const std::vector<int>& own = g_thread_devices;
  if (!own.empty()) {
    for (size_t i = 0; i < own.size(); ++i)
      if (own[i] >= count)
        return set_error(TCGEMM_ERROR_INVALID_ARGUMENT,
                         "the thread's host device list (tcgemm_set_host_devices): devices[%zu] = %d must be < the "
                         "number of CUDA devices (%d)",
                         i, own[i], count);
    *devices = own;
    return TCGEMM_SUCCESS;
  }
  DeviceListChoice c = choose_host_devices(device_list_env(), count);
  if (!c.ok()) return set_error(TCGEMM_ERROR_INVALID_ARGUMENT, "%s", c.error.c_str());
  if (c.every_device) {
    // Every device tcgemm can run on: a node with an older GPU beside newer ones uses the newer ones.
    std::vector<int> usable;
    tcgemm_status first_refusal = TCGEMM_SUCCESS;
    std::string why;
    for (int d : c.devices) {
      DeviceContext ctx;
      const tcgemm_status st = device_gate(d, &ctx);
      if (st == TCGEMM_SUCCESS) {
        usable.push_back(d);
      } else if (st == TCGEMM_ERROR_ARCHITECTURE) {
        if (first_refusal == TCGEMM_SUCCESS) why = tcgemm_last_error();
        first_refusal = st;
      } else {
        return st;
      }
    }
    if (usable.empty()) return set_error(first_refusal, "%s", why.c_str());
    clear_error();
    c.devices = std::move(usable);
  }
  *devices = std::move(c.devices);
  return TCGEMM_SUCCESS;
}

}  // namespace tcgemm::detail
