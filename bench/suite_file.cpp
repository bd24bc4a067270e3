#include "suite_file.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "cli_args.hpp"

namespace tcgemm::bench {
namespace {

// The blank-separated fields of one line (the comment already cut off). '\r' counts as a blank, so a file
// with CRLF line ends reads the same.
std::vector<std::string> fields_of(const std::string& line) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    const size_t start = i;
    while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

bool form_list(const std::string& text, std::vector<std::string>* out, std::string* why) {
  std::vector<std::string> forms;
  for (const auto& f : split_fields(text, ',')) {
    if (f != "NN" && f != "NT" && f != "TN" && f != "TT")
      return *why = "bad form '" + f + "': must be NN, NT, TN or TT", false;
    if (std::find(forms.begin(), forms.end(), f) != forms.end())
      return *why = "form " + f + " given twice", false;
    forms.push_back(f);
  }
  *out = forms;
  return true;
}

// One line with its comment removed: false with *why for a malformed one; *has_shape false for a blank one.
bool parse_line(const std::string& line, SuiteShape* shape, bool* has_shape, std::string* why) {
  const auto fields = fields_of(line);
  *has_shape = !fields.empty();
  if (fields.empty()) return true;
  if (fields.size() > 2)
    return *why = "trailing junk '" + fields[2] + "' after the forms (a line is SIZE [FORMS])", false;
  if (!parse_shape(fields[0], &shape->size, why)) return *why = "bad size: " + *why, false;
  shape->forms = {"NN"};
  if (fields.size() == 2 && !form_list(fields[1], &shape->forms, why)) return false;
  return true;
}

}  // namespace

bool parse_suite_text(const std::string& text, const std::string& name, std::vector<SuiteShape>* out,
                      std::string* error) {
  std::vector<SuiteShape> shapes;
  int line_no = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    line = line.substr(0, line.find('#'));
    SuiteShape shape;
    shape.line = line_no;
    bool has_shape = false;
    std::string why;
    if (!parse_line(line, &shape, &has_shape, &why)) {
      *error = name + ":" + std::to_string(line_no) + ": " + why;
      return false;
    }
    if (has_shape) shapes.push_back(shape);
  }
  if (shapes.empty()) {
    *error = name + ":" + std::to_string(std::max(line_no, 1)) + ": no shapes (every line is blank or a comment)";
    return false;
  }
  *out = shapes;
  return true;
}

bool read_suite_file(const std::string& path, std::vector<SuiteShape>* out, std::string* error) {
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = path + ": cannot read: " + (errno ? std::strerror(errno) : "cannot be opened");
    return false;
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) {
    *error = path + ": cannot read: read error";
    return false;
  }
  return parse_suite_text(text.str(), path, out, error);
}

size_t suite_points(const std::vector<SuiteShape>& shapes) {
  size_t n = 0;
  for (const auto& s : shapes) n += s.forms.size();
  return n;
}

std::string format_suite(const std::string& name, const std::vector<SuiteShape>& shapes) {
  std::string out = name + ": " + std::to_string(suite_points(shapes)) + " shapes (size x form) from " +
                    std::to_string(shapes.size()) + " lines\n";
  char buf[128];
  std::snprintf(buf, sizeof buf, "%17s %-4s %s\n", "M x N x K", "form", "line");
  out += buf;
  for (const auto& s : shapes)
    for (const auto& f : s.forms) {
      char dims[64];
      std::snprintf(dims, sizeof dims, "%lldx%lldx%lld", (long long)s.size.m, (long long)s.size.n,
                    (long long)s.size.k);
      std::snprintf(buf, sizeof buf, "%17s %-4s %d\n", dims, f.c_str(), s.line);
      out += buf;
    }
  return out;
}

}  // namespace tcgemm::bench
