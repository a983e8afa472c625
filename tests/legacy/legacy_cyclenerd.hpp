#pragma once
// FROZEN REFERENCE: the Cyclenerd pricing.yml importer before it read parser events (see
// legacy_cyclenerd.cpp). Used only by test_importers and bench_import.
#include <string_view>

#include "gputco/catalog/importers.hpp"

namespace gputco::legacy {

ImportResult import_cyclenerd_pricing_yml_tree(std::string_view yaml_text, const ImportOptions& options);

}  // namespace gputco::legacy
