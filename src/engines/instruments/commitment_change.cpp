// Changing a commitment (commitment_change.hpp).
#include "commitment_change.hpp"

#include <cmath>

#include <fmt/format.h>

#include "gputco/core/limits.hpp"

namespace gputco::instruments {

double remaining_value(const PricedCommitment& c, int k) {
    const int left = c.term_end(k) - k;
    return c.gpus * (c.value_upfront_per_gpu * left / c.term_months + c.hourly_per_gpu * left * hours_per_month);
}

double remaining_upfront(const PricedCommitment& c, int k) {
    return c.gpus * c.value_upfront_per_gpu * (c.term_end(k) - k) / c.term_months;
}

ExchangeValue exchange_value(const PricedCommitment& old, const PricedCommitment& next, int k) {
    ExchangeValue out;
    out.end = std::max(old.term_end(k), k + next.term_months);
    const int runs = out.end - k;
    out.per_gpu_upfront = next.upfront_per_gpu * runs / next.term_months;
    out.value = next.gpus * (out.per_gpu_upfront + next.hourly_per_gpu * runs * hours_per_month);
    out.upfront = next.gpus * out.per_gpu_upfront;
    return out;
}

std::vector<ChangeFlow> apply_changes(const std::vector<CommitmentChange>& changes, std::vector<PricedCommitment>& held,
                                      std::vector<PricedCommitment>& bought, const Offering& plan_offering,
                                      const PlanOptions& options, int horizon, std::vector<std::string>& conversions) {
    std::vector<ChangeFlow> flows;
    const std::size_t held_count = held.size(), bought_count = bought.size();
    std::vector<int> held_by(held_count, -1), bought_by(bought_count, -1);  // which change changed each
    std::vector<std::pair<int, double>> refunds;                            // (month, amount) so far
    for (std::size_t i = 0; i < changes.size(); ++i) {
        const CommitmentChange& change = changes[i];
        const std::string field = fmt::format("plan.changes[{}]", i);
        const char* list = change.held ? "held" : "commitments";
        const std::size_t count = change.held ? held_count : bought_count;
        require(change.index < count, field + ".index", change.index,
                fmt::format("must be < {} (the plan's {} commitments)", count, change.held ? "held" : "planned"));
        std::vector<PricedCommitment>& in = change.held ? held : bought;
        int& changed_by = (change.held ? held_by : bought_by)[change.index];
        require(changed_by < 0, field + ".index", change.index,
                fmt::format("{}[{}] is already changed by plan.changes[{}] (one change per commitment)", list,
                            change.index, changed_by));
        changed_by = int(i);
        const std::string target = fmt::format("{}[{}]", list, change.index);
        const int k = change.month;
        {
            const PricedCommitment& c = in[change.index];
            const auto [first, last] = change_months(c, horizon);
            require(k >= first && k < last, field + ".month", k,
                    fmt::format("must be in [{}, {}) (after {} is bought, while it runs, inside the horizon)", first,
                                last, target));
        }
        const bool exchange = change.kind == ChangeKind::exchange || change.kind == ChangeKind::azure_exchange;
        require(exchange || !change.into, field + ".into", "given",
                fmt::format("only an exchange buys a new reservation, not a {}", to_text(change.kind)));
        const std::string kind_field = field + ".kind";
        switch (change.kind) {
        case ChangeKind::exchange: {
            require(in[change.index].kind == CommitmentClass::convertible, kind_field, "exchange",
                    fmt::format("{} is a standard reservation; only a convertible one is exchanged (a standard one "
                                "may be resold)",
                                target));
            require(change.into.has_value(), field + ".into", "none", "an exchange needs the new reservation");
            Commitment terms = *change.into;
            terms.start_month = k;
            terms.renewal = Renewal::lapse;
            const PricedCommitment& old = in[change.index];
            require(exchange_payment_allowed(old.payment, terms.payment), field + ".into.payment", to_text(terms.payment),
                    fmt::format("must be the same as or a higher payment option than {}'s {} (AWS exchanges a "
                                "convertible reservation only for the same or a higher payment option: no_upfront, "
                                "partial_upfront, all_upfront)",
                                target, to_text(old.payment)));
            PricedCommitment next =
                price_commitment_as(terms, field + ".into", false, plan_offering, options, horizon, conversions);
            // The new one runs to the later of the old term's end and its own full term.
            const ExchangeValue exchanged = exchange_value(old, next, k);
            const int end = exchanged.end, runs = end - k;
            const double per_gpu_upfront = exchanged.per_gpu_upfront, new_value = exchanged.value;
            const double old_value = remaining_value(old, k);
            require(new_value >= old_value * (1 - 1e-12), field + ".into",
                    fmt::format("{:g} GPUs, {}y {}", next.gpus, terms.term_years, to_string(terms.payment)),
                    fmt::format("worth {:.2f} over months [{}, {}), less than the {:.2f} left of {}; an exchange must "
                                "be for equal or greater value",
                                new_value, k, end, old_value, target));
            const double true_up = exchange_true_up(exchanged, remaining_upfront(old, k));
            next.name = fmt::format("{} exchanged in month {}", old.name, k);
            next.start = k;
            next.term_months = runs;
            next.value_upfront_per_gpu = per_gpu_upfront;  // paid: the old upfront left and the true-up
            next.upfront_per_gpu = 0;                       // the true-up is the change's own flow
            next.fixed_price = true;
            next.kind = CommitmentClass::convertible;
            flows.push_back({k, true_up,
                             fmt::format("{}: exchanged in month {} ({:.2f} left) for {} worth {:.2f} to month {}; "
                                         "true-up {:.2f} {}",
                                         target, k, old_value, next.name, new_value, end, true_up,
                                         plan_offering.currency)});
            in[change.index].stop = k;
            in.push_back(std::move(next));
            break;
        }
        case ChangeKind::resale: {
            require(in[change.index].kind == CommitmentClass::standard, kind_field, "resale",
                    fmt::format("{} is a convertible reservation; only a standard one is sold on the Reserved "
                                "Instance Marketplace (a convertible one may be exchanged)",
                                target));
            require_at_most(field + ".price", change.price, limits::max_money);
            const double received = resale_received(change.price);
            flows.push_back({k, -received,
                             fmt::format("{}: sold in month {} for {:.2f} {} less the marketplace's {:g}% fee: {:.2f} "
                                         "received; its hourly charges pass to the buyer",
                                         target, k, change.price, plan_offering.currency, 100 * marketplace_fee,
                                         received)});
            in[change.index].stop = k;
            break;
        }
        case ChangeKind::azure_exchange: {
            // Azure: the returned reservation's prorated upfront is refunded and the new one bought in
            // full from this month; its lifetime commitment must be at least what is left of the old.
            // Exchanges do not count against the refund cap.
            require(change.into.has_value(), field + ".into", "none", "an exchange needs the new reservation");
            Commitment terms = *change.into;
            terms.start_month = k;
            terms.renewal = Renewal::lapse;
            PricedCommitment next =
                price_commitment_as(terms, field + ".into", false, plan_offering, options, horizon, conversions);
            const PricedCommitment& old = in[change.index];
            const double left = remaining_value(old, k), refund = remaining_upfront(old, k);
            const double lifetime = azure_lifetime_commitment(next);
            require(lifetime >= left * (1 - 1e-12), field + ".into",
                    fmt::format("{:g} GPUs, {}y {}", next.gpus, terms.term_years, to_string(terms.payment)),
                    fmt::format("a lifetime commitment of {:.2f}, less than the {:.2f} left of {}; an Azure exchange "
                                "must be for equal or greater value",
                                lifetime, left, target));
            next.name = fmt::format("{} exchanged in month {}", old.name, k);
            next.fixed_price = true;  // bought at the prices given, not a price path's
            flows.push_back({k, -refund,
                             fmt::format("{}: returned in month {} ({:.2f} left, {:.2f} of upfront refunded) for {} "
                                         "with a lifetime commitment of {:.2f} {}",
                                         target, k, left, refund, next.name, lifetime, plan_offering.currency)});
            in[change.index].stop = k;
            in.push_back(std::move(next));
            break;
        }
        case ChangeKind::refund: {
            const double amount = remaining_upfront(in[change.index], k);
            refunds.push_back({k, amount});
            for (int first = k - refund_window_months + 1; first <= k; ++first) {  // every 12 months holding k
                double window = 0;
                for (const auto& [month, paid] : refunds)
                    if (month >= first && month < first + refund_window_months) window += paid;
                require(window <= azure_refund_cap * (1 + 1e-12), kind_field, "refund",
                        fmt::format("{:.2f} refunded for {} in month {} brings refunds in months [{}, {}] to {:.2f}, "
                                    "more than the {:g} Azure refunds in any 12 months",
                                    amount, target, k, std::max(0, first), first + refund_window_months - 1, window,
                                    azure_refund_cap));
            }
            flows.push_back({k, -amount,
                             fmt::format("{}: refunded in month {}: {:.2f} {} (the upfront's prorated remainder; later "
                                         "charges stop)",
                                         target, k, amount, plan_offering.currency)});
            in[change.index].stop = k;
            break;
        }
        }
    }
    return flows;
}

}  // namespace gputco::instruments
