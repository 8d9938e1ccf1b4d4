// The library builtins written in jq. They run over the natives of this folder and the core
// definitions (map, select, path, getpath, limit, label...), compiled once per process after
// CorePrelude(). As in jq, match/test/capture also take their regex and flags as one array.
#include "jq/native.h"

namespace wmap::jq {

std::string_view LibraryPrelude() {
  static constexpr std::string_view kPrelude = R"jq(
def in(xs): . as $x | xs | has($x);
def inside(xs): . as $x | xs | contains($x);
def add(f): reduce f as $x (null; . + $x);
def min_by(f): _min_by(map([f]));
def max_by(f): _max_by(map([f]));
def sort_by(f): _sort_by(map([f]));
def group_by(f): _group_by(map([f]));
def unique_by(f): _unique_by(map([f]));
def with_entries(f): to_entries | map(f) | from_entries;
def finites: select(isfinite);
def normals: select(isnormal);
def isvalid(f): try (f | true) catch false;
def have_decnum: false;
def have_literal_numbers: true;
def combinations:
  if length == 0 then []
  else .[0][] as $x | [$x] + (.[1:] | combinations) end;
def combinations(n): [limit(n; repeat(.))] | combinations;
def walk(f):
  def w:
    if type == "array" then map(w)
    elif type == "object" then map_values(w)
    else . end
    | f;
  w;
def tostream:
  path(def r: (.[]? | r), .; r) as $p
  | getpath($p)
  | reduce path(.[]?) as $q ([$p, .]; [$p + $q]);
def fromstream(f):
  {x: null, e: false} as $init
  | foreach f as $i ($init;
      if .e then $init end
      | if $i | length == 2
        then setpath(["e"]; $i[0] | length == 0) | setpath(["x"] + $i[0]; $i[1])
        else setpath(["e"]; $i[0] | length == 1) end;
      if .e then .x else empty end);
def truncate_stream(f):
  . as $n | null | f | if .[0] | length > $n then .[0] |= .[$n:] else empty end;
def todateiso8601: strftime("%Y-%m-%dT%H:%M:%SZ");
def fromdateiso8601: strptime("%Y-%m-%dT%H:%M:%S%z") | mktime;
def todate: todateiso8601;
def fromdate: fromdateiso8601;
def date: todate;
def dateadd(u; n): . + n;
def datesub(u; n): . - n;
def match($re; $flags): _match($re; $flags; false) | .[];
def match($re): if $re | type == "array" then match($re[0]; $re[1]) else match($re; null) end;
def test($re; $flags): _match($re; $flags; true);
def test($re): if $re | type == "array" then test($re[0]; $re[1]) else test($re; null) end;
def capture($re; $flags): match($re; $flags) | _capture;
def capture($re):
  if $re | type == "array" then capture($re[0]; $re[1]) else capture($re; null) end;
def scan($re; $flags):
  match($re; "g" + $flags)
  | if .captures == [] then .string else [.captures[].string] end;
def scan($re): scan($re; null);
def splits($re; $flags): split($re; $flags) | .[];
def splits($re): splits($re; null);
def sub($re; str; $flags):
  . as $in
  | (reduce match($re; $flags) as $m ({acc: [], prev: 0};
        $in[.prev:$m.offset] as $gap
        | [$m | _capture | str] as $reps
        | reduce range(0; $reps | length) as $i (.; .acc[$i] += $gap + $reps[$i])
        | .prev = $m.offset + $m.length)
     | .acc[] + $in[.prev:])
    // $in;
def sub($re; str): sub($re; str; "");
def gsub($re; str; $flags): sub($re; str; $flags + "g");
def gsub($re; str): sub($re; str; "g");
def INDEX(stream; idx_expr): reduce stream as $row ({}; .[$row | idx_expr | tostring] = $row);
def INDEX(idx_expr): INDEX(.[]; idx_expr);
def JOIN($idx; idx_expr): [.[] | [., $idx[idx_expr]]];
def JOIN($idx; stream; idx_expr): stream | [., $idx[idx_expr]];
def JOIN($idx; stream; idx_expr; join_expr): stream | [., $idx[idx_expr]] | join_expr;
def IN(s): any(s == .; .);
def IN(src; s): any(src == s; .);
)jq";
  return kPrelude;
}

}  // namespace wmap::jq
