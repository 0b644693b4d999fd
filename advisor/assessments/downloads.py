"""Downloads of an assessment's generated files: one file, or all of them in a zip.

The zip holds every artifact under its name on the server plus `recommendations.json`
(the contract's machine-readable result), as the CLI writes them into its --out folder.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.views.decorators.http import require_GET

from advisor.assessments import files
from advisor.assessments.selectors import assessment_or_404
from advisor.core import results
from advisor.core.http import PageRequest


@require_GET
@login_required
def artifact_download(request: PageRequest, pk: int, name: str) -> HttpResponse:
    assessment = assessment_or_404(request.user, pk)
    text = results.artifact(assessment, name)
    if text is None:
        raise Http404("no such file in this assessment")
    # Artifact names come from the renderers (sasv9.cfg, aix_tuning.sh …), never from users.
    return files.attachment(text, name, "text/plain; charset=utf-8")


@require_GET
@login_required
def files_zip(request: PageRequest, pk: int) -> HttpResponse:
    assessment = assessment_or_404(request.user, pk)
    filename = f"{assessment.hostname}-{assessment.pk}-files.zip"
    return files.attachment(files.bundle(assessment), filename, "application/zip")
