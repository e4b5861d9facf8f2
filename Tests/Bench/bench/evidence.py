"""Part 11: the Accessibility Conformance Report of a year of releases, 1,000 fixes with 100,000 feedback records
(docs/evidence.md), as OpenACR YAML from the API and as the console's page, each timed over HTTP."""

import os
import shutil
import urllib.parse

from bench import procstat
from bench.context import Context
from bench.report import figure, say

FIXES = 1000
RECORDS = 100_000
CALLS = "10"
WARM_UP = "1"


def report_of_many(context: Context) -> dict[str, str]:
    """The median and max in ms of the report as YAML and as the console page, in English and in Japanese, and the
    CPU vouchd spent per answer (which a busy machine does not inflate as it does the time an answer takes)."""
    session = context.session
    say()
    say(f"== 11. Conformance report of {FIXES:,} released fixes with {RECORDS:,} feedback records (GET over HTTP, "
        "keep-alive) ==")
    populated = session.tee(context.bench("populate-releases", "--state-dir", session.path("releases"), "--fixes",
                                          str(FIXES), "--records", str(RECORDS), "--testers", "200"))
    period = urllib.parse.urlencode({"released_from": figure(populated, "Release report period from"),
                                     "released_to": figure(populated, "Release report period to")})
    server = context.start_vouchd("releases", ["VOUCHD_OPERATOR_NAME=Example Media Ltd",
                                               "VOUCHD_OPERATOR_CONTACT=privacy@example.com",
                                               "VOUCHD_REPORT_PRODUCT_NAME=Example TV"])
    token = server.read_admin_token()
    figures = {}
    context.quiet()
    for key, label, path, via, expect in [
        ("yaml", "Conformance report YAML", f"/v1/reports/acr?{period}", [], 'catalog: "2.5-edition-wcag-2.2-508-eu-en"'),
        ("html", "Conformance report page", f"/console/reports/acr?{period}", ["--via", "console"],
         "Table 2: Success criteria, Level AA"),
        ("html_ja", "Conformance report page in Japanese", f"/console/reports/acr?{period}&lang=ja",
         ["--via", "console"], "表 2：達成基準（レベル AA）"),
    ]:
        before = procstat.process_ticks(server.pid)
        timing = session.tee(context.bench("http-timing", "--label", label, "--url", server.url + path, "--token",
                                           token, "--calls", CALLS, "--warm-up", WARM_UP, "--expect", expect, *via))
        # Every answer counts: the first call, the warm-up and the timed calls (and, for the page, one sign-in).
        answers = 1 + int(WARM_UP) + int(CALLS)
        figures[key + "_cpu"] = f"{(procstat.process_ticks(server.pid) - before) * 1000 / os.sysconf('SC_CLK_TCK') / answers:.0f}"
        say(f"{label}, vouchd CPU ms per answer: {figures[key + '_cpu']}")
        figures[key] = figure(timing, f"{label} ms (median)")
        figures[key + "_max"] = figure(timing, f"{label} ms (max)")
        figures[key + "_kb"] = f"{int(figure(timing, f'{label} answer bytes')) / 1024:.0f}"
    session.stop(server.process)
    shutil.rmtree(session.path("releases"), ignore_errors=True)
    return figures


def checks(context: Context, figures: dict[str, str]) -> None:
    check = context.summary.check
    check(f"Conformance report of {FIXES:,} fixes with {RECORDS:,} feedback, OpenACR YAML (median of {CALLS}; max "
          f"{figures['yaml_max']} ms, {figures['yaml_kb']} KB, vouchd CPU {figures['yaml_cpu']} ms)", "<=", "1000",
          figures["yaml"], " ms")
    check(f"Conformance report page, English (median of {CALLS}; max {figures['html_max']} ms, "
          f"{figures['html_kb']} KB, vouchd CPU {figures['html_cpu']} ms)", "<=", "1000", figures["html"], " ms")
    check(f"Conformance report page, Japanese (median of {CALLS}; max {figures['html_ja_max']} ms, "
          f"{figures['html_ja_kb']} KB, vouchd CPU {figures['html_ja_cpu']} ms)", "<=", "1000", figures["html_ja"],
          " ms")
