"""The settings a server runs now (the contract's optional `current` block).

Filled by the combiner (`rules.parse.combine`) from what the collector read on the server,
or typed by hand. Each map is absent (null) when nothing was read, and empty when it was
read and held nothing; the rules compare their recommendations with it to say which lines
change, which stay and which the admin should check.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from rules.fields import Choice, MapOf, Pattern, Text, spec

Thp = Literal["always", "madvise", "never"]

OPTION = Pattern(r"[A-Za-z_][A-Za-z0-9_]{0,63}", "must be an option name of letters, digits, '_'")
TUNABLE = Pattern(r"[A-Za-z0-9_%]{1,64}", "must be a tunable name of letters, digits, '_', '%'")
SYSCTL = Pattern(r"[A-Za-z0-9_][A-Za-z0-9_.:/-]{0,255}", "must be a sysctl name")
# Not starting with "-": the generated scripts pass device names to lsattr, chdev and the
# like, where a name such as "-a" would be read as an option, however it is quoted.
DEVICE_NAME = Pattern(
    r"[A-Za-z0-9_.][A-Za-z0-9_.-]{0,63}",
    "must be 1-64 characters of [A-Za-z0-9_.-], not starting with '-'",
)
ATTRIBUTE = Pattern(r"[A-Za-z0-9_]{1,64}", "must be an attribute name of letters, digits, '_'")
VALUE = Text(4096)
ATTRIBUTE_VALUE = Text(256)
MAX_SETTINGS = 4096
THP = Choice(("always", "madvise", "never"))
TUNED_PROFILE = Pattern(r"[A-Za-z0-9_.][A-Za-z0-9_.-]{0,63}", "must be a tuned profile name")


def _settings(key: Pattern, label: str, help: str) -> Any:
    return spec(
        MapOf(key, VALUE, MAX_SETTINGS), default=None, nullable=True, label=label, help=help
    )


@dataclass(frozen=True, kw_only=True)
class Current:
    sas_options: dict[str, str] | None = _settings(
        OPTION, "SAS options", "from the sasv9*.cfg files read, option names upper case"
    )
    spds_parameters: dict[str, str] | None = _settings(
        OPTION, "SPD Server parameters", "from spdsserv.parm, names upper case"
    )
    aix_ioo: dict[str, str] | None = _settings(TUNABLE, "AIX ioo", "ioo -a")
    aix_vmo: dict[str, str] | None = _settings(TUNABLE, "AIX vmo", "vmo -a")
    linux_sysctl: dict[str, str] | None = _settings(SYSCTL, "Linux sysctl", "sysctl -a")
    linux_thp: Thp | None = spec(
        THP, default=None, nullable=True,
        label="Transparent huge pages", help="/sys/kernel/mm/transparent_hugepage/enabled",
    )  # fmt: skip
    tuned_profile: str | None = spec(
        TUNED_PROFILE, default=None, nullable=True, label="tuned profile", help="tuned-adm active",
    )  # fmt: skip
    devices: dict[str, dict[str, str]] | None = spec(
        MapOf(DEVICE_NAME, MapOf(ATTRIBUTE, ATTRIBUTE_VALUE, 256), MAX_SETTINGS),
        default=None, nullable=True, label="Device attributes",
        help="per device: AIX lsattr -El (max_transfer, queue_depth, num_cmd_elems); Linux "
        "/sys/block/*/queue (max_sectors_kb, read_ahead_kb, scheduler, rotational)",
    )  # fmt: skip
    source: str | None = spec(
        Text(200), default=None, nullable=True, label="Read from",
        help="where these values were read: 'collector 2026.11.4 bundle, 2026-11-23T10:00Z'",
    )  # fmt: skip
