// Math natives, called directly; expected values from gojq's test.yaml and the gojq binary.
#include <gtest/gtest.h>

#include "builtins_test_support.h"

namespace wmap::jq::testing {
namespace {

class MathTest : public ::testing::TestWithParam<Case> {};

TEST_P(MathTest, MatchesGojq) {
  const Case& c = GetParam();
  EXPECT_EQ(Call(c.name, c.input, c.args), c.want) << c.name << " on " << c.input;
}

INSTANTIATE_TEST_SUITE_P(
    Natives, MathTest,
    ::testing::Values(
        Case{"floor", "-3.7", {}, "-4"}, Case{"ceil", "-0.7", {}, "-0"},
        Case{"trunc", "-0.3", {}, "-0"}, Case{"fabs", "-1.7", {}, "1.7"},
        Case{"round", "-2.5", {}, "-3"}, Case{"round", "0.5", {}, "1"},
        Case{"nearbyint", "2.5", {}, "2"}, Case{"rint", "-0.5", {}, "-0"},
        Case{"sqrt", "-8", {}, "null"}, Case{"sqrt", "16", {}, "4"}, Case{"cbrt", "-8", {}, "-2"},
        Case{"significand", "10", {}, "1.25"}, Case{"significand", "5e-324", {}, "1"},
        Case{"significand", "0", {}, "0"}, Case{"exp10", "2", {}, "100"},
        Case{"pow10", "2", {}, "100"}, Case{"exp2", "10", {}, "1024"},
        Case{"log", "0", {}, "-1.7976931348623157e+308"}, Case{"log2", "64", {}, "6"},
        Case{"logb", "0.5", {}, "-1"}, Case{"gamma", "0", {}, "1.7976931348623157e+308"},
        Case{"tgamma", "10", {}, "362880"}, Case{"lgamma", "1", {}, "0"},
        Case{"y0", "0", {}, "-1.7976931348623157e+308"}, Case{"frexp", "3.125", {}, "[0.78125,2]"},
        Case{"frexp", "0", {}, "[0,0]"}, Case{"modf", "-0.5", {}, "[-0.5,-0]"},
        Case{"modf", "3.125", {}, "[0.125,3]"},
        Case{"sin", "\"a\"", {}, "error: sin cannot be applied to: string (\"a\")"},
        Case{"pow", "null", {"2", "10"}, "1024"},
        Case{"pow", "null", {"0", "-2"}, "1.7976931348623157e+308"},
        Case{"pow", "null", {"2", "\"x\""}, "error: pow cannot be applied to: string (\"x\")"},
        Case{"atan2", "null", {"1", "1"}, "0.7853981633974483"},
        Case{"fmax", "null", {"1", "null"}, "error: fmax cannot be applied to: null"},
        Case{"drem", "null", {"-0.75", "-0.25"}, "-0"},
        Case{"drem", "null", {"-0.75", "0.5"}, "0.25"}, Case{"ldexp", "null", {"0.5", "10"}, "512"},
        Case{"scalb", "null", {"2", "-2"}, "0.5"}, Case{"scalbln", "null", {"2", "3"}, "16"},
        Case{"nextafter", "null", {"0", "1"}, "5e-324"},
        Case{"fma", "null", {"1.5", "3.5", "5.25"}, "10.5"},
        Case{"isinfinite", "null", {}, "false"}, Case{"isfinite", "\"\"", {}, "false"},
        Case{"isnan", "null", {}, "false"},
        Case{"isnan", "\"\"", {}, "error: isnan cannot be applied to: string (\"\")"},
        Case{"isnormal", "2.2250738585072011e-308", {}, "false"},
        Case{"isnormal", "2.2250738585072014e-308", {}, "true"}, Case{"isnormal", "0", {}, "false"},
        Case{"infinite", "null", {}, "1.7976931348623157e+308"}, Case{"nan", "null", {}, "null"}));

}  // namespace
}  // namespace wmap::jq::testing
