"""`lsattr -El fcsN -a max_xfer_size` as blogs print it: one attribute row, squeezed to
single spaces, read per adapter with its size in KB."""

from __future__ import annotations

import pytest

from rules.parse.aix_devices import lsattr_fcs
from tests.rules.parse.fixtures import section


@pytest.mark.parametrize(
    ("name", "device", "raw", "kb"),
    [
        ("aix/lsattr_fcs0_max_xfer_size_gibsonnet.txt", "fcs0", "0x100000", 1024),
        ("aix/lsattr_fcs1_max_xfer_size_gibsonnet.txt", "fcs1", "0x100000", 1024),
        ("aix/lsattr_fcs0_max_xfer_size_changed_gibsonnet.txt", "fcs0", "0x200000", 2048),
        ("aix/lsattr_fcs1_max_xfer_size_changed_gibsonnet.txt", "fcs1", "0x200000", 2048),
    ],
)
def test_one_squeezed_attribute_row_names_its_adapter(
    name: str, device: str, raw: str, kb: int
) -> None:
    fc = lsattr_fcs(section(name))
    assert (fc.device, fc.max_xfer_size, fc.max_xfer_size_kb) == (device, raw, kb)
    assert fc.attrs == {"max_xfer_size": raw}
    assert fc.num_cmd_elems is None and fc.lg_term_dma is None
