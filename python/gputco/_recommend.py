"""gputco.recommend: the recommended plan, its distribution, the cost-risk frontier and the baselines."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Sequence

from . import _core
from ._core import PlanOptions, RecommendOptions, RiskLimits
from ._frames import Column, declare, frame, TEXT
from ._progress import Report

__all__ = ["RecommendResult", "capacity_assurance_frontier", "cost_risk_frontier", "hindsight_plan_totals", "recommend", "recommend_options", "rolling_replan",
           "recommend_plan"]

def _view(name: str, result: str, index: Optional[str] = None):
    """A frame declared from the library's own column list for that result (app/recommend_study.hpp),
    indexed by `index` when given."""
    columns = [Column(n, TEXT if dtype == "object" else dtype) for n, _unit, dtype in _core._columns(result)]
    return declare(name, [c for c in columns if c.name != index],
                   index=next((c for c in columns if c.name == index), None))


SUMMARY_VIEW = _view("RecommendResult.summary", "recommend_summary", index="plan")
BASELINES_VIEW = _view("RecommendResult.baselines", "recommend_baselines", index="plan")
FRONTIER_VIEW = _view("RecommendResult.frontier", "recommend_frontier")


def recommend_options(*, commitments=(), start_months=(), review_months: int = 6, unit: str = "gpus",
                      max_count: float = 1e6, spot=(), owned=None, objective: str = "total",
                      cvar95_limit: Optional[float] = None, upfront_per_period: Optional[float] = None,
                      upfront_period_months: int = 3, committed_share: Optional[float] = None,
                      deadline_miss_probability_limit: Optional[float] = None, discounts=None, annual_discount_rate: float = 0.0, threads: int = 0, max_blocks: int = 32,
                      time_limit_seconds: float = 60.0, savings_plans=(), held=(),
                      capacity_assurance: Optional[float] = None, on_demand_capacity=None,
                      windows=(), capacity_blocks=None, flex_start=None, seed: int = 0, held_savings_plans=(),
                      changes=None) -> RecommendOptions:
    """A RecommendOptions from the keywords of recommend_plan (limits and plan options flattened)."""
    limits = RiskLimits(cvar95=cvar95_limit, upfront_per_period=upfront_per_period,
                        upfront_period_months=upfront_period_months, committed_share=committed_share,
                        deadline_miss_probability=deadline_miss_probability_limit,
                        capacity_assurance=capacity_assurance)
    plan_options = PlanOptions(discounts=discounts, annual_discount_rate=annual_discount_rate, threads=threads,
                               windows=list(windows), seed=seed)
    return RecommendOptions(commitments=list(commitments), start_months=list(start_months),
                            review_months=review_months, unit=unit, max_count=max_count, spot=list(spot),
                            owned=owned, objective=objective, limits=limits, plan_options=plan_options, max_blocks=max_blocks,
                            time_limit_seconds=time_limit_seconds, savings_plans=list(savings_plans),
                            held=list(held), on_demand_capacity=on_demand_capacity,
                            capacity_blocks=capacity_blocks, flex_start=flex_start,
                            held_savings_plans=list(held_savings_plans), changes=changes)


def _options(options: Optional[RecommendOptions], keywords: dict) -> RecommendOptions:
    """`options`, or one built from `keywords`; not both."""
    if options is None:
        return recommend_options(**keywords)
    if not isinstance(options, RecommendOptions):
        raise TypeError(f"options = {options!r}: must be RecommendOptions, not {type(options).__name__}")
    if keywords:
        raise TypeError(f"{sorted(keywords)[0]} = {keywords[sorted(keywords)[0]]!r}: give either options or "
                        "keywords, not both")
    return options


def recommend_plan(futures, offering, options: Optional[RecommendOptions] = None, *, prices=None, **keywords):
    """The plan of least expected cost over the futures within the limits (a MIP solved by COIN-OR CBC).

    Takes a RecommendOptions, or the keywords of recommend_options (commitments, start_months,
    review_months, unit, max_count, spot, owned (an OwnedOption), objective, cvar95_limit, upfront_per_period,
    upfront_period_months, committed_share, deadline_miss_probability_limit, discounts,
    annual_discount_rate, threads, max_blocks, time_limit_seconds, capacity_assurance (the least share of
    demanded GPU-hours served by capacity that is there) with on_demand_capacity (an OnDemandCapacity), windows
    (DemandWindows on top of every future) with capacity_blocks (a CapacityBlockOption: blocks for them) and
    flex_start (a FlexStartOption: requests for them, granted per future from `seed`), held (HeldCommitments
    every plan holds) and held_savings_plans (SavingsPlans with start_month < 0) with changes (a
    ChangeOptions: sell, exchange or refund what is held where it pays), and
    CommitmentOption(term_months=1, 3 or 6) for short terms). Spot options whose
    deadline_miss_probability is above deadline_miss_probability_limit (or not given) are not tried:
    `candidates` and `status` say which. Releases the GIL; Ctrl-C stops it (KeyboardInterrupt)."""
    return _core._recommend_plan(futures, offering, _options(options, keywords), prices)


def cost_risk_frontier(futures, offering, cvar95_limits: Sequence[float],
                       options: Optional[RecommendOptions] = None, *, prices=None, **keywords):
    """The recommendation under each CVaR95 limit (infeasible limits marked); options as recommend_plan's."""
    return _core._cost_risk_frontier(futures, offering, list(cvar95_limits), _options(options, keywords), prices)


def capacity_assurance_frontier(futures, offering, required: Sequence[float],
                                options: Optional[RecommendOptions] = None, *, prices=None, **keywords):
    """Price against assurance: for each level in `required`, the cheapest plan whose capacity assurance
    (the expected share of demanded GPU-hours served by capacity that is there, with on-demand missing
    `on_demand_capacity.unavailable_share` of the time) is at least it; levels no plan meets marked.
    Options as recommend_plan's (give on_demand_capacity=gputco.OnDemandCapacity(...))."""
    return _core._capacity_assurance_frontier(futures, offering, list(required), _options(options, keywords), prices)


def hindsight_plan_totals(futures, offering, options: Optional[RecommendOptions] = None, *, prices=None,
                          **keywords):
    """Each future's own optimum over the same decision, limits dropped: a lower bound, not a plan to
    buy; options as recommend_plan's. Releases the GIL; Ctrl-C stops it (KeyboardInterrupt)."""
    return _core._hindsight_plan_totals(futures, offering, _options(options, keywords), prices)


def rolling_replan(fitted, judged, offering, options: Optional[RecommendOptions] = None, *, every_months: int = 3,
                   model=None, futures: int = 100, seed: int = 1, **keywords):
    """The rolling policy on `judged`: re-solve every `every_months` months with what is held and futures
    drawn from `model` restarted at the level seen (docs/models.md, "Re-planning"), each future's plan
    priced by the plan engine, beside the static recommendation (fitted on `fitted`) and the hindsight
    bound; options as recommend_plan's (reservations only, no risk limits). Ctrl-C stops it."""
    return _core._rolling_replan(fitted, judged, offering, _options(options, keywords), every_months, model, futures,
                                 seed)


@dataclass
class RecommendResult:
    """What recommend() returns. DataFrames are pandas; `recommendation` is the C++ result."""

    plan: Any                # the recommended gputco.Plan
    recommendation: Any      # gputco.Recommendation (in-sample distribution, solver status, candidates)
    distribution: Any        # one row per held-out future (or per fitted future without held_out)
    summary: Any             # one row: mean, P95, CVaR95 in and out of sample, solver status
    frontier: Any            # one row per CVaR95 limit (empty without cvar95_limits)
    baselines: Any           # one row per plan on the held-out futures: mean, P95, CVaR95, regret


def _study_result(study) -> RecommendResult:
    summary, baselines, frontier, rec, judged, _plans = study
    return RecommendResult(plan=rec.plan, recommendation=rec, distribution=judged.to_frame(),
                           summary=frame(SUMMARY_VIEW, summary), frontier=frame(FRONTIER_VIEW, frontier),
                           baselines=frame(BASELINES_VIEW, baselines))


def recommend(futures, offering, *, held_out=None, held_out_prices=None, history=None,
              baseline_term_years: Optional[int] = None, baseline_payment: Optional[str] = None,
              cvar95_limits: Optional[Sequence[float]] = None, hindsight_bound: bool = False,
              options: Optional[RecommendOptions] = None, prices=None, **keywords) -> RecommendResult:
    """The plan of least expected cost over `futures` (and `prices`) within the limits in `options`
    (a RecommendOptions, or the keyword arguments of recommend_plan: commitments, start_months,
    review_months, spot, cvar95_limit, upfront_per_period, committed_share, discounts, ...).

    With `held_out` (fresh futures of the same model) the plan is judged there, at `held_out_prices`
    or, when not given, at the prices it was fitted to (the summary's judged_prices says which),
    beside the baselines: all on demand, provider-style lookback advice (7/30/60 days of `history`)
    and the newsvendor on `history` (both for `baseline_term_years` / `baseline_payment`), and the
    best of those plans in hindsight per future (regret). `cvar95_limits` gives the frontier (in
    sample, and on `held_out` when given: held_out_mean, held_out_cvar95). With `hindsight_bound=True`
    each judged future's own optimum over the same decision is solved too (hindsight_plan_totals, one
    small MIP a future): a lower bound on every plan, added as the last row, and regret_vs_bound_mean
    / _p95 measure each plan against it. The study runs in C++ (the same as `gputco recommend`);
    Releases the GIL; Ctrl-C stops it (KeyboardInterrupt)."""
    options = _options(options, keywords)
    with Report("recommend", "futures") as report:  # shown in Jupyter and on a terminal only
        summary, baselines, frontier, rec, judged, _plans = _core._run_recommend_study(
            futures, offering, options, prices=prices, held_out=held_out, held_out_prices=held_out_prices,
            history=history, baseline_term_years=baseline_term_years, baseline_payment=baseline_payment,
            hindsight_bound=hindsight_bound, cvar95_limits=list(cvar95_limits or []), progress=report)
    return _study_result((summary, baselines, frontier, rec, judged, _plans))
