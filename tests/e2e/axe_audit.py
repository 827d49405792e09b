"""axe-core over a page of the app: the WCAG 2.0/2.1 A and AA rules, serious and critical
findings only (the level issue 31 asks the app to meet).

The axe script is the one bundled in the installed `axe-playwright-python` package (pyproject's
dev dependencies): nothing is fetched at run time.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from axe_playwright_python.sync_playwright import Axe

WCAG_AA_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
FAILING_IMPACTS = {"serious", "critical"}
_AXE = Axe()


@dataclass(frozen=True)
class Finding:
    """One failing node: the rule it breaks, how badly, where, and axe's explanation."""

    rule: str
    impact: str
    target: str
    html: str
    message: str

    def __str__(self) -> str:
        return f"{self.rule} ({self.impact}) at {self.target}: {self.message}\n    {self.html[:200]}"


def audit(page) -> list[Finding]:
    """The serious and critical WCAG A/AA violations on the page as it is now, one per node."""
    options = {"runOnly": {"type": "tag", "values": WCAG_AA_TAGS}, "resultTypes": ["violations"]}
    results = _AXE.run(page, options=options).response
    findings = []
    for violation in results["violations"]:
        if violation["impact"] not in FAILING_IMPACTS:
            continue
        for node in violation["nodes"]:
            checks = node.get("any", []) + node.get("all", []) + node.get("none", [])
            message = "; ".join(c["message"] for c in checks) or violation["help"]
            findings.append(Finding(violation["id"], violation["impact"], " ".join(map(str, node["target"])),
                                    node.get("html", ""), message))
    return findings


def counts_by_rule(findings: list[Finding]) -> Counter:
    return Counter(f.rule for f in findings)


def report(where: str, findings: list[Finding]) -> str:
    """A failure message that says which rules fail how often, then every node."""
    per_rule = ", ".join(f"{rule}: {n}" for rule, n in counts_by_rule(findings).most_common())
    return f"{len(findings)} serious/critical axe findings on {where} ({per_rule}):\n" + "\n".join(
        str(f) for f in findings)
