#!/usr/bin/env bash
# Opens the example scenarios' HTML reports in headless Chromium (Debian's package) and checks that
# each rendered: a non-blank screenshot, the summary's numbers in the DOM, no console message.
# One Chromium launch per page, taking the screenshot and the DOM together.
#
#   scripts/check-report-browser.sh [GPUTCO_COMMAND] [OUT_DIR]
#
# GPUTCO_COMMAND defaults to build/src/cli/gputco; OUT_DIR (default build/report-browser) receives
# each page, its screenshot (.png, 1280 px wide), its DOM and Chromium's log. Chromium is installed
# with apt-get when missing and this runs as root (GPUTCO_INSTALL_CHROMIUM=0: never). Exit 77 (ctest's
# SKIP) with the reason when Chromium is not there or cannot start — unless GPUTCO_REQUIRE_BROWSER=1
# (CI sets it), when that is a failure too; 1 when a page fails a check.
set -euo pipefail
cd "$(dirname "$0")/.."
gputco=${1:-build/src/cli/gputco}
out=${2:-build/report-browser}
python=${PYTHON:-python3}
skip() {
  if [ "${GPUTCO_REQUIRE_BROWSER:-0}" = 1 ]; then
    echo "FAIL (GPUTCO_REQUIRE_BROWSER=1): $*"
    exit 1
  fi
  echo "SKIP: $*"
  exit 77
}

chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ] && [ "${GPUTCO_INSTALL_CHROMIUM:-1}" = 1 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "+ apt-get install -y chromium"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } >/dev/null 2>&1 ||
    skip "apt-get could not install chromium"
  chromium=$(command -v chromium || true)
fi
[ -n "$chromium" ] || skip "chromium is not installed (apt-get install chromium, as root)"
"$python" -c "import PIL" 2>/dev/null || skip "$python has no Pillow (pip install pillow) to read the screenshots"
[ -x "$gputco" ] || { echo "no gputco command at $gputco" >&2; exit 1; }

mkdir -p "$out"
out=$(cd "$out" && pwd)  # absolute: the pages are opened as file:// URLs
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
# The page loads nothing, so every host resolves nowhere: a reference that slipped in fails to load.
flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --user-data-dir="$profile"
       --host-resolver-rules="MAP * ~NOTFOUND" --enable-logging=stderr --v=0 --window-size=1280,2000)
# Can it start at all here (a container without the libraries, a kernel without namespaces)?
"$chromium" "${flags[@]}" --dump-dom "data:text/html,<p>ok</p>" >"$out/probe.html" 2>"$out/probe.log" ||
  skip "chromium does not start: $(grep -v dbus "$out/probe.log" | tail -1)"
grep -q "<p>ok</p>" "$out/probe.html" || skip "chromium started but rendered nothing: $(tail -1 "$out/probe.log")"

failed=0
for scenario in examples/scenarios/*.yaml; do
  name=$(basename "$scenario" .yaml)
  page="$out/$name.html"
  started=$(date +%s%N)
  "$gputco" report "$scenario" -o - >"$page"  # to stdout: the page names no path of this machine
  made=$(date +%s%N)
  "$chromium" "${flags[@]}" --screenshot="$out/$name.png" --dump-dom "file://$page" \
    >"$out/$name.dom.html" 2>"$out/$name.log" || { echo "FAIL chromium on $page"; failed=1; continue; }
  rendered=$(date +%s%N)
  echo "$name: $(wc -c <"$page") bytes, made in $(((made - started) / 1000000)) ms, rendered in $(((rendered - made) / 1000000)) ms"
  "$python" scripts/check_report_page.py "$page" "$out/$name.dom.html" "$out/$name.png" "$out/$name.log" || failed=1
done
exit $failed
