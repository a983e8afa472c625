"""Checks one report page as headless Chromium rendered it (scripts/check-report-browser.sh):

    python3 scripts/check_report_page.py PAGE.html DOM.html SCREENSHOT.png CHROMIUM_LOG

- the screenshot is not blank: many distinct colours, and more than 1% of it not white;
- every number of the page's summary (each <data> of its cards, as the page wrote it) is in the DOM
  Chromium built;
- Chromium logged no console message (the page has no script, so any is an error), nor a failed load.
Exit 0 if all hold, 1 (saying which failed) otherwise.
"""
import re
import sys

from PIL import Image  # Pillow: a dependency of matplotlib, which the tests install


def main(page_path, dom_path, png_path, log_path):
    failures = []
    data = Image.open(png_path).convert("RGB").tobytes()
    pixels = list(zip(data[0::3], data[1::3], data[2::3]))
    colours = len(set(pixels))
    ink = sum(1 for p in pixels if p != (255, 255, 255)) / len(pixels)  # share of pixels not background white
    if colours < 16 or ink < 0.01:
        failures.append(f"{png_path}: blank ({colours} colours, {ink:.2%} ink)")

    page = open(page_path, encoding="utf-8").read()
    dom = open(dom_path, encoding="utf-8").read()
    summary = page.split('<h2 id="summary">', 1)[1].split("</section>", 1)[0]
    numbers = re.findall(r'(<data value="[^"]*" data-source="[^"]*">[^<]*</data>)', summary)
    if not numbers:
        failures.append(f"{page_path}: no summary numbers")
    for n in numbers:
        if n not in dom:
            failures.append(f"{dom_path}: summary figure missing from the DOM: {n}")
    if "</html>" not in dom or "<main>" not in dom:
        failures.append(f"{dom_path}: no document")

    log = open(log_path, encoding="utf-8", errors="replace").read()
    for line in log.splitlines():
        if re.search(r":CONSOLE[:(]|Uncaught|net::ERR_|Failed to load", line):
            failures.append(f"{log_path}: {line}")
    for f in failures:
        print("FAIL", f)
    print(f"{page_path}: {'ok' if not failures else 'FAILED'} ({colours} colours, {ink:.1%} ink, "
          f"{len(numbers)} summary numbers in the DOM)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:5]))
