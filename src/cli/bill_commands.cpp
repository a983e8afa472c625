// The command's bill subcommands (bill_commands.hpp): the library's tables, rendered.
#include "bill_commands.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <gputco/gputco.hpp>

#include "output.hpp"
#include "progress.hpp"

namespace gputco::cli {
namespace {

/// "provider/instance_type[/region]" in `cat` (the first listed region when none is given).
const Offering& offering_named(const Catalog& cat, const std::string& text) {
    const auto first = text.find('/');
    require(first != std::string::npos && first > 0 && first + 1 < text.size(), "--offering", text,
            "must be provider/instance_type or provider/instance_type/region, e.g. aws/p4d.24xlarge/us-east-1");
    const auto second = text.find('/', first + 1);
    const std::string provider = text.substr(0, first);
    const std::string instance = text.substr(first + 1, second == std::string::npos ? std::string::npos : second - first - 1);
    const std::string region = second == std::string::npos ? "" : text.substr(second + 1);
    return cat.offering(provider, instance, region);
}

/// A bill's tables in the library's columns (app/bill_plan.hpp); JSON: one object of tables.
nlohmann::ordered_json bill_json(const Bill& bill) {
    nlohmann::ordered_json doc;
    doc["file"] = bill.file;
    doc["focus_version"] = std::string(to_text(bill.version));
    doc["currency"] = bill.currency;
    doc["rows"] = bill.rows_read;
    doc["figures"] = cli::to_json(cli::table_of(bill_figures_columns(), bill_figures_rows(bill)));
    doc["series"] = cli::to_json(cli::table_of(bill_series_columns(), bill.series));
    doc["commitments"] = cli::to_json(cli::table_of(bill_commitment_columns(), bill.commitments));
    doc["unmatched"] = cli::to_json(cli::table_of(bill_unmatched_columns(), bill.unmatched));
    return doc;
}

std::string bill_text(const Bill& bill, const std::string& format) {
    std::string out;
    if (format == "table")
        out += fmt::format("{}: FOCUS {}, {} rows, {} GPU rows, in {}\n\n", bill.file, to_text(bill.version), bill.rows_read,
                           bill.gpu_rows, bill.currency);
    out += cli::render(cli::table_of(bill_figures_columns(), bill_figures_rows(bill)), format);
    if (format == "csv") return out;  // one table
    // Appended piece by piece: `"\n" + std::string` trips GCC 12's false -Wrestrict (as in output.cpp).
    const auto add = [&](const Table& t) {
        out += '\n';
        out += cli::render(t, format);
    };
    add(cli::table_of(bill_series_columns(), bill.series));
    if (!bill.commitments.empty()) add(cli::table_of(bill_commitment_columns(), bill.commitments));
    if (!bill.unmatched.empty()) add(cli::table_of(bill_unmatched_columns(), bill.unmatched));
    return out;
}

}  // namespace

/// The bill at `path`, with the contract commitments of `contracts_path` when given.
Bill bill_with_contracts(const std::string& path, const std::string& contracts_path, const Catalog& cat) {
    Bill b = read_bill(path, cat);
    if (!contracts_path.empty()) b.contract_commitments = read_contract_commitments(contracts_path);
    return b;
}

/// `gputco bill FILE`: what a FOCUS export holds, as gputco reads it.
int bill_command(const std::string& path, const std::string& contracts_path, const std::string& catalog_file,
                 const std::string& format, std::FILE* out_file) {
    const auto out = [&](const std::string& text) { std::fputs(text.c_str(), out_file); };
    const Catalog cat = catalog_file.empty() ? Catalog::builtin()
                                             : Catalog::builtin().overridden_by(Catalog::from_json_file(catalog_file));
    const Bill b = bill_with_contracts(path, contracts_path, cat);
    out(format == "json" ? bill_json(b).dump(1) + "\n" : bill_text(b, format));
    return 0;
}

/// `gputco recommend --bill FILE --offering ...`: the bill's history to a plan (app/bill_plan.hpp),
/// judged on fresh futures beside the providers' lookback advice, with the FinOps figures of the bill
/// and of the plan.
int recommend_command(const std::string& bill_path, const std::string& contracts_path, const std::string& offering_text,
                      const std::string& catalog_file,
                      const RecommendOptions& options, const BillPlanOptions& plan_options, const std::string& format,
                      std::FILE* out_file, std::FILE* err_file) {
    const auto out = [&](const std::string& text) { std::fputs(text.c_str(), out_file); };
    const Catalog cat = catalog_file.empty() ? Catalog::builtin()
                                             : Catalog::builtin().overridden_by(Catalog::from_json_file(catalog_file));
    const Bill b = bill_with_contracts(bill_path, contracts_path, cat);
    RecommendOptions o = options;
    cli::ProgressBar bar(err_file);
    o.plan_options.progress = [&](std::size_t done, std::size_t total) { bar.update("recommend", done, total, "futures"); };
    BillPlan plan = [&] {
        try {
            BillPlan p = recommend_from_bill(b, offering_named(cat, offering_text), o, plan_options);
            bar.finish();
            return p;
        } catch (...) {
            bar.finish();
            throw;
        }
    }();
    const Table summary = cli::table_of(study_summary_columns(), std::vector<RecommendStudy>{plan.study});
    const Table baselines = cli::table_of(study_baseline_columns(), plan.study.baselines);
    const Table frontier = cli::table_of(study_frontier_columns(), plan.study.frontier);
    if (format == "json") {
        nlohmann::ordered_json doc;
        doc["offering"] = plan.offering.key();
        doc["currency"] = plan.offering.currency;
        doc["history_months"] = plan.history.horizon().month_count();
        doc["summary"] = cli::to_json(summary)[0];
        doc["baselines"] = cli::to_json(baselines);
        doc["frontier"] = cli::to_json(frontier);
        doc["held"] = plan.held_notes;  // the bill's commitments taken as held, or left out and why
        doc["bill"] = bill_json(b);
        out(doc.dump(1) + "\n");
        return 0;
    }
    if (format == "csv") {
        out(cli::render(baselines, "csv"));  // one table: the plans compared
        return 0;
    }
    if (format == "table")
        out(fmt::format("History from {}: {} whole months, {:.1f} GPU-hours of {}; planned on {} ({}), {} months "
                          "ahead, judged on held-out futures at the {}\n\n",
                          b.file, plan.history.horizon().month_count(), plan.history.total_gpu_hours(),
                          plan_options.gpu.empty() ? plan.offering.gpu : plan_options.gpu, plan.offering.key(),
                          plan.offering.currency, plan_options.horizon_months, plan.study.judged_prices));
    if (format == "table" && !plan.held_notes.empty()) {  // what the plan starts from
        std::string held = "Commitments in the bill:\n";
        for (const std::string& note : plan.held_notes) held.append("  ").append(note).append("\n");
        out(held + "\n");
    }
    out(cli::render(summary, format));
    out("\n");
    out(cli::render(baselines, format));
    if (!plan.study.frontier.empty()) {
        out("\n");
        out(cli::render(frontier, format));
    }
    out("\n");
    out(bill_text(b, format));
    return 0;
}

/// "1y:all_upfront" → the commitment option the recommender may buy.
CommitmentOption commitment_option(const std::string& text, const std::string& flag) {
    const auto colon = text.find(':');
    require(colon != std::string::npos && colon > 1 && text[colon - 1] == 'y', flag, text,
            "must be <years>y:<payment>, e.g. 1y:all_upfront or 3y:no_upfront");
    int years = 0;
    const std::string number = text.substr(0, colon - 1);
    require(number.find_first_not_of("0123456789") == std::string::npos && number.size() <= 2, flag, text,
            "must be <years>y:<payment>, e.g. 1y:all_upfront or 3y:no_upfront");
    years = std::stoi(number);
    return CommitmentOption{years, parse_payment(text.substr(colon + 1), flag + " payment")};
}

}  // namespace gputco::cli
