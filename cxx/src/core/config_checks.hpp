// Building blocks of the families' configuration rules (each family's rules.cpp): one message format,
// "<field>=<value>: <rule> (family <name>)", and the position of the blamed field.
#pragma once

#include <cstdint>

#include "core/arguments.hpp"

namespace tcgemm::detail {

// Position of a configuration field: its own argument where the entry point takes it separately, else the
// configuration's.
int field_position(const ArgPositions& pos, const char* field);
tcgemm_status config_error(const ArgPositions& pos, const char* family, const char* field, int32_t value,
                           const char* rule);
// A shared-memory padding: >= 0, a multiple of 2 doubles (16 bytes), at most 64.
tcgemm_status check_pad(const ArgPositions& pos, const char* family, const char* field, int32_t pad);
tcgemm_status require_zero(const ArgPositions& pos, const char* family, const char* field, int32_t value,
                           const char* why);
// The families that read their operands from global memory: no k tile, padding or pipeline.
tcgemm_status require_no_shared_tiles(const ArgPositions& pos, const char* family, const tcgemm_config& c);

}  // namespace tcgemm::detail
