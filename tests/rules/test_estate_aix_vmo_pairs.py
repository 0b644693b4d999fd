"""The AIX vmo pairs the property tests found refused (issue 24 item 5), one test each,
named after the finding: minfree/maxfree (ibm-sas-aix71's formula, ibm-aix-minfree:
maxfree − minfree ≥ j2_maxPageReadAhead, vmo -L: minfree < maxfree) and minperm%/maxperm%
(bartucca2005 l.279-283 sets maxperm 60 and gives no minperm; IBM "Values for minperm and
maxperm parameters", ibm-aix72-vmm: minperm% below maxperm%)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import rules
from rules.catalog.aix.vmo_free import maxfree_ceiling
from tests.conftest import example
from tests.rules.aix_script import SHELLS, FakeAix


def lemans(**vmo: str) -> dict[str, Any]:
    """bartucca2005's lemans box (AIX 5.3, 8 CPUs, 16 GB) running these vmo values."""
    doc = example("lemans-aix53-etl")
    return doc | {"current": {"aix_vmo": dict(vmo), "source": "vmo -a"}}


def planned(result: dict[str, Any], rule: str) -> dict[str, str]:
    return {
        r["setting"]: r["value"]
        for r in result["recommendations"]
        if r["rule"] == rule and r["kind"] == "change"
    }


def test_maxfree_follows_the_larger_minfree_the_server_keeps() -> None:
    """lemans with minfree 4096 (above the formula's max(960, 128 × 8) = 1024): minfree is
    kept and maxfree = 4096 + 128 × 8 = 5120 (ibm-sas-aix71), not the formula's 2048, which
    left minfree above maxfree (ibm-aix-minfree; vmo -L: minfree < maxfree)."""
    result = rules.advise(lemans(minfree="4096"))
    assert planned(result, "aix.vmo_free") == {"maxfree": "5120"}
    (rec,) = [r for r in result["recommendations"] if r["setting"] == "maxfree"]
    assert "4096, the server's" in rec["rationale"]


@pytest.mark.parametrize("shell", SHELLS)
def test_maxfree_above_a_kept_minfree_applies_on_aix(tmp_path: Path, shell: str) -> None:
    """The script's check phase passes and the fake AIX ends with minfree < maxfree."""
    aix = FakeAix(tmp_path / "aix")
    aix.set_values("vmo", minfree="4096")
    done = aix.run(rules.advise(lemans(minfree="4096"))["artifacts"]["aix_tuning.sh"],
                   shell=shell)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    vmo = aix.values()["vmo"]
    assert (vmo["minfree"], vmo["maxfree"]) == ("4096", "5120")


def test_maxfree_is_bounded_by_the_ram_on_4096_cpus() -> None:
    """4096 logical CPUs and read-ahead 2048: the formula's maxfree (524288 + 2048 × 4096 =
    8,912,896 pages, 34 GB) passes 1/32 of lemans's 16 GB (131072 pages), the advisor's own
    bound (unconfirmed; IBM gives none but the RAM): nothing changes and a warning says why."""
    doc = lemans()
    doc["server"]["cpus"] = 4096
    doc["current"]["aix_ioo"] = {"j2_maxPageReadAhead": "2048"}
    result = rules.advise(doc)
    assert planned(result, "aix.vmo_free") == {}
    (warning,) = [w for w in result["warnings"] if w["rule"] == "aix.vmo_free"]
    assert "unconfirmed" in warning["message"] and "RAM" in warning["message"]
    assert maxfree_ceiling(rules.inventory_from(doc)) == 16 * 1024**3 // 4096 // 32


def test_minperm_lowered_before_the_papers_maxperm() -> None:
    """lemans running minperm% 80: the paper's maxperm% 60 (bartucca2005 l.282) would sit
    below it; minperm% goes to 5.3's default 20 first (aix-defaults-secondary, unconfirmed),
    then maxclient% and maxperm%."""
    result = rules.advise(lemans(**{"minperm%": "80"}))
    order = [r["setting"] for r in result["recommendations"] if r["rule"] == "aix.vmo"]
    assert order == ["minperm%", "maxclient%", "maxperm%", "strict_maxperm", "lru_file_repage"]
    assert planned(result, "aix.vmo")["minperm%"] == "20"
    (rec,) = [r for r in result["recommendations"] if r["setting"] == "minperm%"]
    assert "unconfirmed" in rec["rationale"] and "aix-defaults-secondary" in rec["sources"]


def test_minperm_untouched_where_it_stays_below_maxperm() -> None:
    """AIX 5.3's default minperm% 20 (or an unknown one) needs no change."""
    for doc in (lemans(**{"minperm%": "20"}), lemans()):
        assert "minperm%" not in planned(rules.advise(doc), "aix.vmo")


def test_maxperm_raised_before_maxclient_where_it_rises() -> None:
    """A server at maxperm% 20: maxclient% 60 first would pass maxperm% (IBM: maxclient% ≤
    maxperm%), so maxperm% rises first."""
    result = rules.advise(lemans(**{"maxperm%": "20"}))
    order = [r["setting"] for r in result["recommendations"] if r["rule"] == "aix.vmo"]
    assert order.index("maxperm%") < order.index("maxclient%")


@pytest.mark.parametrize("shell", SHELLS)
def test_minperm_above_the_papers_maxperm_applies_on_aix(tmp_path: Path, shell: str) -> None:
    """The script's step checks (minperm% < maxperm%, maxclient% ≤ maxperm%) pass in order."""
    aix = FakeAix(tmp_path / "aix", restricted=())  # AIX 5.3: none restricted yet
    aix.set_values("vmo", minperm="80")
    done = aix.run(rules.advise(lemans(**{"minperm%": "80"}))["artifacts"]["aix_tuning.sh"],
                   shell=shell)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    vmo = aix.values()["vmo"]
    assert (vmo["minperm%"], vmo["maxperm%"], vmo["maxclient%"]) == ("20", "60", "60")
