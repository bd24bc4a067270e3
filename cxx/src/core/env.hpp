// The library's environment variables, read one way: a decimal integer within a range, or a flag.
// Anything else (unset, empty, trailing characters, out of range) gives the caller's fallback, so a
// mistyped setting never changes behaviour halfway.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace tcgemm::detail {

// The value of `name` when it is a decimal integer in [lo, hi], else `fallback`.
inline int64_t env_int(const char* name, int64_t lo, int64_t hi, int64_t fallback) {
  const char* text = std::getenv(name);
  if (!text || !*text) return fallback;
  char* end = nullptr;
  const long long v = std::strtoll(text, &end, 10);
  return end && *end == '\0' && v >= lo && v <= hi ? int64_t(v) : fallback;
}

// Whether `name` is set to anything but "" or "0".
inline bool env_flag(const char* name) {
  const char* text = std::getenv(name);
  return text && *text && std::strcmp(text, "0") != 0;
}

}  // namespace tcgemm::detail
