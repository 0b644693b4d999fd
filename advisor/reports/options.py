"""What a consultant chooses when requesting a report: who it is for, who wrote it, notes
added before the build, and whether the generated scripts go in an appendix.

The web form (ReportOptionsForm) and the API serializer (api_serializers.py) check the
same limits; both hand the service a ReportOptions, so nothing unchecked reaches the row.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms

from advisor.models import Report

NAME_MAX_CHARS = 200  # the model's CharField
NOTES_MAX_CHARS = 4000  # about a page of the PDF
FORM_SENT = "options"  # a hidden input of the panel's form


@dataclass(frozen=True)
class ReportOptions:
    client_name: str = ""
    consultant_name: str = ""
    consultant_notes: str = ""
    include_scripts: bool = True

    @classmethod
    def of(cls, report: Report) -> ReportOptions:
        """The options a report was requested with."""
        return cls(
            client_name=report.client_name,
            consultant_name=report.consultant_name,
            consultant_notes=report.consultant_notes,
            include_scripts=report.include_scripts,
        )

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> ReportOptions:
        """From a form's or serializer's cleaned data (fields it lacks keep their default)."""
        known = {k: data[k] for k in cls.__dataclass_fields__ if k in data}
        return cls(**known)


def _notes_text(text: str) -> str:
    # Plain text: line ends normalised; the templates escape it and keep its paragraphs.
    return text.replace("\r\n", "\n").replace("\r", "\n").strip()


class ReportOptionsForm(forms.Form):
    """The report panel's form. An unticked checkbox sends nothing, hence required=False."""

    client_name = forms.CharField(
        label="Client name", max_length=NAME_MAX_CHARS, required=False, strip=True
    )
    consultant_name = forms.CharField(
        label="Consultant", max_length=NAME_MAX_CHARS, required=False, strip=True
    )
    consultant_notes = forms.CharField(
        label="Consultant notes", max_length=NOTES_MAX_CHARS, required=False, strip=True
    )
    include_scripts = forms.BooleanField(label="Include the scripts appendix", required=False)

    def clean_include_scripts(self) -> bool:
        # The panel's form says it was sent (an unticked box sends nothing); a bare request
        # without the form (an old page, a script) gets the appendix, as the API does.
        return bool(self.cleaned_data.get("include_scripts")) or FORM_SENT not in self.data

    def clean_consultant_notes(self) -> str:
        return _notes_text(str(self.cleaned_data.get("consultant_notes") or ""))

    def options(self) -> ReportOptions:
        return ReportOptions.from_data(self.cleaned_data)

    def messages(self) -> list[str]:
        """Each error as "Field label: message", for a page or a status region."""
        out = []
        for name, errors in self.errors.items():
            label = self.fields[name].label if name in self.fields else None
            out += [f"{label}: {e}" if label else str(e) for e in errors]
        return out
