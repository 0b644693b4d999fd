"""aix_tuning.sh checks every change before the first one, and the plan uses what it knows.

Sources: IBM AIX "Sequential page read ahead" (ibm-aix-readahead: JFS2 read-ahead starts at
j2_minPageReadAhead pages and doubles up to j2_maxPageReadAhead, so the minimum must not pass
the maximum); the ioo and vmo references (ibm-aix-ioo: `-L` prints each tunable's MIN and
MAX); bartucca2005 l.246-257 (j2_minPageReadAhead 2 -> 16 for 256 KB transfers).
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import rules
from tests.conftest import example
from tests.rules.aix_script import SHELLS, FakeAix, script, tunable

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "parse" / "aix"
FakeFactory = Callable[..., FakeAix]


@pytest.fixture
def fake(tmp_path: Path) -> FakeFactory:
    return lambda **kw: FakeAix(tmp_path / "aix", restricted=(), **kw)


def lemans(current_max: str | None = None) -> dict[str, Any]:
    """bartucca2005's own server (AIX 5.3): vmo changes first, then ioo."""
    doc = example("lemans-aix53-etl")
    if current_max is not None:
        doc["current"] = {
            "aix_ioo": {"j2_maxPageReadAhead": current_max},
            "source": "collector bundle, ioo -a",
        }
    return doc


@pytest.mark.parametrize("shell", SHELLS)
def test_j2_min_read_ahead_above_the_current_max_is_refused_before_any_change(
    fake: FakeFactory, shell: str
) -> None:
    """The finding: the script raised j2_minPageReadAhead to 16 while the server's
    j2_maxPageReadAhead was 8, checking the maximum only afterwards, with the vmo changes
    already made. IBM 'Sequential page read ahead': read-ahead grows from the minimum up
    to the maximum. Now the whole plan is checked first: nothing changes, nothing is
    written, and the refusal says which order breaks."""
    aix = fake()
    aix.set_values("ioo", j2_maxPageReadAhead="8")
    before = aix.values()
    text = rules.advise(lemans())["artifacts"]["aix_tuning.sh"]
    assert text.index("tune 'vmo'") < text.index("tune 'ioo' 'j2_minPageReadAhead'")
    for args in ((), ("-n",)):
        done = aix.run(text, *args, shell=shell)
        assert done.returncode == 1, done.stdout
        assert (
            "refused: j2_minPageReadAhead would be 16 and j2_maxPageReadAhead 8: "
            "j2_minPageReadAhead must stay at most j2_maxPageReadAhead" in done.stderr
        )
        assert "nothing was changed" in done.stderr
        assert aix.changes() == [] and not aix.root.exists()
        assert aix.values() == before


def test_known_current_max_is_raised_before_the_minimum(fake: FakeFactory) -> None:
    """Where the inventory's current block shows j2_maxPageReadAhead 8, the plan raises it
    to 16 before setting j2_minPageReadAhead 16 (ibm-aix-readahead), and the script then
    runs through and rolls back both."""
    done = rules.advise(lemans(current_max="8"))
    ioo = [r for r in done["recommendations"] if r["rule"] == "aix.ioo"]
    assert [(r["setting"], r["value"]) for r in ioo][:2] == [
        ("j2_maxPageReadAhead", "16"), ("j2_minPageReadAhead", "16"),
    ]  # fmt: skip
    raised = ioo[0]
    assert raised["current"] == "8" and raised["status"] == "change"
    assert "Sequential page read ahead" in raised["rationale"]
    assert "ibm-aix-readahead" in raised["sources"]
    assert not [r for r in ioo if r["setting"] == "check:ioo -o j2_maxPageReadAhead"]
    aix = fake()
    aix.set_values("ioo", j2_maxPageReadAhead="8")
    before = aix.values()
    ran = aix.run(done["artifacts"]["aix_tuning.sh"])
    assert ran.returncode == 0, ran.stderr
    changed = [c["argv"][-1] for c in aix.changes() if c["prog"] == "ioo"]
    assert changed[:2] == ["j2_maxPageReadAhead=16", "j2_minPageReadAhead=16"]
    undo = subprocess.run(["sh", str(aix.backup_dir() / "rollback.sh")], env=aix.env)
    assert undo.returncode == 0 and aix.values() == before


def test_a_value_outside_the_ioo_L_range_is_refused_before_any_change(
    fake: FakeFactory,
) -> None:
    """ibm-aix-ioo: `ioo -L` gives MIN and MAX; sync_release_ilock is 0 or 1."""
    aix = fake()
    recs = (tunable("vmo", "strict_maxperm", "1", "0"),
            tunable("ioo", "sync_release_ilock", "2", "0"))  # fmt: skip
    done = aix.run(script(recs))
    assert done.returncode == 1
    assert "refused: ioo sync_release_ilock=2 is outside the range 0..1" in done.stderr
    assert aix.changes() == [] and not aix.root.exists()


def test_a_wrapped_L_row_is_read_and_K_is_1024(fake: FakeFactory) -> None:
    """A name too long for its column puts its values on the next line (the ahix and
    nmon2influxdb captures); 64K is 65536."""
    aix = fake()
    over = (tunable("ioo", "j2_nPagesPerWriteBehindCluster", "65537", "32"),)
    done = aix.run(script(over))
    assert done.returncode == 1
    assert "j2_nPagesPerWriteBehindCluster=65537 is outside the range 0..64K" in done.stderr
    top = (tunable("ioo", "j2_nPagesPerWriteBehindCluster", "65536", "32"),)
    assert aix.run(script(top)).returncode == 0


def test_a_tunable_with_no_range_is_noted_and_left_to_ioo(fake: FakeFactory) -> None:
    aix = fake()
    state = aix.state.read_text().replace('"numfsbufs": ["1", "2G"], ', "")
    aix.state.write_text(state)
    done = aix.run(script((tunable("ioo", "numfsbufs", "512", "196"),)))
    assert done.returncode == 0, done.stderr
    assert "note: ioo -L numfsbufs gives no range; ioo will judge numfsbufs=512" in done.stdout
    assert [c["argv"][-1] for c in aix.changes()] == ["numfsbufs=512"]


@pytest.mark.parametrize(
    ("capture", "name", "inside", "outside"),
    [
        ("ioo_L_aix61_sampleC_nmonchart.txt", "j2_minPageReadAhead", "16", "65537"),
        ("ioo_F_L_aix71_nmon2influxdb.txt", "j2_nPagesPerWriteBehindCluster", "128", "70000"),
        ("ioo_L_wrapped_name_ahix.txt", "j2_dynamicBufferPreallocation", "256", "257"),
        ("vmo_F_L_aix71_nmon2influxdb.txt", "maxperm%", "60", "101"),
    ],
)
def test_real_L_listings_give_the_ranges(
    tmp_path: Path, capture: str, name: str, inside: str, outside: str
) -> None:
    """The range reader on real `ioo -L`/`vmo -L` output (captures named in CORPUS.md)."""
    aix = FakeAix(tmp_path / "aix", restricted=())
    prog = "vmo" if capture.startswith("vmo") else "ioo"
    listing = tmp_path / "listing.txt"
    listing.write_text((FIXTURES / capture).read_text())
    reader = script(()).split("\ncapture() {")[0]  # the fixed functions, no main
    body = f'{reader}\n{prog}() {{ cat "{listing}"; }}\noutside {prog} "$1" "$2"\n'
    path = tmp_path / "outside.sh"
    path.write_text(body)
    for value, expect in ((inside, ""), (outside, "is outside the range")):
        done = subprocess.run(["sh", str(path), name, value], capture_output=True, text=True,
                              env=aix.env)  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert (expect in done.stdout) and (bool(expect) == bool(done.stdout.strip())), value
