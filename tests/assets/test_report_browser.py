"""The scoring report in a real headless Chromium (Debian `chromium`): the per-system summary is the
page's first table, the search box filters the dimensions, and a screenshot is taken.

The report is built with `housestyle score` on the small scoring fixtures (a rejected convention
among them). The render time is measured in the page (a probe added to a copy: the load event,
after a forced layout) and printed, not asserted: the machine is shared. To measure another
report (the demo's): HOUSESTYLE_REPORT_HTML=/path/report.html pytest tests/assets/test_report_browser.py -s
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from lxml import html as lxml_html

from housestyle.pipelines.cli.main import main
from tests.assets.test_ui_browser import CHROMIUM, CHROMIUM_FLAGS
from tests.conftest import REPO_ROOT
from tests.pipelines.conventions.test_statuses import statused_set

FIX = REPO_ROOT / "tests" / "fixtures" / "scoring"
PROBE = ("<script>window.addEventListener('load',function(){var h=document.body.offsetHeight;"  # forces layout
         "document.documentElement.setAttribute('data-render-ms',performance.now().toFixed(0));"
         "document.documentElement.setAttribute('data-height',h);});</script>")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian chromium at /usr/bin/chromium (apt-get install chromium)"),
]


@pytest.fixture()
def report(tmp_path: Path) -> Path:
    """report.html of `housestyle score` with two systems, a reference, and a rejected convention."""
    out = tmp_path / "run"
    assert main(["score", "--conventions", str(statused_set(tmp_path)), "--source", str(FIX / "sources.tsv"),
                 "--system", f"good={FIX / 'good.jsonl'}", "--system", f"bad={FIX / 'bad.tsv'}",
                 "--reference", str(FIX / "good.jsonl"), "--out", str(out)]) == 0
    return out / "report.html"


def chromium(tmp_path: Path, *args: str) -> str:
    profile = tmp_path / f"chromium-profile-{time.monotonic_ns()}"
    done = subprocess.run([str(CHROMIUM), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args],
                          capture_output=True, text=True, timeout=120, check=False)
    return done.stdout


def dom(tmp_path: Path, url: str) -> lxml_html.HtmlElement:
    """The DOM after the page's scripts ran (load event)."""
    return lxml_html.fromstring(chromium(tmp_path, "--dump-dom", url))


def test_the_verdicts_then_the_summary_open_the_page(report: Path, tmp_path: Path) -> None:
    page = dom(tmp_path, report.as_uri())
    verdicts, first = page.xpath("//table")[:2]
    assert verdicts.get("id") == "verdicts" and first.get("id") == "summary"
    verdict = {tr.xpath("./td")[0].text_content(): tr.xpath("./td")[1].text_content() for tr in verdicts.xpath(".//tr[td]")}
    assert verdict == {"good": "pass", "bad": "fail"}
    rows = {tr.xpath("./td")[0].text_content(): [td.text_content() for td in tr.xpath("./td")]
            for tr in first.xpath(".//tr[td]")}
    assert set(rows) == {"good", "bad"}
    headers = [th.text_content() for th in first.xpath(".//th")]
    for name in ("SCS, all items", "BLEU", "chrF", "produced", "pattern"):
        assert name in headers, headers
    assert rows["good"][1] == "100.0" and first.xpath(".//tr[td[1]='good']/td[2][contains(@class,'best')]")
    statuses = page.get_element_by_id("statuses").text_content()
    assert "rejected 1 (not scored)" in statuses and "candidate + validated" in statuses


def test_the_search_box_filters_dimensions(report: Path, tmp_path: Path) -> None:
    everything = dom(tmp_path, report.as_uri())
    rows = everything.xpath("//tr[@data-k and not(contains(@class,'ex'))]")
    assert len(rows) >= 3 and not any(r.get("hidden") is not None for r in rows)
    filtered = dom(tmp_path, report.as_uri() + "#q=punct")  # the fragment fills the box and runs the filter
    shown = [r.get("data-k") for r in filtered.xpath("//tr[@data-k and not(@hidden)]")]
    hidden = [r.get("data-k") for r in filtered.xpath("//tr[@data-k and @hidden]")]
    assert shown and all("punct" in k for k in shown) and hidden and not any("punct" in k for k in hidden)
    dimensions = filtered.xpath("//tr[@data-k and not(@hidden) and not(contains(@class,'ex'))]")
    assert filtered.get_element_by_id("qn").text_content() == f"{len(dimensions)} shown"


def test_screenshot_and_render_time(report: Path, tmp_path: Path) -> None:
    shot = tmp_path / "report.png"
    chromium(tmp_path, "--window-size=1400,1000", f"--screenshot={shot}", report.as_uri())
    assert shot.is_file() and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    keep = os.environ.get("HOUSESTYLE_KEEP_SCREENSHOT")  # to look at it: HOUSESTYLE_KEEP_SCREENSHOT=/tmp/report.png
    if keep:
        shutil.copyfile(shot, keep)
    measured = [report] + ([Path(os.environ["HOUSESTYLE_REPORT_HTML"])] if os.environ.get("HOUSESTYLE_REPORT_HTML") else [])
    for page in measured:
        probe = tmp_path / f"probe-{page.parent.name}.html"
        probe.write_text(page.read_text(encoding="utf-8").replace("<head>", "<head>" + PROBE, 1), encoding="utf-8")
        root = dom(tmp_path, probe.as_uri())
        ms = root.get("data-render-ms")
        assert ms is not None and int(ms) >= 0
        print(f"\nrender {page}: {ms} ms to load + layout in headless Chromium ({page.stat().st_size:,} bytes)")
