"""gputco.recommend: the recommended plan, its distribution, the cost-risk frontier and the baselines."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Sequence

from . import _core
from ._core import PlanOptions, RecommendOptions, RiskLimits
from ._frames import Column, declare, frame, TEXT

__all__ = ["RecommendResult", "cost_risk_frontier", "hindsight_plan_totals", "recommend", "recommend_options",
           "recommend_plan"]

BASELINES_VIEW = declare("RecommendResult.baselines", [
    "mean", "standard_error", "p95", "cvar95", "regret_mean", "regret_p95", "best_fraction"],
    index=Column("plan", TEXT), extra="float64")  # + regret_vs_bound_mean, _p95 with hindsight_bound
SUMMARY_VIEW = declare("RecommendResult.summary", [
    "in_sample_mean", "in_sample_p95", "in_sample_cvar95", "held_out_mean", "held_out_standard_error",
    "held_out_p95", "held_out_cvar95", "solver_objective", Column("proven_optimal", "bool"), Column("status", TEXT),
    "solve_seconds", Column("held_out_prices", TEXT), "held_out_cvar95_standard_error",
    Column("held_out_meets_cvar95_limit", "bool")], index=Column("plan", TEXT))
FRONTIER_VIEW = declare("RecommendResult.frontier", [
    "cvar95_limit", Column("feasible", "bool"), "mean", "cvar95", "p95", Column("plan", TEXT), Column("reason", TEXT),
    Column("timed_out", "bool"), "gap"],
    extra="float64")  # + held_out_mean, held_out_cvar95 with held_out


def recommend_options(*, commitments=(), start_months=(), review_months: int = 6, unit: str = "gpus",
                      max_count: float = 1e6, spot=(), owned=None, objective: str = "total",
                      cvar95_limit: Optional[float] = None, upfront_per_period: Optional[float] = None,
                      upfront_period_months: int = 3, committed_share: Optional[float] = None,
                      deadline_miss_probability_limit: Optional[float] = None, discounts=None, annual_discount_rate: float = 0.0, threads: int = 0, max_blocks: int = 32,
                      time_limit_seconds: float = 60.0) -> RecommendOptions:
    """A RecommendOptions from the keywords of recommend_plan (limits and plan options flattened)."""
    limits = RiskLimits(cvar95=cvar95_limit, upfront_per_period=upfront_per_period,
                        upfront_period_months=upfront_period_months, committed_share=committed_share,
                        deadline_miss_probability=deadline_miss_probability_limit)
    plan_options = PlanOptions(discounts=discounts, annual_discount_rate=annual_discount_rate, threads=threads)
    return RecommendOptions(commitments=list(commitments), start_months=list(start_months),
                            review_months=review_months, unit=unit, max_count=max_count, spot=list(spot),
                            owned=owned, objective=objective, limits=limits, plan_options=plan_options, max_blocks=max_blocks,
                            time_limit_seconds=time_limit_seconds)


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
    annual_discount_rate, threads, max_blocks, time_limit_seconds). Spot options whose
    deadline_miss_probability is above deadline_miss_probability_limit (or not given) are not tried:
    `candidates` and `status` say which. Releases the GIL; Ctrl-C stops it (KeyboardInterrupt)."""
    return _core._recommend_plan(futures, offering, _options(options, keywords), prices)


def cost_risk_frontier(futures, offering, cvar95_limits: Sequence[float],
                       options: Optional[RecommendOptions] = None, *, prices=None, **keywords):
    """The recommendation under each CVaR95 limit (infeasible limits marked); options as recommend_plan's."""
    return _core._cost_risk_frontier(futures, offering, list(cvar95_limits), _options(options, keywords), prices)


def hindsight_plan_totals(futures, offering, options: Optional[RecommendOptions] = None, *, prices=None,
                          **keywords):
    """Each future's own optimum over the same decision, limits dropped: a lower bound, not a plan to
    buy; options as recommend_plan's. Releases the GIL; Ctrl-C stops it (KeyboardInterrupt)."""
    return _core._hindsight_plan_totals(futures, offering, _options(options, keywords), prices)


@dataclass
class RecommendResult:
    """What recommend() returns. DataFrames are pandas; `recommendation` is the C++ result."""

    plan: Any                # the recommended gputco.Plan
    recommendation: Any      # gputco.Recommendation (in-sample distribution, solver status, candidates)
    distribution: Any        # one row per held-out future (or per fitted future without held_out)
    summary: Any             # one row: mean, P95, CVaR95 in and out of sample, solver status
    frontier: Any            # one row per CVaR95 limit (empty without cvar95_limits)
    baselines: Any           # one row per plan on the held-out futures: mean, P95, CVaR95, regret


def _held_out_prices(held_out, held_out_prices, prices):
    """The prices a plan is judged at, and which they are: `held_out_prices` when given, else the prices
    it was fitted to (a plan fitted to a price cut is judged with the cut), else list prices."""
    if held_out is None:
        return prices, "fitted prices" if prices is not None else "list prices"
    if held_out_prices is not None:
        return held_out_prices, "held_out_prices"
    if prices is None:
        return None, "list prices"
    paths = prices.on_demand.shape[1]
    if paths != 1 and paths != held_out.count:
        raise ValueError(f"held_out_prices = None: the fitted prices have {paths} paths, one per fitted future, and "
                         f"held_out has {held_out.count} futures; give held_out_prices (price_paths for "
                         f"{held_out.count} futures) or one shared path")
    return prices, "fitted prices"


def recommend(futures, offering, *, held_out=None, held_out_prices=None, history=None,
              baseline_term_years: Optional[int] = None, baseline_payment: Optional[str] = None,
              cvar95_limits: Optional[Sequence[float]] = None, hindsight_bound: bool = False,
              options: Optional[RecommendOptions] = None, prices=None, **keywords) -> RecommendResult:
    """The plan of least expected cost over `futures` (and `prices`) within the limits in `options`
    (a RecommendOptions, or the keyword arguments of recommend_plan: commitments, start_months,
    review_months, spot, cvar95_limit, upfront_per_period, committed_share, discounts, ...).

    With `held_out` (fresh futures of the same model) the plan is judged there, at `held_out_prices`,
    or else at the `prices` it was fitted to (summary column held_out_prices says which), beside the baselines:
    all on demand, provider-style lookback advice (7/30/60 days of `history`) and the newsvendor on
    `history` (both for `baseline_term_years` / `baseline_payment`), and the best of those plans in
    hindsight per future (regret). `cvar95_limits` gives the frontier (in sample, and on `held_out`
    when given: columns held_out_mean, held_out_cvar95). With `hindsight_bound=True` each judged
    future's own optimum over the same decision is solved too (hindsight_plan_totals, one small MIP a
    future): a lower bound on every plan, added as the last row, and regret_vs_bound_mean / _p95
    columns measure each plan against it."""
    options = _options(options, keywords)
    rec = recommend_plan(futures, offering, options, prices=prices)
    # The baselines buy what the options allow, at the same prices (gputco/app/study.hpp).
    first = options.commitments[0] if options.commitments else None
    if baseline_term_years is None:
        baseline_term_years = first.term_years if first is not None else 1
    if baseline_payment is None:
        baseline_payment = first.payment if first is not None else "all_upfront"
    if first is not None and first.term_years == baseline_term_years and first.payment == baseline_payment:
        offering = _core.offering_for_baselines(offering, first)
    plan = rec.plan
    eval_kw = {"discounts": options.plan_options.discounts,
               "annual_discount_rate": options.plan_options.annual_discount_rate,
               "threads": options.plan_options.threads}
    judged_on = held_out if held_out is not None else futures
    judged_prices, prices_used = _held_out_prices(held_out, held_out_prices, prices)

    plans = [plan]
    if history is not None:
        plans += [p for p in _core.baseline_plans(history, offering, baseline_term_years, baseline_payment,
                                                  discounts=options.plan_options.discounts)]
    else:
        on_demand = _core.Plan([], name="all on demand")
        plans.append(on_demand)
    results = _core.compare_plans(plans, judged_on, offering, prices=judged_prices, **eval_kw)
    rows = []
    for r in results:
        rows.append({"plan": r.plan, "mean": r.total.mean, "standard_error": r.total.standard_error,
                     "p95": r.total.p95, "cvar95": r.total.cvar95, "regret_mean": r.regret.mean,
                     "regret_p95": r.regret.p95, "best_fraction": r.best_fraction})
    # The best reservation level of the baseline term in hindsight, future by future (a real optimum
    # of that family: no plan of it beats it in any future).
    import numpy as np
    hindsight, _ = _core.hindsight_reservation_totals(judged_on, offering, baseline_term_years, baseline_payment,
                                                      prices=judged_prices, **eval_kw)
    h = _core.distribution_of(list(np.asarray(hindsight)))
    rows.append({"plan": f"best in hindsight: {baseline_term_years}y {baseline_payment} level per future",
                 "mean": h.mean, "standard_error": h.standard_error, "p95": h.p95, "cvar95": h.cvar95,
                 "regret_mean": float("nan"), "regret_p95": float("nan"), "best_fraction": float("nan")})
    if hindsight_bound:
        bound = hindsight_plan_totals(judged_on, offering, options, prices=judged_prices)
        totals = np.asarray(bound.totals)
        measure = options.objective  # the bound's measure: "total" or "npv"
        for row, r in zip(rows, results):
            gap = r.to_frame()[measure].to_numpy() - totals
            row["regret_vs_bound_mean"] = float(gap.mean())
            row["regret_vs_bound_p95"] = float(np.quantile(gap, 0.95))
        if measure == "total":  # the one-family optimum: inside the decision when its renewals are allowed starts
            gap = np.asarray(hindsight) - totals
            rows[-1]["regret_vs_bound_mean"] = float(gap.mean())
            rows[-1]["regret_vs_bound_p95"] = float(np.quantile(gap, 0.95))
        b = _core.distribution_of(list(totals))
        rows.append({"plan": "best plan in hindsight per future (a lower bound)" + ("" if bound.exact else ", not proven"),
                     "mean": b.mean, "standard_error": b.standard_error, "p95": b.p95, "cvar95": b.cvar95,
                     "regret_mean": float("nan"), "regret_p95": float("nan"), "best_fraction": float("nan"),
                     "regret_vs_bound_mean": 0.0, "regret_vs_bound_p95": 0.0})
    bound_columns = ["regret_vs_bound_mean", "regret_vs_bound_p95"] if hindsight_bound else []
    for row in rows:  # no regret against the bound where it is not measured (hindsight row with npv)
        for column in bound_columns:
            row.setdefault(column, float("nan"))
    baselines = frame(BASELINES_VIEW, rows, extra=bound_columns)
    out = results[0]
    limit = options.limits.cvar95
    risk = (_core.check_risk(out, limit if limit is not None else float("inf"), objective="expected_total")
            if len(out.to_frame()) >= 2 else None)
    summary = frame(SUMMARY_VIEW, [{
        "plan": str(plan),
        "in_sample_mean": rec.in_sample.total.mean, "in_sample_p95": rec.in_sample.total.p95,
        "in_sample_cvar95": rec.in_sample.total.cvar95,
        "held_out_mean": out.total.mean, "held_out_standard_error": out.total.standard_error,
        "held_out_p95": out.total.p95, "held_out_cvar95": out.total.cvar95,
        "solver_objective": rec.solver_objective, "proven_optimal": rec.proven_optimal, "status": rec.status,
        "solve_seconds": rec.solve_seconds, "held_out_prices": prices_used,
        # Under a CVaR95 limit: does the held-out figure keep it at 95% confidence (always False without one)?
        "held_out_cvar95_standard_error": risk.cvar95_standard_error if risk else float("nan"),
        "held_out_meets_cvar95_limit": bool(risk.meets_limit) if risk and limit is not None else False,
    }])
    if cvar95_limits:
        points = cost_risk_frontier(futures, offering, cvar95_limits, options, prices=prices)
        frontier_rows = []
        for p in points:
            row = {"cvar95_limit": p.cvar95_limit, "feasible": p.feasible, "mean": p.mean, "cvar95": p.cvar95,
                   "p95": p.p95, "plan": p.plan, "reason": p.reason,  # infeasible: NaN figures and why
                   "timed_out": p.timed_out, "gap": p.gap}  # at the time limit: the best plan found and its gap
            if held_out is not None:
                judged = (_core.evaluate_plan(p.recommended, held_out, offering, prices=judged_prices, **eval_kw)
                          if p.feasible else None)
                row["held_out_mean"] = judged.total.mean if judged else float("nan")
                row["held_out_cvar95"] = judged.total.cvar95 if judged else float("nan")
            frontier_rows.append(row)
        frontier = frame(FRONTIER_VIEW, frontier_rows,
                         extra=["held_out_mean", "held_out_cvar95"] if held_out is not None else [])
    else:
        frontier = frame(FRONTIER_VIEW, [])
    return RecommendResult(plan=plan, recommendation=rec, distribution=out.to_frame(), summary=summary,
                           frontier=frontier, baselines=baselines)
