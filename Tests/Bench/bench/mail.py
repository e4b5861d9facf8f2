"""Part 10: notifications by email sent per second by the mail worker to a loopback SMTP server."""

import shutil

from bench.context import Context
from bench.report import BenchFailure, figure, say

MAILS = 2000


def mail_rate(context: Context) -> str:
    session = context.session
    say()
    context.quiet()
    say(f"== 10. Notifications by email to a loopback SMTP server ({MAILS} mails, two sending threads, libcurl's SMTP) ==")
    output = session.path("mail-rate.txt")
    status, _ = session.timed(context.bench("mail-rate", "--state-dir", session.path("mail"), "--mails", str(MAILS)), output)
    text = open(output).read()
    print(text, end="", flush=True)
    if status != 0:
        raise BenchFailure(f"vouch-bench mail-rate exited with status {status}")
    shutil.rmtree(session.path("mail"), ignore_errors=True)
    rate = figure(text, "Mails sent per second")
    if not rate:
        raise BenchFailure("vouch-bench mail-rate printed no rate")
    return rate
