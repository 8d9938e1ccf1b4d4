// What a definition gives, in words (its data form is view::DefinitionSummary): its components
// (kind, owner, pods, instances, replicas, status, suspend, pod selectors), the statuses it can
// report with the matchers that report them, and its gang scheduling. Used by `wmap definitions`
// and for docs/catalog.md. Every function is a pure function of the definition; the output is
// deterministic.
#ifndef WMAP_CLI_DEFINITION_SUMMARY_H_
#define WMAP_CLI_DEFINITION_SUMMARY_H_

#include <string>
#include <vector>

#include "wmap/catalog.h"
#include "wmap/definition.h"
#include "wmap/value.h"

namespace wmap::cli {

// One matcher in words: "phase Running and condition Ready=True".
std::string MatcherText(const StatusMatcher& matcher);
// The gang scheduling in one sentence ("none" when the definition has none).
std::string GangText(const Definition& definition);

// The readable view of one definition (`wmap definitions NAME`).
std::string DescribeDefinition(const CatalogEntry& entry);
// One definition's section of the catalog page.
std::string DefinitionMarkdown(const CatalogEntry& entry);
// The whole catalog page: an index table, then one section per definition.
std::string CatalogMarkdown(const std::vector<const CatalogEntry*>& entries);

}  // namespace wmap::cli

#endif  // WMAP_CLI_DEFINITION_SUMMARY_H_
