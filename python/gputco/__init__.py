"""gputco: total cost of renting GPUs for deep learning over multi-year horizons.

    import gputco
    a100 = gputco.catalog().offering("azure", "Standard_ND96asr_v4")
    demand = gputco.DemandProfile.constant(4, gputco.Horizon.years(3))
    report = gputco.evaluate(gputco.Mix([(0.7, gputco.Reserved(term_years=3)), (0.3, gputco.OnDemand())]),
                             demand, a100)
    print(report)                   # table; report.to_frame() is the monthly DataFrame

    r = gputco.simulate_spot(work_hours=2000, mtbf_hours=20, checkpoint_write_hours=0.1,
                             restart_hours=0.25, price_per_hour=1.2, paths=100_000, seed=42)
    r.to_frame(); r.summary()
    job = gputco.Job(work_hours=2000, checkpoint_interval_hours=2, checkpoint_write_hours=0.1, restart_hours=0.25)
    r = gputco.simulate_spot(job, gputco.Poisson(20), gputco.SpotPricing(price_per_hour=1.2),
                             gputco.SimulationOptions(paths=100_000, seed=42))

Bad input raises ValueError with the library's message, e.g. "job.work_hours = -1: must be finite and > 0".
"""
from __future__ import annotations

from ._core import (
    # catalog
    Catalog,
    GpuSpec,
    Offering,
    ReservedPrice,
    SavingsPlanRate,
    Source,
    PriceSnapshot,
    # price-file importers and queries
    ImportResult,
    RankedOffering,
    SkippedRow,
    import_aws_get_products,
    import_aws_offer_file,
    import_azure_retail_prices,
    import_cyclenerd_pricing_yml,
    import_ec2instances_json,
    import_gcp_skus,
    import_skypilot_csv,
    today,
    normalise_gpu_name,
    rank_by_gpu_hour_price,
    # the market: provider kinds, price spread, price age and cross-source checks
    GpuPriceSpread,
    PRICE_DISAGREEMENT_TOLERANCE,
    PriceDisagreement,
    STALE_PRICE_AGE_DAYS,
    cross_check,
    price_spread,
    provider_kind,
    # money and exchange rates
    ExchangeRate,
    ExchangeRates,
    Money,
    # checkpoint closed forms
    ExpectedSpotTime,
    Job,
    expected_spot_time,
    optimal_checkpoint_interval,
    checkpoint_interval_or_default,
    segment_count,
    # interruption models
    Poisson,
    PriceDriven,
    ProviderRules,
    Trace,
    Weibull,
    advisor_bucket,
    advisor_bucket_fraction,
    alibaba_rules,
    aws_rules,
    gcp_preemptible_rules,
    mtbf_from_monthly_interruption_fraction,
    # spot Monte Carlo and statistics
    SimulationOptions,
    SpotPricing,
    SpotResult,
    SpotSamples,
    Summary,
    default_spot_kernel,
    quantile,
    spot_kernels,
    estimate_spot_work,
    SpotWorkEstimate,
    spot_max_paths,
    spot_max_streamed_paths,
    spot_quantile_subsample,
    summarize,
    # deadline-aware spot policies
    DeadlineComparison,
    DeadlineJob,
    DeadlinePolicyOutcome,
    DeadlineResult,
    MarkovAvailability,
    SpotAvailability,
    compare_deadline_policies,
    omniscient_cost,
    simulate_deadline,
    MultiRegionResult,
    SpotRegion,
    WindowPolicyOutcome,
    WindowSweep,
    common_tick_hours,
    deadline_policies,
    deadline_tranche,
    omniscient_multi_region_cost,
    simulate_multi_region,
    sweep_windows,
    # serving on spot across zones; on-demand capacity risk
    DeadlineCapacityRisk,
    OnDemandCapacity,
    deadline_capacity_risk,
    simulate_deadline_with_capacity,
    # flex-start (GCP Dynamic Workload Scheduler) for a deadline job
    FlexStart,
    FlexStartResult,
    flex_start_job,
    ServingCandidate,
    ServingPlan,
    ServingResult,
    choose_serving_plan,
    serving_frontier,
    serving_lower_bound,
    serving_policies,
    simulate_serving,
    CommittedServingCost,  # a committed base plus spot on top
    cheapest_with_committed_base,
    committed_base_cost,
    # demand
    DemandProfile,
    DemandStep,
    Horizon,
    # strategies and cost
    CostReport,
    CostSpread,
    Discounts,
    Mix,
    MonthlyCashFlow,
    OnDemand,
    Owned,
    Reserved,
    SpotTranche,
    Tranche,
    describe,
    spot_tranche,
    evaluate,
    # optimisers
    ReservationAdvice,
    optimal_reservation,
    # cost per unit of work
    GpuMatch,
    ScalingCurve,
    ThroughputRow,
    ThroughputTable,
    WorkAuditRow,
    WorkCostRow,
    WorkRanking,
    Workload,
    audit_seed_work_claims,
    benchmark_gpus,
    gpu_matches,
    match_gpu,
    model_unit,
    scaling_curve,
    throughput_at,
    training_memory_gb,
    LlmModel,
    LlmServing,
    LlmTraining,
    kv_cache_bytes_per_token,
    llm_training_memory,
    smallest_training_layout,
    training_flops,
    training_flops_per_token,
    pipeline_bubble_fraction,
    allreduce_seconds,
    MfuRow,
    builtin_training_mfu,
    # fixed windows of capacity
    CapacityBlock,
    FlexStartRequest,
    DemandWindow,
    # plans over time under uncertain demand and prices
    Commitment,
    DemandEvent,
    DemandFutures,
    DemandModel,
    Distribution,
    GenerationLaunch,
    OwnedPurchase,
    Plan,
    PlanDistribution,
    PriceChange,
    PriceModel,
    PricePaths,
    SpotPeriod,
    SpotShare,
    SavingsPlan,
    aws_june_2025_price_cut,
    compare_plans,
    distribution_of,
    evaluate_plan,
    expected_level,
    hindsight_reservation_totals,
    price_paths,
    # commitments already held and their changes
    CommitmentChange,
    CommitmentUse,
    HeldCommitment,
    # recommending a plan
    CandidateResult,
    CapacityBlockOption,
    FlexStartOption,
    ChangeOptions,
    CommitmentOption,
    FrontierPoint,
    HindsightBound,
    OwnedOption,
    PlanOptions,
    Recommendation,
    RecommendOptions,
    RiskLimits,
    SpotOption,
    baseline_plans,
    offering_for_baselines,
    check_risk,
    RiskCheck,
    provider_advice_units,
    provider_policy_plan,
    SavingsPlanOption,
    provider_savings_plan_advice,
)
from ._catalog import catalog
from . import _cost as _cost  # noqa: F401  (adds CostReport.summary / to_frame)
from ._cost import evaluate_batch
from . import _spot as _spot  # noqa: F401  (adds SpotResult.summary / to_frame / to_json)
from ._scenario import (heat_map, latin_hypercube, load_scenario, plot_heat_map, plot_tornado,
                        run_deadline_jobs, run_plans, run_scenario, run_spot_jobs, run_workloads, sweep, tornado)
from ._scenario import run_services  # services on spot across zones
from ._scenario import run_llm_serving, run_llm_training  # a scenario's LLM jobs
from ._scenario import run_recommend  # a scenario's recommend section
from ._scenario import OUTPUTS as SWEEP_OUTPUTS  # the sweep point's columns (gputco/app/columns.hpp)
from . import _deadline as _deadline  # noqa: F401  (adds SpotAvailability.from_json, WindowSweep.summary / to_frame)
from ._work import (cheapest_within, llm_serving_cost, llm_training_cost, rank_offerings, rank_offerings_raw, seed_audit,
                    throughput_frame)
from ._spot import simulate_spot
from ._plan import compare_frame  # (importing _plan adds PlanDistribution.summary / to_frame / monthly_bands)
from ._recommend import (RecommendResult, cost_risk_frontier, hindsight_plan_totals, recommend, recommend_options,
                         recommend_plan)
from ._recommend import capacity_assurance_frontier  # price against P(capacity when needed)
from ._recommend import rolling_replan  # re-planning every k months
from ._core import PolicyCosts, RollingReplan
from ._core import AssurancePoint, capacity_assurance
from ._core import Bill, CommitmentSummary, FinOpsFigures, GpuSeries, UnmatchedSku, at_bill_rates
from ._bills import BillPlan, FocusBill, offering_at_bill_rates, read_focus, recommend_from_bill
from ._core import ContractCommitment
from ._bills import read_contract_commitments
from ._report import report

# The stochastic price model: prices that move both ways, fitted to dated history (docs/models.md, section 12).
from ._core import (DynamicsFit, LogPriceProcess, PriceDynamics, PriceRecord, ProcessFit, fit_log_price_process,
                    fit_price_dynamics, implied_forward_hourly, read_price_history_csv, simulate_log_prices,
                    simulate_price_paths)
from ._core import (draw_dynamics, draw_processes, fit_by_period, simulate_log_prices_per_path,  # parameter uncertainty
                    simulate_price_paths_per_future)
from ._core import __version__  # written once, in CMakeLists.txt
from ._html import install as _install_html

_install_html()  # _repr_html_ on the main results
del _install_html


def __getattr__(name: str):
    """`gputco.plots` after a bare `import gputco`, loaded on first use (it imports matplotlib)."""
    if name == "plots":
        import importlib

        return importlib.import_module(".plots", __name__)
    raise AttributeError(f"module 'gputco' has no attribute {name!r}")

__all__ = [
    "Catalog", "GpuSpec", "Offering", "ReservedPrice", "Source", "catalog",
    "ExchangeRate", "ExchangeRates", "Money", "PriceSnapshot",
    "ImportResult", "RankedOffering", "SkippedRow", "import_aws_get_products", "import_aws_offer_file",
    "import_azure_retail_prices", "import_cyclenerd_pricing_yml", "import_ec2instances_json", "import_gcp_skus",
    "import_skypilot_csv", "normalise_gpu_name", "rank_by_gpu_hour_price",
    "GpuPriceSpread", "PRICE_DISAGREEMENT_TOLERANCE", "PriceDisagreement", "STALE_PRICE_AGE_DAYS", "cross_check",
    "price_spread", "provider_kind", "today",
    "ExpectedSpotTime", "Job", "expected_spot_time", "optimal_checkpoint_interval", "checkpoint_interval_or_default",
    "segment_count",
    "Poisson", "PriceDriven", "ProviderRules", "Trace", "Weibull", "advisor_bucket",
    "advisor_bucket_fraction", "alibaba_rules", "aws_rules", "gcp_preemptible_rules",
    "mtbf_from_monthly_interruption_fraction",
    "SimulationOptions", "SpotPricing", "SpotResult", "SpotSamples", "Summary", "default_spot_kernel", "quantile",
    "simulate_spot", "estimate_spot_work", "SpotWorkEstimate", "spot_kernels", "spot_max_paths", "spot_max_streamed_paths", "spot_quantile_subsample",
    "summarize",
    "DeadlineComparison", "DeadlineJob", "DeadlinePolicyOutcome", "DeadlineResult", "MarkovAvailability",
    "SpotAvailability", "compare_deadline_policies", "omniscient_cost", "simulate_deadline",
    "MultiRegionResult", "SpotRegion", "WindowPolicyOutcome", "WindowSweep", "common_tick_hours",
    "deadline_policies", "deadline_tranche", "omniscient_multi_region_cost", "simulate_multi_region",
    "sweep_windows",
    "ServingCandidate", "ServingPlan", "ServingResult", "choose_serving_plan", "serving_frontier", "serving_lower_bound",
    "CommittedServingCost", "cheapest_with_committed_base", "committed_base_cost",
    "serving_policies", "simulate_serving",
    "run_services",
    "DeadlineCapacityRisk", "OnDemandCapacity", "deadline_capacity_risk", "simulate_deadline_with_capacity",
    "FlexStart", "FlexStartResult", "flex_start_job",
    "DemandProfile", "DemandStep", "Horizon",
    "CostReport", "CostSpread", "Discounts", "Mix", "MonthlyCashFlow", "OnDemand", "Owned", "Reserved",
    "SpotTranche", "Tranche", "describe", "evaluate", "evaluate_batch", "spot_tranche",
    "ReservationAdvice", "optimal_reservation",
    "GpuMatch", "ScalingCurve", "ThroughputRow", "ThroughputTable", "WorkAuditRow", "WorkCostRow", "WorkRanking",
    "Workload", "audit_seed_work_claims", "benchmark_gpus", "cheapest_within", "gpu_matches", "match_gpu",
    "model_unit", "rank_offerings", "rank_offerings_raw", "scaling_curve", "seed_audit", "throughput_at",
    "throughput_frame", "training_memory_gb",
    "LlmModel", "LlmServing", "LlmTraining", "kv_cache_bytes_per_token", "llm_serving_cost", "llm_training_cost",
    "llm_training_memory", "smallest_training_layout", "training_flops", "training_flops_per_token",
    "CapacityBlock", "FlexStartRequest", "DemandWindow",
    "run_llm_training", "run_llm_serving", "run_recommend", "pipeline_bubble_fraction", "allreduce_seconds", "MfuRow", "builtin_training_mfu",
    "Commitment", "DemandEvent", "DemandFutures", "DemandModel", "Distribution", "GenerationLaunch",
    "OwnedPurchase", "Plan", "PlanDistribution", "PriceChange", "PriceModel", "PricePaths", "SpotPeriod", "SpotShare",
    "aws_june_2025_price_cut", "compare_frame", "compare_plans", "distribution_of", "evaluate_plan",
    "expected_level", "hindsight_reservation_totals", "price_paths",
    "CandidateResult", "CapacityBlockOption", "ChangeOptions", "FlexStartOption", "CommitmentOption", "FrontierPoint", "Recommendation", "RecommendResult", "SpotOption",
    "baseline_plans", "offering_for_baselines", "check_risk", "RiskCheck", "provider_advice_units", "provider_policy_plan", "cost_risk_frontier", "recommend", "recommend_plan", "HindsightBound", "hindsight_plan_totals", "rolling_replan", "RollingReplan", "PolicyCosts",
    "OwnedOption", "PlanOptions", "RecommendOptions", "RiskLimits", "recommend_options",
    "AssurancePoint", "capacity_assurance", "capacity_assurance_frontier",
    "load_scenario", "run_scenario", "run_spot_jobs", "run_plans", "run_deadline_jobs", "run_workloads", "sweep", "latin_hypercube", "tornado", "heat_map",
    "plot_tornado", "plot_heat_map", "SWEEP_OUTPUTS",
    "Bill", "BillPlan", "CommitmentSummary", "FinOpsFigures", "FocusBill", "GpuSeries", "UnmatchedSku", "at_bill_rates", "offering_at_bill_rates", "read_focus",
    "recommend_from_bill",
    "ContractCommitment", "read_contract_commitments",
    "DynamicsFit", "LogPriceProcess", "PriceDynamics", "PriceRecord", "ProcessFit", "fit_log_price_process",
    "fit_price_dynamics", "implied_forward_hourly", "read_price_history_csv", "simulate_log_prices", "simulate_price_paths",
    "draw_dynamics", "draw_processes", "fit_by_period", "simulate_log_prices_per_path", "simulate_price_paths_per_future",
    "report",
    "SavingsPlan", "SavingsPlanOption", "SavingsPlanRate", "provider_savings_plan_advice",
    "CommitmentChange", "CommitmentUse", "HeldCommitment",
]

# Wrong argument types raise TypeError naming the parameter ("work_hours = 'x': must be a number,
# not str") instead of pybind11's list of signatures; calls that pybind11 accepts are untouched.
from . import _core
from ._arguments import name_type_errors_of_class as _name_type_errors_of_class
from ._arguments import named_type_errors as _named_type_errors

for _name in __all__:
    _value = globals()[_name]
    if isinstance(_value, type) and _value.__module__ == _core.__name__:
        _name_type_errors_of_class(_value)
    elif type(_value).__name__ == "builtin_function_or_method":
        globals()[_name] = _named_type_errors(_value)
del _name, _value
