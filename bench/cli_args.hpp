// Command-line values of tcgemm-bench (both modes): numbers are parsed whole and range-checked, and output
// files are checked before a run. CLI11 parses the command line; the options below hand each value to these
// checks, so a bad value stops the program with "<option> <value>: <why>" (exit status 2) before any CUDA
// call. Host only, so the CPU tests check every rule on a machine without a GPU.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tcgemm::bench {

// The floor of --reps in both modes: a median of fewer timed runs is too noisy to report.
constexpr int kMinReps = 10;

// The whole of `text` as a base-10 integer in [min, max]. strtoll alone lets through an empty string
// (as 0), leading blanks, trailing characters ("12x" as 12) and overflow (clamped to LLONG_MAX, which a
// cast to int then truncates); all of these are rejected here. On failure returns false and leaves *out
// alone; *why says "not an integer" or "out of range: must be between <min> and <max>".
bool parse_integer(const std::string& text, long long min, long long max, long long* out, std::string* why);

// The whole of `text` as a finite double (strtod syntax). Rejects an empty string (atof's 0), leading
// blanks, trailing characters, overflow and underflow (ERANGE), and nan/inf. On failure returns false
// and leaves *out alone; *why says "not a number", "out of the range of a double" or "not a finite number".
bool parse_finite_double(const std::string& text, double* out, std::string* why);

// Whether `path` can be opened for writing: checked before a long GPU run, so that a typo in a path does
// not cost the run's results. An existing file keeps its contents; a file created for the check is
// removed again. On failure returns false with the system's reason in *why.
bool check_writable(const std::string& path, std::string* why);

// Every field between the separators, empty ones included: "64,,128" and "12x" must be seen as malformed,
// not shortened.
std::vector<std::string> split_fields(const std::string& text, char separator);

// "shared_a", "shared_ab", "sm90_mma", "auto" <-> TCGEMM_FAMILY_*; family_label gives "unknown" for others.
bool family_from_name(const std::string& name, int32_t* family);
const char* family_label(int32_t family);

// ---- CLI11 options that apply these checks --------------------------------------------------------
// Turns an option's text into its setting; false (with *why) rejects the command line.
using Converter = std::function<bool(const std::string& value, std::string* why)>;

// An option with one value, given to `convert` once the whole command line is read. Callbacks run in the
// order the options are added (not the order they are given), which is what lets a later option override
// a shortcut such as --table2. A rejected value becomes a CLI::ValidationError "<name> <value>: <why>".
// Given twice, the last value counts.
CLI::Option* add_checked_option(CLI::App& app, const std::string& name, Converter convert, const std::string& help,
                                const std::string& value_name);

// The Converter of a parse function of the usual shape: parse(text, &setting, &why).
template <class T>
Converter parse_into(bool (*parse)(const std::string&, T*, std::string*), T* target) {
  return [parse, target](const std::string& value, std::string* why) { return parse(value, target, why); };
}

// An integer in [min, max] (parse_integer) stored into *target.
template <class T>
CLI::Option* add_integer_option(CLI::App& app, const std::string& name, T* target, long long min, long long max,
                                const std::string& help, const std::string& value_name = "N") {
  return add_checked_option(
      app, name,
      [target, min, max](const std::string& value, std::string* why) {
        long long v = 0;
        if (!parse_integer(value, min, max, &v, why)) return false;
        *target = static_cast<T>(v);
        return true;
      },
      help, value_name);
}

// A finite double (parse_finite_double) stored into *target.
CLI::Option* add_finite_double_option(CLI::App& app, const std::string& name, double* target, const std::string& help,
                                      const std::string& value_name);

// A file the program will write: non-empty and writable now (check_writable), stored into *path.
CLI::Option* add_output_file_option(CLI::App& app, const std::string& name, std::string* path, const std::string& help);

}  // namespace tcgemm::bench
