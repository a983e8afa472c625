"""The plans-over-time notebook runs top to bottom (a failing cell fails the test)."""


def test_plans_notebook_executes(run_notebook):
    outputs = run_notebook("plans_over_time.ipynb")
    assert any("image/png" in o.get("data", {}) for o in outputs)  # the fan plot rendered
