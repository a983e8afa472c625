"""Closed forms against the reference values of docs/models.md, section 3 (Daly 2006)."""
import math

import pytest

import gputco

DELTA = 5 / 60  # checkpoint write, hours


@pytest.mark.parametrize(
    "mtbf, exact_minutes, young_minutes",
    [(24.0, 116.69, 120.00), (6.0, 56.71, 60.00), (0.25, 9.17, 12.25)],
)
def test_optimal_interval_reference_values(mtbf, exact_minutes, young_minutes):
    assert gputco.optimal_checkpoint_interval(DELTA, mtbf) * 60 == pytest.approx(exact_minutes, abs=0.005)
    assert gputco.optimal_checkpoint_interval(DELTA, mtbf, method="exact") * 60 == pytest.approx(
        exact_minutes, abs=0.005)
    assert gputco.optimal_checkpoint_interval(DELTA, mtbf, "young") * 60 == pytest.approx(young_minutes, abs=0.005)


def test_daly_approximation_close_to_exact():
    assert gputco.optimal_checkpoint_interval(DELTA, 0.25, method="daly") * 60 == pytest.approx(9.14, abs=0.005)
    assert gputco.optimal_checkpoint_interval(
        checkpoint_write_hours=DELTA, mtbf_hours=24, method="daly") == pytest.approx(
        gputco.optimal_checkpoint_interval(DELTA, 24), rel=1e-4)


def test_expected_spot_time_whole_segments():
    # W = k tau: E[T] = k M e^{R/M} (e^{(tau + delta)/M} - 1); E[N] = E[T] / M; wall adds D per interruption.
    work, tau, restart, mtbf, wait = 500.0, 2.0, 10 / 60, 24.0, 0.5
    t = gputco.expected_spot_time(work, tau, DELTA, restart, mtbf, capacity_wait_hours=wait)
    k = work / tau
    billed = k * mtbf * math.exp(restart / mtbf) * math.expm1((tau + DELTA) / mtbf)
    assert t.billed_hours == pytest.approx(billed, rel=1e-12)
    assert t.interruptions == pytest.approx(billed / mtbf, rel=1e-12)
    assert t.wall_hours == pytest.approx(billed + wait * t.interruptions, rel=1e-12)
    assert t._asdict() == {"billed_hours": t.billed_hours, "wall_hours": t.wall_hours,
                           "interruptions": t.interruptions}


def test_segment_count():
    assert gputco.segment_count(500, 2) == 250
    assert gputco.segment_count(501, 2) == 251
