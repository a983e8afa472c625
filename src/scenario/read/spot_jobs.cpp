// `spot_jobs`: jobs run on spot with checkpoints, under an interruption model (and provider rules).
#include "readers.hpp"
#include "gputco/engines/checkpoint.hpp"

namespace gputco::scenario_read {

namespace {

ProviderRules read_rules(const Field& f, std::string& preset) {
    if (f.node().IsScalar()) {
        preset = f.choice({"aws", "gcp_preemptible", "alibaba"});
        return preset == "aws" ? aws_rules() : preset == "gcp_preemptible" ? gcp_preemptible_rules() : alibaba_rules();
    }
    const auto m = f.map({"notice_hours", "emergency_checkpoint", "protection_hours", "max_lifetime_hours"});
    ProviderRules rules;
    if (auto v = m.find("notice_hours")) rules.notice_hours = v->non_negative();
    if (auto v = m.find("emergency_checkpoint")) {
        const std::string b = v->choice({"true", "false"});
        rules.emergency_checkpoint = b == "true";
    }
    if (auto v = m.find("protection_hours")) rules.protection_hours = v->non_negative();
    if (auto v = m.find("max_lifetime_hours")) {
        rules.max_lifetime_hours = v->number();
        if (rules.max_lifetime_hours <= 0) v->fail("must be > 0");
    }
    return rules;
}

/// One of poisson / weibull / advisor_bucket / trace / price_driven, and optional rules.
InterruptionSpec read_interruptions(const Field& f, const std::string& base_dir) {
    const std::vector<std::string> kinds{"poisson", "weibull", "advisor_bucket", "trace", "price_driven"};
    std::vector<std::string> allowed = kinds;
    allowed.emplace_back("rules");
    const auto m = f.map(allowed);
    std::vector<std::string> present;
    for (const auto& k : kinds)
        if (m.has(k)) present.push_back(k);
    if (present.size() != 1)
        f.fail(present.empty() ? "needs one of poisson, weibull, advisor_bucket, trace, price_driven"
                               : fmt::format("has {} models ({}); give exactly one", present.size(), fmt::join(present, ", ")));
    InterruptionSpec spec;
    ProviderRules rules;
    if (auto r = m.find("rules")) rules = read_rules(*r, spec.rules_preset);
    const std::string& kind = present.front();
    const Field v = m.get(kind);
    if (kind == "poisson") {
        const auto pm = v.map({"mtbf_hours"});
        spec.model = Poisson{.mtbf_hours = positive(pm.get("mtbf_hours")), .rules = rules};
    } else if (kind == "weibull") {
        const auto wm = v.map({"shape", "scale_hours"});
        spec.model = Weibull{.shape = positive(wm.get("shape")), .scale_hours = positive(wm.get("scale_hours")), .rules = rules};
    } else if (kind == "advisor_bucket") {
        const long long bucket = v.integer();
        if (bucket < 0 || bucket > 4) v.fail("must be in [0, 4] (<5%, 5-10%, 10-15%, 15-20%, >20% a month)");
        spec.advisor_bucket = int(bucket);
        if (!m.has("rules")) spec.rules_preset = "aws", rules = aws_rules();  // advisor_bucket()'s default
        spec.model = advisor_bucket(int(bucket), rules);
    } else if (kind == "trace") {
        const auto tm = v.map({"file"});
        const Field file = tm.get("file");
        spec.trace_file = file.text();
        const std::string path = !spec.trace_file.empty() && spec.trace_file.front() == '/' ? spec.trace_file
                                                                                            : base_dir + "/" + spec.trace_file;
        Trace trace = file.checked([&] { return Trace::load(path); });
        trace.rules = rules;
        spec.model = std::move(trace);
    } else {
        const auto pm = v.map({"reversion_per_hour", "volatility_per_sqrt_hour", "price_cap_per_hour", "step_hours"});
        PriceDriven model;
        if (auto x = pm.find("reversion_per_hour")) model.reversion_per_hour = positive(*x);
        if (auto x = pm.find("volatility_per_sqrt_hour")) model.volatility_per_sqrt_hour = x->non_negative();
        if (auto x = pm.find("price_cap_per_hour")) model.price_cap_per_hour = positive(*x);
        if (auto x = pm.find("step_hours")) model.step_hours = positive(*x);
        model.rules = rules;
        spec.model = model;
    }
    f.checked([&] { validate(spec.model); return 0; });
    return spec;
}

SpotJobSpec read_spot_job(const Field& f, const std::string& base_dir) {
    // Each field is read on past another's error; the checks that tie fields together run only when
    // the fields they read were read.
    Errors errors;
    const auto m = f.map({"name", "work_hours", "checkpoint_interval_hours", "checkpoint_write_hours", "restart_hours",
                          "capacity_wait_hours", "deadline_hours", "mtbf_hours", "interruptions", "price_per_gpu_hour",
                          "paths"}, errors);
    SpotJobSpec j;
    errors.attempt([&] { j.name = m.get("name").text(); });
    errors.attempt([&] { j.job.work_hours = m.get("work_hours").duration(); });
    errors.attempt([&] {
        if (auto v = m.find("checkpoint_interval_hours")) j.job.checkpoint_interval_hours = v->duration();
    });
    const bool write_read = errors.attempt([&] {
        if (auto v = m.find("checkpoint_write_hours")) j.job.checkpoint_write_hours = v->hours_or_zero();
    });
    if (write_read && !m.has("checkpoint_interval_hours")) {  // the optimal interval needs the write's cost
        errors.attempt([&] {
            constexpr std::string_view rule = "must be > 0 for the optimal checkpoint interval (or give checkpoint_interval_hours)";
            const Field write = m.get("checkpoint_write_hours", rule);
            if (j.job.checkpoint_write_hours == 0) write.fail(rule);
        });
    }
    errors.attempt([&] {
        if (auto v = m.find("restart_hours")) j.job.restart_hours = v->hours_or_zero();
    });
    errors.attempt([&] {
        if (auto v = m.find("capacity_wait_hours")) j.job.capacity_wait_hours = v->hours_or_zero();
    });
    errors.attempt([&] {
        if (auto v = m.find("deadline_hours")) {
            j.job.deadline_hours = v->number();
            if (j.job.deadline_hours <= 0) v->fail("must be > 0");
        }
    });
    errors.attempt([&] {
        if (auto i = m.find("interruptions")) {
            if (auto mtbf = m.find("mtbf_hours")) mtbf->fail("give either mtbf_hours or interruptions, not both");
            j.interruptions = read_interruptions(*i, base_dir);
            if (!j.interruptions->mean_lifetime_hours() && !m.has("checkpoint_interval_hours"))
                m.get("checkpoint_interval_hours", "required with price_driven interruptions (no mean lifetime for the optimal interval)");
        } else {
            const Field mtbf = m.get("mtbf_hours");
            j.mtbf_hours = mtbf.number();
            if (!(j.mtbf_hours >= limits::min_hours && j.mtbf_hours <= limits::max_mtbf_hours))  // as the checkpoint formulas take it
                mtbf.fail(fmt::format("must be in [{:g}, {:g}] hours", limits::min_hours, limits::max_mtbf_hours));
        }
    });
    errors.attempt([&] {
        if (auto v = m.find("price_per_gpu_hour")) j.price_per_gpu_hour = v->non_negative();
    });
    errors.attempt([&] {
        if (auto v = m.find("paths")) {
            const long long p = v->integer();
            if (p < 1 || p > 10'000'000) v->fail("must be in [1, 10000000]");
            j.paths = std::size_t(p);
        }
    });
    errors.done();
    return j;
}

}  // namespace

void read_spot_jobs(const Field::Map& m, Scenario& s, ReadState&) {
    if (auto j = m.find("spot_jobs")) {
        Errors errors;  // every job's errors, each job read on its own
        for (const Field& item : j->list())
            errors.attempt([&] {
                s.spot_jobs.push_back(read_spot_job(item, s.base_dir));
                for (std::size_t i = 0; i + 1 < s.spot_jobs.size(); ++i)
                    if (s.spot_jobs[i].name == s.spot_jobs.back().name) item.fail("duplicate spot job name");
            });
        errors.done();
    }
}

}  // namespace gputco::scenario_read
