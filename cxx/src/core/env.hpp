// The library's environment variables, read one way: a decimal integer within a range, or a flag.
// Anything else (unset, empty, blanks, a sign other than a leading '-', trailing characters, a value that
// overflows 64 bits or lies out of range) gives the caller's fallback, so a mistyped setting never changes
// behaviour halfway.
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace tcgemm::detail {

// `text` when it is a decimal integer in [lo, hi]: an optional '-' and digits only, nothing else.
inline bool parse_env_int(const char* text, int64_t lo, int64_t hi, int64_t* out) {
  if (!text) return false;
  const char* digits = text[0] == '-' ? text + 1 : text;
  if (*digits < '0' || *digits > '9') return false;  // empty, blank, '+' or a second sign
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(text, &end, 10);
  if (errno == ERANGE || !end || *end != '\0' || v < lo || v > hi) return false;
  *out = int64_t(v);
  return true;
}

// The value of `name` when it is a decimal integer in [lo, hi] (parse_env_int), else `fallback`.
inline int64_t env_int(const char* name, int64_t lo, int64_t hi, int64_t fallback) {
  int64_t v = 0;
  return parse_env_int(std::getenv(name), lo, hi, &v) ? v : fallback;
}

// Whether `name` is set to anything but "" or "0".
inline bool env_flag(const char* name) {
  const char* text = std::getenv(name);
  return text && *text && std::strcmp(text, "0") != 0;
}

}  // namespace tcgemm::detail
