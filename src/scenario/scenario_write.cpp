// Writes a scenario as canonical YAML: every field the reader knows, in the schema's order, numbers in
// their shortest form that reads back to the same double.
#include <cmath>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "gputco/scenario/scenario.hpp"

namespace gputco {
namespace {

std::string number(double value) { return fmt::format("{}", value); }

void write_source(YAML::Emitter& out, const Source& s) {
    out << YAML::Key << "source" << YAML::Value << YAML::BeginMap;
    if (!s.name.empty()) out << YAML::Key << "name" << YAML::Value << YAML::DoubleQuoted << s.name;
    if (!s.as_of.empty()) out << YAML::Key << "as_of" << YAML::Value << YAML::DoubleQuoted << s.as_of;
    out << YAML::EndMap;
}

void write_offering(YAML::Emitter& out, const Offering& o) {
    out << YAML::BeginMap;
    out << YAML::Key << "provider" << YAML::Value << YAML::DoubleQuoted << o.provider;
    out << YAML::Key << "region" << YAML::Value << YAML::DoubleQuoted << o.region;
    out << YAML::Key << "instance_type" << YAML::Value << YAML::DoubleQuoted << o.instance_type;
    out << YAML::Key << "gpu" << YAML::Value << YAML::DoubleQuoted << o.gpu;
    out << YAML::Key << "gpus_per_instance" << YAML::Value << o.gpus_per_instance;
    out << YAML::Key << "currency" << YAML::Value << YAML::DoubleQuoted << o.currency;
    out << YAML::Key << "on_demand_hourly" << YAML::Value << number(o.on_demand_hourly);
    if (o.spot_hourly) out << YAML::Key << "spot_hourly" << YAML::Value << number(*o.spot_hourly);
    if (!o.reserved.empty()) {
        out << YAML::Key << "reserved" << YAML::Value << YAML::BeginSeq;
        for (const ReservedPrice& p : o.reserved) {
            out << YAML::BeginMap << YAML::Key << "term_years" << YAML::Value << p.term_years;
            out << YAML::Key << "payment" << YAML::Value << std::string(to_string(p.payment));
            out << YAML::Key << "upfront" << YAML::Value << number(p.upfront);
            out << YAML::Key << "hourly" << YAML::Value << number(p.hourly);
            write_source(out, p.source);
            out << YAML::EndMap;
        }
        out << YAML::EndSeq;
    }
    out << YAML::Key << "billing_increment_seconds" << YAML::Value << number(o.billing_increment_seconds);
    out << YAML::Key << "minimum_billed_seconds" << YAML::Value << number(o.minimum_billed_seconds);
    write_source(out, o.source);
    if (!o.notes.empty()) out << YAML::Key << "notes" << YAML::Value << YAML::DoubleQuoted << o.notes;
    out << YAML::EndMap;
}

void write_reserved(YAML::Emitter& out, const Reserved& r) {
    out << YAML::BeginMap << YAML::Key << "term_years" << YAML::Value << r.term_years;
    out << YAML::Key << "payment" << YAML::Value << std::string(to_string(r.payment));
    if (r.reservation_discount) out << YAML::Key << "reservation_discount" << YAML::Value << number(*r.reservation_discount);
    out << YAML::Key << "renewal" << YAML::Value << std::string(to_text(r.renewal));
    out << YAML::EndMap;
}

void write_owned(YAML::Emitter& out, const Owned& o) {
    out << YAML::BeginMap;
    out << YAML::Key << "capex_per_gpu" << YAML::Value << number(o.capex_per_gpu);
    out << YAML::Key << "life_years" << YAML::Value << o.life_years;
    out << YAML::Key << "residual_fraction" << YAML::Value << number(o.residual_fraction);
    out << YAML::Key << "watts_per_gpu" << YAML::Value << number(o.watts_per_gpu);
    out << YAML::Key << "idle_power_fraction" << YAML::Value << number(o.idle_power_fraction);
    out << YAML::Key << "pue" << YAML::Value << number(o.pue);
    out << YAML::Key << "electricity_per_kwh" << YAML::Value << number(o.electricity_per_kwh);
    out << YAML::Key << "colocation_per_gpu_month" << YAML::Value << number(o.colocation_per_gpu_month);
    out << YAML::Key << "maintenance_fraction_per_year" << YAML::Value << number(o.maintenance_fraction_per_year);
    out << YAML::Key << "staff_per_month" << YAML::Value << number(o.staff_per_month);
    out << YAML::EndMap;
}

void write_kind(YAML::Emitter& out, const OnDemand&, const std::string&) {
    out << YAML::Key << "on_demand" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::EndMap;
}
void write_kind(YAML::Emitter& out, const Reserved& r, const std::string&) {
    out << YAML::Key << "reserved" << YAML::Value;
    write_reserved(out, r);
}
void write_kind(YAML::Emitter& out, const Owned& o, const std::string&) {
    out << YAML::Key << "owned" << YAML::Value;
    write_owned(out, o);
}
void write_kind(YAML::Emitter& out, const SpotTranche& s, const std::string& job) {
    out << YAML::Key << "spot" << YAML::Value << YAML::BeginMap;
    if (s.price_per_gpu_hour) out << YAML::Key << "price_per_gpu_hour" << YAML::Value << number(*s.price_per_gpu_hour);
    if (job.empty()) out << YAML::Key << "overhead" << YAML::Value << number(s.overhead);
    out << YAML::Key << "availability" << YAML::Value << number(s.availability);
    if (!job.empty()) out << YAML::Key << "job" << YAML::Value << YAML::DoubleQuoted << job;
    out << YAML::EndMap;
}

void write_strategy(YAML::Emitter& out, const NamedStrategy& s) {
    out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << YAML::DoubleQuoted << s.name;
    if (const Mix* mix = std::get_if<Mix>(&s.strategy)) {
        out << YAML::Key << "mix" << YAML::Value << YAML::BeginMap;
        out << YAML::Key << "tranches" << YAML::Value << YAML::BeginSeq;
        for (std::size_t i = 0; i < mix->tranches.size(); ++i) {
            const Tranche& t = mix->tranches[i];
            out << YAML::BeginMap << YAML::Key << "fraction" << YAML::Value << number(t.fraction);
            const std::string job = i < s.spot_jobs.size() ? s.spot_jobs[i] : std::string();
            std::visit([&](const auto& k) { write_kind(out, k, job); }, t.kind);
            out << YAML::EndMap;
        }
        out << YAML::EndSeq;
        if (mix->fleet_gpus) out << YAML::Key << "fleet_gpus" << YAML::Value << number(*mix->fleet_gpus);
        out << YAML::Key << "rounding" << YAML::Value << std::string(to_text(mix->rounding));
        out << YAML::EndMap;
    } else {
        std::visit([&](const auto& k) {
            if constexpr (!std::is_same_v<std::decay_t<decltype(k)>, Mix>) write_kind(out, k, {});
        }, s.strategy);
    }
    out << YAML::EndMap;
}

template <std::size_t N>
void write_numbers(YAML::Emitter& out, const char* key, const std::array<double, N>& values) {
    out << YAML::Key << key << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (const double v : values) out << number(v);
    out << YAML::EndSeq;
}

void write_demand(YAML::Emitter& out, const DemandSpec& d) {
    out << YAML::Key << "demand" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "kind" << YAML::Value << d.kind;
    if (d.kind == "constant") out << YAML::Key << "gpus" << YAML::Value << number(d.gpus);
    if (d.kind == "linear_growth" || d.kind == "compound_growth")
        out << YAML::Key << "start_gpus" << YAML::Value << number(d.start_gpus);
    if (d.kind == "linear_growth") out << YAML::Key << "end_gpus" << YAML::Value << number(d.end_gpus);
    if (d.kind == "compound_growth") out << YAML::Key << "annual_growth_rate" << YAML::Value << number(d.annual_growth_rate);
    if (d.kind == "steps") {
        out << YAML::Key << "steps" << YAML::Value << YAML::BeginSeq;
        for (const DemandStep& s : d.steps)
            out << YAML::Flow << YAML::BeginMap << YAML::Key << "start_month" << YAML::Value << s.start_month
                << YAML::Key << "gpus" << YAML::Value << number(s.gpus) << YAML::EndMap;
        out << YAML::EndSeq;
    }
    if (d.daily_pattern) write_numbers(out, "daily_pattern", *d.daily_pattern);
    if (d.weekly_pattern) write_numbers(out, "weekly_pattern", *d.weekly_pattern);
    out << YAML::Key << "scale" << YAML::Value << number(d.scale);
    out << YAML::EndMap;
}


void write_rules(YAML::Emitter& out, const ProviderRules& r, const std::string& preset) {
    out << YAML::Key << "rules" << YAML::Value;
    if (!preset.empty()) {
        out << preset;
        return;
    }
    out << YAML::BeginMap;
    out << YAML::Key << "notice_hours" << YAML::Value << number(r.notice_hours);
    out << YAML::Key << "emergency_checkpoint" << YAML::Value << (r.emergency_checkpoint ? "true" : "false");
    out << YAML::Key << "protection_hours" << YAML::Value << number(r.protection_hours);
    if (std::isfinite(r.max_lifetime_hours)) out << YAML::Key << "max_lifetime_hours" << YAML::Value << number(r.max_lifetime_hours);
    out << YAML::EndMap;
}

void write_interruptions(YAML::Emitter& out, const InterruptionSpec& spec) {
    out << YAML::Key << "interruptions" << YAML::Value << YAML::BeginMap;
    const ProviderRules* rules = nullptr;
    if (spec.advisor_bucket) {
        out << YAML::Key << "advisor_bucket" << YAML::Value << *spec.advisor_bucket;
        rules = &std::get<Poisson>(spec.model).rules;
    } else if (const auto* p = std::get_if<Poisson>(&spec.model)) {
        out << YAML::Key << "poisson" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "mtbf_hours"
            << YAML::Value << number(p->mtbf_hours) << YAML::EndMap;
        rules = &p->rules;
    } else if (const auto* w = std::get_if<Weibull>(&spec.model)) {
        out << YAML::Key << "weibull" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "shape" << YAML::Value
            << number(w->shape) << YAML::Key << "scale_hours" << YAML::Value << number(w->scale_hours) << YAML::EndMap;
        rules = &w->rules;
    } else if (const auto* t = std::get_if<Trace>(&spec.model)) {
        out << YAML::Key << "trace" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "file" << YAML::Value
            << YAML::DoubleQuoted << spec.trace_file << YAML::EndMap;
        rules = &t->rules;
    } else {
        const auto& d = std::get<PriceDriven>(spec.model);
        out << YAML::Key << "price_driven" << YAML::Value << YAML::BeginMap;
        out << YAML::Key << "reversion_per_hour" << YAML::Value << number(d.reversion_per_hour);
        out << YAML::Key << "volatility_per_sqrt_hour" << YAML::Value << number(d.volatility_per_sqrt_hour);
        if (std::isfinite(d.price_cap_per_hour)) out << YAML::Key << "price_cap_per_hour" << YAML::Value << number(d.price_cap_per_hour);
        out << YAML::Key << "step_hours" << YAML::Value << number(d.step_hours);
        out << YAML::EndMap;
        rules = &d.rules;
    }
    const ProviderRules none;
    const bool default_rules = rules->notice_hours == none.notice_hours && !rules->emergency_checkpoint &&
                               rules->protection_hours == none.protection_hours &&
                               rules->max_lifetime_hours == none.max_lifetime_hours;
    if (!spec.rules_preset.empty() || !default_rules) write_rules(out, *rules, spec.rules_preset);
    out << YAML::EndMap;
}

void write_spot_job(YAML::Emitter& out, const SpotJobSpec& j) {
    out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << YAML::DoubleQuoted << j.name;
    out << YAML::Key << "work_hours" << YAML::Value << number(j.job.work_hours);
    if (j.job.checkpoint_interval_hours > 0)
        out << YAML::Key << "checkpoint_interval_hours" << YAML::Value << number(j.job.checkpoint_interval_hours);
    out << YAML::Key << "checkpoint_write_hours" << YAML::Value << number(j.job.checkpoint_write_hours);
    out << YAML::Key << "restart_hours" << YAML::Value << number(j.job.restart_hours);
    out << YAML::Key << "capacity_wait_hours" << YAML::Value << number(j.job.capacity_wait_hours);
    if (std::isfinite(j.job.deadline_hours)) out << YAML::Key << "deadline_hours" << YAML::Value << number(j.job.deadline_hours);
    if (j.interruptions) write_interruptions(out, *j.interruptions);
    else out << YAML::Key << "mtbf_hours" << YAML::Value << number(j.mtbf_hours);
    if (j.price_per_gpu_hour) out << YAML::Key << "price_per_gpu_hour" << YAML::Value << number(*j.price_per_gpu_hour);
    out << YAML::Key << "paths" << YAML::Value << j.paths;
    out << YAML::EndMap;
}


void write_list(YAML::Emitter& out, const char* key, const std::vector<double>& values) {
    out << YAML::Key << key << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (const double v : values) out << number(v);
    out << YAML::EndSeq;
}

void write_futures(YAML::Emitter& out, const FuturesSpec& f) {
    const DemandModel& m = f.model;
    out << YAML::Key << "futures" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "count" << YAML::Value << f.count;
    out << YAML::Key << "base_gpus" << YAML::Value << number(m.base_gpus);
    out << YAML::Key << "monthly_log_growth" << YAML::Value << number(m.monthly_log_growth);
    out << YAML::Key << "monthly_log_volatility" << YAML::Value << number(m.monthly_log_volatility);
    if (!m.events.empty()) {
        out << YAML::Key << "events" << YAML::Value << YAML::BeginSeq;
        for (const DemandEvent& e : m.events)
            out << YAML::Flow << YAML::BeginMap << YAML::Key << "gpus" << YAML::Value << number(e.gpus) << YAML::Key
                << "probability" << YAML::Value << number(e.probability) << YAML::Key << "first_month" << YAML::Value
                << e.first_month << YAML::Key << "last_month" << YAML::Value << e.last_month << YAML::EndMap;
        out << YAML::EndSeq;
    }
    if (!m.seasonality.empty()) write_list(out, "seasonality", m.seasonality);
    if (!m.hour_of_week.empty()) write_list(out, "hour_of_week", m.hour_of_week);
    if (!m.history_monthly_gpus.empty()) write_list(out, "history_monthly_gpus", m.history_monthly_gpus);
    out << YAML::EndMap;
}

/// `price_model`: every member written, so that the file says the whole model.
void write_price_model(YAML::Emitter& out, const PriceDynamics& d) {
    const auto process = [&out](std::string_view key, const LogPriceProcess& p) {
        out << YAML::Key << std::string(key) << YAML::Value << YAML::Flow << YAML::BeginMap;
        out << YAML::Key << "reversion" << YAML::Value << number(p.reversion);
        out << YAML::Key << "volatility" << YAML::Value << number(p.volatility);
        out << YAML::Key << "drift" << YAML::Value << number(p.drift);
        out << YAML::Key << "jump_rate" << YAML::Value << number(p.jump_rate);
        out << YAML::Key << "jump_mean" << YAML::Value << number(p.jump_mean);
        out << YAML::Key << "jump_sd" << YAML::Value << number(p.jump_sd);
        out << YAML::EndMap;
    };
    out << YAML::Key << "price_model" << YAML::Value << YAML::BeginMap;
    process("on_demand", d.on_demand);
    process("spot_spread", d.spot_spread);
    out << YAML::Key << "spot_correlation" << YAML::Value << number(d.spot_correlation);
    process("reserved_1y_spread", d.reserved_1y_spread);
    process("reserved_3y_spread", d.reserved_3y_spread);
    if (!d.launches.empty()) {
        out << YAML::Key << "launches" << YAML::Value << YAML::BeginSeq;
        for (const GenerationLaunch& l : d.launches)
            out << YAML::Flow << YAML::BeginMap << YAML::Key << "probability" << YAML::Value << number(l.probability)
                << YAML::Key << "first_month" << YAML::Value << l.first_month << YAML::Key << "last_month" << YAML::Value
                << l.last_month << YAML::Key << "on_demand_factor" << YAML::Value << number(l.on_demand_factor)
                << YAML::Key << "spot_factor" << YAML::Value << number(l.spot_factor) << YAML::Key << "reserved_factor"
                << YAML::Value << number(l.reserved_factor) << YAML::EndMap;
        out << YAML::EndSeq;
    }
    out << YAML::EndMap;
}

void write_commitment(YAML::Emitter& out, const Commitment& c) {
    out << YAML::BeginMap << YAML::Key << "count" << YAML::Value << number(c.count);
    out << YAML::Key << "unit" << YAML::Value << (c.unit == CountUnit::gpus ? "gpus" : "instances");
    out << YAML::Key << "term_years" << YAML::Value << c.term_years;
    out << YAML::Key << "payment" << YAML::Value << std::string(to_string(c.payment));
    out << YAML::Key << "start_month" << YAML::Value << c.start_month;
    out << YAML::Key << "renewal" << YAML::Value << (c.renewal == Renewal::renew ? "renew" : "lapse");
    if (c.reservation_discount) out << YAML::Key << "reservation_discount" << YAML::Value << number(*c.reservation_discount);
    if (c.kind != CommitmentClass::standard) out << YAML::Key << "kind" << YAML::Value << std::string(to_text(c.kind));
    if (c.term_months != 0) out << YAML::Key << "term_months" << YAML::Value << c.term_months;
    out << YAML::EndMap;
}

void write_spot_share(YAML::Emitter& out, const SpotShare& s) {
    out << YAML::BeginMap;
    out << YAML::Key << "gpus" << YAML::Value << number(s.gpus);
    if (s.price_per_gpu_hour) out << YAML::Key << "price_per_gpu_hour" << YAML::Value << number(*s.price_per_gpu_hour);
    out << YAML::Key << "overhead" << YAML::Value << number(s.overhead);
    out << YAML::Key << "availability" << YAML::Value << number(s.availability);
    if (!s.periods.empty()) {
        out << YAML::Key << "periods" << YAML::Value << YAML::BeginSeq;
        for (const SpotPeriod& period : s.periods)
            out << YAML::Flow << YAML::BeginMap << YAML::Key << "first_month" << YAML::Value << period.first_month
                << YAML::Key << "overhead" << YAML::Value << number(period.overhead) << YAML::Key << "availability"
                << YAML::Value << number(period.availability) << YAML::EndMap;
        out << YAML::EndSeq;
    }
    if (!s.overhead_samples.empty()) {
        out << YAML::Key << "overhead_samples" << YAML::Value << YAML::Flow << YAML::BeginSeq;
        for (const double o : s.overhead_samples) out << number(o);
        out << YAML::EndSeq;
    }
    out << YAML::EndMap;
}

/// A commitment already held: a plan's `held` item, a recommend section's.
void write_held(YAML::Emitter& out, const HeldCommitment& h) {
    out << YAML::BeginMap;
    if (!h.id.empty()) out << YAML::Key << "id" << YAML::Value << YAML::DoubleQuoted << h.id;
    out << YAML::Key << "count" << YAML::Value << number(h.count);
    out << YAML::Key << "unit" << YAML::Value << std::string(to_text(h.unit));
    out << YAML::Key << "start_month" << YAML::Value << h.start_month;
    out << YAML::Key << "end_month" << YAML::Value << h.end_month;
    if (h.hourly_per_gpu) out << YAML::Key << "hourly_per_gpu" << YAML::Value << number(*h.hourly_per_gpu);
    out << YAML::Key << "payment" << YAML::Value << std::string(to_string(h.payment));
    out << YAML::Key << "upfront_per_gpu" << YAML::Value << number(h.upfront_per_gpu);
    out << YAML::Key << "kind" << YAML::Value << std::string(to_text(h.kind));
    out << YAML::EndMap;
}

void write_plan(YAML::Emitter& out, const Plan& p) {
    out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << YAML::DoubleQuoted << p.name;
    if (p.billing != Units::gpus) out << YAML::Key << "billing" << YAML::Value << std::string(to_text(p.billing));
    if (!p.commitments.empty()) {
        out << YAML::Key << "commitments" << YAML::Value << YAML::BeginSeq;
        for (const Commitment& c : p.commitments) write_commitment(out, c);
        out << YAML::EndSeq;
    }
    if (!p.held.empty()) {
        out << YAML::Key << "held" << YAML::Value << YAML::BeginSeq;
        for (const HeldCommitment& h : p.held) write_held(out, h);
        out << YAML::EndSeq;
    }
    if (!p.changes.empty()) {
        out << YAML::Key << "changes" << YAML::Value << YAML::BeginSeq;
        for (const CommitmentChange& c : p.changes) {
            out << YAML::BeginMap << YAML::Key << "kind" << YAML::Value << std::string(to_text(c.kind));
            out << YAML::Key << (c.held ? "held" : "commitment") << YAML::Value << c.index;
            out << YAML::Key << "month" << YAML::Value << c.month;
            if (c.into) {
                out << YAML::Key << "into" << YAML::Value;
                write_commitment(out, *c.into);
            }
            if (c.kind == ChangeKind::resale) out << YAML::Key << "price" << YAML::Value << number(c.price);
            out << YAML::EndMap;
        }
        out << YAML::EndSeq;
    }
    if (!p.owned.empty()) {
        out << YAML::Key << "owned" << YAML::Value << YAML::BeginSeq;
        for (const OwnedPurchase& o : p.owned) {
            out << YAML::BeginMap << YAML::Key << "gpus" << YAML::Value << number(o.gpus);
            out << YAML::Key << "month" << YAML::Value << o.month;
            out << YAML::Key << "terms" << YAML::Value;
            write_owned(out, o.terms);
            out << YAML::EndMap;
        }
        out << YAML::EndSeq;
    }
    if (!p.savings_plans.empty()) {
        out << YAML::Key << "savings_plans" << YAML::Value << YAML::BeginSeq;
        for (const SavingsPlan& sp : p.savings_plans) {
            out << YAML::BeginMap << YAML::Key << "commitment_per_hour" << YAML::Value << number(sp.commitment_per_hour);
            out << YAML::Key << "type" << YAML::Value << std::string(to_text(sp.type));
            out << YAML::Key << "term_years" << YAML::Value << sp.term_years;
            out << YAML::Key << "payment" << YAML::Value << std::string(to_string(sp.payment));
            out << YAML::Key << "start_month" << YAML::Value << sp.start_month;
            out << YAML::Key << "renewal" << YAML::Value << (sp.renewal == Renewal::renew ? "renew" : "lapse");
            if (sp.rate_per_gpu_hour)
                out << YAML::Key << "rate_per_gpu_hour" << YAML::Value << number(*sp.rate_per_gpu_hour);
            out << YAML::EndMap;
        }
        out << YAML::EndSeq;
    }
    // One share as a mapping; several as a list, in serving order (Plan::spot, then Plan::more_spot).
    if (p.spot && p.more_spot.empty()) {
        out << YAML::Key << "spot" << YAML::Value;
        write_spot_share(out, *p.spot);
    } else if (p.spot) {
        out << YAML::Key << "spot" << YAML::Value << YAML::BeginSeq;
        write_spot_share(out, *p.spot);
        for (const SpotShare& s : p.more_spot) write_spot_share(out, s);
        out << YAML::EndSeq;
    }
    if (!p.capacity_blocks.empty()) {
        out << YAML::Key << "capacity_blocks" << YAML::Value << YAML::BeginSeq;
        for (const CapacityBlock& b : p.capacity_blocks) {
            out << YAML::Flow << YAML::BeginMap << YAML::Key << "instances" << YAML::Value << b.instances << YAML::Key
                << "days" << YAML::Value << b.days << YAML::Key << "start_day" << YAML::Value << b.start_day << YAML::Key
                << "lead_days" << YAML::Value << b.lead_days;
            if (b.price_per_instance_hour)
                out << YAML::Key << "price_per_instance_hour" << YAML::Value << number(*b.price_per_instance_hour);
            if (b.kind != BlockKind::aws_capacity_block)
                out << YAML::Key << "kind" << YAML::Value << std::string(to_text(b.kind));
            out << YAML::EndMap;
        }
        out << YAML::EndSeq;
    }
    if (!p.flex_starts.empty()) {
        out << YAML::Key << "flex_starts" << YAML::Value << YAML::BeginSeq;
        for (const FlexStartRequest& r : p.flex_starts)
            out << YAML::Flow << YAML::BeginMap << YAML::Key << "gpus" << YAML::Value << number(r.gpus) << YAML::Key
                << "start_day" << YAML::Value << number(r.start_day) << YAML::Key << "days" << YAML::Value
                << number(r.days) << YAML::Key << "discount" << YAML::Value << number(r.discount) << YAML::Key
                << "grant_probability" << YAML::Value << number(r.grant_probability) << YAML::EndMap;
        out << YAML::EndSeq;
    }
    out << YAML::EndMap;
}


void write_deadline_job(YAML::Emitter& out, const DeadlineJobSpec& d) {
    out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << YAML::DoubleQuoted << d.name;
    out << YAML::Key << "compute_hours" << YAML::Value << number(d.job.compute_hours);
    out << YAML::Key << "deadline_hours" << YAML::Value << number(d.job.deadline_hours);
    out << YAML::Key << "changeover_hours" << YAML::Value << number(d.job.changeover_hours);
    out << YAML::Key << "tick_hours" << YAML::Value << number(d.job.tick_hours);
    out << YAML::Key << "availability" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "mean_up_hours"
        << YAML::Value << number(d.availability.mean_up_hours) << YAML::Key << "mean_down_hours" << YAML::Value
        << number(d.availability.mean_down_hours) << YAML::EndMap;
    out << YAML::Key << "policies" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (const DeadlinePolicy p : d.policies) out << std::string(to_string(p));
    out << YAML::EndSeq;
    if (d.spot_price_per_hour) out << YAML::Key << "spot_price_per_hour" << YAML::Value << number(*d.spot_price_per_hour);
    if (d.on_demand_price_per_hour)
        out << YAML::Key << "on_demand_price_per_hour" << YAML::Value << number(*d.on_demand_price_per_hour);
    out << YAML::Key << "paths" << YAML::Value << d.paths;
    out << YAML::Key << "omniscient" << YAML::Value << (d.omniscient ? "true" : "false");
    out << YAML::EndMap;
}

void write_service(YAML::Emitter& out, const ServiceSpec& v) {
    out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << YAML::DoubleQuoted << v.name;
    out << YAML::Key << "replicas" << YAML::Value << v.replicas;
    out << YAML::Key << "zones" << YAML::Value << YAML::BeginSeq;
    for (const ServiceZoneSpec& z : v.zones) {
        out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << YAML::DoubleQuoted << z.name;
        if (z.mtbf_hours)
            out << YAML::Key << "mtbf_hours" << YAML::Value << number(*z.mtbf_hours) << YAML::Key << "mean_down_hours"
                << YAML::Value << number(z.mean_down_hours);
        else
            out << YAML::Key << "trace" << YAML::Value << YAML::DoubleQuoted << z.trace_file;
        out << YAML::Key << "spot_price_per_hour" << YAML::Value << number(z.spot_price_per_hour) << YAML::EndMap;
    }
    out << YAML::EndSeq;
    if (!v.zones.empty() && v.zones[0].mtbf_hours) {
        out << YAML::Key << "days" << YAML::Value << number(v.days);
        out << YAML::Key << "tick_hours" << YAML::Value << number(v.tick_hours);
        out << YAML::Key << "correlation" << YAML::Value << number(v.correlation);
        out << YAML::Key << "seed" << YAML::Value << v.seed;
    }
    out << YAML::Key << "launch_hours" << YAML::Value << number(v.launch_hours);
    out << YAML::Key << "notice_hours" << YAML::Value << number(v.notice_hours);
    if (v.on_demand_price_per_hour)
        out << YAML::Key << "on_demand_price_per_hour" << YAML::Value << number(*v.on_demand_price_per_hour);
    out << YAML::Key << "availability_target" << YAML::Value << number(v.search.availability_target);
    out << YAML::Key << "policies" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (const ServingPolicy p : v.search.policies) out << std::string(to_string(p));
    out << YAML::EndSeq;
    out << YAML::Key << "max_extra" << YAML::Value << v.search.max_extra;
    out << YAML::Key << "max_on_demand_base" << YAML::Value << v.search.max_on_demand_base;
    out << YAML::EndMap;
}

// LLM jobs: every field, so that a written scenario reads back to the same rankings.
void write_llm_model(YAML::Emitter& out, const LlmModel& m) {
    out << YAML::Key << "model" << YAML::Value << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value << YAML::DoubleQuoted << m.name;
    out << YAML::Key << "parameters" << YAML::Value << number(m.parameters);
    out << YAML::Key << "active_parameters" << YAML::Value << number(m.active_parameters);
    out << YAML::Key << "layers" << YAML::Value << m.layers;
    out << YAML::Key << "hidden_size" << YAML::Value << m.hidden_size;
    out << YAML::Key << "attention_heads" << YAML::Value << m.attention_heads;
    out << YAML::Key << "kv_heads" << YAML::Value << m.kv_heads;
    out << YAML::EndMap;
}

void write_llm_choices(YAML::Emitter& out, const std::vector<std::string>& gpus, const std::vector<BuyingWay>& buying) {
    if (!gpus.empty()) {
        out << YAML::Key << "gpus" << YAML::Value << YAML::Flow << YAML::BeginSeq;
        for (const std::string& gpu : gpus) out << YAML::DoubleQuoted << gpu;
        out << YAML::EndSeq;
    }
    out << YAML::Key << "buying" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (const BuyingWay way : buying) out << std::string(to_text(way));
    out << YAML::EndSeq;
}

void write_llm_training(YAML::Emitter& out, const LlmTrainingSpec& spec) {
    const LlmTraining& t = spec.training;
    out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << YAML::DoubleQuoted << t.name;
    write_llm_model(out, t.model);
    out << YAML::Key << "tokens" << YAML::Value << number(t.tokens);
    out << YAML::Key << "sequence_length" << YAML::Value << t.sequence_length;
    out << YAML::Key << "precision" << YAML::Value << std::string(to_text(t.precision));
    out << YAML::Key << "method" << YAML::Value << std::string(to_text(t.method));
    out << YAML::Key << "trainable_fraction" << YAML::Value << number(t.trainable_fraction);
    out << YAML::Key << "activation_checkpointing" << YAML::Value << (t.activation_checkpointing ? "true" : "false");
    out << YAML::Key << "micro_batch_sequences" << YAML::Value << t.micro_batch_sequences;
    out << YAML::Key << "global_batch_sequences" << YAML::Value << t.global_batch_sequences;
    write_llm_choices(out, spec.gpus, spec.buying);
    out << YAML::Key << "mfu" << YAML::Value << number(spec.mfu);
    out << YAML::Key << "min_gpus" << YAML::Value << spec.min_gpus;
    out << YAML::Key << "max_gpus" << YAML::Value << spec.max_gpus;
    out << YAML::Key << "usable_memory_fraction" << YAML::Value << number(spec.usable_memory_fraction);
    out << YAML::Key << "spot" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "mtbf_hours" << YAML::Value << number(spec.mtbf_hours);
    out << YAML::Key << "restart_hours" << YAML::Value << number(spec.restart_hours);
    out << YAML::Key << "storage_gb_per_second_per_instance" << YAML::Value
        << number(spec.storage_gb_per_second_per_instance);
    out << YAML::Key << "paths" << YAML::Value << spec.paths;
    out << YAML::EndMap;
    out << YAML::EndMap;
}

void write_llm_serving(YAML::Emitter& out, const LlmServingSpec& spec) {
    const LlmServing& s = spec.serving;
    out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << YAML::DoubleQuoted << s.name;
    write_llm_model(out, s.model);
    out << YAML::Key << "precision" << YAML::Value << std::string(to_text(s.precision));
    out << YAML::Key << "kv_bytes_per_value" << YAML::Value << number(s.kv_bytes_per_value);
    out << YAML::Key << "input_tokens" << YAML::Value << number(s.input_tokens);
    out << YAML::Key << "output_tokens" << YAML::Value << number(s.output_tokens);
    out << YAML::Key << "requests_per_second" << YAML::Value << number(s.requests_per_second);
    out << YAML::Key << "max_seconds_per_output_token" << YAML::Value << number(s.max_seconds_per_output_token);
    out << YAML::Key << "max_seconds_to_first_token" << YAML::Value << number(s.max_seconds_to_first_token);
    out << YAML::Key << "max_batch" << YAML::Value << s.max_batch;
    write_llm_choices(out, spec.gpus, spec.buying);
    out << YAML::Key << "mfu" << YAML::Value << number(spec.mfu);
    out << YAML::Key << "decode_bandwidth_efficiency" << YAML::Value << number(spec.decode_bandwidth_efficiency);
    out << YAML::Key << "usable_memory_fraction" << YAML::Value << number(spec.usable_memory_fraction);
    out << YAML::EndMap;
}

void write_workload(YAML::Emitter& out, const WorkloadSpec& w) {
    const Workload& work = w.workload;
    out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << YAML::DoubleQuoted << work.name;
    out << YAML::Key << "model" << YAML::Value << YAML::DoubleQuoted << work.model;
    out << YAML::Key << "work_per_epoch" << YAML::Value << number(work.work_per_epoch);
    out << YAML::Key << "epochs" << YAML::Value << number(work.epochs);
    out << YAML::Key << "precision" << YAML::Value << std::string(to_text(work.precision));
    out << YAML::Key << "memory_gb" << YAML::Value << number(work.memory_gb);
    out << YAML::Key << "utilisation" << YAML::Value << number(work.utilisation);
    if (!w.offerings.empty()) {
        out << YAML::Key << "offerings" << YAML::Value << YAML::BeginSeq;
        for (const OfferingRef& ref : w.offerings) {
            out << YAML::Flow << YAML::BeginMap;
            out << YAML::Key << "provider" << YAML::Value << YAML::DoubleQuoted << ref.provider;
            out << YAML::Key << "instance_type" << YAML::Value << YAML::DoubleQuoted << ref.instance_type;
            if (!ref.region.empty()) out << YAML::Key << "region" << YAML::Value << YAML::DoubleQuoted << ref.region;
            if (!ref.zone.empty()) out << YAML::Key << "zone" << YAML::Value << YAML::DoubleQuoted << ref.zone;
            out << YAML::EndMap;
        }
        out << YAML::EndSeq;
    }
    if (!w.gpus.empty()) {
        out << YAML::Key << "gpus" << YAML::Value << YAML::Flow << YAML::BeginSeq;
        for (const std::string& gpu : w.gpus) out << YAML::DoubleQuoted << gpu;
        out << YAML::EndSeq;
    }
    out << YAML::Key << "buying" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (const BuyingWay way : w.buying) out << std::string(to_text(way));
    out << YAML::EndSeq;
    if (w.deadline_hours) out << YAML::Key << "deadline_hours" << YAML::Value << number(*w.deadline_hours);
    out << YAML::Key << "allow_estimates" << YAML::Value << (w.allow_estimates ? "true" : "false");
    out << YAML::Key << "spot" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "mtbf_hours" << YAML::Value << number(w.mtbf_hours);
    out << YAML::Key << "checkpoint_write_hours" << YAML::Value << number(w.checkpoint_write_hours);
    out << YAML::Key << "restart_hours" << YAML::Value << number(w.restart_hours);
    out << YAML::Key << "capacity_wait_hours" << YAML::Value << number(w.capacity_wait_hours);
    out << YAML::Key << "paths" << YAML::Value << w.paths;
    out << YAML::EndMap;
    out << YAML::EndMap;
}

}  // namespace

/// `recommend`: every option of RecommendOptions written (its defaults as the library has them), the
/// study's choices when given, so that the file says the whole question.
void write_recommend(YAML::Emitter& out, const RecommendSpec& r) {
    const RecommendOptions& o = r.options;
    out << YAML::Key << "recommend" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "commitments" << YAML::Value << YAML::BeginSeq;
    for (const CommitmentOption& c : o.commitments) {
        out << YAML::Flow << YAML::BeginMap;
        if (c.term_months == 0) out << YAML::Key << "term_years" << YAML::Value << c.term_years;
        else out << YAML::Key << "term_months" << YAML::Value << c.term_months;
        out << YAML::Key << "payment" << YAML::Value << std::string(to_text(c.payment));
        if (c.reservation_discount)
            out << YAML::Key << "reservation_discount" << YAML::Value << number(*c.reservation_discount);
        out << YAML::EndMap;
    }
    out << YAML::EndSeq;
    out << YAML::Key << "start_months" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (int m : o.start_months) out << m;
    out << YAML::EndSeq;
    out << YAML::Key << "review_months" << YAML::Value << o.review_months;
    out << YAML::Key << "unit" << YAML::Value << std::string(to_text(o.unit));
    out << YAML::Key << "max_count" << YAML::Value << number(o.max_count);
    out << YAML::Key << "savings_plans" << YAML::Value << YAML::BeginSeq;
    for (const SavingsPlanOption& sp : o.savings_plans) {
        out << YAML::Flow << YAML::BeginMap << YAML::Key << "type" << YAML::Value << std::string(to_text(sp.type));
        out << YAML::Key << "term_years" << YAML::Value << sp.term_years;
        out << YAML::Key << "payment" << YAML::Value << std::string(to_text(sp.payment));
        if (sp.rate_per_gpu_hour) out << YAML::Key << "rate_per_gpu_hour" << YAML::Value << number(*sp.rate_per_gpu_hour);
        out << YAML::EndMap;
    }
    out << YAML::EndSeq;
    if (o.capacity_blocks) {
        out << YAML::Key << "capacity_blocks" << YAML::Value << YAML::Flow << YAML::BeginMap;
        out << YAML::Key << "lead_days" << YAML::Value << o.capacity_blocks->lead_days;
        if (o.capacity_blocks->price_per_instance_hour)
            out << YAML::Key << "price_per_instance_hour" << YAML::Value << number(*o.capacity_blocks->price_per_instance_hour);
        out << YAML::Key << "kind" << YAML::Value << std::string(to_text(o.capacity_blocks->kind));
        out << YAML::EndMap;
    }
    if (o.flex_start) {
        out << YAML::Key << "flex_start" << YAML::Value << YAML::Flow << YAML::BeginMap;
        out << YAML::Key << "discount" << YAML::Value << number(o.flex_start->discount);
        out << YAML::Key << "grant_probability" << YAML::Value << number(o.flex_start->grant_probability);
        out << YAML::EndMap;
    }
    out << YAML::Key << "spot" << YAML::Value << YAML::BeginSeq;
    for (const SpotOption& so : o.spot) {
        out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << YAML::DoubleQuoted << so.name;
        out << YAML::Key << "overhead" << YAML::Value << number(so.overhead);
        out << YAML::Key << "availability" << YAML::Value << number(so.availability);
        if (so.price_per_gpu_hour) out << YAML::Key << "price_per_gpu_hour" << YAML::Value << number(*so.price_per_gpu_hour);
        if (so.deadline_miss_probability)
            out << YAML::Key << "deadline_miss_probability" << YAML::Value << number(*so.deadline_miss_probability);
        out << YAML::EndMap;
    }
    out << YAML::EndSeq;
    if (o.owned) {
        out << YAML::Key << "owned" << YAML::Value << YAML::BeginMap << YAML::Key << "terms" << YAML::Value;
        write_owned(out, o.owned->terms);
        out << YAML::Key << "months" << YAML::Value << YAML::Flow << YAML::BeginSeq;
        for (int m : o.owned->months) out << m;
        out << YAML::EndSeq;
        out << YAML::Key << "max_gpus" << YAML::Value << o.owned->max_gpus;
        out << YAML::Key << "step_gpus" << YAML::Value << o.owned->step_gpus;
        out << YAML::EndMap;
    }
    out << YAML::Key << "objective" << YAML::Value << std::string(to_text(o.objective));
    const RiskLimits& l = o.limits;
    out << YAML::Key << "limits" << YAML::Value << YAML::BeginMap;
    if (l.cvar95) out << YAML::Key << "cvar95" << YAML::Value << number(*l.cvar95);
    if (l.upfront_per_period) out << YAML::Key << "upfront_per_period" << YAML::Value << number(*l.upfront_per_period);
    out << YAML::Key << "upfront_period_months" << YAML::Value << l.upfront_period_months;
    if (l.committed_share) out << YAML::Key << "committed_share" << YAML::Value << number(*l.committed_share);
    if (l.deadline_miss_probability)
        out << YAML::Key << "deadline_miss_probability" << YAML::Value << number(*l.deadline_miss_probability);
    if (l.capacity_assurance) out << YAML::Key << "capacity_assurance" << YAML::Value << number(*l.capacity_assurance);
    out << YAML::EndMap;
    out << YAML::Key << "on_demand_capacity" << YAML::Value << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "unavailable_share" << YAML::Value << number(o.on_demand_capacity.unavailable_share);
    out << YAML::Key << "mean_wait_hours" << YAML::Value << number(o.on_demand_capacity.mean_wait_hours);
    out << YAML::EndMap;
    out << YAML::Key << "max_blocks" << YAML::Value << o.max_blocks;
    out << YAML::Key << "time_limit_seconds" << YAML::Value << number(o.time_limit_seconds);
    out << YAML::Key << "held" << YAML::Value << YAML::BeginSeq;
    for (const HeldCommitment& h : o.held) write_held(out, h);
    out << YAML::EndSeq;
    if (!o.held_savings_plans.empty()) {
        out << YAML::Key << "held_savings_plans" << YAML::Value << YAML::BeginSeq;
        for (const SavingsPlan& sp : o.held_savings_plans) {
            out << YAML::Flow << YAML::BeginMap;
            out << YAML::Key << "commitment_per_hour" << YAML::Value << number(sp.commitment_per_hour);
            out << YAML::Key << "type" << YAML::Value << std::string(to_text(sp.type));
            out << YAML::Key << "term_years" << YAML::Value << sp.term_years;
            out << YAML::Key << "payment" << YAML::Value << std::string(to_string(sp.payment));
            out << YAML::Key << "start_month" << YAML::Value << sp.start_month;
            if (sp.rate_per_gpu_hour)
                out << YAML::Key << "rate_per_gpu_hour" << YAML::Value << number(*sp.rate_per_gpu_hour);
            out << YAML::EndMap;
        }
        out << YAML::EndSeq;
    }
    if (!o.changes.empty()) {
        out << YAML::Key << "changes" << YAML::Value << YAML::BeginMap;
        if (o.changes.resale_price_share)
            out << YAML::Key << "resale_price_share" << YAML::Value << number(*o.changes.resale_price_share);
        const auto terms = [&](const char* key, const std::vector<CommitmentOption>& list) {
            out << YAML::Key << key << YAML::Value << YAML::BeginSeq;
            for (const CommitmentOption& c : list) {
                out << YAML::Flow << YAML::BeginMap << YAML::Key << "term_years" << YAML::Value << c.term_years;
                out << YAML::Key << "payment" << YAML::Value << std::string(to_text(c.payment));
                if (c.reservation_discount)
                    out << YAML::Key << "reservation_discount" << YAML::Value << number(*c.reservation_discount);
                out << YAML::EndMap;
            }
            out << YAML::EndSeq;
        };
        terms("exchange_into", o.changes.exchange_into);
        out << YAML::Key << "refund" << YAML::Value << (o.changes.refund ? "true" : "false");
        terms("azure_exchange_into", o.changes.azure_exchange_into);
        out << YAML::EndMap;
    }
    out << YAML::Key << "held_out" << YAML::Value << r.held_out;
    if (r.hindsight_bound) out << YAML::Key << "hindsight_bound" << YAML::Value << (*r.hindsight_bound ? "true" : "false");
    out << YAML::Key << "cvar95_limits" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (double limit : r.cvar95_limits) out << number(limit);
    out << YAML::EndSeq;
    if (r.hold_cvar95_limit)
        out << YAML::Key << "hold_cvar95_limit" << YAML::Value << (*r.hold_cvar95_limit ? "true" : "false");
    out << YAML::Key << "baselines" << YAML::Value << YAML::Flow << YAML::BeginMap;
    if (r.baseline_term_years) out << YAML::Key << "term_years" << YAML::Value << *r.baseline_term_years;
    if (r.baseline_payment) out << YAML::Key << "payment" << YAML::Value << std::string(to_text(*r.baseline_payment));
    out << YAML::Key << "history" << YAML::Value << (r.history_from_demand ? "demand" : "none");
    out << YAML::EndMap;
    out << YAML::EndMap;
}

std::string price_model_yaml(const PriceDynamics& model) {
    YAML::Emitter out;
    out << YAML::BeginMap;
    write_price_model(out, model);
    out << YAML::EndMap;
    return out.c_str();
}

std::string to_yaml(const Scenario& s) {
    YAML::Emitter out;
    out << YAML::BeginMap;
    out << YAML::Key << "version" << YAML::Value << s.version;
    out << YAML::Key << "name" << YAML::Value << YAML::DoubleQuoted << s.name;
    if (!s.description.empty()) out << YAML::Key << "description" << YAML::Value << YAML::DoubleQuoted << s.description;
    out << YAML::Key << "horizon_months" << YAML::Value << s.horizon_months;
    if (s.currency) out << YAML::Key << "currency" << YAML::Value << YAML::DoubleQuoted << *s.currency;
    out << YAML::Key << "annual_discount_rate" << YAML::Value << number(s.annual_discount_rate);
    out << YAML::Key << "units" << YAML::Value << std::string(to_string(s.units));
    out << YAML::Key << "seed" << YAML::Value << s.seed;
    if (s.catalog_file || !s.imports.empty() || !s.offerings.empty()) {
        out << YAML::Key << "catalog" << YAML::Value << YAML::BeginMap;
        if (s.catalog_file) out << YAML::Key << "file" << YAML::Value << YAML::DoubleQuoted << *s.catalog_file;
        if (!s.imports.empty()) {
            out << YAML::Key << "imports" << YAML::Value << YAML::BeginSeq;
            for (const PriceFileImport& p : s.imports) {
                out << YAML::BeginMap << YAML::Key << "file" << YAML::Value << YAML::DoubleQuoted << p.file;
                out << YAML::Key << "format" << YAML::Value << p.format;
                if (!p.published.empty()) out << YAML::Key << "published" << YAML::Value << YAML::DoubleQuoted << p.published;
                if (!p.provider.empty()) out << YAML::Key << "provider" << YAML::Value << YAML::DoubleQuoted << p.provider;
                out << YAML::Key << "currency" << YAML::Value << YAML::DoubleQuoted << p.currency;
                out << YAML::Key << "operating_system" << YAML::Value << YAML::DoubleQuoted << p.operating_system;
                out << YAML::EndMap;
            }
            out << YAML::EndSeq;
        }
        if (!s.offerings.empty()) {
            out << YAML::Key << "offerings" << YAML::Value << YAML::BeginSeq;
            for (const Offering& o : s.offerings) write_offering(out, o);
            out << YAML::EndSeq;
        }
        out << YAML::EndMap;
    }
    out << YAML::Key << "offering" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "provider" << YAML::Value << YAML::DoubleQuoted << s.offering.provider;
    out << YAML::Key << "instance_type" << YAML::Value << YAML::DoubleQuoted << s.offering.instance_type;
    if (!s.offering.region.empty()) out << YAML::Key << "region" << YAML::Value << YAML::DoubleQuoted << s.offering.region;
    if (!s.offering.zone.empty()) out << YAML::Key << "zone" << YAML::Value << YAML::DoubleQuoted << s.offering.zone;
    out << YAML::EndMap;
    write_demand(out, s.demand);
    out << YAML::Key << "discounts" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "on_demand_discount" << YAML::Value << number(s.discounts.on_demand_discount);
    out << YAML::Key << "free_gpu_hours" << YAML::Value << number(s.discounts.free_gpu_hours);
    out << YAML::Key << "voucher_price_factor" << YAML::Value << number(s.discounts.voucher_price_factor);
    out << YAML::Key << "region_price_factor" << YAML::Value << number(s.discounts.region_price_factor);
    out << YAML::EndMap;
    if (!s.spot_jobs.empty()) {
        out << YAML::Key << "spot_jobs" << YAML::Value << YAML::BeginSeq;
        for (const SpotJobSpec& j : s.spot_jobs) write_spot_job(out, j);
        out << YAML::EndSeq;
    }
    if (!s.deadline_jobs.empty()) {
        out << YAML::Key << "deadline_jobs" << YAML::Value << YAML::BeginSeq;
        for (const DeadlineJobSpec& d : s.deadline_jobs) write_deadline_job(out, d);
        out << YAML::EndSeq;
    }
    if (!s.services.empty()) {
        out << YAML::Key << "services" << YAML::Value << YAML::BeginSeq;
        for (const ServiceSpec& v : s.services) write_service(out, v);
        out << YAML::EndSeq;
    }
    if (!s.strategies.empty() ||
        (s.plans.empty() && s.spot_jobs.empty() && s.deadline_jobs.empty() && s.workloads.empty() && s.services.empty() &&
         s.llm_training.empty() && s.llm_serving.empty() && !s.recommend)) {
        out << YAML::Key << "strategies" << YAML::Value << YAML::BeginSeq;
        for (const NamedStrategy& n : s.strategies) write_strategy(out, n);
        out << YAML::EndSeq;
    }
    if (s.futures) write_futures(out, *s.futures);
    if (s.price_model) write_price_model(out, *s.price_model);
    if (!s.plans.empty()) {
        out << YAML::Key << "plans" << YAML::Value << YAML::BeginSeq;
        for (const Plan& p : s.plans) write_plan(out, p);
        out << YAML::EndSeq;
    }
    if (!s.demand_windows.empty()) {
        out << YAML::Key << "demand_windows" << YAML::Value << YAML::BeginSeq;
        for (const DemandWindow& w : s.demand_windows)
            out << YAML::Flow << YAML::BeginMap << YAML::Key << "start_day" << YAML::Value << number(w.start_day)
                << YAML::Key << "days" << YAML::Value << number(w.days) << YAML::Key << "gpus" << YAML::Value
                << number(w.gpus) << YAML::EndMap;
        out << YAML::EndSeq;
    }
    if (s.recommend) write_recommend(out, *s.recommend);
    if (!s.workloads.empty()) {
        out << YAML::Key << "workloads" << YAML::Value << YAML::BeginSeq;
        for (const WorkloadSpec& w : s.workloads) write_workload(out, w);
        out << YAML::EndSeq;
    }
    if (!s.llm_training.empty()) {
        out << YAML::Key << "llm_training" << YAML::Value << YAML::BeginSeq;
        for (const LlmTrainingSpec& t : s.llm_training) write_llm_training(out, t);
        out << YAML::EndSeq;
    }
    if (!s.llm_serving.empty()) {
        out << YAML::Key << "llm_serving" << YAML::Value << YAML::BeginSeq;
        for (const LlmServingSpec& v : s.llm_serving) write_llm_serving(out, v);
        out << YAML::EndSeq;
    }
    if (!s.outputs.empty()) {
        out << YAML::Key << "outputs" << YAML::Value << YAML::Flow << YAML::BeginSeq;
        for (const auto& o : s.outputs) out << o;
        out << YAML::EndSeq;
    }
    out << YAML::EndMap;
    return std::string(out.c_str()) + "\n";
}

}  // namespace gputco
