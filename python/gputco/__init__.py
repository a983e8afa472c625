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

Bad input raises ValueError with the library's message, e.g. "job.work_hours = -1: must be finite and > 0".
"""
from __future__ import annotations

from ._core import (
    # catalog
    Catalog,
    GpuSpec,
    Offering,
    ReservedPrice,
    Source,
    # money and exchange rates
    ExchangeRate,
    ExchangeRates,
    Money,
    # checkpoint closed forms
    ExpectedSpotTime,
    Job,
    expected_spot_time,
    optimal_checkpoint_interval,
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
    SpotResult,
    SpotSamples,
    Summary,
    quantile,
    simulate_spot,
    spot_kernels,
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
)
from ._catalog import catalog
from . import _cost as _cost  # noqa: F401  (adds CostReport.summary / to_frame)
from . import _spot as _spot  # noqa: F401  (adds SpotResult.summary / to_frame / to_json)
from . import _deadline as _deadline  # noqa: F401  (adds SpotAvailability.from_json, WindowSweep.summary / to_frame)
from ._work import cheapest_within, rank_offerings, rank_offerings_raw, seed_audit, throughput_frame

__version__ = "0.1.0"

__all__ = [
    "Catalog", "GpuSpec", "Offering", "ReservedPrice", "Source", "catalog",
    "ExchangeRate", "ExchangeRates", "Money",
    "ExpectedSpotTime", "Job", "expected_spot_time", "optimal_checkpoint_interval", "segment_count",
    "Poisson", "PriceDriven", "ProviderRules", "Trace", "Weibull", "advisor_bucket",
    "advisor_bucket_fraction", "alibaba_rules", "aws_rules", "gcp_preemptible_rules",
    "mtbf_from_monthly_interruption_fraction",
    "SpotResult", "SpotSamples", "Summary", "quantile", "simulate_spot", "spot_kernels", "summarize",
    "DeadlineComparison", "DeadlineJob", "DeadlinePolicyOutcome", "DeadlineResult", "MarkovAvailability",
    "SpotAvailability", "compare_deadline_policies", "omniscient_cost", "simulate_deadline",
    "MultiRegionResult", "SpotRegion", "WindowPolicyOutcome", "WindowSweep", "common_tick_hours",
    "deadline_policies", "deadline_tranche", "omniscient_multi_region_cost", "simulate_multi_region",
    "sweep_windows",
    "DemandProfile", "DemandStep", "Horizon",
    "CostReport", "CostSpread", "Discounts", "Mix", "MonthlyCashFlow", "OnDemand", "Owned", "Reserved",
    "SpotTranche", "Tranche", "describe", "evaluate", "spot_tranche",
    "ReservationAdvice", "optimal_reservation",
    "GpuMatch", "ScalingCurve", "ThroughputRow", "ThroughputTable", "WorkAuditRow", "WorkCostRow", "WorkRanking",
    "Workload", "audit_seed_work_claims", "benchmark_gpus", "cheapest_within", "gpu_matches", "match_gpu",
    "model_unit", "rank_offerings", "rank_offerings_raw", "scaling_curve", "seed_audit", "throughput_at",
    "throughput_frame", "training_memory_gb",
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
