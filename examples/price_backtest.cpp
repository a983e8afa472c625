// Back-test of the fitted price model on the stored public price history (data/price_history/):
// for each GPU family (A100, H100, L4) and option (on-demand, spot), at every month-end origin with a
// year of history behind it, fit the model to the data before the origin only, forecast 3, 6 and 12
// months ahead, and score against the realised price: coverage of the P5–P95 band, and the mean
// absolute log error of the median forecast beside the naive "price stays" forecast and today's
// downward-only model (a generation launch with probability 0.5 in the next 24 months, uniform, cutting
// prices by 20%: price_schedule.hpp's example). Spot is forecast from a fit of the spot log price
// itself. Two fitted forecasts: every path with the point estimates, and "calibrated", each path with a
// parameter set drawn from one past half-year's fit and its uncertainty (fit_by_period, draw_processes). Then the parameters fitted to all the data, with standard errors (docs/models.md, section 12).
//
//   build/examples/price_backtest [--data data/price_history] [--json]
#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <gputco/gputco.hpp>

using namespace gputco;

namespace {

int month_of(const Date& d) { return d.year * 12 + d.month - 1; }
Date first_of(int month) { return Date{month / 12, month % 12 + 1, 1}; }

double quantile(std::vector<double> v, double q) {
    const auto k = std::size_t(q * double(v.size() - 1) + 0.5);
    std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(k), v.end());
    return v[k];
}

struct Score {
    int n = 0, covered = 0, covered_calibrated = 0, covered_downward = 0;
    double error = 0, error_calibrated = 0, error_naive = 0, error_downward = 0;
};

std::string pm(double value, double se) {
    if (se == 0) return fmt::format("{:.4g} (held)", value);
    return std::isfinite(se) ? fmt::format("{:.4g} ± {:.2g}", value, se) : fmt::format("{:.4g} (at bound)", value);
}

}  // namespace

int main(int argc, char** argv) {
    std::string dir = "data/price_history";
    bool json = false;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--json") == 0) json = true;
        else if (std::strcmp(argv[i], "--data") == 0 && i + 1 < argc) dir = argv[++i];
    }
    std::vector<PriceRecord> records;
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        if (entry.path().extension() == ".csv") files.push_back(entry.path().string());
    }
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
        const auto rows = read_price_history_csv(f);
        records.insert(records.end(), rows.begin(), rows.end());
    }
    const int samples = 1000, horizons[] = {3, 6, 12}, period_months = 6;
    // Today's model: prices only fall.
    PriceModel downward;
    downward.launches.push_back({.probability = 0.5, .first_month = 0, .last_month = 23, .on_demand_factor = 0.8,
                                 .spot_factor = 0.8, .reserved_factor = 0.8});
    const PricePaths falls = price_paths(downward, Horizon::months(24), samples, 7);

    nlohmann::json out = {{"backtest", nlohmann::json::array()}, {"fitted", nlohmann::json::array()},
                          {"notes", nlohmann::json::array()}};
    std::string table =
        "| family | option | months ahead | forecasts | P5–P95 coverage, fitted | calibrated | prices only fall | "
        "mean abs log error, fitted median | calibrated median | price stays | prices only fall |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (const std::string family : {"A100", "H100", "L4"}) {
        for (const std::string option : {"on_demand", "spot"}) {
            std::vector<PriceObservation> obs;
            for (const auto& r : records) {
                if (r.gpu == family && r.option == option) obs.push_back(r.observation);
            }
            const std::vector<MonthlySeries> all = monthly_log_series(obs);
            int first = 1 << 30, last = -1;
            for (const auto& s : all) {
                first = std::min(first, month_of(s.first_month));
                last = std::max(last, month_of(s.first_month) + int(s.log_price.size()) - 1);
            }
            std::map<int, Score> scores;
            for (int origin = first + 12; origin + 3 <= last; ++origin) {
                // The past only: observations before the first of the month after the origin.
                const std::vector<MonthlySeries> past = monthly_log_series(obs, first_of(origin + 1));
                std::vector<std::vector<double>> values;
                for (const auto& s : past) values.push_back(s.log_price);
                std::size_t transitions = 0;
                for (const auto& v : values) transitions += v.size() > 1 ? v.size() - 1 : 0;
                if (transitions < 8) continue;
                const LogPriceProcess fitted = fit_log_price_process(values).process;
                // Calibrated: per path a parameter set drawn from one past year's fit and its uncertainty
                // (draw_processes over fit_by_period), so the band carries how the dynamics moved
                // between years as well as each year's estimation error.
                std::vector<int> starts;
                for (const auto& s : past) starts.push_back(month_of(s.first_month));
                // A year is too short to tell how long a change lasts: κ is held at the whole past's estimate.
                std::vector<ProcessFit> periods =
                    fit_by_period(values, starts, period_months, {.fixed_reversion = fitted.reversion});
                if (periods.empty()) periods.push_back(fit_log_price_process(values));
                const std::vector<LogPriceProcess> drawn = draw_processes(periods, samples, std::uint64_t(origin));
                for (std::size_t k = 0; k < past.size(); ++k) {
                    const MonthlySeries& p = past[k];
                    const int start = month_of(p.first_month);
                    if (start + int(p.log_price.size()) - 1 != origin) continue;  // the series is not current
                    const auto full = std::find_if(all.begin(), all.end(), [&](const auto& s) { return s.name == p.name; });
                    const double x0 = p.log_price.back();
                    const double deviation = x0 - (p.log_price.front() + fitted.drift * (origin - start));
                    for (int h : horizons) {
                        const int at = origin + h - month_of(full->first_month);
                        if (at >= int(full->log_price.size())) continue;
                        const double realised = full->log_price[std::size_t(at)];
                        const std::uint64_t seed = splitmix64(std::uint64_t(origin * 100 + h));
                        const Eigen::ArrayXXd sim = simulate_log_prices(fitted, h + 1, samples, seed, deviation);
                        const Eigen::ArrayXXd wide = simulate_log_prices(drawn, h + 1, seed, deviation);
                        std::vector<double> ahead(static_cast<std::size_t>(samples)), fall(static_cast<std::size_t>(samples)),
                            calibrated(static_cast<std::size_t>(samples));
                        for (int j = 0; j < samples; ++j) {
                            ahead[std::size_t(j)] = x0 - deviation + sim(h, j);
                            calibrated[std::size_t(j)] = x0 - deviation + wide(h, j);
                            fall[std::size_t(j)] = x0 + std::log(option == "spot" ? falls.spot(h, j) : falls.on_demand(h, j));
                        }
                        Score& s = scores[h];
                        ++s.n;
                        s.covered += realised >= quantile(ahead, 0.05) && realised <= quantile(ahead, 0.95);
                        s.covered_calibrated += realised >= quantile(calibrated, 0.05) && realised <= quantile(calibrated, 0.95);
                        s.error_calibrated += std::abs(quantile(calibrated, 0.5) - realised);
                        s.covered_downward += realised >= quantile(fall, 0.05) && realised <= quantile(fall, 0.95);
                        s.error += std::abs(quantile(ahead, 0.5) - realised);
                        s.error_naive += std::abs(x0 - realised);
                        s.error_downward += std::abs(quantile(fall, 0.5) - realised);
                    }
                }
            }
            for (int h : horizons) {
                const Score& s = scores[h];
                if (s.n == 0) continue;
                const double n = s.n;
                table += fmt::format("| {} | {} | {} | {} | {:.0f}% | {:.0f}% | {:.0f}% | {:.4f} | {:.4f} | {:.4f} | {:.4f} |\n",
                                     family, option, h, s.n, 100 * s.covered / n, 100 * s.covered_calibrated / n,
                                     100 * s.covered_downward / n, s.error / n, s.error_calibrated / n, s.error_naive / n,
                                     s.error_downward / n);
                out["backtest"].push_back({{"family", family}, {"option", option}, {"months_ahead", h}, {"forecasts", s.n},
                                           {"coverage_fitted", s.covered / n}, {"coverage_calibrated", s.covered_calibrated / n},
                                           {"coverage_downward", s.covered_downward / n},
                                           {"mean_abs_log_error_fitted", s.error / n},
                                           {"mean_abs_log_error_calibrated", s.error_calibrated / n},
                                           {"mean_abs_log_error_naive", s.error_naive / n},
                                           {"mean_abs_log_error_downward", s.error_downward / n}});
            }
        }
    }
    std::string params =
        "| family | component | transitions | κ /month | σ /√month | g /month | λ /month | μ_J | s_J |\n"
        "|---|---|---|---|---|---|---|---|---|\n";
    std::string notes;
    for (const std::string family : {"A100", "H100", "L4"}) {
        const DynamicsFit fit = fit_price_dynamics(records, family);
        const std::pair<const char*, const ProcessFit*> parts[] = {{"on-demand", &fit.on_demand},
                                                                  {"spot spread", &fit.spot_spread},
                                                                  {"1-year spread", &fit.reserved_1y_spread},
                                                                  {"3-year spread", &fit.reserved_3y_spread}};
        for (const auto& [name, f] : parts) {
            const LogPriceProcess& p = f->process;
            const LogPriceProcess& e = f->standard_error;
            params += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", family, name, f->transitions,
                                  pm(p.reversion, e.reversion), pm(p.volatility, e.volatility), pm(p.drift, e.drift),
                                  pm(p.jump_rate, e.jump_rate), pm(p.jump_mean, e.jump_mean), pm(p.jump_sd, e.jump_sd));
            out["fitted"].push_back({{"family", family}, {"component", name}, {"transitions", f->transitions},
                                     {"reversion", p.reversion}, {"volatility", p.volatility}, {"drift", p.drift},
                                     {"jump_rate", p.jump_rate}, {"jump_mean", p.jump_mean}, {"jump_sd", p.jump_sd}});
        }
        params += fmt::format("| {} | spot correlation ρ | | {} | | | | | |\n", family,
                              pm(fit.dynamics.spot_correlation, fit.spot_correlation_standard_error));
        for (const std::string& note : fit.notes) {
            notes += fmt::format("- {}, {}\n", family, note);
            out["notes"].push_back(family + ", " + note);
        }
    }
    if (json) {
        fmt::print("{}\n", out.dump(2));
    } else {
        fmt::print("Back-test ({} price records from {})\n\n{}\nFitted to all the data\n\n{}\n{}", records.size(), dir, table,
                   params, notes);
    }
    return 0;
}
