// CPU tests of how the library reads its integer environment variables (core/env.hpp): only an optional '-'
// and decimal digits within the caller's range count; anything else gives the caller's fallback.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>

#include "core/env.hpp"

namespace {

using tcgemm::detail::env_int;
using tcgemm::detail::parse_env_int;

TEST(EnvInt, AcceptsDecimalIntegersInRange) {
  int64_t v = 0;
  EXPECT_TRUE(parse_env_int("0", 0, 10, &v));
  EXPECT_EQ(v, 0);
  EXPECT_TRUE(parse_env_int("10", 0, 10, &v));
  EXPECT_EQ(v, 10);
  EXPECT_TRUE(parse_env_int("-5", -10, 10, &v));
  EXPECT_EQ(v, -5);
  EXPECT_TRUE(parse_env_int("9223372036854775807", 0, INT64_MAX, &v));
  EXPECT_EQ(v, INT64_MAX);
  EXPECT_TRUE(parse_env_int("007", 0, 10, &v));  // leading zeros are still decimal
  EXPECT_EQ(v, 7);
}

TEST(EnvInt, RejectsEverythingElse) {
  const char* const bad[] = {"",    " 5", "5 ",  "+5",   "--5",  "-",   "5x",  "0x10", "1e3",
                             "1.5", "11", "-11", "abc",  "\t7",  "9223372036854775808",
                             "-9223372036854775809", "99999999999999999999999"};
  for (const char* text : bad) {
    int64_t v = 42;
    EXPECT_FALSE(parse_env_int(text, -10, 10, &v)) << "'" << text << "'";
    EXPECT_EQ(v, 42) << "'" << text << "' changed the output";
  }
  int64_t v = 42;
  EXPECT_FALSE(parse_env_int(nullptr, 0, 10, &v));
  // Overflow must not be read as the largest value, even where the range would accept that value.
  EXPECT_FALSE(parse_env_int("18446744073709551616", 0, INT64_MAX, &v));
}

TEST(EnvInt, FallsBackWhenUnsetOrMalformed) {
  const char* name = "TCGEMM_TEST_ENV_INT";
  ::unsetenv(name);
  EXPECT_EQ(env_int(name, 0, 100, 17), 17);
  ::setenv(name, "", 1);
  EXPECT_EQ(env_int(name, 0, 100, 17), 17);
  ::setenv(name, "64", 1);
  EXPECT_EQ(env_int(name, 0, 100, 17), 64);
  ::setenv(name, "640", 1);
  EXPECT_EQ(env_int(name, 0, 100, 17), 17);
  ::setenv(name, "64k", 1);
  EXPECT_EQ(env_int(name, 0, 100, 17), 17);
  ::unsetenv(name);
}

}  // namespace
