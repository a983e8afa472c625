"""The bill-to-plan notebook runs top to bottom on the checked-in quarter's bill (a failing cell fails the
test) and draws its plots."""
import pathlib

import pytest

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"


def test_bill_notebook_executes(run_notebook, monkeypatch):
    monkeypatch.setenv("GPUTCO_EXAMPLE_DATA", str(EXAMPLES / "data"))  # the kernel runs in tmp_path
    outputs = run_notebook("bill_to_plan.ipynb")
    # The history, the fitted futures' fan and the plan's cost fan.
    assert sum("image/png" in o.get("data", {}) for o in outputs) == 3


def test_example_bill_is_its_generators_output_and_holds_what_it_says(tmp_path):
    """The checked-in bill is what make_focus_quarter.py writes (compared decompressed: gzip bytes may
    differ between zlib versions) and holds what examples/data/README.md says it does."""
    import csv
    import gzip
    import io
    import subprocess
    import sys

    import gputco

    checked_in = EXAMPLES / "data" / "focus_aws_quarter.csv.gz"
    made = tmp_path / "made.csv.gz"
    subprocess.run([sys.executable, str(EXAMPLES / "data" / "make_focus_quarter.py"), str(made)], check=True,
                   capture_output=True)
    text = gzip.decompress(checked_in.read_bytes()).decode()
    assert gzip.decompress(made.read_bytes()).decode() == text
    assert checked_in.stat().st_size < 300_000

    rows = list(csv.DictReader(io.StringIO(text)))
    p4d_hours = sum(float(r["ConsumedQuantity"]) for r in rows
                    if r["ChargeCategory"] == "Usage" and r["x_UsageType"].endswith("p4d.24xlarge"))
    bill = gputco.read_focus(checked_in)
    assert bill.hourly["gpus"].sum() == pytest.approx(8 * p4d_hours)  # 8 A100s per p4d.24xlarge
    assert bill.demand("A100-40GB").horizon.month_count == 3
    f = bill.figures.loc["all"]
    assert 0.5 < f["commitment_utilisation"] < 1 and f["waste"] > 0  # the Savings Plan partly unused
    assert f["effective_dynamic"] > 0                                # spot hours
    assert f["billed_tax"] > 0 and f["billed_credit"] == -5000
    assert list(bill.unmatched["name"]) == ["m5.2xlarge"]
