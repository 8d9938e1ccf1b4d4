// Math natives: libm functions of one, two and three numbers, and the float classifiers.
// Results are doubles (printed as integers when integral), like gojq's float64 results.
#include <cmath>

#include "jq/builtins/common.h"
#include "jq/builtins/registry.h"

namespace wmap::jq::builtins {
namespace {

using Args = std::span<const Value>;
// Math natives ignore their input when they take arguments (pow(x; y) reads only x and y).
using Unary = double (*)(double);
using Binary = double (*)(double, double);

double Significand(double x) {
  if (std::isnan(x) || std::isinf(x) || x == 0) return x;
  int e;
  return std::frexp(x, &e) * 2;
}
double Exp10(double x) { return std::pow(10, x); }
double Lgamma(double x) { return std::lgamma(x); }
double Drem(double x, double y) {
  double r = std::remainder(x, y);
  return r == 0 ? std::copysign(r, x) : r;
}
int TruncToInt(double x) {
  if (std::isnan(x)) return 0;
  if (x >= 2147483647.0) return 2147483647;
  if (x <= -2147483648.0) return -2147483647 - 1;
  return static_cast<int>(x);
}
double Ldexp(double x, double e) {
  // Exponents beyond the double range saturate; clamping keeps the int conversion defined.
  double clamped = std::isnan(e) ? 0 : std::fmax(-100000.0, std::fmin(100000.0, e));
  return std::ldexp(x, static_cast<int>(clamped));
}
double Jn(double n, double x) { return ::jn(TruncToInt(n), x); }
double Yn(double n, double x) { return ::yn(TruncToInt(n), x); }

// Natives wrapping one libm function each; the builtin's name (used in errors) and the function
// are template parameters, so every table entry is a distinct plain function pointer.
template <const char* kName, Unary kFn>
bool UnaryMath(const NativeContext&, const Value& in, Args, Value* out) {
  if (!in.is_number()) return Fail(out, FuncTypeError(kName, in));
  return Ok(out, NumberResult(kFn(in.as_double())));
}

template <const char* kName, Binary kFn>
bool BinaryMath(const NativeContext&, const Value&, Args args, Value* out) {
  for (const Value& a : args) {
    if (!a.is_number()) return Fail(out, FuncTypeError(kName, a));
  }
  return Ok(out, NumberResult(kFn(args[0].as_double(), args[1].as_double())));
}

constexpr char kFma[] = "fma";
bool Fma(const NativeContext&, const Value&, Args args, Value* out) {
  for (const Value& a : args) {
    if (!a.is_number()) return Fail(out, FuncTypeError(kFma, a));
  }
  return Ok(out,
            NumberResult(std::fma(args[0].as_double(), args[1].as_double(), args[2].as_double())));
}

bool Frexp(const NativeContext&, const Value& in, Args, Value* out) {
  if (!in.is_number()) return Fail(out, FuncTypeError("frexp", in));
  int e = 0;
  double f = std::frexp(in.as_double(), &e);
  if (std::isinf(in.as_double()) || std::isnan(in.as_double())) e = 0;
  return Ok(out, Value::Array({NumberResult(f), Value::Int(e)}));
}

bool Modf(const NativeContext&, const Value& in, Args, Value* out) {
  if (!in.is_number()) return Fail(out, FuncTypeError("modf", in));
  double ip = 0;
  double fp = std::modf(in.as_double(), &ip);
  return Ok(out, Value::Array({NumberResult(fp), NumberResult(ip)}));
}

bool LgammaR(const NativeContext&, const Value& in, Args, Value* out) {
  if (!in.is_number()) return Fail(out, FuncTypeError("lgamma_r", in));
  int sign = 1;
  double r = ::lgamma_r(in.as_double(), &sign);
  return Ok(out, Value::Array({NumberResult(r), Value::Int(sign)}));
}

bool Infinite(const NativeContext&, const Value&, Args, Value* out) {
  return Ok(out, Value::Double(INFINITY));
}
bool Nan(const NativeContext&, const Value&, Args, Value* out) {
  return Ok(out, Value::Double(NAN));
}
bool IsInfinite(const NativeContext&, const Value& in, Args, Value* out) {
  return Ok(out, Value::Bool(in.is_number() && std::isinf(in.as_double())));
}
bool IsFinite(const NativeContext&, const Value& in, Args, Value* out) {
  return Ok(out, Value::Bool(in.is_number() && !std::isinf(in.as_double())));
}
bool IsNan(const NativeContext&, const Value& in, Args, Value* out) {
  if (in.is_null()) return Ok(out, Value::Bool(false));
  if (!in.is_number()) return Fail(out, FuncTypeError("isnan", in));
  return Ok(out, Value::Bool(std::isnan(in.as_double())));
}
bool IsNormal(const NativeContext&, const Value& in, Args, Value* out) {
  return Ok(out, Value::Bool(in.is_number() && std::isnormal(in.as_double())));
}

#define WMAP_UNARY(name, fn)         \
  constexpr char k_##name[] = #name; \
  constexpr NativeSpec kSpec_##name{#name, 0, UnaryMath<k_##name, fn>};
#define WMAP_BINARY(name, fn)        \
  constexpr char k_##name[] = #name; \
  constexpr NativeSpec kSpec_##name{#name, 2, BinaryMath<k_##name, fn>};

double Sin(double x) { return std::sin(x); }
double Cos(double x) { return std::cos(x); }
double Tan(double x) { return std::tan(x); }
double Asin(double x) { return std::asin(x); }
double Acos(double x) { return std::acos(x); }
double Atan(double x) { return std::atan(x); }
double Sinh(double x) { return std::sinh(x); }
double Cosh(double x) { return std::cosh(x); }
double Tanh(double x) { return std::tanh(x); }
double Asinh(double x) { return std::asinh(x); }
double Acosh(double x) { return std::acosh(x); }
double Atanh(double x) { return std::atanh(x); }
double Floor(double x) { return std::floor(x); }
double Round(double x) { return std::round(x); }
double RoundEven(double x) { return std::nearbyint(x); }
double Ceil(double x) { return std::ceil(x); }
double Trunc(double x) { return std::trunc(x); }
double Fabs(double x) { return std::fabs(x); }
double Sqrt(double x) { return std::sqrt(x); }
// libm's cbrt may miss by an ulp on exact cubes (cbrt(-3.375) != -1.5); one Newton step in
// extended precision gives the correctly rounded root there, as Go's math.Cbrt does.
double Cbrt(double x) {
  double r = std::cbrt(x);
  if (r == 0 || !std::isfinite(r)) return r;
  long double lr = r;
  lr -= (lr * lr * lr - x) / (3 * lr * lr);
  return static_cast<double>(lr);
}
double Exp(double x) { return std::exp(x); }
double Exp2(double x) { return std::exp2(x); }
double Expm1(double x) { return std::expm1(x); }
double Log(double x) { return std::log(x); }
double Log10(double x) { return std::log10(x); }
double Log1p(double x) { return std::log1p(x); }
double Log2(double x) { return std::log2(x); }
double Logb(double x) { return std::logb(x); }
double Gamma(double x) { return std::tgamma(x); }
double Erf(double x) { return std::erf(x); }
double Erfc(double x) { return std::erfc(x); }
double J0(double x) { return ::j0(x); }
double J1(double x) { return ::j1(x); }
double Y0(double x) { return ::y0(x); }
double Y1(double x) { return ::y1(x); }
double Atan2(double x, double y) { return std::atan2(x, y); }
double Copysign(double x, double y) { return std::copysign(x, y); }
double Fdim(double x, double y) { return std::fdim(x, y); }
double Fmax(double x, double y) { return std::fmax(x, y); }
double Fmin(double x, double y) { return std::fmin(x, y); }
double Fmod(double x, double y) { return std::fmod(x, y); }
double Hypot(double x, double y) { return std::hypot(x, y); }
double Nextafter(double x, double y) { return std::nextafter(x, y); }
double Remainder(double x, double y) { return std::remainder(x, y); }
double Pow(double x, double y) { return std::pow(x, y); }

WMAP_UNARY(sin, Sin)
WMAP_UNARY(cos, Cos)
WMAP_UNARY(tan, Tan)
WMAP_UNARY(asin, Asin)
WMAP_UNARY(acos, Acos)
WMAP_UNARY(atan, Atan)
WMAP_UNARY(sinh, Sinh)
WMAP_UNARY(cosh, Cosh)
WMAP_UNARY(tanh, Tanh)
WMAP_UNARY(asinh, Asinh)
WMAP_UNARY(acosh, Acosh)
WMAP_UNARY(atanh, Atanh)
WMAP_UNARY(floor, Floor)
WMAP_UNARY(round, Round)
WMAP_UNARY(nearbyint, RoundEven)
WMAP_UNARY(rint, RoundEven)
WMAP_UNARY(ceil, Ceil)
WMAP_UNARY(trunc, Trunc)
WMAP_UNARY(significand, Significand)
WMAP_UNARY(fabs, Fabs)
WMAP_UNARY(sqrt, Sqrt)
WMAP_UNARY(cbrt, Cbrt)
WMAP_UNARY(exp, Exp)
WMAP_UNARY(exp10, Exp10)
WMAP_UNARY(pow10, Exp10)
WMAP_UNARY(exp2, Exp2)
WMAP_UNARY(expm1, Expm1)
WMAP_UNARY(log, Log)
WMAP_UNARY(log10, Log10)
WMAP_UNARY(log1p, Log1p)
WMAP_UNARY(log2, Log2)
WMAP_UNARY(logb, Logb)
WMAP_UNARY(gamma, Gamma)
WMAP_UNARY(tgamma, Gamma)
WMAP_UNARY(lgamma, Lgamma)
WMAP_UNARY(erf, Erf)
WMAP_UNARY(erfc, Erfc)
WMAP_UNARY(j0, J0)
WMAP_UNARY(j1, J1)
WMAP_UNARY(y0, Y0)
WMAP_UNARY(y1, Y1)
WMAP_BINARY(atan2, Atan2)
WMAP_BINARY(copysign, Copysign)
WMAP_BINARY(drem, Drem)
WMAP_BINARY(fdim, Fdim)
WMAP_BINARY(fmax, Fmax)
WMAP_BINARY(fmin, Fmin)
WMAP_BINARY(fmod, Fmod)
WMAP_BINARY(hypot, Hypot)
WMAP_BINARY(jn, Jn)
WMAP_BINARY(ldexp, Ldexp)
WMAP_BINARY(scalb, Ldexp)
WMAP_BINARY(scalbln, Ldexp)
WMAP_BINARY(nextafter, Nextafter)
WMAP_BINARY(nexttoward, Nextafter)
WMAP_BINARY(remainder, Remainder)
WMAP_BINARY(yn, Yn)
WMAP_BINARY(pow, Pow)

#undef WMAP_UNARY
#undef WMAP_BINARY

constexpr NativeSpec kNatives[] = {
    kSpec_sin,
    kSpec_cos,
    kSpec_tan,
    kSpec_asin,
    kSpec_acos,
    kSpec_atan,
    kSpec_sinh,
    kSpec_cosh,
    kSpec_tanh,
    kSpec_asinh,
    kSpec_acosh,
    kSpec_atanh,
    kSpec_floor,
    kSpec_round,
    kSpec_nearbyint,
    kSpec_rint,
    kSpec_ceil,
    kSpec_trunc,
    kSpec_significand,
    kSpec_fabs,
    kSpec_sqrt,
    kSpec_cbrt,
    kSpec_exp,
    kSpec_exp10,
    kSpec_pow10,
    kSpec_exp2,
    kSpec_expm1,
    kSpec_log,
    kSpec_log10,
    kSpec_log1p,
    kSpec_log2,
    kSpec_logb,
    kSpec_gamma,
    kSpec_tgamma,
    kSpec_lgamma,
    kSpec_erf,
    kSpec_erfc,
    kSpec_j0,
    kSpec_j1,
    kSpec_y0,
    kSpec_y1,
    kSpec_atan2,
    kSpec_copysign,
    kSpec_drem,
    kSpec_fdim,
    kSpec_fmax,
    kSpec_fmin,
    kSpec_fmod,
    kSpec_hypot,
    kSpec_jn,
    kSpec_ldexp,
    kSpec_scalb,
    kSpec_scalbln,
    kSpec_nextafter,
    kSpec_nexttoward,
    kSpec_remainder,
    kSpec_yn,
    kSpec_pow,
    {"fma", 3, Fma},
    {"frexp", 0, Frexp},
    {"modf", 0, Modf},
    {"lgamma_r", 0, LgammaR},
    {"infinite", 0, Infinite},
    {"nan", 0, Nan},
    {"isinfinite", 0, IsInfinite},
    {"isfinite", 0, IsFinite},
    {"isnan", 0, IsNan},
    {"isnormal", 0, IsNormal},
};

}  // namespace

std::span<const NativeSpec> MathNatives() { return kNatives; }

}  // namespace wmap::jq::builtins
