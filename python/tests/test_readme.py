"""The README's Python quick start runs as written."""
import pathlib
import re

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def test_readme_python_quick_start_runs():
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    assert blocks, "README.md has no ```python block"
    namespace: dict = {}
    exec(compile(blocks[0], "README.md", "exec"), namespace)  # noqa: S102 - our own README
    report, r = namespace["report"], namespace["r"]
    assert report.savings > 0
    assert r.summary()["cost"]["p95"] > r.summary()["cost"]["p50"]
