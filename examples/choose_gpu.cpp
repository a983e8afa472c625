// Which GPU and which offering for this training job? Cost per unit of work, not price per hour:
// ResNet-50 for 90 epochs on ImageNet and BERT-large fine-tuning on SQuAD, each ranked across the
// built-in catalog (on-demand, spot with checkpoints, reserved at its effective rate, owned), then the
// seed articles' performance claims beside what the measured tables give.
//
// Throughput: the Lambda deep-learning benchmark built into gputco; GPUs without a measurement are
// listed as skipped, or, for BERT on T4s, estimated by peak TFLOPS and labelled so.
//
// Usage: choose_gpu [--json]
#include <cmath>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <gputco/app/json_rows.hpp>
#include <gputco/gputco.hpp>
#include <nlohmann/json.hpp>

using namespace gputco;

namespace {

struct TrainingJob {
    Workload workload;
    RankOptions options;
    double deadline_hours;
    double probability;
};

void print_ranking(const WorkRanking& ranking, std::size_t top) {
    const Workload& w = ranking.workload;
    fmt::print("\n{}: {} x {:g} {} per epoch, {:g} epochs, {} precision{}\n", w.name, w.model, w.work_per_epoch,
               ranking.unit, w.epochs, to_string(w.precision),
               w.memory_gb > 0 ? fmt::format(", needs {:.1f} GB per GPU", w.memory_gb) : "");
    const SpotAssumptions& s = ranking.spot_assumptions;
    fmt::print("spot: Poisson interruptions every {:g} h on average (every provider alike), checkpoint write {:.0f} "
               "min at the optimal interval, restart {:.0f} min; {} paths, seed {}. {}: one currency, others "
               "converted at a dated rate. (proxy) = a sibling GPU's rows, (estimate) = peak-TFLOPS estimate.\n",
               s.mtbf_hours, 60 * s.checkpoint_write_hours, 60 * s.restart_hours, s.simulation.paths,
               s.simulation.seed, ranking.currency);
    fmt::print("{:<3} {:<44} {:<9} {:>4} {:>9} {:>8} {:>10} {:>10} {:>10} {:>11}\n", "#", "offering", "buying", "GPUs",
               "units/s", "run h", "$/epoch", "$/run", "$/run P95", "$/M units");
    for (std::size_t i = 0; i < ranking.rows.size() && i < top; ++i) {
        const WorkCostRow& r = ranking.rows[i];
        const std::string where = fmt::format("{}/{}/{}", r.provider, r.region, r.instance_type);
        const std::string flag = r.match == MatchKind::measured ? "" : fmt::format(" ({})", to_string(r.match));
        fmt::print("{:<3} {:<44} {:<9} {:>4} {:>9.0f} {:>8.2f} {:>10.2f} {:>10.2f} {:>10.2f} {:>11.3f}\n", i + 1,
                   where + flag, to_string(r.buying), r.gpus, r.throughput_per_second, r.run_hours, r.cost_per_epoch,
                   r.cost_per_run, r.cost_per_run_p95, r.cost_per_million);
    }
    fmt::print("({} ways ranked, {} offerings skipped, of which {} for prices older than {} days on {} or undated; "
               "first reasons:)\n",
               ranking.rows.size(), ranking.skipped.size(), ranking.stale_left_out, ranking.max_price_age_days,
               ranking.prices_as_of);
    for (std::size_t i = 0; i < ranking.skipped.size() && i < 4; ++i)
        fmt::print("  skipped {}: {}\n", ranking.skipped[i].offering, ranking.skipped[i].reason);
}

}  // namespace

int main(int argc, char** argv) {
    const bool json = argc > 1 && std::strcmp(argv[1], "--json") == 0;
    const Catalog& catalog = Catalog::builtin();
    const ThroughputTable& table = ThroughputTable::builtin();

    // ResNet-50 on ImageNet-1k: 1,281,167 training images, 90 epochs (the reference schedule). Memory:
    // 25.6 M parameters x 16 B (Adam, mixed precision) + about 8 GB of activations at batch 256 per GPU.
    TrainingJob resnet{.workload = {.name = "ResNet-50, ImageNet, 90 epochs", .model = "resnet50",
                            .work_per_epoch = 1'281'167, .epochs = 90, .precision = Precision::mixed,
                            .memory_gb = training_memory_gb(25.6e6, 16, 8)},
               .options = {}, .deadline_hours = 24, .probability = 0.95};
    // BERT-large fine-tuning on SQuAD v1.1: 88,641 features of 384 tokens, 2 epochs. 340 M parameters x
    // 16 B + about 6 GB of activations. T4s were not benchmarked: allow the labelled peak-TFLOPS estimate.
    TrainingJob bert{.workload = {.name = "BERT-large fine-tuning, SQuAD v1.1, 2 epochs", .model = "bert_large_squad",
                          .work_per_epoch = 88'641, .epochs = 2, .precision = Precision::mixed,
                          .memory_gb = training_memory_gb(340e6, 16, 6)},
             .options = {}, .deadline_hours = 1, .probability = 0.95};
    bert.options.allow_estimates = true;
    // The ranking compares renting for this one run: on-demand and spot. Reserved (at its effective rate,
    // if the reservation is kept busy) and owned machines (at full use) follow as a comparison.
    for (TrainingJob* job : {&resnet, &bert}) job->options.reserved = job->options.owned = false;

    nlohmann::ordered_json json_jobs = nlohmann::ordered_json::array();
    for (TrainingJob* job : {&resnet, &bert}) {
        job->options.deadline_hours = job->deadline_hours;
        const WorkRanking ranking = rank_offerings(job->workload, catalog, table, job->options);
        const auto best = cheapest_within(job->workload, catalog, table, job->deadline_hours, job->probability, job->options);
        if (json) {
            // The rows in the library's ranking columns: the keys `gputco rank --format json` writes.
            nlohmann::ordered_json skipped = nlohmann::ordered_json::array();
            for (const SkippedOffering& s : ranking.skipped) skipped.push_back({{"offering", s.offering}, {"reason", s.reason}});
            json_jobs.push_back({{"workload", job->workload.name},
                                 {"model", job->workload.model},
                                 {"unit", ranking.unit},
                                 {"work_per_epoch", job->workload.work_per_epoch},
                                 {"epochs", job->workload.epochs},
                                 {"memory_gb", job->workload.memory_gb},
                                 {"currency", ranking.currency},
                                 {"deadline_hours", job->deadline_hours},
                                 {"prices_as_of", ranking.prices_as_of},
                                 {"max_price_age_days", ranking.max_price_age_days},
                                 {"stale_left_out", ranking.stale_left_out},
                                 {"probability", job->probability},
                                 {"cheapest_within_deadline", best ? row_json(ranking_columns(), *best) : nullptr},
                                 {"rows", rows_json(ranking_columns(), ranking.rows)},
                                 {"skipped", skipped}});
            continue;
        }
        print_ranking(ranking, 12);
        RankOptions commit = job->options;
        commit.on_demand = commit.spot = false;
        commit.reserved = commit.owned = true;
        const WorkRanking committed = rank_offerings(job->workload, catalog, table, commit);
        for (BuyingWay way : {BuyingWay::reserved, BuyingWay::owned})
            for (const WorkCostRow& r : committed.rows)
                if (r.buying == way) {
                    fmt::print("Best {} for comparison: {}/{} {}{} at {:.2f} {} per run, {:.2f} h\n",
                               to_string(way), r.provider, r.instance_type, r.terms,
                               way == BuyingWay::reserved ? " (effective rate, reservation kept busy)" : "",
                               r.cost_per_run, r.currency, r.run_hours);
                    break;
                }
        if (best)
            fmt::print("Cheapest way to finish within {:g} h with probability >= {:g}: {}/{}/{} {} {} at {:.2f} {} "
                       "per run ({:.2f} h)\n",
                       job->deadline_hours, job->probability, best->provider, best->region, best->instance_type,
                       to_string(best->buying), best->terms, best->cost_per_run, best->currency, best->run_hours);
        else
            fmt::print("No way finishes within {:g} h with probability >= {:g}\n", job->deadline_hours, job->probability);
    }

    const std::vector<WorkAuditRow> audit = audit_seed_work_claims(catalog, table);
    if (json) {
        nlohmann::ordered_json rows = nlohmann::ordered_json::array();
        for (const WorkAuditRow& a : audit)
            rows.push_back({{"claim", a.claim}, {"source", a.source}, {"seed_figure", a.seed_figure},
                            {"measured_figure", a.measured_figure}, {"unit", a.unit}, {"verdict", a.verdict},
                            {"basis", a.basis}, {"reason", a.reason}});
        fmt::print("{}\n", nlohmann::ordered_json{{"jobs", json_jobs}, {"seed_audit", rows}}.dump());
        return 0;
    }
    fmt::print("\nSeed claims beside the measured tables (consistent = within {:.0f}%):\n", 100 * seed_audit_tolerance);
    for (const WorkAuditRow& a : audit) {
        fmt::print("- {} ({}): seed {:g} {}, measured {:.3g} {} -> {}\n    {}\n    {}\n", a.claim, a.source,
                   a.seed_figure, a.unit, a.measured_figure, a.unit, a.verdict, a.basis, a.reason);
    }
    return 0;
}
