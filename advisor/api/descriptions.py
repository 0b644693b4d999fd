"""What each operation does, written for whoever integrates with the API.

An operation's own `extend_schema(description=...)` comes first; these are the rest, by
operation id. The views' docstrings are written for maintainers and are never shown
(advisor.api.autoschema). tests/api/test_contract_edges.py insists every operation has a
description of its own, so a new operation cannot be published without one.
"""

from __future__ import annotations

PAGED = (
    "Answers one page in the shape every list has: `count` (the whole list), `next` and "
    "`previous` (absolute links keeping the filters, null at either end) and `results`. "
    "Follow `next` until it is null; `page` starts at 1 and `page_size` is 25 unless given "
    "(at most 500). A page past the last is 404 naming `page`."
)
FILE = (
    "The body is the file's bytes, with Content-Disposition naming the file. It never "
    "changes once written: send its ETag in If-None-Match (or Last-Modified in "
    "If-Modified-Since) and a copy you hold is answered 304 without a body."
)


def _listed(what: str) -> str:
    return f"{what} {PAGED}"


DESCRIPTIONS: dict[str, str] = {
    "advice_create": "Send an inventory (the same document POST /api/v1/assessments/ takes) "
    "and receive the advice: recommendations, warnings and generated files. Nothing is "
    "stored, so there is no id to come back to; an inventory that breaks the contract is "
    "400 with every problem by JSON path.",
    "assessments_list": _listed(
        "Your organisation's stored assessments, newest first, archived ones left out. "
        "`hostname` filters on the server's host name."
    ),
    "assessments_create": "Send an inventory; the advice is computed and stored as an "
    "assessment (201 with Location, its URL). With an Idempotency-Key a retry of the same "
    "document answers 200 with the assessment stored the first time, and the key sent "
    "with another document is 409. An inventory that breaks the contract is 400 with "
    "every problem by JSON path.",
    "report_list": _listed("The consultant reports of one assessment, newest first."),
    "report_status": "One report of an assessment: `status` goes queued, running, then done "
    "(its PDF can be downloaded from `pdf_url`) or failed (the reason in `error`). Poll it "
    "after asking for a report.",
    "report_pdf": "The report's PDF once its status is done; 409 naming `status` while it "
    "is still queued or being built. " + FILE,
    "assessments_retrieve": "The stored result of one assessment, as it was advised: the "
    "rules version that made it, the recommendations, warnings and the list of generated "
    "files. An assessment of another organisation is 404.",
    "assessments_archive": "Leave the assessment out of the list from now on. It is kept, "
    "and can still be read, verified and downloaded by its id; archiving twice is harmless.",
    "assessments_artifact": "One file the advice generated (a tuning script, a config "
    "file) or recommendations.json, by the name the assessment's result lists. " + FILE,
    "assessments_bundle": "Every generated file and recommendations.json in one zip, as "
    "the command line writes them. " + FILE,
    "capacity_predict": "Give measured job times (a single job at one or more CPU counts, "
    "and optionally runs of several jobs at once) and receive the predicted average job "
    "time for `jobs` concurrent jobs on `cpus` CPUs, with the curve, the model and its "
    "assumptions. Nothing is stored.",
    "collector_download": "The read-only POSIX sh script to run on a server: it writes the "
    "bundle that POST /api/v1/inventories/parse turns into a draft inventory and POST "
    "/api/v1/assessments/{id}/verify checks against stored advice. " + FILE,
    "fleets_list": _listed(
        "Your organisation's fleets, newest first, each with its progress (`status`, "
        "`total`, `done`, `failed`)."
    ),
    "fleets_retrieve": "A fleet's progress; poll it until `status` is done. Once done it "
    "also holds the groups of servers given identical advice, where they disagree, and the "
    "drift from the fleet it re-evaluates.",
    "fleets_reevaluate": "Advise every document of the fleet again on the current rules, as "
    "a new fleet linked to this one (202 with Location, the new fleet's URL; poll it). With "
    "an Idempotency-Key a retry answers 200 with the fleet made the first time.",
    "fleets_report_list": _listed("The summary reports of one fleet, newest first."),
    "fleets_report_retrieve": "One fleet report: `status` goes queued, running, then done "
    "(download the PDF from `pdf_url`) or failed (the reason in `error`).",
    "fleets_report_pdf": "The fleet report's PDF once its status is done; 409 naming "
    "`status` while it is still queued or being built. " + FILE,
    "fleets_servers": _listed(
        "The fleet's servers, one row each with its status and its warnings by severity. "
        "Filter by `status`, `severity`, `group` or a host name in `q`; order with `sort`. "
        "An unknown filter or value is 400 naming it."
    ),
    "health": "Whether the service can answer: `status` is ok, degraded (the broker is "
    "unreachable: work queued for a worker waits) or unavailable (the database is "
    "unreachable, answered 503). Needs no credentials; meant for load balancers and "
    "monitoring.",
    "logs_list": _listed(
        "Your organisation's SAS logs, the ones whose findings could save the most time "
        "first, each with its status and figures."
    ),
    "logs_retrieve": "One log: `status` goes queued, running, then done (with the analysis: "
    "timeline, findings, what-if and options) or failed (the reason in `error`). Poll it "
    "after a 202 from POST /api/v1/logs/.",
    "logs_attach": 'Tie the log to one of your assessments with {"assessment": id}, or '
    'untie it with {"assessment": null}: a tied log\'s options are compared with the '
    "assessment's advice. An id that names no assessment of yours is 400 naming "
    "`assessment`; any other field is 400 naming it.",
    "rules_list": "Every rule the advisor applies, with its sources, the settings it may set "
    "and the inventory fields it reads, and the rules version: the same catalog for every "
    "caller, changing only with a new rules version.",
    "webhooks_list": _listed(
        "Your organisation's webhook endpoints, newest first, each with its 20 latest "
        "deliveries. The signing secret is shown only when an endpoint is registered."
    ),
    "webhooks_retrieve": "One webhook endpoint: its URL, events, whether it is active, and "
    "its 20 latest deliveries with their status.",
    "webhooks_destroy": "Remove the endpoint: nothing more is delivered to it, and its "
    "deliveries are removed with it (204, no body).",
    "webhooks_deliveries": _listed(
        "Every delivery made to one endpoint, newest first, with its status and attempts."
    ),
}
