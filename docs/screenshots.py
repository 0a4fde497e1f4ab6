"""The Dagster UI's screenshots in docs/images, taken in headless Chromium (selenium, as the HTML
report's test drives it) from a real `dagster dev`:

    PYTHONPATH=. .venv/bin/python docs/screenshots.py          # about two minutes

In a temporary folder: the embedded agent and `varied` (bench/varied_agent.py: the reference agent
with half its answers spoiled) are registered and evaluated on the shipped cases by `nabahan eval`,
twice, and compared; `dagster dev` then serves that home, as `make dev` does. The HTML report of
`varied`'s last run is opened too (its head, its donut).
Each page is opened once it has loaded, and saved 1440 px wide. Look at every PNG before committing
it: a spinner, an error or a blank page means taking it again.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from nabahan_pipeline_tests.commands import nabahan
from nabahan_pipeline_tests.evaluation.test_html_report import open_browser
from nabahan_pipeline_tests.webserver import Webserver, webserver

REPO = Path(__file__).resolve().parents[1]

IMAGES = REPO / "docs" / "images"
WINDOW = (1920, 1200)
WIDTH = 1440
MAX_BYTES = 300_000
LOAD_TIMEOUT_S = 60
VARIED = "varied"
RUN_OF_PARTITION = """
query ($partition: String!) { runsOrError(filter: {pipelineName: "evaluation_job",
    tags: [{key: "dagster/partition", value: $partition}]}, limit: 1) { ... on Runs { results { runId } } } }"""


def prepare(work: Path) -> dict[str, str]:
    """Register and evaluate the two agents in ``work`` (unless done there before); the environment
    both the commands and the server use."""
    env = {"DAGSTER_HOME": str(work / "dagster"), "PYTHONPATH": os.pathsep.join([str(REPO), str(REPO / "bench")])}
    if (work / "dagster").exists():
        return env
    (work / "dagster").mkdir(parents=True)
    (work / "dagster" / "dagster.yaml").write_text("telemetry:\n  enabled: false\n", encoding="utf-8")
    # Registered explicitly (the evaluation need not register them), then compared.
    # Evaluated twice, so that each agent's check plot has a line.
    evaluate = ("eval", "--agent", "embedded", "--agent", f"{VARIED}=python:varied_agent:answer", "--output-dir", "out")
    commands = [("agents", "add", "embedded", f"{VARIED}=python:varied_agent:answer"), evaluate, evaluate]
    for args in commands:
        done = nabahan(*args, cwd=work, **env)
        if done.returncode != 0:
            raise SystemExit(f"nabahan {' '.join(args)} exited {done.returncode}:\n{done.stdout[-2000:]}{done.stderr}")
    return env


def wait_for(what: str, found: Callable[[], Any], timeout_s: float = LOAD_TIMEOUT_S) -> Any:
    """``found()``'s first truthy value; stops the script, naming ``what``, when none came in time."""
    deadline = time.monotonic() + timeout_s
    while not (value := found()):
        if time.monotonic() > deadline:
            raise SystemExit(f"{what}: not there after {timeout_s:.0f} s")
        time.sleep(0.5)
    return value


class Pages:
    """The browser on the server's pages; each method saves one screenshot."""

    def __init__(self, browser: Any, server: Webserver, out: Path, work: Path) -> None:
        self.browser, self.server, self.out, self.work = browser, server, out, work
        # The first visit's "Join the Dagster community" dialog (once per instance), skipped.
        browser.get(server.url + "/overview")
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if skip := browser.find_elements(By.XPATH, "//div[contains(@class, 'dialog')]//button[normalize-space()='Skip']"):
                skip[0].click()
                break
            time.sleep(0.5)

    def open(self, path: str, ready_xpath: str) -> Any:
        """Open ``path``, dismiss the first-visit dialog, and return the element that says it loaded."""
        self.browser.get(self.server.url + path)
        element = wait_for(path, lambda: self.browser.find_elements(By.XPATH, ready_xpath))[0]
        time.sleep(2)  # charts and the graph's layout settle after the data arrives
        return element

    def save(self, name: str, element: Any = None, height: int | None = None) -> None:
        """The window (or ``element``'s box, or its top ``height`` CSS pixels), WIDTH pixels wide."""
        path = self.out / name
        self.browser.save_screenshot(str(path))
        image = Image.open(path)
        scale = image.width / self.browser.execute_script("return window.innerWidth")
        if element is not None:
            box = self.browser.execute_script("const r = arguments[0].getBoundingClientRect();"
                                              "return [r.left, r.top, r.right, r.bottom];", element)
            left, top, right, bottom = (round(value * scale) for value in box)
            image = image.crop((max(left, 0), max(top, 0), min(right, image.width), min(bottom, image.height)))
        elif height is not None:
            image = image.crop((0, 0, image.width, round(height * scale)))
        if image.width > WIDTH:
            image = image.resize((WIDTH, round(image.height * WIDTH / image.width)), Image.LANCZOS)
        image.convert("RGB").save(path, optimize=True)
        if path.stat().st_size > MAX_BYTES:  # a 256-colour palette: the UI's flat colours survive it
            image.convert("RGB").quantize(256).save(path, optimize=True)
        print(f"{path.relative_to(REPO) if path.is_relative_to(REPO) else path}: {image.width}x{image.height}, "
              f"{path.stat().st_size // 1024} KB")

    def markdown_dialog(self, path: str, label: str) -> Any:
        """The dialog of ``label``'s [Show Markdown] in the newest event of ``path``'s Events tab."""
        row = self.open(path, f"//td[normalize-space()='{label}']/..")
        row.find_element(By.XPATH, ".//a[contains(., 'Show Markdown')]").click()
        dialog = wait_for(label, lambda: self.browser.find_elements(By.CSS_SELECTOR, ".bp5-dialog table"))[0]
        time.sleep(1)
        return dialog.find_element(By.XPATH, "./ancestor::div[contains(concat(' ', @class, ' '), ' bp5-dialog ')][1]")

    def lineage(self) -> None:
        self.open("/locations/nabahan_pipeline.definitions/asset-groups/evaluation",
                  "//*[normalize-space()='evaluation_summary']")
        # One step out: the graph's first fit cuts the top node's box.
        self.browser.find_element(By.XPATH, "//button[.//*[@aria-label='zoom_out']]").click()
        time.sleep(1.5)
        self.save("dagster_lineage.png")

    def not_correct(self) -> None:
        self.save("dagster_not_correct.png",
                  self.markdown_dialog(f"/assets/evaluation_summary?view=events&partition={VARIED}", "not_correct"))

    def case_scores_preview(self) -> None:
        self.save("dagster_case_scores_preview.png",
                  self.markdown_dialog(f"/assets/case_scores?view=events&partition={VARIED}", "preview"))

    def columns(self) -> None:
        self.open(f"/assets/case_scores?view=overview&partition={VARIED}", "//*[normalize-space()='Column name']")
        self.save("dagster_columns.png")

    def check_plots(self) -> None:
        """The threshold check's plots on `varied`'s page: each number named with its agent, so
        each plot is one agent's runs alone."""
        heading = self.open("/assets/evaluation_summary?view=checks&checkDetail=pass_rate_threshold",
                            f"//*[normalize-space()='correct_rate [{VARIED}]']")
        self.browser.execute_script("arguments[0].scrollIntoView()", heading)
        time.sleep(1)
        self.save("dagster_check_plots.png")

    def _report(self) -> None:
        """The newest HTML report of `varied`, opened from its file."""
        *_, page = sorted((self.work / "out" / VARIED).glob("evaluation_report_*.html"))
        self.browser.get(page.as_uri())
        wait_for("the report", lambda: self.browser.find_elements(By.CSS_SELECTOR, "p.verdict"))
        time.sleep(1)

    def report_head(self) -> None:
        """The report's head: Correct first, the seed's pass rate beside it, each rate's denominator."""
        self._report()
        kpis = self.browser.find_element(By.CSS_SELECTOR, ".kpis")
        bottom = self.browser.execute_script("return arguments[0].getBoundingClientRect().bottom", kpis)
        self.save("report_head.png", height=round(bottom) + 40)

    def report_donut(self) -> None:
        """The report's donut: Correct in its hole and first in its legend."""
        self._report()
        donut = self.browser.find_element(By.CSS_SELECTOR, "img[alt='pass_fail_distribution.png']")
        self.browser.execute_script("arguments[0].scrollIntoView()", donut)
        time.sleep(1)
        self.save("report_donut.png", donut)

    def threshold_check(self) -> None:
        self.open(f"/assets/evaluation_summary?view=checks&partition={VARIED}", "//*[normalize-space()='not_correct']")
        self.save("dagster_threshold_check.png")

    def run_log(self) -> None:
        (run,) = self.server.graphql(RUN_OF_PARTITION, {"partition": VARIED})["runsOrError"]["results"]
        # The evaluation_summary step's INFO lines: one per answer not Correct.
        self.open(f"/runs/{run['runId']}?logs=step%3Aevaluation_summary&levels=info",
                  "//*[starts-with(normalize-space(), 'case ')]")
        self.save("dagster_run_log.png", height=720)

    def launch(self) -> None:

        self.open("/locations/nabahan_pipeline.definitions/asset-groups/evaluation",
                  "//button[contains(., 'Materialize all')]").click()
        wait_for("the partition chooser", lambda: self.browser.find_elements(
            By.XPATH, "//*[normalize-space()='Select a partition or create one']"))[0].click()
        wait_for("the embedded partition", lambda: self.browser.find_elements(
            By.XPATH, "//span[normalize-space()='embedded']"))[0].click()
        self.browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)  # closes the list, not the dialog
        wait_for("one run", lambda: self.browser.find_elements(By.XPATH, "//button[normalize-space()='Launch 1 run']"))
        time.sleep(1)
        self.save("dagster_launch.png", self.browser.find_element(By.CSS_SELECTOR, ".bp5-dialog"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=IMAGES, help="where the PNGs go (default docs/images)")
    parser.add_argument("pages", nargs="*", help="only these (method names of Pages: lineage, not_correct, ...)")
    parser.add_argument("--work", type=Path, help="a folder to prepare once and keep, for retakes (default: a temporary one)")
    args = parser.parse_args(argv)
    if not (shutil.which("chromium") or shutil.which("chromium-browser")) or not shutil.which("chromedriver"):
        print("screenshots: chromium and chromedriver must be on PATH (apt-get install chromium chromium-driver)",
              file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="nabahan-screenshots-") as folder:
        work = (args.work or Path(folder)).resolve()
        env = prepare(work)
        with webserver(work / "dagster", work, dev=True, **env) as server:
            browser = open_browser(work / "profile")
            try:
                browser.set_window_size(*WINDOW)
                pages = Pages(browser, server, args.out, work)
                for name in args.pages or ["lineage", "not_correct", "case_scores_preview", "columns",
                                           "threshold_check", "check_plots", "run_log", "launch", "report_head",
                                           "report_donut"]:
                    getattr(pages, name)()
            finally:
                browser.quit()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
