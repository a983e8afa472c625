// What the `llm_training` and `llm_serving` readers share. Private to src/scenario/read/.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "readers.hpp"

namespace gputco::scenario_read {

/// One LLM job's fields as read, so that the library's own checks (LlmTraining::validate, ...) are
/// reported at the place of the field they name.
struct LlmFields {
    Field item;                                     ///< the job, e.g. llm_training[0]
    std::vector<std::pair<std::string, Field>> seen;  ///< "tokens", "model.layers", ... and where each is

    /// A whole number in [0, INT_MAX]; the library checks its own range.
    static int whole(const Field& f);
    /// A share in (0, 1].
    static double share(const Field& f);
    /// An MFU override: 0 (the built-in rows) or a share in (0, 1].
    static double mfu(const Field& f);
    LlmModel model(const Field& f);
    /// Catalog GPU names, each with an offering, none twice, at least one.
    static std::vector<std::string> gpus(const Field& f, const Catalog& catalog);
    /// on_demand, spot, reserved, none twice, at least one.
    /// One or more of `allowed`, none twice.
    static std::vector<BuyingWay> buying(const Field& f, const std::vector<BuyingWay>& allowed);
    /// The library's message `prefix`<field> ... at the field's place, with the job's path.
    InvalidInput renamed(const InvalidInput& e, std::string_view prefix) const;
};

/// "no offering can run it (<the first three reasons>; and N more)".
std::string no_offering_reasons(const std::vector<SkippedOffering>& skipped);

}  // namespace gputco::scenario_read
