"""The capacity what-if form on the assessment page: run times typed as `CPUCOUNT=mm:ss`.

The times start empty: they are this server's to measure. chew's PROC LOESS runs on an
8-CPU box (the paper's data, `CHEW_EXAMPLE`) are one click away, labelled as the paper's,
and a result computed from them says so (`is_example`).

CPUCOUNT may be left blank: the page then uses the CPUCOUNT the assessment recommends
(advisor/capacity/whatif.py), so the form on the assessment page needs no reading of the
stored result to be drawn."""

from __future__ import annotations

import re
from typing import Any

from django import forms

from rules.capacity import ConcurrentRun, SingleRun

_PAIR = re.compile(r"^\s*(\d+)\s*=\s*(\d+(?:\.\d+)?)(?::(\d{1,2}))?\s*$")
CHEW_SINGLE_TEXT = "1=21:31, 2=12:16, 4=6:34, 6=5:06, 8=4:04"
CHEW_CONCURRENT_TEXT = "2=6:47, 3=9:38"
# The whole worked example: chew's times at CPUCOUNT=8 on his 8 CPUs, and his 63 jobs.
CHEW_EXAMPLE: dict[str, str] = {"single": CHEW_SINGLE_TEXT, "concurrent": CHEW_CONCURRENT_TEXT,
                                "jobs": "63", "cpucount": "8", "cpus": "8"}  # fmt: skip


# Bounds within the API serializers' (advisor/capacity/api_serializers.py).
MAX_KEY = {"CPUCOUNT": 4096, "jobs": 10_000}
MIN_MINUTES, MAX_MINUTES = 0.001, 1e6
MAX_PAIRS = 64
MAX_DIGITS = 12  # longer numbers are no run time or count, and int() of them is slow


def parse_pairs(text: str, what: str) -> list[tuple[int, float]]:
    """'1=21:31, 8=4:04' -> [(1, 21.52), (8, 4.07)]; minutes as mm:ss or decimal minutes."""
    pairs = []
    items = [part.strip() for part in text.split(",") if part.strip()]
    if len(items) > MAX_PAIRS:
        raise forms.ValidationError(f"{len(items)} pairs: give at most {MAX_PAIRS}")
    for item in items:
        match = _PAIR.match(item)
        if not match or any(len(n or "") > MAX_DIGITS for n in match.groups()):
            raise forms.ValidationError(f"“{item}” is not {what}=minutes (e.g. 8=4:04)")
        key, minutes, seconds = match.groups()
        value = float(minutes) + (int(seconds) / 60 if seconds else 0)
        if not 1 <= int(key) <= MAX_KEY[what]:
            raise forms.ValidationError(f"“{item}”: {what} must be 1 to {MAX_KEY[what]:,}")
        if not MIN_MINUTES <= value <= MAX_MINUTES:
            raise forms.ValidationError(
                f"“{item}”: minutes must be {MIN_MINUTES} to {MAX_MINUTES:,.0f}"
            )
        pairs.append((int(key), value))
    return pairs


class CapacityForm(forms.Form):
    single = forms.CharField(label="Single-job times (CPUCOUNT=mm:ss)", max_length=500)
    concurrent = forms.CharField(
        label="Concurrent runs at that CPUCOUNT (jobs=mm:ss, optional)",
        required=False,
        max_length=500,
    )
    jobs = forms.IntegerField(label="Concurrent jobs", min_value=1, max_value=10_000)
    cpucount = forms.IntegerField(label="CPUCOUNT", min_value=1, max_value=4096, required=False)
    cpus = forms.IntegerField(label="CPUs", min_value=1, max_value=4096)

    def clean_single(self) -> list[SingleRun]:
        """One time is enough (the model then borrows chew's profile and says so); two
        times for one CPUCOUNT are a typing slip, not a measurement to average."""
        runs = [SingleRun(c, m) for c, m in parse_pairs(self.cleaned_data["single"], "CPUCOUNT")]
        if not runs:
            raise forms.ValidationError("Give at least one time, e.g. 8=4:04.")
        counts = [r.cpucount for r in runs]
        if twice := sorted({c for c in counts if counts.count(c) > 1}):
            listed = ", ".join(str(c) for c in twice)
            raise forms.ValidationError(f"Give one time per CPUCOUNT (twice: {listed}).")
        return runs

    def clean_concurrent(self) -> list[tuple[int, float]]:
        return parse_pairs(self.cleaned_data.get("concurrent") or "", "jobs")

    def is_example(self) -> bool:
        """Whether the times are chew's, as the example fills them: the paper's, not this
        server's."""
        runs = parse_pairs(CHEW_SINGLE_TEXT, "CPUCOUNT")
        return [(r.cpucount, r.minutes) for r in self.cleaned_data["single"]] == runs

    def messages(self) -> list[str]:
        """Every error as one line that starts with the field's label."""
        lines = []
        for name, errors in self.errors.items():
            label = self.fields[name].label if name in self.fields else ""
            lines += [f"{label}: {e}" if label else str(e) for e in errors]
        return lines

    def runs(self, default_cpucount: int) -> dict[str, Any]:
        """Keyword arguments for `rules.capacity.predict`; a blank CPUCOUNT is the default."""
        data = self.cleaned_data
        cpucount = data["cpucount"] or default_cpucount
        concurrent = [ConcurrentRun(n, cpucount, m) for n, m in data["concurrent"]]
        return {
            "single": data["single"],
            "concurrent": concurrent,
            "jobs": data["jobs"],
            "cpucount": cpucount,
            "cpus": data["cpus"],
        }
