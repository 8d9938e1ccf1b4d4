// Kubernetes label syntax, with apimachinery's messages (IsQualifiedName, IsValidLabelValue).
#ifndef WMAP_MODEL_LABELS_H_
#define WMAP_MODEL_LABELS_H_

#include <string>
#include <string_view>
#include <vector>

namespace wmap::model {

// The problems of a label key (empty when valid), as apimachinery words them.
std::vector<std::string> QualifiedNameErrors(std::string_view key);
// The problems of a label value (empty when valid).
std::vector<std::string> LabelValueErrors(std::string_view value);

// field.Invalid's text: `<field>: Invalid value: "<value>": <detail>`.
std::string InvalidValueMessage(std::string_view field, std::string_view value,
                                std::string_view detail);

}  // namespace wmap::model

#endif  // WMAP_MODEL_LABELS_H_
