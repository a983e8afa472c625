"""Renamed keywords (each meaning of "discount" has its own name, docs/models.md section 1): the old
spelling is still accepted, with a DeprecationWarning, and gives the same object; both at once is a
ValueError naming both."""
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BOTH = "discount = 0.3: the old spelling of reservation_discount, which is given too: give one of them"


def test_reserved_takes_reservation_discount_or_its_old_spelling(gputco):
    new = gputco.Reserved(term_years=1, reservation_discount=0.3)
    with pytest.warns(DeprecationWarning, match="^discount is the old spelling of reservation_discount$"):
        old = gputco.Reserved(term_years=1, discount=0.3)
    assert old.reservation_discount == new.reservation_discount == 0.3
    with pytest.warns(DeprecationWarning):
        assert new.discount == 0.3
    a100 = gputco.catalog().offering("azure", "Standard_ND96asr_v4", "eastus")
    demand = gputco.DemandProfile.constant(8, gputco.Horizon.months(12))
    assert gputco.evaluate(old, demand, a100).total == gputco.evaluate(new, demand, a100).total
    with pytest.raises(ValueError) as e:
        gputco.Reserved(term_years=1, reservation_discount=0.3, discount=0.3)
    assert str(e.value) == BOTH


def test_commitment_and_commitment_option_take_the_new_name_or_the_old(gputco):
    with pytest.warns(DeprecationWarning):
        old = gputco.Commitment(8, discount=0.3)
    assert old.reservation_discount == gputco.Commitment(8, reservation_discount=0.3).reservation_discount == 0.3
    with pytest.raises(ValueError) as e:
        gputco.Commitment(8, discount=0.3, reservation_discount=0.2)
    assert str(e.value) == BOTH
    with pytest.warns(DeprecationWarning):
        option = gputco.CommitmentOption(1, "all_upfront", discount=0.3)
    assert option.reservation_discount == 0.3
    with pytest.raises(ValueError) as e:
        gputco.CommitmentOption(1, discount=0.3, reservation_discount=0.3)
    assert str(e.value) == BOTH


def test_a_scenario_file_with_the_old_spelling_gives_the_same_figures(gputco, tmp_path):
    text = (ROOT / "examples/scenarios/a100_three_year.yaml").read_text()
    assert "reservation_discount: 0.52" in text
    old = tmp_path / "old.yaml"
    old.write_text(text.replace("reservation_discount:", "discount:"))
    new = tmp_path / "new.yaml"
    new.write_text(text)
    assert gputco.run_scenario(old).equals(gputco.run_scenario(new))
    both = tmp_path / "both.yaml"
    both.write_text(text.replace("reservation_discount: 0.52}", "reservation_discount: 0.52, discount: 0.52}", 1))
    with pytest.raises(ValueError, match=r"strategies\[1\]\.reserved\.discount = 0\.52: the old spelling of "
                                         r"reservation_discount, which is given too: give one of them$"):
        gputco.load_scenario(both)


def test_discounts_take_on_demand_discount_or_its_old_spelling(gputco):
    with pytest.warns(DeprecationWarning, match="^plan_discount is the old spelling of on_demand_discount$"):
        old = gputco.Discounts(plan_discount=0.3, free_gpu_hours=10)
    new = gputco.Discounts(on_demand_discount=0.3, free_gpu_hours=10)
    assert old.on_demand_discount == new.on_demand_discount == 0.3
    assert repr(old) == repr(new)
    assert gputco.Discounts().on_demand_discount == 0.0
    with pytest.warns(DeprecationWarning):
        assert new.plan_discount == 0.3
    with pytest.raises(ValueError) as e:
        gputco.Discounts(on_demand_discount=0.3, plan_discount=0.3)
    assert str(e.value) == ("plan_discount = 0.3: the old spelling of on_demand_discount, which is given too: "
                            "give one of them")
    with pytest.raises(ValueError, match=r"^discounts\.on_demand_discount = 1: must be in \[0, 1\)$"):
        with pytest.warns(DeprecationWarning):
            gputco.Discounts(plan_discount=1.0)


def test_an_old_spelling_outside_pytest_warns_fails_the_test(gputco):
    # pyproject.toml's filterwarnings: no test can go back to an old spelling unnoticed.
    with pytest.raises(DeprecationWarning, match="^plan_discount is the old spelling of on_demand_discount$"):
        gputco.Discounts(plan_discount=0.3)
    with pytest.raises(DeprecationWarning, match="^discount is the old spelling of reservation_discount$"):
        gputco.Reserved(term_years=1, discount=0.3)
