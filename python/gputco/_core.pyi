# Type stubs of the compiled module gputco._core (hand-written; keep in step with python/src).
from __future__ import annotations

import datetime

from os import PathLike
from typing import Any, Callable, Dict, Iterable, List, Literal, Optional, Sequence, Tuple, Union, overload

import numpy as np
import numpy.typing as npt
import pandas as pd

PaymentName = Literal["no_upfront", "partial_upfront", "all_upfront"]
RenewalName = Literal["renew", "lapse"]
CheckpointMethodName = Literal["young", "daly", "exact"]
ArrayLike = Union[npt.ArrayLike, "pd.Series[float]"]

def _raise_invalid_input(message: str) -> None: ...
def write_file_atomically(path: str, text: str) -> None: ...
def _read_text_file(path: str) -> bytes: ...
def _read_scenario_file(path: str) -> bytes: ...

# ---------------------------------------------------------------- catalog
class Source:
    def __init__(self, name: str = "", as_of: str = "") -> None: ...
    @property
    def name(self) -> str: ...
    @property
    def as_of(self) -> str: ...
    @property
    def row(self) -> str: ...

class GpuSpec:
    def __init__(self, *, name: str, vendor: str = "", memory_gb: float = 0.0,
                 memory_bandwidth_gbps: float = 0.0, fp16_tflops: float = 0.0, fp32_tflops: float = 0.0,
                 tdp_watts: float = 0.0, source: Source = ...) -> None: ...
    name: str
    vendor: str
    memory_gb: float
    memory_bandwidth_gbps: float
    fp16_tflops: float
    fp32_tflops: float
    tdp_watts: float
    source: Source
    notes: str
    interconnect: str

class ReservedPrice:
    def __init__(self, *, term_years: int = 1, payment: PaymentName = "no_upfront", upfront: float = 0.0,
                 hourly: float = 0.0, source: Source = ...) -> None: ...
    term_years: int
    payment: PaymentName
    upfront: float
    hourly: float
    source: Source
    convertible: bool
    def effective_hourly(self) -> float: ...

class PriceSnapshot:
    effective_from: str
    on_demand_hourly: float
    spot_hourly: Optional[float]
    reserved: list[ReservedPrice]
    source: Source
    notes: str
    spot_only: bool

class SavingsPlanRate:
    type: str
    term_years: int
    payment: str
    hourly: float
    source: Source
    def __init__(self, *, type: str, term_years: int = 1, payment: str = "no_upfront", hourly: float,
                 source: Source = ...) -> None: ...

class Offering:
    def __init__(self, *, provider: str, instance_type: str, gpu: str, on_demand_hourly: float,
                 gpus_per_instance: int = 1, region: str = "", currency: str = "USD",
                 spot_hourly: Optional[float] = None, reserved: Sequence[ReservedPrice] = ...,
                 billing_increment_seconds: float = 3600.0, minimum_billed_seconds: float = 0.0,
                 source: Source = ..., notes: str = "",
                 savings_plans: Sequence[SavingsPlanRate] = ...) -> None: ...
    savings_plans: List[SavingsPlanRate]
    provider: str
    region: str
    instance_type: str
    gpu: str
    gpus_per_instance: int
    currency: str
    on_demand_hourly: float
    spot_hourly: Optional[float]
    reserved: list[ReservedPrice]
    billing_increment_seconds: float
    minimum_billed_seconds: float
    source: Source
    notes: str
    zone: str
    effective_from: Optional[str]
    history: list[PriceSnapshot]
    spot_only: bool
    reservation_only: bool
    def sells_on_demand(self) -> bool: ...
    def price_at(self, date: Union[str, "datetime.date"]) -> Offering: ...
    def has_price_at(self, date: Union[str, "datetime.date"]) -> bool: ...
    @property
    def key(self) -> str: ...
    def on_demand_per_gpu_hour(self) -> float: ...
    def spot_per_gpu_hour(self) -> Optional[float]: ...
    def reserved_price(self, term_years: int, payment: PaymentName = "no_upfront",
                       convertible: bool = False) -> Optional[ReservedPrice]: ...
    def converted(self, to_currency: str, rate: float) -> Offering: ...
    def validate(self) -> None: ...

class Catalog:
    @overload
    def __init__(self) -> None: ...
    @overload
    def __init__(self, gpus: Sequence[GpuSpec], offerings: Sequence[Offering]) -> None: ...
    @staticmethod
    def builtin() -> Catalog: ...
    @staticmethod
    def from_json(text: str) -> Catalog: ...
    @staticmethod
    def from_json_file(path: Union[str, PathLike[str]]) -> Catalog: ...
    def to_json(self) -> str: ...
    def overridden_by(self, other: Catalog) -> Catalog: ...
    def with_snapshots(self, other: Catalog) -> Catalog: ...
    def as_of(self, date: Union[str, "datetime.date"]) -> Catalog: ...
    def query(self, *, gpu: Optional[str] = None, min_gpu_memory_gb: Optional[float] = None,
              gpus_per_instance: Optional[int] = None, provider: Optional[str] = None, region: Optional[str] = None,
              currency: Optional[str] = None, has_spot: Optional[bool] = None, has_reservations: Optional[bool] = None,
              as_of: Optional[Union[str, "datetime.date"]] = None, sort_currency: Optional[str] = "USD",
              price: Literal["on_demand", "spot", "reserved_1y", "reserved_3y"] = "on_demand",
              rates: Optional[ExchangeRates] = None,
              date: Optional[Union[str, "datetime.date"]] = None) -> pd.DataFrame: ...
    @property
    def gpus(self) -> list[GpuSpec]: ...
    @property
    def offerings(self) -> list[Offering]: ...
    def gpu(self, name: str) -> GpuSpec: ...
    def knows_gpu(self, name: str) -> bool: ...
    def offering(self, provider: str, instance_type: str, region: str = "") -> Offering: ...
    def find(self, provider: Optional[str] = None, gpu: Optional[str] = None,
             region: Optional[str] = None) -> list[Offering]: ...
    def offerings_frame(self, provider: Optional[str] = None, gpu: Optional[str] = None,
                        region: Optional[str] = None) -> pd.DataFrame: ...
    def __len__(self) -> int: ...

# ---------------------------------------------------------------- money and exchange rates
DateLike = Union[str, "datetime.date"]

class Money:
    def __init__(self, amount: float, currency: str = "USD") -> None: ...
    amount: float
    currency: str
    def __add__(self, other: Money) -> Money: ...
    def __sub__(self, other: Money) -> Money: ...
    def __lt__(self, other: Money) -> bool: ...
    def __le__(self, other: Money) -> bool: ...
    def __gt__(self, other: Money) -> bool: ...
    def __ge__(self, other: Money) -> bool: ...

class ExchangeRate:
    def __init__(self, *, from_currency: str, to_currency: str, rate: float, date: DateLike,
                 source: Source) -> None: ...
    from_currency: str
    to_currency: str
    rate: float
    date: str
    source: Source

class ExchangeRates:
    @overload
    def __init__(self) -> None: ...
    @overload
    def __init__(self, rates: Sequence[ExchangeRate]) -> None: ...
    @staticmethod
    def builtin() -> ExchangeRates: ...
    @staticmethod
    def from_ecb_csv(text: str, file: str = "eurofxref.csv") -> ExchangeRates: ...
    def merged_with(self, other: ExchangeRates) -> ExchangeRates: ...
    @property
    def rates(self) -> list[ExchangeRate]: ...
    def rate(self, from_currency: str, to_currency: str, date: DateLike) -> float: ...
    def describe(self, from_currency: str, to_currency: str, date: DateLike) -> str: ...
    @overload
    def convert(self, money: Money, to_currency: str, date: DateLike) -> Money: ...
    @overload
    def convert(self, offering: Offering, to_currency: str, date: DateLike) -> Offering: ...
    def __len__(self) -> int: ...

# ---------------------------------------------------------------- price-file importers and queries
class SkippedRow:
    row: str
    reason: str

class ImportResult:
    offerings: list[Offering]
    rows_read: int
    skipped_count: int
    skipped: list[SkippedRow]
    skipped_reasons: dict[str, int]
    def kept_by_way(self) -> dict[str, int]: ...
    def report(self, file: str = "") -> str: ...
    def catalog(self) -> Catalog: ...

def import_skypilot_csv(text: str, *, file: str = "", published: str = "", provider: str = "", currency: str = "USD",
                        operating_system: str = "linux", include_cpu_instances: bool = False,
                        join_extra_fields_into_last_column: bool = False) -> ImportResult: ...
def import_azure_retail_prices(text: str, *, file: str = "", published: str = "", provider: str = "",
                               currency: str = "USD", operating_system: str = "linux",
                               include_cpu_instances: bool = False,
                               join_extra_fields_into_last_column: bool = False) -> ImportResult: ...
def import_aws_get_products(text: str, *, file: str = "", published: str = "", provider: str = "", currency: str = "USD",
                            operating_system: str = "linux", include_cpu_instances: bool = False,
                            join_extra_fields_into_last_column: bool = False) -> ImportResult: ...
def import_gcp_skus(text: str, *, file: str = "", published: str = "", provider: str = "", currency: str = "USD",
                    operating_system: str = "linux", include_cpu_instances: bool = False,
                    join_extra_fields_into_last_column: bool = False) -> ImportResult: ...
def import_cyclenerd_pricing_yml(text: str, *, file: str = "", published: str = "", provider: str = "",
                                 currency: str = "USD", operating_system: str = "linux",
                                 include_cpu_instances: bool = False,
                                 join_extra_fields_into_last_column: bool = False) -> ImportResult: ...
def import_ec2instances_json(text: str, *, file: str = "", published: str = "", provider: str = "", currency: str = "USD",
                             operating_system: str = "linux", include_cpu_instances: bool = False,
                             join_extra_fields_into_last_column: bool = False) -> ImportResult: ...
def import_aws_offer_file(path: Union[str, PathLike[str]], *, file: str = "", published: str = "",
                          operating_system: str = "linux", include_cpu_instances: bool = False) -> ImportResult: ...
def normalise_gpu_name(name: str, memory_gib: float = 0.0) -> str: ...

class RankedOffering:
    offering: Offering
    per_gpu_hour: float
    currency: str
    conversion: str
    price_age_days: Optional[int]
    stale: bool

STALE_PRICE_AGE_DAYS: int
PRICE_DISAGREEMENT_TOLERANCE: float
def provider_kind(provider: str) -> str: ...
class PriceDisagreement:
    key: str
    first: float
    second: float
    first_source: Source
    second_source: Source
    relative: float
    used: str
    def message(self) -> str: ...
def cross_check(first: Catalog, second: Catalog, tolerance: float = ...) -> list[PriceDisagreement]: ...
class GpuPriceSpread:
    gpu: str
    offerings: int
    min: float
    median: float
    max: float
    cheapest: str
    dearest: str
def price_spread(ranked: Sequence[RankedOffering]) -> list[GpuPriceSpread]: ...
def cheapest_region_per_instance(offerings: Sequence[Offering]) -> list[Offering]: ...

def query_offerings(catalog: Catalog, *, gpu: str = "", min_gpu_memory_gb: Optional[float] = None,
                    gpus_per_instance: Optional[int] = None, provider: str = "", region: str = "", currency: str = "",
                    has_spot: Optional[bool] = None, has_reservations: Optional[bool] = None,
                    as_of: Optional[str] = None, provider_kind: str = "") -> list[Offering]: ...
def rank_by_gpu_hour_price(offerings: Sequence[Offering], currency: str, rates: ExchangeRates, date: str,
                           price: str = "on_demand") -> list[RankedOffering]: ...

# ---------------------------------------------------------------- checkpoint closed forms
class Job:
    def __init__(self, *, work_hours: float, checkpoint_interval_hours: float, checkpoint_write_hours: float = 0.0,
                 restart_hours: float = 0.0, capacity_wait_hours: float = 0.0,
                 deadline_hours: float = ...) -> None: ...
    work_hours: float
    checkpoint_interval_hours: float
    checkpoint_write_hours: float
    restart_hours: float
    capacity_wait_hours: float
    deadline_hours: float

class ExpectedSpotTime:
    billed_hours: float
    wall_hours: float
    interruptions: float
    def _asdict(self) -> dict[str, float]: ...

def optimal_checkpoint_interval(checkpoint_write_hours: float, mtbf_hours: float,
                                method: CheckpointMethodName = "exact") -> float: ...
def expected_spot_time(work_hours: float, checkpoint_interval_hours: float, checkpoint_write_hours: float,
                       restart_hours: float, mtbf_hours: float, capacity_wait_hours: float = 0.0) -> ExpectedSpotTime: ...
def segment_count(work_hours: float, interval_hours: float) -> int: ...

# ---------------------------------------------------------------- interruption models
class ProviderRules:
    def __init__(self, *, notice_hours: float = 0.0, emergency_checkpoint: bool = False,
                 protection_hours: float = 0.0, max_lifetime_hours: float = ...) -> None: ...
    notice_hours: float
    emergency_checkpoint: bool
    protection_hours: float
    max_lifetime_hours: float

def aws_rules() -> ProviderRules: ...
def gcp_preemptible_rules() -> ProviderRules: ...
def alibaba_rules() -> ProviderRules: ...

class Poisson:
    def __init__(self, mtbf_hours: float, *, rules: ProviderRules = ...) -> None: ...
    mtbf_hours: float
    rules: ProviderRules

class Weibull:
    def __init__(self, shape: float, scale_hours: float, *, rules: ProviderRules = ...) -> None: ...
    shape: float
    scale_hours: float
    rules: ProviderRules

class Trace:
    def __init__(self, lifetimes_hours: Sequence[float], *, source: str = "", censored_count: int = 0,
                 rules: ProviderRules = ...) -> None: ...
    @staticmethod
    def parse_lifetimes(text: str, source: str = "") -> Trace: ...
    @staticmethod
    def from_node_events(text: str, hours_per_time_unit: float = ..., source: str = "") -> Trace: ...
    @staticmethod
    def load(path: Union[str, PathLike[str]]) -> Trace: ...
    lifetimes_hours: list[float]
    source: str
    censored_count: int
    rules: ProviderRules
    def mean_lifetime_hours(self) -> float: ...

class PriceDriven:
    def __init__(self, *, reversion_per_hour: float = 0.1, volatility_per_sqrt_hour: float = 0.1,
                 price_cap_per_hour: float = ..., step_hours: float = ...,
                 rules: ProviderRules = ...) -> None: ...
    reversion_per_hour: float
    volatility_per_sqrt_hour: float
    price_cap_per_hour: float
    step_hours: float
    rules: ProviderRules

InterruptionModel = Union[Poisson, Weibull, Trace, PriceDriven]

def mtbf_from_monthly_interruption_fraction(fraction: float) -> float: ...
def advisor_bucket_fraction(bucket_index: int) -> float: ...
def advisor_bucket(bucket_index: int, rules: ProviderRules = ...) -> Poisson: ...

# ---------------------------------------------------------------- spot Monte Carlo and statistics
class Summary:
    mean: float
    standard_error: float
    ci_low: float
    ci_high: float
    p50: float
    p90: float
    p95: float
    p99: float
    min: float
    max: float
    count: int
    def half_width(self) -> float: ...
    def _asdict(self) -> dict[str, float]: ...

def summarize(samples: ArrayLike, confidence: float = 0.95) -> Summary: ...
def quantile(samples: ArrayLike, q: float) -> float: ...

class SpotSamples:
    @property
    def wall_hours(self) -> npt.NDArray[np.float64]: ...
    @property
    def billed_hours(self) -> npt.NDArray[np.float64]: ...
    @property
    def cost(self) -> npt.NDArray[np.float64]: ...
    @property
    def interruptions(self) -> npt.NDArray[np.float64]: ...
    @property
    def lost_work_hours(self) -> npt.NDArray[np.float64]: ...
    @property
    def charged_hours(self) -> npt.NDArray[np.float64]: ...

class SpotResult:
    samples: SpotSamples
    wall_hours: Summary
    billed_hours: Summary
    cost: Summary
    interruptions: Summary
    lost_work_hours: Summary
    charged_hours: Summary
    deadline_miss_probability: float
    effective_price_per_useful_hour: float
    effective_discount: float
    paths: int
    seed: int
    kernel: Literal["avx512", "avx2", "portable", "scalar"]
    def __len__(self) -> int: ...
    def to_frame(self) -> pd.DataFrame: ...
    def summary(self) -> dict: ...
    def to_json(self, indent: Optional[int] = 2) -> str: ...

def spot_kernels() -> list[str]: ...

class SpotWorkEstimate:
    launches_per_path: float
    price_steps_per_path: float

def estimate_spot_work(job: Job, model: InterruptionModel, pricing: SpotPricing = ...) -> SpotWorkEstimate: ...

class SpotPricing:
    def __init__(self, *, price_per_hour: float = 1.0, on_demand_price_per_hour: float = 0.0,
                 billing_increment_hours: float = 0.0, minimum_billed_hours: float = 0.0) -> None: ...
    @staticmethod
    def from_offering(offering: Offering) -> SpotPricing: ...
    price_per_hour: float
    on_demand_price_per_hour: float
    billing_increment_hours: float
    minimum_billed_hours: float

class SimulationOptions:
    def __init__(self, *, paths: int = 100000, seed: int = 0, threads: int = 0, target_half_width: float = 0.0,
                 max_paths: int = 0, confidence: float = 0.95, keep_samples: bool = True) -> None: ...
    paths: int
    seed: int
    threads: int
    target_half_width: float
    max_paths: int
    confidence: float
    keep_samples: bool

spot_max_paths: int
spot_max_streamed_paths: int
spot_quantile_subsample: int
def default_spot_kernel() -> str: ...
def _simulate_spot(job: Job, model: InterruptionModel, pricing: SpotPricing = ...,
                   options: SimulationOptions = ...) -> SpotResult: ...
def checkpoint_interval_or_default(interval_hours: float, checkpoint_write_hours: float,
                                   model: InterruptionModel) -> float: ...
def _spot_job_pricing(offering: Optional[Offering], price_per_hour: Optional[float],
                      on_demand_price_per_hour: Optional[float], billing_increment_hours: Optional[float],
                      minimum_billed_hours: Optional[float]) -> SpotPricing: ...

# ---------------------------------------------------------------- deadline-aware spot policies
DeadlinePolicyName = Literal["greedy", "uniform_progress", "on_demand_only", "greedy_simple",
                             "uniform_progress_prose"]
RegionPolicyName = Literal["skypilot_failover", "skypilot_eager_next_region", "uniform_progress"]
TickDecisionName = Literal["none", "spot", "on_demand"]

class DeadlineJob:
    def __init__(self, *, compute_hours: float, deadline_hours: float, changeover_hours: float = 0.0,
                 tick_hours: float = 1.0) -> None: ...
    compute_hours: float
    deadline_hours: float
    changeover_hours: float
    tick_hours: float
    @property
    def compute_ticks(self) -> int: ...
    @property
    def deadline_ticks(self) -> int: ...
    @property
    def changeover_ticks(self) -> int: ...

class MarkovAvailability:
    def __init__(self, *, mean_up_hours: float = 10.0, mean_down_hours: float = 2.0) -> None: ...
    mean_up_hours: float
    mean_down_hours: float
    def availability_fraction(self) -> float: ...

class SpotAvailability:
    max_ticks: int
    def __init__(self, available: Sequence[bool], tick_hours: float = 0.0) -> None: ...
    @property
    def available(self) -> npt.NDArray[np.bool_]: ...
    tick_hours: float
    layout: str
    @staticmethod
    def from_json(source: Union[str, bytes, PathLike], *, values: Optional[str] = None,
                  nodes_needed: Optional[int] = None) -> SpotAvailability: ...
    def window(self, start: int, length: int) -> SpotAvailability: ...
    def resampled(self, tick_hours: float) -> SpotAvailability: ...
    @property
    def ticks(self) -> int: ...
    def available_ticks(self) -> int: ...
    def __len__(self) -> int: ...
    @staticmethod
    def from_text(text: str) -> SpotAvailability: ...
    @staticmethod
    def markov(process: MarkovAvailability, ticks: int, tick_hours: float = 1.0, seed: int = 0) -> SpotAvailability: ...
    @staticmethod
    def always_available(ticks: int) -> SpotAvailability: ...

_tick_decisions: tuple[str, ...]  # the tick log's decision categories, in table order

class DeadlineResult:
    cost: float
    spot_hours: float
    on_demand_hours: float
    idle_hours: float
    changeovers: int
    preemptions: int
    finish_hours: float
    met_deadline: bool
    tick_hours: float
    @property
    def decisions(self) -> list[TickDecisionName]: ...
    @property
    def spot_available(self) -> npt.NDArray[np.bool_]: ...
    @property
    def progress_hours(self) -> npt.NDArray[np.float64]: ...
    def _tick_columns(self) -> dict[str, Any]: ...
    def to_frame(self) -> pd.DataFrame: ...  # gputco/_deadline.py

def simulate_deadline(job: DeadlineJob, availability: SpotAvailability, policy: DeadlinePolicyName,
                      spot_price_per_hour: float, on_demand_price_per_hour: float) -> DeadlineResult: ...
def omniscient_cost(job: DeadlineJob, availability: SpotAvailability, spot_price_per_hour: float,
                    on_demand_price_per_hour: float) -> float: ...

class DeadlinePolicyOutcome:
    @property
    def policy(self) -> DeadlinePolicyName: ...
    cost: Summary
    deadline_miss_probability: float
    @property
    def cost_samples(self) -> npt.NDArray[np.float64]: ...

class DeadlineComparison:
    policies: list[DeadlinePolicyOutcome]
    omniscient_cost: Optional[Summary]
    @property
    def omniscient_samples(self) -> npt.NDArray[np.float64]: ...
    paths: int
    seed: int
    def __getitem__(self, policy: DeadlinePolicyName) -> DeadlinePolicyOutcome: ...

def compare_deadline_policies(job: DeadlineJob, process: MarkovAvailability, spot_price_per_hour: float,
                              on_demand_price_per_hour: float, *, paths: int = 1000, seed: int = 0,
                              confidence: float = 0.95, omniscient: bool = False,
                              policies: Sequence[DeadlinePolicyName] = ...) -> DeadlineComparison: ...
def deadline_policies() -> list[DeadlinePolicyName]: ...
def common_tick_hours(a_hours: float, b_hours: float) -> float: ...
def deadline_tranche(cost_samples: ArrayLike, job: DeadlineJob, spot_price_per_hour: float) -> SpotTranche: ...

class WindowPolicyOutcome:
    @property
    def policy(self) -> DeadlinePolicyName: ...
    @property
    def cost_samples(self) -> npt.NDArray[np.float64]: ...
    cost: Summary
    deadline_misses: int
    gap_closed: float

class WindowSweep:
    @property
    def window_starts(self) -> npt.NDArray[np.uint64]: ...
    window_trace_ticks: int
    trace_tick_hours: float
    job_tick_hours: float
    policies: list[WindowPolicyOutcome]
    @property
    def omniscient_samples(self) -> npt.NDArray[np.float64]: ...
    omniscient_cost: Optional[Summary]
    greedy_mean: float
    def summary(self) -> pd.DataFrame: ...
    def to_frame(self) -> pd.DataFrame: ...

def sweep_windows(job: DeadlineJob, trace: SpotAvailability, spot_price_per_hour: float,
                  on_demand_price_per_hour: float, *, stride_ticks: int = 1,
                  policies: Sequence[DeadlinePolicyName] = ..., omniscient: bool = True,
                  confidence: float = 0.95) -> WindowSweep: ...

class SpotRegion:
    def __init__(self, name: str, availability: SpotAvailability, spot_price_per_hour: float) -> None: ...
    name: str
    availability: SpotAvailability
    spot_price_per_hour: float

class MultiRegionResult:
    run: DeadlineResult
    @property
    def region(self) -> npt.NDArray[np.int32]: ...
    moves: int
    def to_frame(self, names: Optional[Sequence[str]] = None) -> pd.DataFrame: ...

def simulate_multi_region(job: DeadlineJob, regions: Sequence[SpotRegion], policy: RegionPolicyName,
                          on_demand_price_per_hour: float) -> MultiRegionResult: ...
def omniscient_multi_region_cost(job: DeadlineJob, regions: Sequence[SpotRegion],
                                 on_demand_price_per_hour: float) -> float: ...

# ---------------------------------------------------------------- serving on spot across zones
ServingPolicyName = Literal["static_spread", "even_spread_fallback", "spot_hedge"]

class ServingResult:
    cost: float
    on_demand_only_cost: float
    saving: float
    spot_hours: float
    on_demand_hours: float
    hours: float
    availability: float
    ready_histogram: List[int]
    launches: int
    preemptions: int
    @property
    def ready(self) -> npt.NDArray[np.uint32]: ...

class ServingCandidate:
    @property
    def policy(self) -> ServingPolicyName: ...
    extra_spot: int
    on_demand_base: int
    result: ServingResult
    meets_target: bool

class ServingPlan:
    candidates: List[ServingCandidate]
    best: Optional[int]
    lower_bound: ServingResult

def serving_policies() -> List[ServingPolicyName]: ...
def serving_frontier(plan: ServingPlan) -> List[int]: ...
def simulate_serving(zones: Sequence[SpotRegion], policy: ServingPolicyName, *, target_replicas: int,
                     on_demand_price_per_hour: float, extra_spot: int = 0, on_demand_base: int = 0,
                     launch_hours: float = 0.0, notice_hours: float = 0.0,
                     tick_hours: Optional[float] = None,
                     on_demand: Optional[SpotAvailability] = None) -> ServingResult: ...
def serving_lower_bound(zones: Sequence[SpotRegion], *, target_replicas: int, on_demand_price_per_hour: float,
                        tick_hours: Optional[float] = None) -> ServingResult: ...
def choose_serving_plan(zones: Sequence[SpotRegion], *, target_replicas: int, on_demand_price_per_hour: float,
                        availability_target: float = 0.999, policies: Optional[Sequence[ServingPolicyName]] = None,
                        max_extra: int = 4, max_on_demand_base: int = 0, launch_hours: float = 0.0,
                        notice_hours: float = 0.0, tick_hours: Optional[float] = None,
                        threads: int = 0) -> ServingPlan: ...

class CommittedServingCost:
    hours: float
    base_replicas: float
    base_commitment_cost: float
    base_on_demand_cost: float
    spot_and_fallback_cost: float
    total: float
    on_demand_total: float
    on_demand_only_cost: float
    saving: float

def committed_base_cost(candidate: ServingCandidate, offering: Offering, *, target_replicas: int,
                        on_demand_price_per_hour: float, term_years: int = 1, payment: str = "all_upfront",
                        reservation_discount: Optional[float] = None) -> CommittedServingCost: ...
def cheapest_with_committed_base(plan: ServingPlan, offering: Offering, *, target_replicas: int,
                                 on_demand_price_per_hour: float, term_years: int = 1, payment: str = "all_upfront",
                                 reservation_discount: Optional[float] = None) -> Optional[int]: ...

class OnDemandCapacity:
    def __init__(self, *, unavailable_share: float, mean_wait_hours: float = 1.0, source: str = "") -> None: ...
    unavailable_share: float
    mean_wait_hours: float
    source: str
    def process(self) -> MarkovAvailability: ...

class DeadlineCapacityRisk:
    deadline_met_probability: float
    capacity_found_probability: float
    mean_cost: float
    cost_standard_error: float
    paths: int

def simulate_deadline_with_capacity(job: DeadlineJob, spot: SpotAvailability, on_demand: SpotAvailability,
                                    policy: DeadlinePolicyName, spot_price_per_hour: float,
                                    on_demand_price_per_hour: float) -> DeadlineResult: ...
def deadline_capacity_risk(job: DeadlineJob, spot: MarkovAvailability, capacity: OnDemandCapacity,
                           policy: DeadlinePolicyName, spot_price_per_hour: float, on_demand_price_per_hour: float,
                           *, paths: int = 1000, seed: int = 0) -> DeadlineCapacityRisk: ...

class FlexStart:
    discount: float
    request_valid_hours: float
    grant_probability: float
    def __init__(self, *, discount: float, request_valid_hours: float = 2.0, grant_probability: float = 1.0) -> None: ...

class FlexStartResult:
    runs: int
    most_requests: int
    all_flex_cost: float
    all_on_demand_cost: float
    expected_cost: float
    cost_standard_deviation: float
    fallback_probability: float
    expected_flex_hours: float
    worst_finish_hours: float

def flex_start_job(job: DeadlineJob, flex: FlexStart, on_demand_price_per_hour: float) -> FlexStartResult: ...

# ---------------------------------------------------------------- demand
class Horizon:
    @staticmethod
    def years(n: int) -> Horizon: ...
    @staticmethod
    def months(n: int) -> Horizon: ...
    @property
    def month_count(self) -> int: ...
    @property
    def hour_count(self) -> int: ...
    @property
    def hours(self) -> float: ...
    @property
    def years_span(self) -> float: ...

class DemandStep:
    def __init__(self, start_month: int, gpus: float) -> None: ...
    start_month: int
    gpus: float

class DemandProfile:
    @staticmethod
    def constant(gpus: float, horizon: Horizon) -> DemandProfile: ...
    @staticmethod
    def linear_growth(start_gpus: float, end_gpus: float, horizon: Horizon) -> DemandProfile: ...
    @staticmethod
    def compound_growth(start_gpus: float, annual_growth_rate: float, horizon: Horizon) -> DemandProfile: ...
    @staticmethod
    def steps(steps: Iterable[Union[DemandStep, tuple[int, float]]], horizon: Horizon) -> DemandProfile: ...
    @staticmethod
    def hourly(gpus_per_hour: ArrayLike) -> DemandProfile: ...
    def with_daily_pattern(self, factors: Sequence[float]) -> DemandProfile: ...
    def with_weekly_pattern(self, factors: Sequence[float]) -> DemandProfile: ...
    def scaled(self, factor: float) -> DemandProfile: ...
    @property
    def gpus_per_hour(self) -> npt.NDArray[np.float64]: ...
    @property
    def horizon(self) -> Horizon: ...
    @property
    def hours(self) -> int: ...
    def peak_gpus(self) -> float: ...
    def mean_gpus(self) -> float: ...
    def total_gpu_hours(self) -> float: ...
    def __len__(self) -> int: ...

# ---------------------------------------------------------------- strategies and cost
class OnDemand:
    def __init__(self) -> None: ...

class Reserved:
    def __init__(self, *, term_years: int = 1, payment: PaymentName = "no_upfront",
                 reservation_discount: Optional[float] = None, renewal: RenewalName = "renew",
                 discount: Optional[float] = None) -> None: ...  # discount: old spelling, deprecated
    term_years: int
    payment: PaymentName
    reservation_discount: Optional[float]
    discount: Optional[float]  # old spelling of reservation_discount, deprecated
    renewal: RenewalName

class Owned:
    def __init__(self, *, capex_per_gpu: float, life_years: int = 4, residual_fraction: float = 0.1,
                 watts_per_gpu: float = 400.0, idle_power_fraction: float = 0.3, pue: float = 1.3,
                 electricity_per_kwh: float = 0.12, colocation_per_gpu_month: float = 0.0,
                 maintenance_fraction_per_year: float = 0.0, staff_per_month: float = 0.0) -> None: ...
    capex_per_gpu: float
    life_years: int
    residual_fraction: float
    watts_per_gpu: float
    idle_power_fraction: float
    pue: float
    electricity_per_kwh: float
    colocation_per_gpu_month: float
    maintenance_fraction_per_year: float
    staff_per_month: float

class SpotTranche:
    def __init__(self, *, price_per_gpu_hour: Optional[float] = None, overhead: float = 1.0,
                 availability: float = 1.0, overhead_samples: ArrayLike = ...) -> None: ...
    price_per_gpu_hour: Optional[float]
    overhead: float
    availability: float
    @property
    def overhead_samples(self) -> npt.NDArray[np.float64]: ...

TrancheKind = Union[Reserved, Owned, SpotTranche, OnDemand]

class Tranche:
    def __init__(self, fraction: float, kind: TrancheKind) -> None: ...
    fraction: float
    kind: TrancheKind

class Mix:
    def __init__(self, tranches: Iterable[Union[Tranche, tuple[float, TrancheKind]]], *,
                 fleet_gpus: Optional[float] = None,
                 rounding: Literal["nearest", "down", "up", "none"] = "nearest") -> None: ...
    tranches: list[Tranche]
    fleet_gpus: Optional[float]
    rounding: str

Strategy = Union[OnDemand, Reserved, Owned, Mix]

class Discounts:
    def __init__(self, *, on_demand_discount: Optional[float] = None, free_gpu_hours: float = 0.0,
                 voucher_price_factor: float = 1.0, region_price_factor: float = 1.0,
                 plan_discount: Optional[float] = None) -> None: ...  # None: 0; plan_discount: old spelling, deprecated
    on_demand_discount: float
    plan_discount: float  # old spelling of on_demand_discount, deprecated
    free_gpu_hours: float
    voucher_price_factor: float
    region_price_factor: float

def describe(strategy: Strategy) -> str: ...
def spot_tranche(result: SpotResult, job: Union[Job, float], availability: float = 1.0,
                 price_per_gpu_hour: Optional[float] = None) -> SpotTranche: ...

class MonthlyCashFlow:
    month: int
    upfront: float
    reserved_recurring: float
    on_demand: float
    spot: float
    credits: float
    total: float
    used_gpu_hours: float
    reserved_gpu_hours: float
    reserved_used_gpu_hours: float
    spot_gpu_hours: float
    on_demand_gpu_hours: float
    capex: float
    operating: float
    resale: float
    owned_gpu_hours: float
    owned_used_gpu_hours: float
    spot_paid_gpu_hours: float
    on_demand_paid_gpu_hours: float
    held_gpu_hours: float
    held_used_gpu_hours: float
    commitment_changes: float
    _fields: tuple[str, ...]  # the field list of gputco/results/report.hpp, in CSV order
    _field_dtypes: tuple[str, ...]  # "int64" or "float64" per field, as the DataFrame columns
    def _asdict(self) -> dict[str, float | int]: ...

class CostSpread:
    mean: float
    p05: float
    p50: float
    p95: float
    p99: float
    def _asdict(self) -> dict[str, float]: ...

class CostReport:
    strategy: str
    offering: str
    currency: str
    horizon_months: int
    units: Literal["instances", "gpus"]
    gpus_per_unit: int
    months: list[MonthlyCashFlow]
    total: float
    npv: float
    annual_discount_rate: float
    used_gpu_hours: float
    effective_cost_per_used_gpu_hour: Optional[float]  # None when no GPU-hour is used
    reserved_utilisation: float
    owned_utilisation: float
    baseline_total: float
    savings: float
    savings_fraction: float
    break_even_utilisation: Optional[float]
    break_even_month: Optional[int]
    spread: Optional[CostSpread]
    assumptions: list[str]
    _figures: tuple[str, ...]  # cost_figure_fields of gputco/results/report.hpp: total ... break_even_month
    _figure_dtypes: tuple[str, ...]  # "float64", or "Float64" / "Int64" where a figure may be None
    def to_json(self) -> str: ...
    def to_csv(self) -> str: ...
    def to_table(self) -> str: ...
    def summary(self) -> dict: ...
    def to_frame(self) -> pd.DataFrame: ...
    def _month_columns(self) -> dict[str, np.ndarray]: ...

def evaluate(strategy: Strategy, demand: DemandProfile, offering: Offering, *,
             discounts: Optional[Discounts] = None, annual_discount_rate: float = 0.0,
             units: Literal["instances", "gpus"] = "instances") -> CostReport: ...

def _evaluate_batch(strategies: list[Strategy], demand: DemandProfile, offering: Offering, *,
                    discounts: Optional[Discounts] = None, annual_discount_rate: float = 0.0,
                    units: Literal["instances", "gpus"] = "instances") -> dict[str, Any]: ...

class ReservationAdvice:
    reserved_gpus: float
    gpus_per_unit: int
    critical_fraction: float
    demand_covered_fraction: float
    effective_reserved_rate: float
    on_demand_rate: float
    report: CostReport

def optimal_reservation(demand: DemandProfile, offering: Offering, reserved: Reserved, *,
                        discounts: Optional[Discounts] = None,
                        annual_discount_rate: float = 0.0,
                        units: Literal["instances", "gpus"] = "instances") -> ReservationAdvice: ...

# cost per unit of work
class ThroughputRow:
    gpu: str
    system: str
    gpus: int
    precision: str
    watts: float
    price: float
    model: str
    per_second: float
    source: Source

class ThroughputTable:
    @staticmethod
    def builtin() -> ThroughputTable: ...
    @staticmethod
    def from_csv(csv: str, *, precision: str, source: str, as_of: str = "") -> ThroughputTable: ...
    @staticmethod
    def from_csv_file(path: str, *, precision: str, source: str, as_of: str = "") -> ThroughputTable: ...
    def overridden_by(self, other: ThroughputTable) -> ThroughputTable: ...
    @property
    def rows(self) -> list[ThroughputRow]: ...
    def models(self) -> list[str]: ...
    def find(self, gpu: str, gpus: int, precision: str, model: str) -> Optional[ThroughputRow]: ...
    def __len__(self) -> int: ...

def benchmark_gpus() -> list[str]: ...
def model_unit(model: str) -> str: ...

class ScalingCurve:
    single_gpu: float
    alpha: float
    fitted_counts: list[int]
    def efficiency(self, gpus: float) -> float: ...
    def throughput(self, gpus: float) -> float: ...

def scaling_curve(table: ThroughputTable, gpu: str, precision: str, model: str) -> ScalingCurve: ...
def throughput_at(table: ThroughputTable, gpu: str, precision: str, model: str, gpus: int) -> dict: ...

class Workload:
    def __init__(self, *, model: str, work_per_epoch: float, epochs: float = 1.0, precision: str = "mixed",
                 memory_gb: float = 0.0, utilisation: float = 1.0, name: str = "") -> None: ...
    name: str
    model: str
    work_per_epoch: float
    epochs: float
    precision: str
    memory_gb: float
    utilisation: float
    def total_work(self) -> float: ...

def training_memory_gb(parameters: float, bytes_per_parameter: float = 16.0, activations_gb: float = 0.0) -> float: ...

class GpuMatch:
    def __init__(self, catalog_gpu: str, kind: str, benchmark_gpu: str = "", note: str = "") -> None: ...
    catalog_gpu: str
    kind: str
    benchmark_gpu: str
    note: str

def gpu_matches() -> list[GpuMatch]: ...
def match_gpu(catalog_gpu: str, extra: list[GpuMatch] = ...) -> GpuMatch: ...

class WorkCostRow:
    provider: str
    region: str
    instance_type: str
    catalog_gpu: str
    benchmark_gpu: str
    match: str
    buying: str
    terms: str
    gpus: int
    currency: str
    price_per_hour: float
    throughput_per_second: float
    throughput_basis: str
    hours_per_epoch: float
    run_hours: float
    run_hours_p95: float
    cost_per_epoch: float
    cost_per_run: float
    cost_per_run_p95: float
    cost_per_run_standard_error: float
    cost_per_million: float
    probability_within_deadline: float
    note: str
    price_age_days: Optional[int]
    stale: bool

class SkippedOffering:
    offering: str
    reason: str

class WorkRanking:
    workload: Workload
    unit: str
    currency: str
    deadline_hours: float
    rows: list[WorkCostRow]
    skipped: list[SkippedOffering]
    prices_as_of: str
    max_price_age_days: int
    stale_left_out: int
    def frontier(self) -> list[WorkCostRow]: ...

def _rank_offerings(workload: Workload, catalog: Catalog, throughput: ThroughputTable, *, currency: str = "USD",
                    on_demand: bool = True, spot: bool = True, reserved: bool = True, owned: bool = True,
                    allow_estimates: bool = False, gpu_matches: list[GpuMatch] = ..., mtbf_hours: float = 20.0,
                    checkpoint_write_hours: float = ..., restart_hours: float = ...,
                    capacity_wait_hours: float = 0.0, paths: int = 20000, seed: int = 42, threads: int = 0,
                    ownership: Optional[Owned] = None, deadline_hours: float = ...,
                    exchange_rates: Optional[ExchangeRates] = None, rates_as_of: str = "",
                    progress: Optional[Callable[[int, int], None]] = None,
                    every_region: bool = False, prices_as_of: str = "", max_price_age_days: int = ...,
                    include_stale_prices: bool = False) -> WorkRanking: ...

class WorkAuditRow:
    claim: str
    source: str
    seed_figure: float
    measured_figure: float
    unit: str
    verdict: str
    basis: str
    reason: str

def audit_seed_work_claims(catalog: Catalog, throughput: ThroughputTable) -> list[WorkAuditRow]: ...
# plans over time under uncertain demand and prices
class Commitment:
    count: float
    unit: str
    term_years: int
    payment: str
    start_month: int
    renewal: str
    reservation_discount: Optional[float]
    discount: Optional[float]  # old spelling of reservation_discount, deprecated
    offering: Optional[Offering]
    kind: str
    def __init__(self, count: float, *, unit: str = "gpus", term_years: int = 1, payment: str = "no_upfront",
                 start_month: int = 0, renewal: str = "lapse", reservation_discount: Optional[float] = None,
                 offering: Optional[Offering] = None, kind: str = "standard",
                 discount: Optional[float] = None) -> None: ...  # discount: old spelling, deprecated

# commitments already held and their changes
class HeldCommitment:
    id: str
    count: float
    unit: str
    start_month: int
    end_month: int
    hourly_per_gpu: Optional[float]
    payment: str
    upfront_per_gpu: float
    kind: str
    offering: Optional[Offering]
    def __init__(self, count: float, *, start_month: int, end_month: int, id: str = "", unit: str = "gpus",
                 hourly_per_gpu: Optional[float] = None, payment: str = "no_upfront", upfront_per_gpu: float = 0.0,
                 kind: str = "standard", offering: Optional[Offering] = None) -> None: ...

class CommitmentChange:
    kind: str
    held: bool
    index: int
    month: int
    into: Optional[Commitment]
    price: float
    def __init__(self, kind: str, *, month: int, held: Optional[int] = None, commitment: Optional[int] = None,
                 into: Optional[Commitment] = None, price: float = 0.0) -> None: ...

class CommitmentUse:
    name: str
    held: bool
    gpus: float
    first_month: int
    end_month: int
    paid_gpu_hours: float
    used_gpu_hours: float
    unused_gpu_hours: float

class OwnedPurchase:
    gpus: float
    month: int
    terms: Owned
    def __init__(self, gpus: float, *, month: int = 0, terms: Owned) -> None: ...

class SpotPeriod:
    first_month: int
    overhead: float
    availability: float
    def __init__(self, *, first_month: int, overhead: float = 1.0, availability: float = 1.0) -> None: ...

class SpotShare:
    periods: List[SpotPeriod]
    gpus: float
    price_per_gpu_hour: Optional[float]
    overhead: float
    availability: float
    def __init__(self, gpus: float, *, price_per_gpu_hour: Optional[float] = None, overhead: float = 1.0,
                 availability: float = 1.0, periods: Sequence[SpotPeriod] = ...) -> None: ...

class SavingsPlan:
    commitment_per_hour: float
    type: str
    term_years: int
    payment: str
    start_month: int
    renewal: str
    rate_per_gpu_hour: Optional[float]
    id: str
    def __init__(self, commitment_per_hour: float, *, type: str = "aws_compute", term_years: int = 1,
                 payment: str = "no_upfront", start_month: int = 0, renewal: str = "lapse",
                 rate_per_gpu_hour: Optional[float] = None, id: str = "") -> None: ...

class Plan:
    name: str
    commitments: List[Commitment]
    owned: List[OwnedPurchase]
    savings_plans: List[SavingsPlan]
    spot: Optional[SpotShare]
    held: List[HeldCommitment]
    changes: List[CommitmentChange]
    capacity_blocks: List[CapacityBlock]
    flex_starts: List[FlexStartRequest]
    def __init__(self, commitments: Sequence[Commitment] = ..., *, owned: Sequence[OwnedPurchase] = ...,
                 spot: Optional[SpotShare] = None, name: str = "",
                 savings_plans: Sequence[SavingsPlan] = ..., capacity_blocks: Sequence[CapacityBlock] = ...,
                 held: Sequence[HeldCommitment] = ..., changes: Sequence[CommitmentChange] = ...,
                 flex_starts: Sequence[FlexStartRequest] = ...,
                 billing: str = "gpus") -> None: ...  # or "instances": on demand and spot paid per whole instance
    @staticmethod
    def from_mix(mix: Mix, fleet_gpus: float) -> Plan: ...

class DemandEvent:
    gpus: float
    probability: float
    first_month: int
    last_month: int
    def __init__(self, *, gpus: float, probability: float, first_month: int, last_month: int) -> None: ...

class DemandModel:
    base_gpus: float
    monthly_log_growth: float
    monthly_log_volatility: float
    events: List[DemandEvent]
    seasonality: List[float]
    hour_of_week: List[float]
    history_monthly_gpus: List[float]
    def __init__(self, base_gpus: float, *, monthly_log_growth: float = 0.0, monthly_log_volatility: float = 0.0,
                 events: Sequence[DemandEvent] = ..., seasonality: Sequence[float] = ...,
                 hour_of_week: Sequence[float] = ..., history_monthly_gpus: Sequence[float] = ...) -> None: ...
    @staticmethod
    def from_history(history: DemandProfile) -> DemandModel: ...

def expected_level(model: DemandModel, month: int) -> float: ...

class DemandFutures:
    count: int
    horizon: Horizon
    levels: np.ndarray
    @staticmethod
    def generate(model: DemandModel, horizon: Horizon, futures: int, seed: int) -> DemandFutures: ...
    @staticmethod
    def from_profile(profile: DemandProfile) -> DemandFutures: ...
    @staticmethod
    def from_profiles(profiles: Sequence[DemandProfile]) -> DemandFutures: ...
    def gpu_hours(self, future: int, month: int) -> float: ...
    def profile(self, future: int) -> DemandProfile: ...

class PriceChange:
    date: str
    on_demand_factor: float
    spot_factor: float
    reserved_factor: float
    source: str
    def __init__(self, date: str, *, on_demand_factor: float = 1.0, spot_factor: float = 1.0,
                 reserved_factor: float = 1.0, source: str = "") -> None: ...

class GenerationLaunch:
    probability: float
    first_month: int
    last_month: int
    def __init__(self, *, probability: float, first_month: int, last_month: int, on_demand_factor: float = 1.0,
                 spot_factor: float = 1.0, reserved_factor: float = 1.0) -> None: ...

class PriceModel:
    start: str
    changes: List[PriceChange]
    launches: List[GenerationLaunch]
    def __init__(self, *, start: str = "", changes: Sequence[PriceChange] = ...,
                 launches: Sequence[GenerationLaunch] = ...) -> None: ...

class PricePaths:
    on_demand: np.ndarray
    spot: np.ndarray
    reserved: np.ndarray
    launch_month: np.ndarray

def price_paths(model: PriceModel, horizon: Horizon, futures: int, seed: int) -> PricePaths: ...
def aws_june_2025_price_cut(offering: Offering, term_years: int = 0,
                            savings_plan_type: Optional[str] = None) -> PriceChange: ...

class Distribution:
    mean: float
    standard_error: float
    p5: float
    p50: float
    p95: float
    cvar95: float
    min: float
    max: float
    def _asdict(self) -> dict: ...

def distribution_of(samples: Sequence[float]) -> Distribution: ...

class PlanDistribution:
    plan: str
    offering: str
    currency: str
    horizon_months: int
    annual_discount_rate: float
    total: Distribution
    npv: Distribution
    regret: Distribution
    mean_months: List[MonthlyCashFlow]
    mean_committed_spend: float
    committed_utilisation: float
    mean_stranded_unused: float
    mean_stranded_above_market: float
    best_fraction: float
    conversions: List[str]
    commitment_use: List[CommitmentUse]
    changes: List[str]
    future_count: int
    def summary(self) -> dict: ...
    def to_frame(self) -> Any: ...
    def monthly_bands(self) -> Any: ...

def evaluate_plan(plan: Plan, futures: DemandFutures, offering: Offering, *, prices: Optional[PricePaths] = None,
                  discounts: Optional[Discounts] = None, annual_discount_rate: float = 0.0,
                  threads: int = 0, exchange_rates: Optional[ExchangeRates] = None,
                  rate_date: Optional[str] = None, windows: Sequence[DemandWindow] = ...,
                  seed: int = 0) -> PlanDistribution: ...
def compare_plans(plans: Sequence[Plan], futures: DemandFutures, offering: Offering, *,
                  prices: Optional[PricePaths] = None, discounts: Optional[Discounts] = None,
                  annual_discount_rate: float = 0.0, threads: int = 0,
                  exchange_rates: Optional[ExchangeRates] = None,
                  rate_date: Optional[str] = None, windows: Sequence[DemandWindow] = ...,
                  seed: int = 0) -> List[PlanDistribution]: ...
class PlanOptions:
    discounts: Discounts
    annual_discount_rate: float
    threads: int
    windows: List[DemandWindow]
    seed: int  # draws flex-start grants per future
    def __init__(self, *, discounts: Optional[Discounts] = None, annual_discount_rate: float = 0.0, threads: int = 0,
                 exchange_rates: Optional[ExchangeRates] = None, rate_date: Optional[str] = None,
                 windows: Sequence[DemandWindow] = ..., seed: int = 0) -> None: ...

def hindsight_reservation_totals(futures: DemandFutures, offering: Offering, term_years: int, payment: str, *,
                                 prices: Optional[PricePaths] = None, discounts: Optional[Discounts] = None,
                                 annual_discount_rate: float = 0.0,
                                 threads: int = 0) -> Tuple[np.ndarray, np.ndarray]: ...

# recommending a plan
class CommitmentOption:
    term_years: int
    payment: str
    reservation_discount: Optional[float]
    discount: Optional[float]  # old spelling of reservation_discount, deprecated
    term_months: int  # 1, 3 or 6: a short term instead of term_years; 0: term_years
    def __init__(self, term_years: int, payment: str = "no_upfront", *, reservation_discount: Optional[float] = None,
                 discount: Optional[float] = None, term_months: int = 0) -> None: ...  # discount: old spelling, deprecated

class CapacityBlock:
    instances: int
    days: int
    start_day: int
    lead_days: int
    price_per_instance_hour: Optional[float]
    kind: str  # "aws_capacity_block" or "gcp_calendar_mode"
    usable_hours: float
    def __init__(self, *, instances: int, days: int, start_day: int, lead_days: int = 0,
                 price_per_instance_hour: Optional[float] = None, kind: str = "aws_capacity_block") -> None: ...

class FlexStartRequest:
    gpus: float
    start_day: float
    days: float  # (0, 7]
    discount: float  # off on demand, [0, 1)
    grant_probability: float  # (0, 1]
    max_days: float
    max_queue_hours: float
    def __init__(self, *, gpus: float, start_day: float, days: float, discount: float,
                 grant_probability: float) -> None: ...

class FlexStartOption:
    discount: float
    grant_probability: float
    def __init__(self, *, discount: float, grant_probability: float) -> None: ...

class ChangeOptions:
    resale_price_share: Optional[float]  # of the prorated upfront left, in [0, 1]; 12% fee kept by AWS
    exchange_into: List[CommitmentOption]  # AWS: same or higher payment option than the held one
    refund: bool
    azure_exchange_into: List[CommitmentOption]  # Azure: upfront left refunded, the new one bought in full
    def __init__(self, *, resale_price_share: Optional[float] = None,
                 exchange_into: Sequence[CommitmentOption] = ..., refund: bool = False,
                 azure_exchange_into: Sequence[CommitmentOption] = ...) -> None: ...

class CapacityBlockOption:
    lead_days: int
    price_per_instance_hour: Optional[float]
    kind: str  # "aws_capacity_block" or "gcp_calendar_mode" (price required)
    def __init__(self, *, lead_days: int = 0, price_per_instance_hour: Optional[float] = None,
                 kind: str = "aws_capacity_block") -> None: ...

class SavingsPlanOption:
    type: str
    term_years: int
    payment: str
    rate_per_gpu_hour: Optional[float]
    def __init__(self, type: str = "aws_compute", *, term_years: int = 1, payment: str = "no_upfront",
                 rate_per_gpu_hour: Optional[float] = None) -> None: ...

def provider_savings_plan_advice(window: Sequence[float], held_gpus: float, rate: float,
                                 on_demand_rate: float) -> float: ...

class SpotOption:
    name: str
    overhead: float
    availability: float
    price_per_gpu_hour: Optional[float]
    deadline_miss_probability: Optional[float]
    def __init__(self, name: str, *, overhead: float = 1.0, availability: float = 1.0,
                 price_per_gpu_hour: Optional[float] = None,
                 deadline_miss_probability: Optional[float] = None) -> None: ...
    @staticmethod
    def from_spot(simulated: SpotResult, job: Job, *, availability: float = 1.0, name: str = "spot") -> SpotOption: ...

class CandidateResult:
    spot_option: str
    excluded: str
    solver_objective: float
    engine_objective: float
    proven_optimal: bool
    plan: Plan
    capacity_assurance: float

class Recommendation:
    plan: Plan
    in_sample: PlanDistribution
    solver_objective: float
    proven_optimal: bool
    status: str
    candidates: List[CandidateResult]
    solve_seconds: float
    capacity_assurance: float  # expected share of demanded GPU-hours served by capacity that is there

class AssurancePoint:
    required: float
    feasible: bool
    mean: float  # mean, assurance: NaN when no plan meets the level
    assurance: float
    reason: str
    timed_out: bool
    gap: float
    plan: str
    recommended: Plan

def capacity_assurance(plan: Plan, futures: DemandFutures, offering: Offering, capacity: OnDemandCapacity, *,
                       prices: Optional[PricePaths] = None, options: PlanOptions = ...) -> float: ...

class FrontierPoint:
    cvar95_limit: float
    feasible: bool
    mean: float
    cvar95: float
    p95: float  # mean, cvar95, p95: NaN when no plan meets the limit
    reason: str  # why no plan meets it; "" when feasible
    plan: str
    recommended: Plan

class HindsightBound:
    totals: List[float]
    plans: List[Plan]
    exact: bool

class PolicyCosts:
    per_future: List[float]
    mean: float
    standard_error: float

class RollingReplan:
    plans: List[Plan]
    rolling: PolicyCosts
    static_recommendation: Plan
    static_plan: PolicyCosts
    hindsight: PolicyCosts
    hindsight_exact: bool
    saving: PolicyCosts
    solves: int

class OwnedOption:
    terms: Owned
    months: List[int]
    max_gpus: int
    step_gpus: int
    def __init__(self, terms: Owned, *, months: Sequence[int] = ..., max_gpus: int = 0, step_gpus: int = 1) -> None: ...

class RiskLimits:
    cvar95: Optional[float]
    upfront_per_period: Optional[float]
    upfront_period_months: int
    committed_share: Optional[float]
    deadline_miss_probability: Optional[float]
    capacity_assurance: Optional[float]
    def __init__(self, *, cvar95: Optional[float] = None, upfront_per_period: Optional[float] = None,
                 upfront_period_months: int = 3, committed_share: Optional[float] = None,
                 deadline_miss_probability: Optional[float] = None,
                 capacity_assurance: Optional[float] = None) -> None: ...

class RecommendOptions:
    commitments: List[CommitmentOption]
    start_months: List[int]
    review_months: int
    unit: str
    max_count: float
    spot: List[SpotOption]
    owned: Optional[OwnedOption]
    objective: str
    limits: RiskLimits
    plan_options: PlanOptions
    max_blocks: int
    time_limit_seconds: float
    savings_plans: List[SavingsPlanOption]
    held: List[HeldCommitment]
    on_demand_capacity: OnDemandCapacity
    capacity_blocks: Optional[CapacityBlockOption]
    flex_start: Optional[FlexStartOption]
    held_savings_plans: List[SavingsPlan]
    changes: ChangeOptions
    def __init__(self, *, commitments: Sequence[CommitmentOption] = ..., start_months: Sequence[int] = ...,
                 review_months: int = 6, unit: str = "gpus", max_count: float = 1e6,
                 spot: Sequence[SpotOption] = ..., owned: Optional[OwnedOption] = None, objective: str = "total",
                 limits: RiskLimits = ...,
                 plan_options: PlanOptions = ..., max_blocks: int = 32, time_limit_seconds: float = 60.0,
                 savings_plans: Sequence[SavingsPlanOption] = ...,
                 held: Sequence[HeldCommitment] = ...,
                 on_demand_capacity: Optional[OnDemandCapacity] = None,
                 capacity_blocks: Optional[CapacityBlockOption] = None,
                 flex_start: Optional[FlexStartOption] = None,
                 held_savings_plans: Sequence[SavingsPlan] = ...,
                 changes: Optional[ChangeOptions] = None) -> None: ...

# gputco/_recommend.py builds the options from keywords (recommend_plan, cost_risk_frontier, hindsight_plan_totals)
def _recommend_plan(futures: DemandFutures, offering: Offering, options: RecommendOptions,
                    prices: Optional[PricePaths] = None) -> Recommendation: ...
def _cost_risk_frontier(futures: DemandFutures, offering: Offering, cvar95_limits: Sequence[float],
                        options: RecommendOptions, prices: Optional[PricePaths] = None) -> List[FrontierPoint]: ...
def _capacity_assurance_frontier(futures: DemandFutures, offering: Offering, required: Sequence[float],
                                 options: RecommendOptions, prices: Optional[PricePaths] = None) -> List[AssurancePoint]: ...
def _hindsight_plan_totals(futures: DemandFutures, offering: Offering, options: RecommendOptions,
                           prices: Optional[PricePaths] = None) -> HindsightBound: ...
def _rolling_replan(fitted: DemandFutures, judged: DemandFutures, offering: Offering, options: RecommendOptions,
                    every_months: int, model: Optional[DemandModel], futures: int, seed: int) -> RollingReplan: ...
def baseline_plans(history: DemandProfile, offering: Offering, term_years: int, payment: str, *,
                   discounts: Optional[Discounts] = None, held: Sequence[HeldCommitment] = ...) -> List[Plan]: ...
def offering_for_baselines(offering: Offering, commitment: CommitmentOption) -> Offering: ...

# scenario files (gputco/_scenario.py wraps these)
def _scenario_canonical(text: str, file: str = "<scenario>") -> str: ...
def _price_model_yaml(model: PriceDynamics) -> str: ...
def _run_scenario(text: str, file: str = "<scenario>") -> tuple[list[dict], list[dict], list[dict], list[dict], list[dict]]: ...
def _run_scenario_services(text: str, file: str = "<scenario>") -> list[dict]: ...
def _run_scenario_recommend(text: str, file: str = "<scenario>") -> tuple[list[dict], list[dict], list[dict], Recommendation, PlanDistribution, list[Plan]] | None: ...
def _run_sweep_point(text: str, file: str = "<scenario>") -> list[dict]: ...
def _columns(result: Literal["strategies", "spot_jobs", "plans", "deadline_jobs", "workloads", "ranking"]) -> list[tuple[str, str, str]]: ...

# the HTML report (gputco/_report.py wraps it)
def _report_html(scenarios: list[tuple[str, str]], command: str, output: str = "") -> str: ...

# ---------------------------------------------------------------- bills (gputco/_bills.py wraps these)
class FinOpsFigures:
    list_cost: float
    contracted_cost: float
    effective_cost: float
    billed_cost: float
    used_commitment_cost: float
    unused_commitment_cost: float
    covered_list_cost: float
    eligible_list_cost: float
    rows: int
    commitment_utilisation: float
    coverage: float
    waste: float
    effective_savings_rate: float
    effective_by_pricing_category: dict[str, float]
    billed_by_charge_category: dict[str, float]

class GpuSeries:
    provider: str
    gpu: str
    instance_type: str
    region: str
    gpus_per_unit: int
    first_hour: int
    gpus: np.ndarray
    gpu_hours: float
    list_cost: float
    effective_cost: float
    gpu_hours_by_pricing_category: dict[str, float]
    effective_by_pricing_category: dict[str, float]
    effective_per_gpu_hour: float
    list_per_gpu_hour: float

class UnmatchedSku:
    sku_id: str
    name: str
    rows: int
    billed_cost: float
    effective_cost: float

class CommitmentSummary:
    id: str
    type: str
    used_cost: float
    unused_cost: float
    covered_list_cost: float
    purchase_billed: float
    first_start: int
    last_end: int
    utilisation: float

class ContractCommitment:
    row: int
    id: str
    contract_id: str
    category: str
    type: str
    description: str
    unit: str
    currency: str
    period_start: int
    period_end: int
    contract_period_start: int
    contract_period_end: int
    cost: Optional[float]
    quantity: Optional[float]

def _read_contract_commitments(path: str) -> List[ContractCommitment]: ...
def _contract_commitments_from_rows(file: str, header: Sequence[str],
                                    rows: Sequence[Sequence[str]]) -> List[ContractCommitment]: ...
CONTRACT_COMMITMENT_COLUMNS: Tuple[str, ...]

class Bill:
    commitments: List[CommitmentSummary]
    file: str
    version: str
    currency: str
    rows_read: int
    gpu_rows: int
    series: List[GpuSeries]
    unmatched: List[UnmatchedSku]
    figures: FinOpsFigures
    gpu_figures: FinOpsFigures
    contract_commitments: List[ContractCommitment]
    def demand(self, gpu: str = "") -> DemandProfile: ...
    def demand_hours(self, gpu: str = "") -> Tuple[int, int]: ...

def _read_bill(path: str, catalog: Catalog, version: Optional[str], window_start: Optional[int],
               window_end: Optional[int], sku_instance_types: dict[str, str], max_row_bytes: int,
               max_series: int) -> Bill: ...
def _bill_from_rows(file: str, header: Sequence[str], rows: Sequence[Sequence[str]], catalog: Catalog,
                    version: Optional[str], window_start: Optional[int], window_end: Optional[int],
                    sku_instance_types: dict[str, str], max_row_bytes: int, max_series: int) -> Bill: ...

class _BillStream:
    def __init__(self, file: str, catalog: Catalog, version: Optional[str], window_start: Optional[int],
                 window_end: Optional[int], sku_instance_types: dict[str, str], max_row_bytes: int,
                 max_series: int) -> None: ...
    def feed(self, chunk: bytes) -> None: ...
    def finish(self) -> Bill: ...

def at_bill_rates(offering: Offering, bill: Bill, series: GpuSeries) -> Offering: ...

FOCUS_DEFAULT_MAX_ROW_BYTES: int
FOCUS_GROUPED_COLUMNS: tuple[str, ...]
FOCUS_SUMMED_COLUMNS: tuple[str, ...]
BILL_DEFAULT_MAX_SERIES: int
FOCUS_REQUIRED_COLUMNS: dict[str, List[str]]

# The stochastic price model (catalog/price_dynamics.hpp, catalog/price_fit.hpp).
class LogPriceProcess:
    reversion: float
    volatility: float
    drift: float
    jump_rate: float
    jump_mean: float
    jump_sd: float
    def __init__(self, *, reversion: float = ..., volatility: float = ..., drift: float = ..., jump_rate: float = ...,
                 jump_mean: float = ..., jump_sd: float = ...) -> None: ...
    def to_dict(self) -> dict[str, float]: ...

class PriceDynamics:
    on_demand: LogPriceProcess
    spot_spread: LogPriceProcess
    spot_correlation: float
    reserved_1y_spread: LogPriceProcess
    reserved_3y_spread: LogPriceProcess
    launches: List[GenerationLaunch]
    def __init__(self, *, on_demand: LogPriceProcess = ..., spot_spread: LogPriceProcess = ...,
                 spot_correlation: float = ..., reserved_1y_spread: LogPriceProcess = ...,
                 reserved_3y_spread: LogPriceProcess = ..., launches: List[GenerationLaunch] = ...) -> None: ...

def simulate_price_paths(dynamics: PriceDynamics, horizon: Horizon, futures: int, seed: int, *, term_years: int = ...,
                         threads: int = ...) -> PricePaths: ...
def simulate_log_prices(process: LogPriceProcess, months: int, paths: int, seed: int, *,
                        initial_deviation: float = ...) -> np.ndarray: ...
def implied_forward_hourly(one_year_hourly: float, three_year_hourly: float) -> float: ...

class ProcessFit:
    process: LogPriceProcess
    standard_error: LogPriceProcess
    log_likelihood: float
    transitions: int
    series: int

def fit_log_price_process(series: List[List[float]], *, min_volatility: float = ..., max_jumps_per_month: int = ...,
                          jumps: bool = ..., max_iterations: int = ...,
                          fixed_reversion: Optional[float] = ...) -> ProcessFit: ...

class PriceRecord:
    series: str
    date: str
    price: float
    gpu: str
    option: str
    source: str

def read_price_history_csv(path: str) -> List[PriceRecord]: ...

class DynamicsFit:
    dynamics: PriceDynamics
    on_demand: ProcessFit
    spot_spread: ProcessFit
    reserved_1y_spread: ProcessFit
    reserved_3y_spread: ProcessFit
    spot_correlation_standard_error: float
    notes: List[str]

def fit_price_dynamics(records: List[PriceRecord], gpu: str, *, until: Optional[str] = ..., min_volatility: float = ...,
                       max_jumps_per_month: int = ..., max_iterations: int = ...) -> DynamicsFit: ...

# The recommendation study and bill-to-plan path (app/recommend_study.hpp, app/bill_plan.hpp): rows in the
# library's column lists (_columns("recommend_summary"), ...), rendered as DataFrames by gputco/_recommend.py
# and gputco/_bills.py.
def _run_recommend_study(futures: DemandFutures, offering: Offering, options: RecommendOptions,
                         prices: Optional[PricePaths] = None, held_out: Optional[DemandFutures] = None,
                         held_out_prices: Optional[PricePaths] = None, history: Optional[DemandProfile] = None,
                         baseline_term_years: Optional[int] = None, baseline_payment: Optional[str] = None,
                         hindsight_bound: bool = False, cvar95_limits: Sequence[float] = ...,
                         progress: Optional[Callable[[int, int], None]] = None) -> tuple: ...
def _recommend_from_bill(bill: Bill, offering: Offering, options: RecommendOptions, *, gpu: str = "",
                         horizon_months: int = 36, futures: int = 200, held_out: int = 400, seed: int = 1,
                         bill_rates: bool = False, baseline_term_years: int = 1,
                         baseline_payment: str = "all_upfront", hindsight_bound: bool = False,
                         cvar95_limits: Sequence[float] = ..., held_from_bill: bool = True,
                         held_term_years: int = 1, progress: Optional[Callable[[int, int], None]] = None) -> tuple: ...
def _bill_tables(bill: Bill) -> Dict[str, List[Dict[str, Any]]]: ...
def _bill_series_of(bill: Bill, offering: Offering) -> GpuSeries: ...
def _sweep_summary_rows(sweep: WindowSweep) -> List[Dict[str, Any]]: ...
