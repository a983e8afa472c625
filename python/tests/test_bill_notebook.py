"""The bill-to-plan notebook runs top to bottom on the checked-in quarter's bill (a failing cell fails the
test) and draws its plots."""
import pathlib

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"
NOTEBOOK = EXAMPLES / "notebooks" / "bill_to_plan.ipynb"


@pytest.mark.skipif(not NOTEBOOK.exists(), reason="run from a source checkout")
def test_bill_notebook_executes(tmp_path, monkeypatch):
    monkeypatch.delenv("MPLBACKEND", raising=False)
    monkeypatch.setenv("GPUTCO_EXAMPLE_DATA", str(EXAMPLES / "data"))  # the kernel runs in tmp_path
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    # The history, the fitted futures' fan and the plan's cost fan.
    assert sum("image/png" in o.get("data", {}) for o in outputs) == 3
