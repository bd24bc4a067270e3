// The family table: one row per tcgemm_family with everything the library knows about a family (its name,
// its host-only rules and its launcher). Nothing else switches on the family: validation, the shared-memory
// and thread queries, the device rules, the grid rule and dispatch all read the row.
//
// Adding a family: a folder under families/ with rules.hpp/rules.cpp (host-only rules, also used by the
// kernel's static_asserts) and the kernel source, one row in family_table.cpp, and its tests.
#pragma once

#include <cstdint>

#include "core/arguments.hpp"
#include "core/problem.hpp"

namespace tcgemm::detail {

struct FamilyRow {
  int32_t id;  // tcgemm_family
  const char* name;
  // Full BLAS semantics (any trans, alpha, beta): tcgemm_dgemm_config accepts it. The example families
  // compute C = A B and have their own entry points.
  bool blas_semantics;
  // Checks the configuration's fields and resolves its zero ("default") fields into *out.
  tcgemm_status (*validate)(const tcgemm_config& in, const ArgPositions& pos, tcgemm_config* out);
  int64_t (*shared_memory_bytes)(const tcgemm_config& resolved);  // static + dynamic, per block
  int (*threads_per_block)(const tcgemm_config& resolved);
  // Blocks one launch needs on a one-block-per-tile grid dimension; nullptr: one block or a grid-stride loop.
  GridNeed (*grid_need)(const GemmProblem& p, const tcgemm_config& resolved);
  int default_pad_a, default_pad_b;  // tcgemm_default_config's paddings (0 is a legal padding, not "default")
  int required_cc_major;              // 0: any device tcgemm runs on (cc >= 8.0)
  FamilyLauncher launch;  // nullptr: AUTO (resolved first) and peak (its own entry point)
  // Whether this build has code for the family that runs on the device (nullptr: always, as every build
  // carries the cc 8.0 code that every device tcgemm accepts can run).
  bool (*code_available)(const DeviceContext& ctx);
  bool split_k;  // accepts tcgemm_config.k_splits > 1
};

// The family's complete default configuration (its paddings, every other field resolved by its rules);
// an unknown family comes back as given, for validation to reject.
tcgemm_config default_config_for(int32_t family);
// The row of a family, or nullptr for an unknown id.
const FamilyRow* find_family(int32_t family);
const char* family_name(int32_t family);

// Checks a configuration against its family's rules; on success *out has every 0 ("default") field
// resolved. AUTO stays AUTO (it is resolved against the device by the API layer).
tcgemm_status validate_config(const tcgemm_config& in, const ArgPositions& pos, tcgemm_config* out);
// For a resolved, valid configuration.
int64_t config_shared_memory_bytes(const tcgemm_config& resolved);
int config_threads_per_block(const tcgemm_config& resolved);
// Device-dependent rules for a resolved configuration: architecture and shared-memory limit.
tcgemm_status check_config_against_device(const tcgemm_config& resolved, const DeviceContext& ctx);

}  // namespace tcgemm::detail
