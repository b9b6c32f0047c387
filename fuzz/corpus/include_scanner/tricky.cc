// A source whose includes hide among comments, literals and continuations.
#include "core/errors.h"
#  include   <vector>   // spaced
#include_next <stdlib.h>
#import "legacy/objc.h"
#include CONFIG_HEADER
#define STR(x) #x
/* #include "commented/out.h"
   still a comment */
const char* s = "#include \"in/a/string.h\"";
const char* r = R"delim(
#include "in/a/raw/string.h"
)" still inside )delim";
char q = '"';
#include "after/char.h"
auto u8 = u8R"(#include <nope>)";
int x = 1'000'000;  // digit separators are not char literals
#include \
  "continued.h"
// a comment that continues \
#include "hidden/by/line/splice.h"
#if 0
#include "disabled.h"
#endif
BENCHMARK(BM_Parse)->Arg(8);
BENCHMARK_TEMPLATE(BM_FFT, std::complex<float>, true);
BENCHMARK_F(Fixture, Method)(benchmark::State& st) {}
BENCHMARK_CAPTURE(BM_Copy, small, 8);
benchmark::RegisterBenchmark("dyn", fn);
