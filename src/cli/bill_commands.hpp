#pragma once
// The command's bill subcommands: `gputco bill FILE` (what a FOCUS export holds) and `gputco recommend
// --bill FILE --offering ...` (the bill's history to a plan, app/bill_plan.hpp). command.cpp parses the
// flags; these render the library's tables.
#include <cstdio>
#include <string>

#include <gputco/app/bill_plan.hpp>

namespace gputco::cli {

/// "1y:all_upfront" → the commitment option the recommender may buy; InvalidInput naming --commitment.
CommitmentOption commitment_option(const std::string& text, const std::string& flag = "--commitment");

/// `gputco bill`: the bill's tables to `out` in `format`; `contracts_path` (may be empty) a FOCUS 1.3
/// Contract Commitment file giving its commitments' terms. Returns the exit code.
int bill_command(const std::string& path, const std::string& contracts_path, const std::string& catalog_file,
                 const std::string& format, std::FILE* out);

/// `gputco recommend --bill`: the study's tables and the bill's to `out`, a progress bar on `err` when
/// it is a terminal; `options.plan_options.should_stop` stops it. Returns the exit code.
int recommend_command(const std::string& bill_path, const std::string& contracts_path, const std::string& offering_text,
                      const std::string& catalog_file,
                      const RecommendOptions& options, const BillPlanOptions& plan_options, const std::string& format,
                      std::FILE* out, std::FILE* err);

}  // namespace gputco::cli
