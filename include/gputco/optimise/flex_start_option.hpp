#pragma once
// The rules of a recommender's flex-start option (FlexStartOption), apart from recommend.hpp so that a
// reader of them (the scenario's `recommend` section) checks them where it reads them.
#include <string_view>

#include "gputco/optimise/recommend.hpp"

namespace gputco {

/// Throws InvalidInput naming `field`.discount or `field`.grant_probability, its value and the rule.
void validate(const FlexStartOption& option, std::string_view field);

}  // namespace gputco
