// The core builtins written in jq. The compiler implements the control builtins itself (empty,
// error, not, path, getpath, setpath, delpaths, select, recurse, repeat, until, while, first,
// limit, skip, isempty, any, all, range, input(s), debug, stderr, halt(_error), env, builtins,
// map); these definitions build on them. Compiled once per process, before LibraryPrelude().
#include "jq/native.h"

namespace wmap::jq {

std::string_view CorePrelude() {
  static constexpr std::string_view kPrelude = R"jq(
def values: select(. != null);
def nulls: select(. == null);
def booleans: select(type == "boolean");
def numbers: select(type == "number");
def strings: select(type == "string");
def arrays: select(type == "array");
def objects: select(type == "object");
def iterables: select(type | . == "array" or . == "object");
def scalars: select(type | . != "array" and . != "object");
def recurse(f; cond): recurse(f | select(cond));
def first: .[0];
def last: .[-1];
def last(f): reduce f as $x (null; $x);
def nth($n): .[$n];
def nth($n; f):
  if $n < 0 then error("nth doesn't support negative index") else first(skip($n; f)) end;
def paths: path(..) | select(. != []);
def paths(node_filter): path(.. | select(node_filter)) | select(. != []);
def leaf_paths: paths(scalars);
def del(f): delpaths([path(f)]);
def pick(pathexps): . as $top | reduce path(pathexps) as $p (null; setpath($p; $top | getpath($p)));
def map_values(f): .[] |= f;
)jq";
  return kPrelude;
}

}  // namespace wmap::jq
