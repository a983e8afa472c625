import os
import pathlib

import pytest

os.environ.setdefault("MPLBACKEND", "Agg")  # plots render without a display


@pytest.fixture(scope="session")
def gputco():
    import gputco as module

    return module


@pytest.fixture(scope="session")
def catalog(gputco):
    return gputco.catalog()


EXAMPLE_NOTEBOOKS = pathlib.Path(__file__).resolve().parents[2] / "examples" / "notebooks"


@pytest.fixture
def run_notebook(tmp_path, monkeypatch):
    """Runs examples/notebooks/<name> top to bottom in tmp_path and returns its code cells' outputs; a
    failing cell fails the test. Skips without nbformat/nbclient or outside a source checkout."""
    def run(name):
        nbformat = pytest.importorskip("nbformat")
        nbclient = pytest.importorskip("nbclient")
        path = EXAMPLE_NOTEBOOKS / name
        if not path.exists():
            pytest.skip("run from a source checkout")
        monkeypatch.delenv("MPLBACKEND", raising=False)  # the kernel's inline backend needs no display
        notebook = nbformat.read(path, as_version=4)
        client = nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3",
                                         resources={"metadata": {"path": str(tmp_path)}})
        client.execute()
        outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
        assert not [o for o in outputs if o.get("output_type") == "error"]
        return outputs

    return run
