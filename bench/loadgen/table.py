"""Load reports as a fixed-width table (milliseconds, MiB)."""

from __future__ import annotations

from bench.loadgen.run import LoadReport

HEADER = (
    f"{'learners':>8} {'think':>5} {'ramp':>4} {'ans':>3} | {'verdicts':>8} {'p50':>6} {'p95':>6} "
    f"{'p99':>6} {'max':>6} | {'1st p50':>7} {'1st p95':>7} | {'runs/s':>6} "
    f"{'cpu/run':>7} {'median':>6} | {'RSS0':>5} {'peak':>5} {'after':>5} {'kids':>5} | "
    f"{'unread':>6} {'ack':>5} {'stored':>6} {'lost':>4} {'errors':>6}"
)
UNITS = ("(submit -> verdict and first page in ms; server CPU per script run in ms, less what the "
         "idle server uses over the same time: mean over all runs, median only with 1 learner; RSS of the server in MiB before / peak / after, kids = "
         "peak RSS of its child processes; unread = verdicts on answers the grader could not read (not "
         "attempts: nothing is stored), ack = the other answers whose verdict was shown, stored = "
         "attempts the database gained)")


def _ms(seconds: float) -> str:
    return "-" if seconds != seconds else f"{seconds * 1000:.0f}"


def _ms1(seconds: float) -> str:
    return "-" if seconds != seconds else f"{seconds * 1000:.1f}"


def row(r: LoadReport) -> str:
    s = r.spec
    return (
        f"{s.learners:>8} {s.think:>5g} {s.ramp:>4g} {s.answers:>3} | {r.verdicts:>8} "
        f"{_ms(r.verdict_p50):>6} {_ms(r.verdict_p95):>6} {_ms(r.verdict_p99):>6} "
        f"{_ms(r.verdict_max):>6} | {_ms(r.first_page_p50):>7} {_ms(r.first_page_p95):>7} | "
        f"{r.runs_per_s:>6.1f} {_ms1(r.cpu_per_run_mean):>7} {_ms1(r.cpu_per_run_median):>6} | "
        f"{r.rss_before:>5.0f} {r.rss_peak:>5.0f} {r.rss_after:>5.0f} {r.children_rss_peak:>5.0f} | "
        f"{r.unreadable:>6} {r.acknowledged:>5} {r.stored:>6} {r.lost:>4} {r.errors:>6}"
    )


def details(r: LoadReport) -> str:
    lines = [f"  elapsed {r.elapsed:.1f} s, {r.runs} script runs, server CPU {r.server_cpu:.2f} s "
             f"(children {r.children_cpu:.2f} s), load generator CPU {r.client_cpu:.2f} s; "
             f"the idle server used {r.idle_cpu_rate * 1000:.1f} ms of CPU per second"]
    if r.questions:
        lines.append(f"  {r.questions} questions, first verdict wrong on {r.first_wrong} "
                     f"({r.first_wrong / r.questions:.0%}); {r.retries} tries again, "
                     f"{r.reveals} solutions asked for after a wrong try")
    if r.unfinished:
        lines.append(f"  {r.unfinished} learners did not finish")
    lines += [f"  error: {e}" for e in r.error_samples]
    return "\n".join(lines)
