// Which GPUs the host-array path uses (tcgemm_dgemm_host, and so libtcgemm_blas's dgemm_ on host arrays). In
// order of precedence:
//   1. the calling thread's list, set by tcgemm_set_host_devices;
//   2. TCGEMM_DEVICES: "all", or a comma list of device ordinals ("0,1"; spaces around entries allowed). An
//      ordinal may repeat: its parts then run on that GPU at once, each with its own engine (this is how the
//      split is tested on one GPU);
//   3. TCGEMM_DEVICE: one ordinal;
//   4. one rank of several on the node (Open MPI's OMPI_COMM_WORLD_LOCAL_RANK/_LOCAL_SIZE, MPICH's and Intel
//      MPI's MPI_LOCALRANKID/MPI_LOCALNRANKS, Slurm's SLURM_LOCALID with SLURM_NTASKS_PER_NODE or a uniform
//      SLURM_TASKS_PER_NODE, with more than one rank on the node): the one device local_rank % device_count;
//   5. every visible device.
// The rules are a pure function of the variables' values and the device count (choose_host_devices), so the
// CPU tests check them without a GPU. A malformed TCGEMM_DEVICES or TCGEMM_DEVICE is an error (no work is
// done); a launcher's malformed variables are not tcgemm's and are ignored.
#pragma once

#include <string>
#include <vector>

#include "tcgemm/tcgemm.h"

namespace tcgemm::detail {

// The most entries of a device list (each part of a product gets a host thread).
constexpr int kMaxHostDevices = 64;

// The environment values the choice reads (nullptr: unset).
struct DeviceListEnv {
  const char* devices = nullptr;           // TCGEMM_DEVICES
  const char* device = nullptr;            // TCGEMM_DEVICE
  const char* ompi_local_rank = nullptr;   // OMPI_COMM_WORLD_LOCAL_RANK
  const char* ompi_local_size = nullptr;   // OMPI_COMM_WORLD_LOCAL_SIZE
  const char* mpich_local_rank = nullptr;  // MPI_LOCALRANKID
  const char* mpich_local_size = nullptr;  // MPI_LOCALNRANKS
  const char* slurm_local_id = nullptr;    // SLURM_LOCALID
  const char* slurm_ntasks_per_node = nullptr;  // SLURM_NTASKS_PER_NODE
  const char* slurm_tasks_per_node = nullptr;   // SLURM_TASKS_PER_NODE ("2" or "2(x4)"; "3,2" is not uniform)
};
// The process's values now.
DeviceListEnv device_list_env();

// The list and where it came from ("TCGEMM_DEVICES", "TCGEMM_DEVICE", "local rank 1 of 2 (Open MPI)", "all
// devices"), or an error message naming the variable and the bad entry (then `devices` is empty).
struct DeviceListChoice {
  std::vector<int> devices;
  std::string source;
  std::string error;
  bool every_device = false;  // "all" (asked or by default): devices tcgemm cannot run on are left out
  bool ok() const { return error.empty(); }
};
DeviceListChoice choose_host_devices(const DeviceListEnv& env, int device_count);

// Whether the environment says this process is one of several ranks on its node, and which: the first
// launcher whose rank and size are both well-formed with size > 1 and rank < size (Open MPI, then MPICH / Intel
// MPI, then Slurm). *launcher names it ("Open MPI", "MPICH", "Slurm").
bool local_rank_of(const DeviceListEnv& env, int* rank, int* size, const char** launcher);

// Parses "all" / a comma list of ordinals as TCGEMM_DEVICES takes it (`what` names the source in messages).
DeviceListChoice parse_device_list(const char* text, int device_count, const char* what);

// The calling thread's own list (tcgemm_set_host_devices); empty: none (the environment decides).
void set_thread_host_devices(std::vector<int> devices);
const std::vector<int>& thread_host_devices();

// The effective list for a call on this thread, checked against the visible devices. Records the error and
// returns it: TCGEMM_ERROR_NO_DEVICE without a GPU, TCGEMM_ERROR_INVALID_ARGUMENT (argument 0) for a bad
// TCGEMM_DEVICES / TCGEMM_DEVICE or a thread list whose ordinal no longer exists. "All devices" leaves out
// those of compute capability below 8.0 (TCGEMM_ERROR_ARCHITECTURE when that leaves none).
tcgemm_status host_device_list(std::vector<int>* devices);
// The number of visible CUDA devices; TCGEMM_ERROR_NO_DEVICE (recorded) when there is none.
tcgemm_status visible_device_count(int* count);

}  // namespace tcgemm::detail
