"""The LLM notebook (fine-tune a 70B model, then serve it) runs top to bottom and draws its plot."""
import pathlib

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOK = pathlib.Path(__file__).resolve().parents[2] / "examples" / "notebooks" / "llm_fine_tune_and_serve.ipynb"


@pytest.mark.skipif(not NOTEBOOK.exists(), reason="run from a source checkout")
def test_llm_notebook_executes(tmp_path, monkeypatch):
    monkeypatch.delenv("MPLBACKEND", raising=False)
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    assert any("image/png" in o.get("data", {}) for o in outputs)  # the cost-against-time plot
    text = "".join(str(o.get("data", {}).get("text/plain", "")) for o in outputs)
    for gpu in ("H100", "H200", "B200", "MI300X"):
        assert gpu in text
    assert "own assumption" in text or "30% assumed" in text  # the user's MFU row was used
