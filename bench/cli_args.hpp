// Command-line values of the benchmark programs (tcgemm-bench, tcgemm-sweep): numbers are parsed whole
// and range-checked, and output files are checked before a run. Host only (no CUDA call), so the CPU
// tests check every rule and the programs reject bad input on a machine without a GPU.
#pragma once

#include <string>

namespace tcgemm::bench {

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

}  // namespace tcgemm::bench
