#include "cli/pod_change_flags.h"

#include <string>
#include <string_view>
#include <utility>

namespace wmap::cli {

void PodChangeFlags::Register(FlagParser* parser) {
  parser->String({"--component"}, &component);
  parser->String({"--instance"}, &instance);
  parser->String({"--scheduler-name"}, &scheduler_name);
  parser->String({"--priority-class", "--priority-class-name"}, &priority_class);
  parser->String({"--scheduling-group"}, &scheduling_group);
  parser->Strings({"--label"}, &labels);
  parser->Strings({"--annotation"}, &annotations);
  parser->Strings({"--node-selector"}, &node_selectors);
  parser->Strings({"--toleration"}, &tolerations);
  parser->Strings({"--image"}, &images);
}

MutateScope PodChangeFlags::Scope() const {
  MutateScope scope;
  if (!component.empty()) scope.component = component;
  if (!instance.empty()) scope.instance = instance;
  return scope;
}

Error NothingToChange() {
  return UsageError("nothing to change",
                    "give at least one of --scheduler-name, --priority-class, --label, "
                    "--annotation, --node-selector, --toleration, --image, --scheduling-group");
}

std::optional<Error> PodChangeFlags::Parse(const std::vector<std::string>& args,
                                           PodChanges* changes) const {
  const PodChangeFlags& f = *this;
  auto has = [&](std::string_view a, std::string_view b = "") {
    for (const std::string& s : args) {
      if (s == a || s.starts_with(std::string(a) + "=") ||
          (!b.empty() && (s == b || s.starts_with(std::string(b) + "=")))) {
        return true;
      }
    }
    return false;
  };
  auto bad = [](const Error& e) { return UsageError(e.message, e.hint); };
  if (has("--scheduler-name")) changes->scheduler_name = f.scheduler_name;
  if (has("--priority-class", "--priority-class-name")) {
    changes->priority_class_name = f.priority_class;
  }
  if (has("--scheduling-group")) changes->scheduling_group = f.scheduling_group;
  struct KeyValues {
    const std::vector<std::string>* texts;
    std::vector<std::pair<std::string, std::string>>* out;
    std::string_view what;
  };
  for (const KeyValues& kv :
       {KeyValues{&f.labels, &changes->labels, "label"},
        KeyValues{&f.annotations, &changes->annotations, "annotation"},
        KeyValues{&f.node_selectors, &changes->node_selector, "node-selector"}}) {
    for (const std::string& text : *kv.texts) {
      Result<std::pair<std::string, std::string>> pair = ParseKeyValue(text, kv.what);
      if (!pair.ok()) return bad(pair.error());
      kv.out->push_back(std::move(pair.value()));
    }
  }
  for (const std::string& text : f.tolerations) {
    Result<Toleration> t = ParseToleration(text);
    if (!t.ok()) return bad(t.error());
    changes->tolerations.push_back(std::move(t.value()));
  }
  for (const std::string& text : f.images) {
    Result<ImageChange> image = ParseImageChange(text);
    if (!image.ok()) return bad(image.error());
    changes->images.push_back(std::move(image.value()));
  }
  if (changes->scheduler_name && changes->scheduler_name->empty()) {
    return UsageError("--scheduler-name needs a name");
  }
  if (changes->priority_class_name && changes->priority_class_name->empty()) {
    return UsageError("--priority-class needs a name");
  }
  if (changes->scheduling_group && changes->scheduling_group->empty()) {
    return UsageError("--scheduling-group needs a PodGroup name");
  }
  return std::nullopt;
}

}  // namespace wmap::cli
