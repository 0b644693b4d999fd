"""What a consultant report says, assembled from a stored assessment (no rendering here).

The executive summary puts the warnings first (high severity first), then the changes
with the largest expected effect: the run-time cut the paper measured, which each
recommendation carries as `measured_gain_pct` (for results stored before the field existed,
the figure those rules' effect text reported: `rules.result_read`). Ranking by the largest
figure a paper reported is a reading aid, not a promise about the client's workload. The current →
recommended table lists the settings that change first, then those not read
(`statuses.current_rows`), counted as the result page counts them (`statuses.tally`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe

from advisor.assessments import measured, presenting, statuses
from advisor.assessments.current_read import current_read
from advisor.core import words
from advisor.core.results import result_of
from advisor.models import Assessment, Report
from advisor.reports import charts, folding, front_matter
from advisor.reports.branding import logo_data_uri
from advisor.reports.front_matter import PUBLIC_URLS
from advisor.reports.options import ReportOptions
from advisor.reports.storage import storage_context
from rules.capacity import CHEW_CPUS, CHEW_SINGLE, predict
from rules.derive.labels import OS_LABELS
from rules.result_records import ResultDocument
from rules.sources import PAPERS, SOURCES, grounds
from rules.units import parse_size_mb

SUMMARY_CHANGES = 5  # changes listed in the executive summary
# A generated file is shown as blocks of this many lines: WeasyPrint lays out one long
# <pre> in time that grows faster than its length (aix_tuning.sh for 512 LUNs: 2.8 s for
# its first 2,000 lines, 8.3 s for 4,000) and blocks in time that grows with it (1.6 s,
# 3.2 s).
CODE_BLOCK_LINES = 40
SEVERITY_ORDER = {"high": 0, "medium": 1, "low": 2}


@dataclass(frozen=True)
class Cited:
    id: str
    title: str
    citation: str
    url: str | None = None  # only where the paper is public (front_matter.PUBLIC_URLS)

    @property
    def short(self) -> str:
        """As people cite it in the text: 'Bartucca 2005'."""
        return words.short_name(self.id)


def cite(ids: list[str]) -> list[Cited]:
    known = [SOURCES[i] for i in ids if i in SOURCES]
    return [Cited(s.id, s.title, s.citation, PUBLIC_URLS.get(s.id)) for s in known]


def _recommendations(result: ResultDocument) -> list[dict[str, Any]]:
    """Each recommendation's fields in a reader's words (`words.plain`; the papers' lines
    they cite in `lines`, the report's source note), its sources cited and the run-time
    cut its paper measured (`gain`, 0 where none)."""
    where = presenting.mounts(result)
    return [
        {
            **rec._asdict(),
            **{f: words.plain(getattr(rec, f), where) for f in ("rationale", "evidence", "effect")},
            "lines": words.cited_lines([rec.rationale, rec.evidence, rec.effect], rec.sources),
            "cited": cite(list(rec.sources)),
            "gain": rec.measured_gain_pct or 0.0,
            "grounds": grounds(rec.sources),
        }
        for rec in result.recommendations
    ]


def _warnings(result: ResultDocument) -> list[dict[str, Any]]:
    where = presenting.mounts(result)
    warnings = [
        {
            **w._asdict(),
            "message": words.plain(w.message, where),
            "action": words.plain(w.action, where),
            "lines": words.cited_lines([w.message, w.action], w.sources),
            "cited": cite(list(w.sources)),
            "grounds": grounds(w.sources),
        }
        for w in result.warnings
    ]
    return sorted(warnings, key=lambda w: SEVERITY_ORDER.get(w["severity"], 3))


def _skipped(result: ResultDocument) -> list[dict[str, str]]:
    """The rules skipped for a missing input, the input named as the form labels it."""
    where = presenting.mounts(result)
    return [
        {
            "rule": s.rule,
            "field": words.path_words(s.field, where),
            "reason": words.plain(s.reason, where),
        }
        for s in result.skipped
    ]


def ranked_changes(recs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The recommendations as shown whose paper measured a run-time cut (`gain`), the
    largest first."""
    return sorted((r for r in recs if r["gain"] > 0), key=lambda r: -r["gain"])


def _charts(assessment: Assessment) -> dict[str, SafeString | None]:
    inventory, result = assessment.inventory, result_of(assessment)
    sessions = int(inventory["workload"]["concurrent_sessions"])
    memsize, cpucount = result.value_of("MEMSIZE"), result.value_of("CPUCOUNT")
    found: dict[str, SafeString | None] = {"memory": None, "threads": None}
    try:
        if memsize:
            found["memory"] = mark_safe(  # our own SVG, every label escaped
                charts.memory_budget(
                    sessions=sessions,
                    memsize_mb=parse_size_mb(memsize),
                    ram_mb=assessment.ram_gb * 1024,
                )
            )
    except ValueError:
        found["memory"] = None
    c = int(cpucount) if cpucount and cpucount.isdigit() else assessment.cpus
    found["threads"] = mark_safe(
        charts.threads_vs_cpus(sessions=sessions, cpucount=c, cpus=assessment.cpus)
    )
    found["paths"] = mark_safe(charts.data_paths(inventory.get("storage", [])))
    found["capacity"] = mark_safe(_capacity_chart(c, assessment.cpus, sessions))
    return found


def _capacity_chart(cpucount: int, cpus: int, sessions: int) -> str:
    """Chew's LOESS profile scaled to this box, as time relative to one job alone."""
    p = predict(
        CHEW_SINGLE,
        jobs=max(2 * sessions, 8),
        cpucount=cpucount,
        cpus=cpus,
        measured_cpus=CHEW_CPUS,
    )
    relative = [(n, m / p.single_job_minutes) for n, m in p.curve]
    return charts.capacity_curve(
        relative, y_label="average job time ÷ one job alone", sessions_mark=sessions
    )


MAX_REPORT_LOGS = 10  # the jobs whose findings could save the most


def _job_logs(assessment: Assessment) -> list[Any]:
    """The attached logs worth reporting; an assessment not stored yet (the benchmark's,
    built in memory) has none."""
    if assessment.pk is None:
        return []
    return list(assessment.logs.order_by("-saving_seconds", "-id")[:MAX_REPORT_LOGS])


def _cover(assessment: Assessment, report: Report | None) -> dict[str, Any]:
    options = ReportOptions.of(report) if report else ReportOptions()
    organisation = assessment.organisation
    return {
        "options": options,
        "organisation": organisation.name,
        "client": options.client_name or organisation.name,
        "logo": logo_data_uri(organisation.logo),
        "prepared_on": report.created_at if report else timezone.now(),
    }


def code_blocks(text: str) -> list[str]:
    """The file's text in blocks of CODE_BLOCK_LINES lines, shown one after the other."""
    lines = text.split("\n")
    return [
        "\n".join(lines[i : i + CODE_BLOCK_LINES]) for i in range(0, len(lines), CODE_BLOCK_LINES)
    ]


def _front(
    options: ReportOptions,
    recs: list[dict[str, Any]],
    warnings: list[dict[str, Any]],
    ranked: list[dict[str, Any]],
    *,
    has_logs: bool,
    entries: folding.Entries,
) -> dict[str, Any]:
    """The contents, the scope's list of files and the action plan."""
    return {
        "plan": front_matter.action_plan(warnings, recs, ranked, entries=entries),
        "scope_files": front_matter.scope_files(recs),
        "contents": front_matter.contents(
            notes=bool(options.consultant_notes), logs=has_logs, scripts=options.include_scripts
        ),
    }


def _shown(
    storage: list[dict[str, Any]],
    recs: list[dict[str, Any]],
    warnings: list[dict[str, Any]],
    entries: folding.Entries,
) -> dict[str, Any]:
    """The findings, the current → recommended lines and the storage as shown: a big
    server's repeated findings folded (folding.py), its storage grouped by layout
    (storage.py) and its data paths charted by role."""
    shown_recs = folding.fold_recs(recs, entries)
    shown_warnings = folding.fold_warnings(warnings, entries)
    return {
        **storage_context(storage),
        "shown_warnings": shown_warnings,
        "shown_recommendations": shown_recs,
        "folded_recs": folding.folded_count(shown_recs),
        "folded_warnings": folding.folded_count(shown_warnings),
        "entry_mark": folding.ENTRY_MARK,
        "mount_mark": folding.MOUNT_MARK,
        "top_changes": ranked_changes(shown_recs)[:SUMMARY_CHANGES],
        "current_shown": folding.current_shown(shown_recs),
        "paths_by_role": len(storage) > charts.MAX_PATH_BARS,
    }


def report_context(assessment: Assessment, report: Report | None = None) -> dict[str, Any]:
    """Everything the report templates show; `report` gives the consultant's options
    (the defaults without one)."""
    result = result_of(assessment)
    recs = _recommendations(result)
    warnings = _warnings(result)
    ranked = ranked_changes(recs)
    current = statuses.current_rows(result.recommendations, changes_first=True)
    cover = _cover(assessment, report)
    logs = _job_logs(assessment)
    cited = {s for item in [*recs, *warnings] for s in item["sources"]}
    entries = folding.Entries(assessment.inventory.get("storage", []))
    return {
        **cover,
        **_front(cover["options"], recs, warnings, ranked, has_logs=bool(logs), entries=entries),
        **_shown(assessment.inventory.get("storage", []), recs, warnings, entries),
        "assessment": assessment,
        "inventory": assessment.inventory,
        "os_label": OS_LABELS.get(assessment.os, assessment.os),
        "rules_version": assessment.rules_version,
        "warnings": warnings,
        "recommendations": recs,
        "skipped": _skipped(result),
        "artifacts": [(n, code_blocks(t)) for n, t in sorted(result.artifacts.items())],
        "charts": _charts(assessment),
        "measured": measured.chart(assessment.inventory),
        "sources": cite(sorted(cited & set(PAPERS))),
        "later_sources": cite(sorted(cited - set(PAPERS))),
        "current_rows": current,
        "current_counts": statuses.tally(current),
        "current_files": statuses.file_summaries(result),
        "current_read": current_read(assessment.inventory, assessment.os),
        "job_logs": logs,
    }
