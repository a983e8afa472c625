"""The example notebook runs top to bottom (a failing cell fails the test)."""


def test_a100_notebook_executes(run_notebook):
    outputs = run_notebook("a100_tco.ipynb")
    assert any("image/png" in o.get("data", {}) for o in outputs)  # the plots rendered
