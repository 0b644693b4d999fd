"""A Get-Volume paste cut inside its last row keeps the rows above; a row without its sizes
anywhere else, or as the table's only row, is still refused."""

from __future__ import annotations

import pytest

from rules.parse.registry import Garbled, Section
from rules.parse.sections import argv_of
from rules.parse.windows_volumes import windows_volumes

HEADER = (
    "DriveLetter FriendlyName FileSystemType DriveType HealthStatus OperationalStatus "
    "SizeRemaining      Size",
    "----------- ------------ -------------- --------- ------------ ----------------- "
    "-------------      ----",
)
C_ROW = "C           OS           NTFS           Fixed     Healthy      OK                    154.79 GB 938.04 GB"  # noqa: E501
D_HALF = "D           DATA         NTFS           Fixed     Healthy      OK           "


def _read(*rows: str) -> tuple[str, ...]:
    section = Section("Get-Volume", argv_of("Get-Volume"), (*HEADER, *rows), 1)
    return tuple(v.letter for v in windows_volumes(section))


def test_a_last_row_cut_before_its_sizes_is_left_out() -> None:
    assert _read(C_ROW, D_HALF) == ("C",)
    assert _read(C_ROW, D_HALF, "") == ("C",)


@pytest.mark.parametrize("rows", [(D_HALF, C_ROW), (D_HALF,)])
def test_a_row_without_sizes_that_is_not_a_cut_tail_is_refused(rows: tuple[str, ...]) -> None:
    with pytest.raises(Garbled, match="SizeRemaining"):
        _read(*rows)
