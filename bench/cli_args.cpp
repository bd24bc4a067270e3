#include "cli_args.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace tcgemm::bench {
namespace {

// strtoll/strtod skip leading blanks; a value must start with the number itself.
bool starts_like_a_number(const std::string& text) {
  return !text.empty() && !std::isspace(static_cast<unsigned char>(text[0]));
}

// Compared with the string's own end, so that an embedded NUL ("12\0x") is trailing junk too.
bool consumed_all(const std::string& text, const char* end) { return end == text.c_str() + text.size(); }

}  // namespace

bool parse_integer(const std::string& text, long long min, long long max, long long* out, std::string* why) {
  *why = "not an integer";
  if (!starts_like_a_number(text)) return false;
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (end == text.c_str() || !consumed_all(text, end)) return false;
  if (errno == ERANGE || v < min || v > max) {
    *why = "out of range: must be between " + std::to_string(min) + " and " + std::to_string(max);
    return false;
  }
  why->clear();
  *out = v;
  return true;
}

bool parse_finite_double(const std::string& text, double* out, std::string* why) {
  *why = "not a number";
  if (!starts_like_a_number(text)) return false;
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || !consumed_all(text, end)) return false;
  if (errno == ERANGE) {
    *why = "out of the range of a double";
    return false;
  }
  if (!std::isfinite(v)) {
    *why = "not a finite number";
    return false;
  }
  why->clear();
  *out = v;
  return true;
}

bool check_writable(const std::string& path, std::string* why) {
  std::error_code ec;
  const bool existed = std::filesystem::exists(path, ec);
  errno = 0;
  std::FILE* f = std::fopen(path.c_str(), "a");  // "a" creates a missing file and never truncates
  if (!f) {
    *why = errno ? std::strerror(errno) : "cannot be opened for writing";
    return false;
  }
  std::fclose(f);
  if (!existed) std::remove(path.c_str());
  return true;
}

}  // namespace tcgemm::bench
