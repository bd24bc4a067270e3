#include "cli_args.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "tcgemm/tcgemm.h"

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

std::vector<std::string> split_fields(const std::string& text, char separator) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t pos; (pos = text.find(separator, start)) != std::string::npos; start = pos + 1)
    out.push_back(text.substr(start, pos - start));
  out.push_back(text.substr(start));
  return out;
}

bool family_from_name(const std::string& name, int32_t* family) {
  for (const int32_t f : {TCGEMM_FAMILY_SHARED_A, TCGEMM_FAMILY_SHARED_AB, TCGEMM_FAMILY_SM90_MMA, TCGEMM_FAMILY_SKINNY,
                         TCGEMM_FAMILY_AUTO})
    if (name == family_label(f)) return *family = f, true;
  return false;
}

const char* family_label(int32_t family) {
  switch (family) {
    case TCGEMM_FAMILY_SHARED_A: return "shared_a";
    case TCGEMM_FAMILY_SHARED_AB: return "shared_ab";
    case TCGEMM_FAMILY_SM90_MMA: return "sm90_mma";
    case TCGEMM_FAMILY_SKINNY: return "skinny";
    case TCGEMM_FAMILY_AUTO: return "auto";
    default: return "unknown";
  }
}

CLI::Option* add_checked_option(CLI::App& app, const std::string& name, Converter convert, const std::string& help,
                                const std::string& value_name) {
  CLI::Option* opt = app.add_option_function<std::string>(
      name,
      [name, convert](const std::string& value) {
        std::string why;
        if (!convert(value, &why)) throw CLI::ValidationError(name + " " + value + ": " + why);
      },
      help);
  return opt->type_name(value_name)->take_last();
}

CLI::Option* add_finite_double_option(CLI::App& app, const std::string& name, double* target, const std::string& help,
                                      const std::string& value_name) {
  return add_checked_option(app, name, parse_into(parse_finite_double, target), help, value_name);
}

CLI::Option* add_output_file_option(CLI::App& app, const std::string& name, std::string* path,
                                    const std::string& help) {
  return add_checked_option(
      app, name,
      [path](const std::string& value, std::string* why) {
        if (value.empty()) return *why = "needs a file name", false;
        if (!check_writable(value, why)) return *why = "cannot write: " + *why, false;
        *path = value;
        return true;
      },
      help, "FILE");
}

}  // namespace tcgemm::bench
