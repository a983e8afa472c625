// `deadline_jobs`: jobs with a deadline, run on spot with an on-demand fallback under the policies asked for.
#include "readers.hpp"

namespace gputco::scenario_read {

namespace {

const std::vector<std::string> deadline_job_keys{"name", "compute_hours", "deadline_hours", "changeover_hours",
                                                 "tick_hours", "availability", "policies", "spot_price_per_hour",
                                                 "on_demand_price_per_hour", "paths", "omniscient"};

DeadlineJobSpec read_deadline_job(const Field& f) {
    const auto m = f.map(deadline_job_keys);
    DeadlineJobSpec d;
    d.name = m.get("name").text();
    d.job.compute_hours = positive(m.get("compute_hours"));
    d.job.deadline_hours = positive(m.get("deadline_hours"));
    if (auto v = m.find("changeover_hours")) d.job.changeover_hours = v->non_negative();
    if (auto v = m.find("tick_hours")) d.job.tick_hours = positive(*v);
    f.checked([&] { d.job.validate(); return 0; });
    const Field a = m.get("availability");
    const auto am = a.map({"mean_up_hours", "mean_down_hours"});
    d.availability.mean_up_hours = positive(am.get("mean_up_hours"));
    d.availability.mean_down_hours = positive(am.get("mean_down_hours"));
    a.checked([&] { d.availability.validate(d.job.tick_hours); return 0; });
    if (auto p = m.find("policies")) {
        std::vector<std::string> names;
        for (const DeadlinePolicy policy : all_deadline_policies()) names.emplace_back(to_string(policy));
        d.policies.clear();
        for (const Field& item : p->list()) d.policies.push_back(parse_deadline_policy(item.choice(names)));
        if (d.policies.empty()) p->fail("must name at least one policy");
    }
    if (auto v = m.find("spot_price_per_hour")) d.spot_price_per_hour = positive(*v);
    if (auto v = m.find("on_demand_price_per_hour")) d.on_demand_price_per_hour = positive(*v);
    if (auto v = m.find("paths")) {
        const long long n = v->integer();
        if (n < 1 || n > 1'000'000) v->fail("must be in [1, 1000000]");
        d.paths = std::size_t(n);
    }
    if (auto v = m.find("omniscient")) d.omniscient = v->choice({"true", "false"}) == "true";
    return d;
}

}  // namespace

void read_deadline_jobs(const Field::Map& m, Scenario& s, ReadState& state) {
    if (auto j = m.find("deadline_jobs")) {
        state.deadline_fields = j->list();
        Errors errors;  // every job's errors, each job read on its own
        for (const Field& item : state.deadline_fields)
            errors.attempt([&] {
                s.deadline_jobs.push_back(read_deadline_job(item));
                for (std::size_t i = 0; i + 1 < s.deadline_jobs.size(); ++i)
                    if (s.deadline_jobs[i].name == s.deadline_jobs.back().name) item.fail("duplicate deadline job name");
            });
        errors.done();
    }
}

void check_deadline_prices(const Scenario& s, const ReadState& state, const Offering& offering) {
    for (std::size_t i = 0; i < s.deadline_jobs.size(); ++i)
        if (!s.deadline_jobs[i].spot_price_per_hour && !offering.spot_hourly)
            state.deadline_fields[i].map(deadline_job_keys)
                .get("spot_price_per_hour", fmt::format("required: {} lists no spot price", offering.key()));
}

}  // namespace gputco::scenario_read
