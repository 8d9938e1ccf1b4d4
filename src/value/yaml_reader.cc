// YAML reader: libyaml events -> Values, with an explicit stack (no recursion).
#include <yaml.h>

#include <cmath>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "value/share_table.h"
#include "value/value_nodes.h"
#include "value/yaml_events.h"
#include "value/yaml_scalar.h"
#include "wmap/json.h"
#include "wmap/text.h"
#include "wmap/yaml.h"

namespace wmap::yaml {
namespace {

using internal::BomLength;
using internal::EventSource;
using internal::MarkMapper;
using internal::ScalarKind;

constexpr std::string_view kTagPrefix = "tag:yaml.org,2002:";

// The integer written as an optional sign and decimal digits (underscores ignored, as Go's
// number parsing does); nullopt for any other text.
// Whether `text` is a number as JSON writes one (so that it can be printed in JSON too).
bool IsJsonNumberText(std::string_view text) {
  size_t i = 0;
  auto digits = [&] {
    const size_t start = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    return i > start;
  };
  if (i < text.size() && text[i] == '-') ++i;
  if (i < text.size() && text[i] == '0') {
    ++i;
  } else if (!digits()) {
    return false;
  }
  if (i < text.size() && text[i] == '.') {
    ++i;
    if (!digits()) return false;
  }
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == text.size();
}

std::optional<BigInt> DecimalInteger(std::string_view text) {
  std::string digits;
  for (char c : text) {
    if (c != '_') digits.push_back(c);
  }
  return BigInt::FromDecimal(digits);
}

std::string_view ScalarText(const yaml_event_t& e) {
  return {reinterpret_cast<const char*>(e.data.scalar.value), e.data.scalar.length};
}

std::string_view CString(const yaml_char_t* s) {
  return s == nullptr ? std::string_view() : std::string_view(reinterpret_cast<const char*>(s));
}

// "!!int" for "tag:yaml.org,2002:int"; other tags unchanged.
std::string ShortTag(std::string_view tag) {
  if (tag.substr(0, kTagPrefix.size()) == kTagPrefix) {
    return "!!" + std::string(tag.substr(kTagPrefix.size()));
  }
  return std::string(tag);
}

std::string_view KindTag(ScalarKind k) {
  switch (k) {
    case ScalarKind::kNull:
      return "!!null";
    case ScalarKind::kBool:
      return "!!bool";
    case ScalarKind::kInt:
    case ScalarKind::kUint:
      return "!!int";
    case ScalarKind::kFloat:
      return "!!float";
    case ScalarKind::kTimestamp:
      return "!!timestamp";
    case ScalarKind::kString:
      break;
  }
  return "!!str";
}

// A scalar after resolution: its Value plus what the mapping-key conversion needs.
struct ScalarNode {
  Value value;
  ScalarKind kind = ScalarKind::kString;
  // Under kGojq a scalar key is its text as written (decoded for !!binary); valid while the
  // node is being delivered.
  std::string_view key_text;
};

// An open mapping or sequence.
struct Frame {
  bool is_map = false;
  // Index of this container's first item (in items_) or member (in members_): children are
  // collected on those shared stacks and moved into the container when it ends.
  size_t first = 0;
  std::string anchor;
  size_t nodes = 1;     // nodes in this subtree so far, counting alias expansions
  size_t path_len = 0;  // length of the JSON pointer of this node (when recording positions)
  // No positions are recorded inside merge values and complex keys (their paths are not paths
  // of the resulting Value).
  bool suppress_positions = false;
  yaml_mark_t start;
  // Mapping state: whether a key is pending and what it is.
  bool have_key = false;
  bool key_is_merge = false;
  bool drop_member = false;  // kGojq: the pending key was null, so the member is left out
  Value key;
  int key_line = 0;
  // kGojq: key texts with their lines, and the value of the last merge key.
  std::vector<std::pair<std::string, int>> raw_keys;
  bool has_merge = false;
  Value merge_value;
};

struct AnchorEntry {
  Value value;
  size_t nodes = 1;
  // For scalars: the kind and the text the scalar has as a kGojq key.
  ScalarKind kind = ScalarKind::kString;
  std::string key_text;
};

}  // namespace

// Builds one document at a time from libyaml's events. Guarantees: no recursion (open
// containers live in frames_, their children on items_/members_); every error stops the stream
// and carries the position of libyaml's problem mark or of the offending node; anchors, the
// alias budget and recorded positions never leak from one document into the next.
class StreamReader::Impl {
 public:
  Impl(std::string_view text, ReadOptions options)
      : options_(options),
        share_(options.share_repeated ? std::make_unique<wmap::internal::ShareTable>() : nullptr),
        marks_(text, BomLength(text)),
        source_(text.substr(BomLength(text))),
        bom_(BomLength(text)) {}

  bool Next(Document* out, Error* error);
  void ForgetShared() {
    if (share_ != nullptr) share_ = std::make_unique<wmap::internal::ShareTable>();
  }

 private:
  // Result of handling one event inside a document.
  enum class Step { kContinue, kDocumentDone, kError };

  Step HandleEvent(const yaml_event_t& e);
  Step StartContainer(const yaml_event_t& e, bool is_map);
  Step EndContainer();
  Step HandleScalar(const yaml_event_t& e);
  Step HandleAlias(const yaml_event_t& e);
  // Hands a finished node to its parent (or makes it the document root).
  Step Deliver(Value v, size_t nodes, const yaml_mark_t& start, const ScalarNode* scalar,
               bool is_merge_key);
  bool ResolveScalar(const yaml_event_t& e, ScalarNode* out);
  // With options_.numbers_as_written: *number keeps `text` when its plain value would print
  // otherwise (and the text is a JSON number).
  void KeepNumberText(std::string_view text, Value* number) const;
  bool KeyToString(const Value& v, const ScalarNode* scalar, const yaml_mark_t& pos,
                   std::string* out);
  bool ApplyMergeKubernetes(const Value& v, const yaml_mark_t& pos);
  Value FinishMapping(Frame& f);
  Value FinishSequence(Frame& f);
  // Records the position of the node that starts now (when recording positions).
  void NotePosition(const yaml_mark_t& mark);
  bool InKeyPosition() const {
    return !frames_.empty() && frames_.back().is_map && !frames_.back().have_key;
  }
  Step Fail(const Position& pos, std::string message, std::string context = "",
            Position context_position = {});
  Step Fail(const yaml_mark_t& mark, std::string message) {
    return Fail(marks_.ToPosition(mark), std::move(message));
  }
  void FailFromLibyaml();

  ReadOptions options_;
  std::unique_ptr<wmap::internal::ShareTable> share_;  // with options_.share_repeated
  MarkMapper marks_;
  EventSource source_;
  size_t bom_ = 0;
  bool done_ = false;
  Error error_;

  // Per-document state.
  std::vector<Frame> frames_;
  std::vector<Value> items_;     // items of the open sequences, innermost last
  std::vector<Member> members_;  // members of the open mappings, innermost last
  std::unordered_map<std::string, AnchorEntry> anchors_;
  size_t alias_nodes_ = 0;
  std::string path_;
  Document doc_;
  bool root_is_empty_ = false;  // the root is an untagged empty plain scalar
};

StreamReader::Impl::Step StreamReader::Impl::Fail(const Position& pos, std::string message,
                                                  std::string context, Position context_position) {
  error_ = Error{};
  error_.position = pos;
  error_.problem = std::move(message);
  error_.context = std::move(context);
  error_.context_position = context_position;
  error_.message = pos.known()
                       ? "yaml: line " + std::to_string(pos.line) + ", column " +
                             std::to_string(pos.column) + ": " + ErrorWithoutLocation(error_)
                       : "yaml: " + ErrorWithoutLocation(error_);
  return Step::kError;
}

void StreamReader::Impl::FailFromLibyaml() {
  const yaml_parser_t& p = source_.parser();
  std::string problem = p.problem != nullptr ? p.problem : "unknown problem parsing YAML content";
  if (p.error == YAML_READER_ERROR) {
    Position pos = marks_.FromByteOffset(p.problem_offset + bom_);
    Fail(pos, problem);
    return;
  }
  if (p.error == YAML_MEMORY_ERROR) {
    Fail(Position{}, "out of memory");
    return;
  }
  Position pos = marks_.ToPosition(p.problem_mark);
  if (p.context != nullptr) {
    Fail(pos, problem, p.context, marks_.ToPosition(p.context_mark));
    return;
  }
  Fail(pos, problem);
}

void StreamReader::Impl::NotePosition(const yaml_mark_t& mark) {
  if (!options_.record_positions) return;
  Position pos = marks_.ToPosition(mark);
  if (!frames_.empty() && frames_.back().suppress_positions) return;
  if (frames_.empty()) {
    path_.clear();
    doc_.positions[path_] = pos;
    return;
  }
  Frame& f = frames_.back();
  if (f.is_map) return;  // members are recorded at their key
  path_.resize(f.path_len);
  path_.push_back('/');
  path_.append(std::to_string(items_.size() - f.first));
  doc_.positions[path_] = pos;
}

bool StreamReader::Impl::Next(Document* out, Error* error) {
  if (done_) return false;
  for (;;) {
    if (!source_.Next()) {
      FailFromLibyaml();
      *error = error_;
      done_ = true;
      return true;
    }
    const yaml_event_t& e = source_.event();
    switch (e.type) {
      case YAML_STREAM_START_EVENT:
        continue;
      case YAML_STREAM_END_EVENT:
        done_ = true;
        return false;
      case YAML_DOCUMENT_START_EVENT:
        frames_.clear();
        items_.clear();
        members_.clear();
        anchors_.clear();
        alias_nodes_ = 0;
        path_.clear();
        doc_ = Document{};
        root_is_empty_ = false;
        continue;
      case YAML_DOCUMENT_END_EVENT: {
        if (root_is_empty_ && options_.schema == Schema::kKubernetes) continue;
        *out = std::move(doc_);
        doc_ = Document{};
        return true;
      }
      default:
        break;
    }
    Step step = HandleEvent(e);
    if (step == Step::kError) {
      *error = error_;
      done_ = true;
      return true;
    }
  }
}

StreamReader::Impl::Step StreamReader::Impl::HandleEvent(const yaml_event_t& e) {
  switch (e.type) {
    case YAML_SCALAR_EVENT:
      return HandleScalar(e);
    case YAML_ALIAS_EVENT:
      return HandleAlias(e);
    case YAML_SEQUENCE_START_EVENT:
      return StartContainer(e, false);
    case YAML_MAPPING_START_EVENT:
      return StartContainer(e, true);
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
      return EndContainer();
    default:
      return Step::kContinue;
  }
}

StreamReader::Impl::Step StreamReader::Impl::StartContainer(const yaml_event_t& e, bool is_map) {
  const yaml_mark_t& pos = e.start_mark;
  if (frames_.size() >= options_.max_depth) {
    return Fail(pos, "exceeded max depth of " + std::to_string(options_.max_depth));
  }
  NotePosition(pos);
  size_t path_len = path_.size();
  bool suppress = false;
  if (!frames_.empty()) {
    const Frame& parent = frames_.back();
    suppress =
        parent.suppress_positions || (parent.is_map && (!parent.have_key || parent.key_is_merge));
  }
  frames_.emplace_back();
  Frame& f = frames_.back();
  f.suppress_positions = suppress;
  f.is_map = is_map;
  f.first = is_map ? members_.size() : items_.size();
  f.start = pos;
  f.path_len = path_len;
  const yaml_char_t* anchor = is_map ? e.data.mapping_start.anchor : e.data.sequence_start.anchor;
  if (anchor != nullptr) f.anchor = CString(anchor);
  return Step::kContinue;
}

Value StreamReader::Impl::FinishSequence(Frame& f) {
  using wmap::internal::ShareTable;
  uint64_t hash = 0;
  if (share_ != nullptr) {
    size_t n = items_.size() - f.first;
    auto items = ShareTable::Sequence(items_.data() + f.first);
    hash = ShareTable::Hash(false, n, items);
    if (const Value* same = share_->FindArray(hash, n, items)) {
      items_.resize(f.first);
      return *same;
    }
  }
  std::vector<Value> items(std::make_move_iterator(items_.begin() + f.first),
                           std::make_move_iterator(items_.end()));
  items_.resize(f.first);
  Value array = wmap::internal::ValueBuilder::ArrayFrom(std::move(items));
  if (share_ != nullptr) share_->Insert(hash, array);
  return array;
}

Value StreamReader::Impl::FinishMapping(Frame& f) {
  if (f.has_merge) {
    // kGojq: merged members never override explicit keys; earlier merged mappings win.
    auto present = [this, &f](std::string_view k) {
      for (size_t i = f.first; i < members_.size(); ++i) {
        if (members_[i].key.as_string() == k) return true;
      }
      return false;
    };
    auto merge_one = [&](const Value& obj) {
      for (const Member& m : obj.members()) {
        if (!present(m.key.as_string())) members_.push_back(m);
      }
    };
    if (f.merge_value.is_object()) {
      merge_one(f.merge_value);
    } else {
      for (const Value& item : f.merge_value.items()) merge_one(item);
    }
  }
  using wmap::internal::ShareTable;
  uint64_t hash = 0;
  if (share_ != nullptr) {
    size_t n = 2 * (members_.size() - f.first);
    auto pairs = ShareTable::MemberSequence(members_.data() + f.first);
    hash = ShareTable::Hash(true, n, pairs);
    if (const Value* same = share_->FindObject(hash, n, pairs)) {
      members_.resize(f.first);
      return *same;
    }
  }
  wmap::internal::MemberVector members(std::make_move_iterator(members_.begin() + f.first),
                                       std::make_move_iterator(members_.end()));
  members_.resize(f.first);
  Value object = wmap::internal::ValueBuilder::ObjectFromMembers(std::move(members));
  if (share_ != nullptr) share_->Insert(hash, object);
  return object;
}

StreamReader::Impl::Step StreamReader::Impl::EndContainer() {
  Frame& f = frames_.back();
  if (f.is_map && f.have_key) {
    // libyaml always pairs keys with values; kept as a guard for the invariant.
    return Fail(f.start, "mapping key without a value");
  }
  Value v = f.is_map ? FinishMapping(f) : FinishSequence(f);
  size_t nodes = f.nodes;
  yaml_mark_t start = f.start;
  std::string anchor = std::move(f.anchor);
  size_t path_len = f.path_len;
  frames_.pop_back();
  if (!anchor.empty()) anchors_[anchor] = AnchorEntry{v, nodes, ScalarKind::kString, {}};
  if (options_.record_positions) path_.resize(path_len);
  return Deliver(std::move(v), nodes, start, nullptr, false);
}

void StreamReader::Impl::KeepNumberText(std::string_view text, Value* number) const {
  if (!options_.numbers_as_written || !number->is_number() || !IsJsonNumberText(text)) return;
  std::string plain;
  json::FormatNumber(*number, &plain);
  if (plain != text) *number = Value::NumberLiteral(*number, text);
}

bool StreamReader::Impl::ResolveScalar(const yaml_event_t& e, ScalarNode* out) {
  const yaml_mark_t& pos = e.start_mark;
  std::string_view text = ScalarText(e);
  std::string_view tag = CString(e.data.scalar.tag);
  bool plain = e.data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
  bool gojq = options_.schema == Schema::kGojq;
  auto as_string = [&] {
    out->kind = ScalarKind::kString;
    out->value = Value::String(text);
    return true;
  };
  std::string short_tag;
  if (tag.empty() || (gojq && tag == "!")) {
    if (!plain) return as_string();
  } else {
    short_tag = ShortTag(tag);
    if (short_tag == "!!str") return as_string();
    if (short_tag == "!!binary") {
      std::string decoded;
      if (!text::DecodeBase64(text, /*padded=*/true, &decoded)) {
        Fail(pos, "!!binary value contains invalid base64 data");
        return false;
      }
      out->kind = ScalarKind::kString;
      out->value = Value::String(std::move(decoded));
      return true;
    }
    if (short_tag != "!!int" && short_tag != "!!float" && short_tag != "!!bool" &&
        short_tag != "!!null" && short_tag != "!!timestamp") {
      return as_string();  // unknown or non-specific tags keep the text
    }
  }
  internal::Resolved r = internal::ResolvePlain(text, options_.schema);
  if (r.kind == ScalarKind::kTimestamp && !short_tag.empty() && short_tag != "!!timestamp") {
    r.kind = ScalarKind::kString;  // timestamps are only tried untagged or as !!timestamp
  }
  if (gojq) {
    // gojq keeps timestamps as written; a !!timestamp tag on text that starts like a number
    // makes it a string.
    if (r.kind == ScalarKind::kTimestamp) r.kind = ScalarKind::kString;
    if (short_tag == "!!timestamp" && !text.empty() &&
        (text[0] == '+' || text[0] == '-' || (text[0] >= '0' && text[0] <= '9'))) {
      return as_string();
    }
  }
  if (!short_tag.empty() && KindTag(r.kind) != short_tag) {
    if (short_tag == "!!float" && r.kind == ScalarKind::kInt) {
      r.kind = ScalarKind::kFloat;
      r.d = static_cast<double>(r.i);
    } else {
      Fail(pos, "cannot decode " + std::string(KindTag(r.kind)) + " `" + std::string(text) +
                    "` as a " + short_tag);
      return false;
    }
  }
  out->kind = r.kind;
  switch (r.kind) {
    case ScalarKind::kNull:
      out->value = Value();
      break;
    case ScalarKind::kBool:
      out->value = Value::Bool(r.b);
      break;
    case ScalarKind::kInt:
      out->value = Value::Int(r.i);
      break;
    case ScalarKind::kUint:
      // Beyond int64: gojq keeps the integer exact; sigs.k8s.io/yaml makes it a float.
      out->value = gojq ? Value::Big(*BigInt::FromDecimal(std::to_string(r.u)))
                        : Value::Double(static_cast<double>(r.u));
      KeepNumberText(text, &out->value);
      break;
    case ScalarKind::kFloat:
      out->value = Value::Double(r.d);
      if (gojq && short_tag.empty()) {
        // A decimal integer beyond uint64 is a float to go-yaml; gojq keeps it exact.
        std::optional<BigInt> big = DecimalInteger(text);
        if (big && !big->FitsInt64()) out->value = Value::Big(*big);
      }
      KeepNumberText(text, &out->value);
      break;
    case ScalarKind::kTimestamp:
    case ScalarKind::kString:
      out->value = Value::String(text);
      break;
  }
  return true;
}

StreamReader::Impl::Step StreamReader::Impl::HandleScalar(const yaml_event_t& e) {
  const yaml_mark_t& pos = e.start_mark;
  ScalarNode node;
  if (!ResolveScalar(e, &node)) return Step::kError;
  bool in_key = InKeyPosition();
  if (!in_key && options_.schema == Schema::kKubernetes && node.kind == ScalarKind::kFloat &&
      !std::isfinite(node.value.as_double())) {
    return Fail(pos, "`" + std::string(ScalarText(e)) +
                         "` cannot be represented in JSON (no infinity or NaN)");
  }
  if (!in_key) NotePosition(pos);
  std::string_view tag = CString(e.data.scalar.tag);
  std::string_view text = ScalarText(e);
  bool plain = e.data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
  bool merge = text == "<<" && ((tag.empty() && plain) || ShortTag(tag) == "!!merge" ||
                                (options_.schema == Schema::kGojq && tag == "!"));
  if (frames_.empty()) {
    root_is_empty_ = text.empty() && plain && tag.empty() && e.data.scalar.anchor == nullptr;
  }
  bool binary = !tag.empty() && ShortTag(tag) == "!!binary";
  node.key_text = binary ? node.value.as_string() : text;
  if (e.data.scalar.anchor != nullptr) {
    anchors_[std::string(CString(e.data.scalar.anchor))] =
        AnchorEntry{node.value, 1, node.kind, std::string(node.key_text)};
  }
  Value v = node.value;
  return Deliver(std::move(v), 1, pos, &node, merge);
}

StreamReader::Impl::Step StreamReader::Impl::HandleAlias(const yaml_event_t& e) {
  const yaml_mark_t& pos = e.start_mark;
  std::string name(CString(e.data.alias.anchor));
  auto it = anchors_.find(name);
  if (it == anchors_.end()) {
    for (const Frame& f : frames_) {
      if (f.anchor == name) return Fail(pos, "anchor '" + name + "' value contains itself");
    }
    return Fail(pos, "unknown anchor '" + name + "' referenced");
  }
  const AnchorEntry& a = it->second;
  alias_nodes_ += a.nodes;
  if (alias_nodes_ > options_.max_alias_expansion) {
    return Fail(pos, "document contains excessive aliasing (more than " +
                         std::to_string(options_.max_alias_expansion) +
                         " nodes reached through aliases)");
  }
  bool in_key = InKeyPosition();
  if (!in_key && options_.schema == Schema::kKubernetes && a.value.is_number() &&
      !a.value.is_integer() && !std::isfinite(a.value.as_double())) {
    return Fail(pos, "alias '" + name + "' refers to a number JSON cannot represent");
  }
  if (!in_key) NotePosition(pos);
  Value v = a.value;
  size_t nodes = a.nodes;
  if (in_key && !v.is_array() && !v.is_object()) {
    // An aliased scalar key converts like the scalar it names.
    ScalarNode node;
    node.value = v;
    node.kind = a.kind;
    node.key_text = a.key_text;
    return Deliver(std::move(v), nodes, pos, &node, false);
  }
  return Deliver(std::move(v), nodes, pos, nullptr, false);
}

bool StreamReader::Impl::KeyToString(const Value& v, const ScalarNode* scalar,
                                     const yaml_mark_t& pos, std::string* out) {
  if (scalar == nullptr || v.is_array() || v.is_object()) {
    Fail(pos, "invalid map key: a mapping or sequence cannot be a key");
    return false;
  }
  if (options_.schema == Schema::kGojq) {
    *out = std::string(scalar->key_text);
    return true;
  }
  switch (scalar->kind) {
    case ScalarKind::kString:
    case ScalarKind::kTimestamp:
      *out = std::string(v.as_string());
      return true;
    case ScalarKind::kNull:
      Fail(pos, "unsupported map key: null");
      return false;
    case ScalarKind::kBool:
      *out = v.as_bool() ? "true" : "false";
      return true;
    case ScalarKind::kInt:
      *out = std::to_string(v.as_int());
      return true;
    case ScalarKind::kUint:
      Fail(pos, "unsupported map key: integer " +
                    std::to_string(static_cast<uint64_t>(v.as_double())) + " exceeds int64");
      return false;
    case ScalarKind::kFloat: {
      out->clear();
      internal::FormatGoFloat(v.as_double(), 32, out);
      if (*out == "+Inf") *out = ".inf";
      if (*out == "-Inf") *out = "-.inf";
      if (*out == "NaN") *out = ".nan";
      return true;
    }
  }
  return true;
}

bool StreamReader::Impl::ApplyMergeKubernetes(const Value& v, const yaml_mark_t& pos) {
  if (v.is_object()) {
    for (const Member& m : v.members()) members_.push_back(m);
    return true;
  }
  if (v.is_array()) {
    std::span<const Value> items = v.items();
    for (const Value& item : items) {
      if (!item.is_object()) {
        Fail(pos, "map merge requires map or sequence of maps as the value");
        return false;
      }
    }
    // Earlier mappings take precedence, so they are applied last.
    for (size_t i = items.size(); i-- > 0;) {
      for (const Member& m : items[i].members()) members_.push_back(m);
    }
    return true;
  }
  Fail(pos, "map merge requires map or sequence of maps as the value");
  return false;
}

StreamReader::Impl::Step StreamReader::Impl::Deliver(Value v, size_t nodes,
                                                     const yaml_mark_t& start,
                                                     const ScalarNode* scalar, bool is_merge_key) {
  if (share_ != nullptr && scalar != nullptr && v.is_string() &&
      v.as_string().size() > wmap::internal::ValueBuilder::kInlineCapacity) {
    uint64_t hash = wmap::internal::HashKey(v.as_string());
    if (const Value* same = share_->FindString(hash, v.as_string())) {
      v = *same;
    } else {
      share_->Insert(hash, v);
    }
  }
  if (frames_.empty()) {
    doc_.value = std::move(v);
    doc_.start = marks_.ToPosition(start);
    return Step::kDocumentDone;
  }
  Frame& f = frames_.back();
  f.nodes += nodes;
  if (!f.is_map) {
    items_.push_back(std::move(v));
    return Step::kContinue;
  }
  if (!f.have_key) {
    f.have_key = true;
    f.key_is_merge = is_merge_key;
    f.key_line = static_cast<int>(start.line) + 1;
    if (is_merge_key) return Step::kContinue;
    bool gojq = options_.schema == Schema::kGojq;
    if (gojq) {
      // go-yaml v3 rejects a mapping in which two keys have the same kind and text.
      std::string raw_text(scalar != nullptr ? scalar->key_text : std::string_view());
      for (const auto& [k, line] : f.raw_keys) {
        if (scalar != nullptr && k == raw_text) {
          return Fail(start, "mapping key \"" + raw_text + "\" already defined at line " +
                                 std::to_string(line));
        }
      }
      if (scalar != nullptr) f.raw_keys.emplace_back(std::move(raw_text), f.key_line);
      // A key that resolves to null cannot become a string key: gojq drops the member.
      f.drop_member = scalar != nullptr && scalar->kind == ScalarKind::kNull;
      if (f.drop_member) return Step::kContinue;
    }
    // String keys (the common case) are used as they are.
    if (scalar == nullptr || scalar->kind != ScalarKind::kString || !v.is_string() ||
        (gojq && scalar->key_text != v.as_string())) {
      std::string key;
      if (!KeyToString(v, scalar, start, &key)) return Step::kError;
      v = Value::String(std::move(key));
    }
    if (options_.record_positions && !f.suppress_positions) {
      path_.resize(f.path_len);
      path_.push_back('/');
      text::AppendPointerToken(v.as_string(), &path_);
      doc_.positions[path_] = marks_.ToPosition(start);
    }
    f.key = std::move(v);
    return Step::kContinue;
  }
  f.have_key = false;
  if (f.key_is_merge) {
    f.key_is_merge = false;
    if (options_.schema == Schema::kGojq) {
      for (const auto& [k, line] : f.raw_keys) {
        if (k == "<<") {
          return Fail(start, "mapping key \"<<\" already defined at line " + std::to_string(line));
        }
      }
      f.raw_keys.emplace_back("<<", f.key_line);
      bool ok = v.is_object();
      if (v.is_array()) {
        ok = true;
        for (const Value& item : v.items()) ok = ok && item.is_object();
      }
      if (!ok) {
        Fail(start, "map merge requires map or sequence of maps as the value");
        return Step::kError;
      }
      f.has_merge = true;
      f.merge_value = std::move(v);
      return Step::kContinue;
    }
    return ApplyMergeKubernetes(v, start) ? Step::kContinue : Step::kError;
  }
  if (f.drop_member) {
    f.drop_member = false;
    return Step::kContinue;
  }
  members_.push_back(Member{std::move(f.key), std::move(v)});
  f.key = Value();
  return Step::kContinue;
}

StreamReader::StreamReader(std::string_view text, ReadOptions options)
    : impl_(std::make_unique<Impl>(text, options)) {}
StreamReader::~StreamReader() = default;

bool StreamReader::Next(Document* out, Error* error) { return impl_->Next(out, error); }
void StreamReader::ForgetShared() { impl_->ForgetShared(); }

Result<std::vector<Document>> ParseStream(std::string_view text, const ReadOptions& options) {
  StreamReader reader(text, options);
  std::vector<Document> docs;
  Document doc;
  Error error;
  error.message.clear();
  while (reader.Next(&doc, &error)) {
    if (!error.message.empty()) return error;
    docs.push_back(std::move(doc));
    doc = Document{};
  }
  return docs;
}

Result<Value> Parse(std::string_view text, const ReadOptions& options) {
  StreamReader reader(text, options);
  Document doc;
  Error error;
  if (!reader.Next(&doc, &error)) return Value();
  if (!error.message.empty()) return error;
  Document second;
  if (reader.Next(&second, &error)) {
    if (!error.message.empty()) return error;
    Error e;
    e.position = second.start;
    e.problem = "expected a single document in the stream";
    e.message = "yaml: line " + std::to_string(second.start.line) + ", column " +
                std::to_string(second.start.column) + ": " + e.problem;
    return e;
  }
  return std::move(doc.value);
}

std::string ErrorWithoutLocation(const Error& e) {
  if (e.problem.empty()) return e.message;
  if (e.context.empty()) return e.problem;
  return e.problem + " (" + e.context + " at line " + std::to_string(e.context_position.line) +
         ", column " + std::to_string(e.context_position.column) + ")";
}

}  // namespace wmap::yaml
