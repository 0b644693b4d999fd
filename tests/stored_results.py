"""Results as older rules stored them, and newer readings of their servers, for verify.

The stored results in tests/fixtures/stored_results/ are the product's own output at the
time, taken unchanged from the repository's history (README.md there names each commit):
rules 2026.11.0 (lemans, SAS options under `sasv9.cfg`, no `current`/`status`) and
2026.11.1 (sasgrid01, `-BUFSIZE 1M` in sasv9_local.cfg, which today's rules give as
program advice instead, and no tuned.conf settings). The readings are bundles made of the
real command outputs in tests/fixtures/parse/ (`hostname` answering the host given) and,
as the configuration file read, the file the stored advice generated.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.rules.parse.fixtures import bundle

STORED = Path(__file__).parent / "fixtures" / "stored_results"
RHEL9_2026_11_1 = "rules-2026.11.1-linux-rhel9-sas94"  # sasgrid01.example.com, linux
LEMANS_2026_11_0 = "rules-2026.11.0-lemans-aix53-etl"  # lemans, aix
LINUX = ("unix/uname_debian12.txt", "unix/hostname_debian12.txt")
AIX = (
    "unix/uname_aix_qemu.txt", "aix/oslevel_aix53_ralph.txt", "aix/ioo_a_aix61_ahix.txt",
    "aix/vmo_a_na_ibm_doc.txt", "unix/hostname_debian12.txt",
)  # fmt: skip


def stored_text(name: str) -> str:
    return (STORED / f"{name}.json").read_text(encoding="utf-8")


def stored(name: str) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(stored_text(name))
    return result


def config_section(path: str, text: str) -> str:
    """A SAS configuration file as the collector's bundle holds it (`cat PATH`)."""
    return f"@@@ cmd: cat {path}\n{text.rstrip(chr(10))}\n@@@ end: rc=0\n"


def rhel9_reading(host: str = "sasgrid01", config: str | None = None) -> str:
    """sasgrid01 read again after its sasv9_local.cfg got the stored advice's lines."""
    applied = stored(RHEL9_2026_11_1)["artifacts"]["sasv9_local.cfg"] if config is None else config
    return bundle(*LINUX, host=host) + config_section(
        "/opt/sas/config/Lev1/SASApp/sasv9_local.cfg", applied
    )


def lemans_reading(host: str = "lemans") -> str:
    """lemans read again: its AIX tunables as ioo -a and vmo -a print them, and the
    sasv9.cfg lines the stored advice said to append."""
    applied = stored(LEMANS_2026_11_0)["artifacts"]["sasv9.cfg"]
    return bundle(*AIX, host=host) + config_section(
        "/usr/lpp/SAS/SASFoundation/9.1/sasv9.cfg", applied
    )


def replace_result(assessment: Any, document: dict[str, Any]) -> None:
    """Give an (unsaved) assessment another result, as a test that edits one needs: read
    as any stored result is, then stored with its version and counts."""
    from advisor.core import results
    from rules.result_read import read_result

    results.store(assessment, read_result(document))


def save_stored(organisation: Any, name: str) -> Any:
    """An assessment row holding the stored result as that version of the product left it."""
    from advisor.core import results
    from advisor.models import Assessment
    from rules.result_read import read_result

    result = stored(name)
    server = result["inventory"]["server"]
    counts = results.counts(read_result(result))  # as the migration that added them counted
    return Assessment.objects.create(
        organisation=organisation, hostname=server["hostname"], os=server["os"],
        os_version=server["os_version"], cpus=server["cpus"], ram_gb=server["ram_gb"],
        warnings_count=len(result["warnings"]), rules_version=result["rules_version"],
        inventory=result["inventory"], result_json=stored_text(name), **counts,
    )  # fmt: skip
