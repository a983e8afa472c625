"""gputco report / gputco.report(): the page of every example scenario is well-formed HTML (html5lib's
strict parser, which raises on any parse error, and a tag-balance check with html.parser), refers to
nothing outside itself, needs no script, and every number of its summary is the figure of the result
it names (recomputed here from the library's rows, the same ones its tables show)."""
import html.parser
import os
import pathlib
import re
import subprocess

import html5lib  # a test requirement (pyproject.toml): its strict parser raises on any parse error
import pytest

from test_cli import EXAMPLES, command

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
SVG_EMPTY = {"line", "rect", "circle", "polyline", "polygon", "path"}  # written self-closed in the SVG


@pytest.fixture(scope="module")
def pages(gputco):
    return {p.name: gputco.report(p) for p in EXAMPLES}


class Structure(html.parser.HTMLParser):
    """Every element closed, in order; ids unique; what an accessible page needs, gathered."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.ids, self.errors, self.svgs, self.labelled_by = [], [], [], 0, []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "svg":
            self.svgs += 1
            if a.get("role") != "img" or not a.get("aria-labelledby"):
                self.errors.append(f"<svg> without role=img and aria-labelledby: {a}")
            self.labelled_by += a.get("aria-labelledby", "").split()
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        if tag not in VOID | SVG_EMPTY:
            self.errors.append(f"<{tag}/> is not an empty element")

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes <{self.stack[-1] if self.stack else None}>")
        else:
            self.stack.pop()


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_the_page_is_well_formed_and_accessible(pages, path):
    page = pages[path.name]
    html5lib.HTMLParser(strict=True, namespaceHTMLElements=False).parse(page)  # raises on any parse error
    s = Structure()
    s.feed(page)
    s.close()
    assert s.errors == [] and s.stack == []
    assert len(s.ids) == len(set(s.ids)), "ids repeat"
    assert set(s.labelled_by) <= set(s.ids)
    assert s.svgs >= 1, "a chart per result"
    # Every chart has its table version.
    assert page.count("<svg") == page.count("<summary>Table of this plot</summary>")
    assert page.startswith("<!DOCTYPE html>\n<html lang=\"en\">")


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_the_page_refers_to_nothing_outside_and_has_no_script(pages, path):
    page = pages[path.name]
    assert "<script" not in page.lower() and "<link" not in page.lower() and "<img" not in page.lower()
    assert not re.search(r"\son[a-z]+\s*=", page), "event handler attributes are script"
    assert not re.search(r"url\(|@import", page), "the style sheet loads nothing"
    for value in re.findall(r'\s(?:src|href|xlink:href|action|data)\s*=\s*"([^"]*)"', page):
        assert value.startswith("#"), value
    # The one address is SVG's namespace name, which nothing fetches.
    assert set(re.findall(r"https?://[^\s\"'<>]+", page)) <= {"http://www.w3.org/2000/svg"}


def evaluate(source, rows):
    """A summary figure's source: "result/row/column", "A - B" or "(A - B) / A"."""
    def cell(ref):
        result, row, column = ref.split("/")
        return rows[result][int(row)][column]

    m = re.fullmatch(r"\((\S+) - (\S+)\) / (\S+)", source)
    if m:
        return (cell(m[1]) - cell(m[2])) / cell(m[3])
    m = re.fullmatch(r"(\S+) - (\S+)", source)
    if m:
        return cell(m[1]) - cell(m[2])
    return cell(source)


def shown(value, label, source, rows):
    """The text a card shows for a figure, written here independently of the C++: currency amounts
    with 2 decimals and the row's currency, fractions as percentages, hours with 4 decimals."""
    if label in ("savings fraction", "deadline missed", "availability"):
        return f"{100 * value:.1f}%"
    if label in ("wall-clock hours", "run hours"):
        return (f"{value:,.4f}" if abs(value) >= 1 else f"{value:.4g}") + " h"
    result, row, _ = source.split(" ")[-1].strip("()").split("/")
    currency = rows[result][int(row)].get("currency", "")
    return f"{value:,.2f}" + (f" {currency}" if currency else "")


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_summary_number_is_the_figure_it_came_from(gputco, pages, path):
    from gputco import _core

    text = path.read_text()
    strategies, spot, plans, deadline, workloads = _core._run_scenario(text, str(path))
    rows = {"strategies": strategies, "spot_jobs": spot, "plans": plans, "deadline_jobs": deadline, "workloads": workloads,
            "services": _core._run_scenario_services(text, str(path))}
    rows["llm_training"], rows["llm_serving"] = _core._run_scenario_llm(text, str(path))
    study = _core._run_scenario_recommend(text, str(path))
    if study is not None:  # the plans the study compared, in the judged plan's currency
        rows["recommend"] = [dict(row, currency=study[4].currency) for row in study[1]]
    summary = pages[path.name].split('<h2 id="summary">', 1)[1].split("</section>", 1)[0]
    figures = re.findall(r'<dt>([^<]*)</dt><dd><data value="([^"]*)" data-source="([^"]*)">([^<]*)</data>', summary)
    assert figures, "the summary has numbers"
    for label, value, source, text_shown in figures:
        assert float(value) == evaluate(source, rows), (label, source)
        assert text_shown == shown(float(value), label, source, rows), (label, text_shown)
    # The card's choice is the cheapest row: its expected cost is the least of its column.
    for label, value, source, _ in figures:
        if label != "expected cost":
            continue
        result, row, column = source.split("/")
        group = rows[result]
        if result == "deadline_jobs":
            job = group[int(row)]["deadline_job"]
            candidates = [r[column] for r in group if r["deadline_job"] == job and r["policy"] != "omniscient"]
        elif result == "workloads":
            name = group[int(row)]["workload"]
            candidates = [r[column] for r in group if r["workload"] == name]
        elif result in ("llm_training", "llm_serving"):
            name = group[int(row)][result]
            candidates = [r[column] for r in group if r[result] == name]
        elif result == "spot_jobs":
            continue  # one card per job, nothing chosen
        elif result == "services":  # the cheapest configuration meeting the target: the row marked chosen
            assert group[int(row)]["chosen"] == "yes", source
            continue
        else:
            candidates = [r[column] for r in group]
        assert float(value) == min(candidates), source


def test_command_and_python_write_the_same_page(gputco, tmp_path):
    path = next(p for p in EXAMPLES if p.name == "spot_training_job.yaml")
    out = tmp_path / "report.html"
    subprocess.run([command(), "report", str(path), "-o", str(out)], check=True, capture_output=True, timeout=300)
    from_command = out.read_bytes()
    out.unlink()
    page = gputco.report(str(path), output=out)
    assert out.read_bytes() == from_command == page.encode()


def test_several_scenarios_make_one_page(gputco):
    page = gputco.report([EXAMPLES[0], EXAMPLES[1]])
    assert page.count('<section id="s') == 2 and 'href="#s2"' in page


def test_no_scenario_is_an_error(gputco):
    with pytest.raises(ValueError, match=r"^scenarios = 0: must name at least one scenario$"):
        gputco.report([])


def test_compare_as_a_pull_request_comment_and_a_page(tmp_path):
    a100 = next(p for p in EXAMPLES if p.name == "a100_three_year.yaml")
    before = tmp_path / "before.yaml"
    after = tmp_path / "after.yaml"
    before.write_text(a100.read_text())
    # The 70/30 mix becomes 60/40; on-demand and the full reservation stay; a strategy is added.
    after.write_text(a100.read_text().replace("fraction: 0.7", "fraction: 0.6").replace("fraction: 0.3", "fraction: 0.4")
                     .replace("outputs:", "  - name: reserved 3y (40% off)\n    reserved: {term_years: 3, payment: all_upfront, discount: 0.4}\noutputs:"))
    rows = {r["strategy"]: r for r in __import__("json").loads(
        subprocess.run([command(), "compare", before, after, "--format", "json"], capture_output=True, text=True, check=True).stdout)}
    md = subprocess.run([command(), "compare", before, after, "--format", "markdown"], capture_output=True, text=True,
                        check=True).stdout
    lines = {line.split(" | ")[0].lstrip("| "): line for line in md.splitlines() if line.startswith("| ")}
    # Unchanged rows show no bold; the moved row shows its change in bold, up, with its percentage.
    assert "**" not in lines["on-demand"] and "**" not in lines["reserved 3y (52% off)"]
    mix = rows["70% reserved + 30% on-demand"]
    change = mix["total_change"]
    assert change > 0
    assert f"**▲ +{change:,.2f} ({100 * change / mix['total_before']:+.2f}%)**" in lines["70% reserved + 30% on-demand"]
    assert lines["reserved 3y (40% off) (new)"].count("—") == 4
    assert md.startswith("### gputco compare: ")

    out = tmp_path / "compare.html"
    subprocess.run([command(), "compare", before, after, "--format", "html", "-o", out], check=True, capture_output=True)
    page = out.read_text()
    html5lib.HTMLParser(strict=True, namespaceHTMLElements=False).parse(page)
    s = Structure()
    s.feed(page)
    s.close()
    assert s.errors == [] and s.stack == []
    assert "<script" not in page and not re.search(r'(?:src|href)="(?!#)', page)
    mix_row = next(line for line in page.splitlines() if line.startswith("<tr><th scope=\"row\">70% reserved"))
    assert mix_row.count('class="num up"') == 3  # total, NPV and P95 all went up
    assert page.count('class="num up"') + page.count('class="num down"') == 3
    inserted = re.findall(r"<ins>\+ ([^<]*)</ins>", page)
    deleted = re.findall(r"<del>- ([^<]*)</del>", page)
    assert any("fraction: 0.6" in line for line in inserted) and any("fraction: 0.7" in line for line in deleted)
    assert any("reserved 3y (40% off)" in line for line in inserted)


def test_report_errors_name_the_file_and_write_nothing(tmp_path):
    out = tmp_path / "report.html"
    r = subprocess.run([command(), "report", tmp_path / "missing.yaml", "-o", out], capture_output=True, text=True)
    assert r.returncode == 2
    assert r.stderr == f'gputco: path = "{tmp_path / "missing.yaml"}": cannot be opened for reading: No such file or directory\n'
    assert not out.exists()
    target = tmp_path / "no_such_dir" / "report.html"
    r = subprocess.run([command(), "report", EXAMPLES[0], "-o", target], capture_output=True, text=True)
    assert r.returncode == 2
    assert r.stderr == f'gputco: path = "{target}": cannot be written: No such file or directory\n'


def summary_figures(page):
    summary = page.split('<h2 id="summary">', 1)[1].split("</section>", 1)[0]
    return re.findall(r'<dt>([^<]*)</dt><dd><data value="([^"]*)" data-source="([^"]*)">([^<]*)</data>', summary)


def test_summary_numbers_are_their_sources_for_many_seeded_scenarios(gputco):
    """The same property over random strategies and plans: demand, discounts, mix fractions, futures,
    commitments (seeded, so a failure reproduces)."""
    import json
    import random

    from gputco import _core

    rng = random.Random(35)
    for trial in range(40):
        f = round(rng.uniform(0.05, 0.95), 3)
        scenario = {
            "version": 1, "name": f"random {trial}", "horizon_months": rng.choice([6, 12, 36]), "seed": trial,
            "annual_discount_rate": rng.choice([0, 0.05, 0.1]),
            "offering": {"provider": "gcp", "instance_type": "a2-highgpu-8g", "region": "us-central1"},
            "demand": {"kind": "linear_growth", "start_gpus": rng.randint(1, 16), "end_gpus": rng.randint(1, 40)},
            "strategies": [
                {"name": "on-demand", "on_demand": {}},
                {"name": "reserved", "reserved": {"term_years": rng.choice([1, 3]), "payment": "no_upfront",
                                                  "discount": round(rng.uniform(0, 0.7), 3)}},
                {"name": "mix", "mix": {"tranches": [
                    {"fraction": f, "reserved": {"term_years": 1, "payment": "no_upfront", "discount": 0.3}},
                    {"fraction": round(1 - f, 3), "on_demand": {}}]}},
            ],
        }
        if trial % 2:
            scenario["futures"] = {"count": rng.randint(20, 200), "base_gpus": rng.randint(1, 16),
                                   "monthly_log_growth": rng.uniform(-0.02, 0.05), "monthly_log_volatility": rng.uniform(0, 0.1)}
            scenario["plans"] = [{"name": "stay on demand"}] + [
                {"name": f"commit {k}", "commitments": [{"count": rng.randint(1, 3), "unit": "instances",
                                                          "term_years": rng.choice([1, 3]), "payment": "no_upfront"}]}
                for k in range(rng.randint(1, 3))]
        page = gputco.report(scenario)
        strategies, spot, plans, deadline, workloads = _core._run_scenario(json.dumps(scenario), "<scenario>")
        rows = {"strategies": strategies, "spot_jobs": spot, "plans": plans, "deadline_jobs": deadline, "workloads": workloads}
        figures = summary_figures(page)
        assert len(figures) == 5 + (6 if trial % 2 else 0)
        for label, value, source, text_shown in figures:
            assert float(value) == evaluate(source, rows), (trial, label, source)
            assert text_shown == shown(float(value), label, source, rows), (trial, label)
            if label == "expected cost":
                result, _, column = source.split("/")
                assert float(value) == min(r[column] for r in rows[result])
