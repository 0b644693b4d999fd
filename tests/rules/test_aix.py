"""AIX vmo/ioo/device checks by release: bartucca2005 on 5.3, checks on 6.1+."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from tests.conftest import example
from tests.rules.fitting import fit_filesystems

TOKENS = re.compile(r"^[A-Za-z0-9_.:%/=-]+$")


def lemans(os_version: str = "5.3", os: str = "aix") -> dict[str, Any]:
    doc = example("lemans-aix53-etl")
    doc["server"].update(os=os, os_version=os_version)
    return fit_filesystems(doc)


def aix_recs(result: dict[str, Any]) -> list[dict[str, Any]]:
    return [r for r in result["recommendations"] if r["target"] == "aix_tuning.sh"]


def by_setting(result: dict[str, Any], rule_id: str) -> dict[str, dict[str, Any]]:
    return {r["setting"]: r for r in aix_recs(result) if r["rule"] == rule_id}


def aix_text(result: dict[str, Any]) -> str:
    """Every AIX recommendation, warning and skip as one string (for 'never mentioned')."""
    rule_ids = ("aix.",)
    parts = [r for r in aix_recs(result)]
    parts += [w for w in result["warnings"] if w["rule"].startswith(rule_ids)]
    parts += [s for s in result["skipped"] if s["rule"].startswith(rule_ids)]
    return json.dumps(parts)


def test_lemans_ioo_matches_the_papers_table() -> None:
    out = by_setting(rules.advise(lemans()), "aix.ioo")
    got = {n: (out[n]["value"], out[n]["extra"]["default"]) for n in out if "check" not in n}
    assert got == {
        "j2_minPageReadAhead": ("16", "2"),
        "j2_nPagesPerWriteBehindCluster": ("128", "32"),
        "sync_release_ilock": ("1", "0"),
    }
    for name in got:
        assert out[name]["extra"]["command"] == "ioo"
        assert out[name]["extra"]["restricted"] == "no"  # 5.3 has no restricted tunables
        assert out[name]["kind"] == "change"


def test_lemans_vmo_is_the_papers_53_change() -> None:
    out = by_setting(rules.advise(lemans()), "aix.vmo")
    assert out["maxperm%"]["value"] == "60"
    assert out["maxperm%"]["extra"] == {"command": "vmo", "default": "80", "restricted": "no"}
    assert out["strict_maxperm"]["value"] == "1"
    assert out["strict_maxperm"]["extra"]["default"] == "0"
    assert "9.6 GB" in out["maxperm%"]["rationale"]
    assert "39.2 %" in out["maxperm%"]["effect"]
    assert "inference" in out["maxclient%"]["rationale"]
    settings = [r["setting"] for r in aix_recs(rules.advise(lemans()))]
    assert settings.index("maxclient%") < settings.index("maxperm%")


def test_53_without_contention_only_checks() -> None:
    # The paper's maxperm change stays a check; IBM's later lru_file_repage 0 is advised on
    # every 5.3 server (ibm-aix-lru-file-repage).
    doc = lemans()
    doc["workload"]["largest_table_gb"] = 8
    out = by_setting(rules.advise(doc), "aix.vmo")
    assert set(out) == {"check:vmstat -v", "lru_file_repage"}
    assert out["check:vmstat -v"]["kind"] == "check"


def test_aix_72_never_mentions_deprecated_tunables() -> None:
    result = rules.advise(lemans("7.2"))
    text = aix_text(result)
    assert "strict_maxperm" not in text
    assert "lru_file_repage" not in text
    vmo = by_setting(result, "aix.vmo")
    assert set(vmo) == {"check:vmstat -v"}
    check = vmo["check:vmstat -v"]
    assert check["kind"] == "check"
    assert check["extra"]["command"] == "check"
    assert check["extra"]["argv"] == "vmstat -v"
    assert "maxperm percentage 90.0" in check["extra"]["expect"]


def test_aix_72_checks_restricted_sync_release_ilock_instead_of_changing_it() -> None:
    """IBM 'Tunable parameters type': restricted tunables are not for end users."""
    out = by_setting(rules.advise(lemans("7.2")), "aix.ioo")
    assert "sync_release_ilock" not in out
    check = out["check:ioo -o sync_release_ilock"]
    assert check["kind"] == "check" and check["extra"]["argv"] == "ioo -o sync_release_ilock"
    assert check["extra"]["expect"].startswith("0 (the default); the paper set 1")
    assert "not for end users" in check["rationale"] and "unconfirmed" in check["rationale"]
    assert out["j2_minPageReadAhead"]["extra"]["restricted"] == "no"
    assert out["j2_minPageReadAhead"]["value"] == "16"


def test_aix_71_never_mentions_lru_file_repage() -> None:
    result = rules.advise(lemans("7.1"))
    assert "lru_file_repage" not in aix_text(result)
    assert set(by_setting(result, "aix.vmo")) == {"check:vmstat -v"}


def test_aix_61_checks_lru_file_repage_but_changes_nothing() -> None:
    out = by_setting(rules.advise(lemans("6.1")), "aix.vmo")
    assert set(out) == {"check:vmstat -v", "check:vmo -o lru_file_repage"}
    assert all(r["kind"] == "check" for r in out.values())
    assert "minperm% 3" in out["check:vmstat -v"]["rationale"]


def test_linux_gets_no_aix_output_at_all() -> None:
    result = rules.advise(lemans("9", os="linux"))
    assert aix_recs(result) == []
    assert [r for r in result["recommendations"] if r["rule"].startswith("aix.")] == []
    assert [w for w in result["warnings"] if w["rule"].startswith("aix.")] == []
    assert [s for s in result["skipped"] if s["rule"].startswith("aix.")] == []


def test_512k_transfers_scale_the_values_and_say_it_is_an_inference() -> None:
    doc = lemans()
    for entry in doc["storage"]:
        entry["max_transfer_kb"] = 512
    out = by_setting(rules.advise(doc), "aix.ioo")
    assert out["j2_minPageReadAhead"]["value"] == "32"
    assert out["j2_nPagesPerWriteBehindCluster"]["value"] == "256"
    assert out["sync_release_ilock"]["value"] == "1"
    assert "inference" in out["j2_minPageReadAhead"]["rationale"]


def test_small_transfers_never_go_below_the_defaults() -> None:
    doc = lemans()
    for entry in doc["storage"]:
        entry["max_transfer_kb"] = 64
    out = by_setting(rules.advise(doc), "aix.ioo")
    assert out["j2_minPageReadAhead"]["value"] == "4"
    assert out["j2_nPagesPerWriteBehindCluster"]["value"] == "32"


def test_max_page_read_ahead_check_follows_the_min() -> None:
    out = by_setting(rules.advise(lemans()), "aix.ioo")
    check = out["check:ioo -o j2_maxPageReadAhead"]
    assert check["extra"]["argv"] == "ioo -o j2_maxPageReadAhead"
    assert check["extra"]["expect"].startswith("at least 16")


def test_missing_max_transfer_skips_ioo_with_the_field_path() -> None:
    doc = lemans()
    for entry in doc["storage"]:
        del entry["max_transfer_kb"]
    result = rules.advise(doc)
    assert by_setting(result, "aix.ioo") == {}
    skipped = {(s["rule"], s["field"]) for s in result["skipped"]}
    assert ("aix.ioo", "storage[0].max_transfer_kb") in skipped


def test_adapter_checks_map_fscsi_to_fcs() -> None:
    result = rules.advise(lemans())
    argvs = [r["extra"]["argv"] for r in aix_recs(result) if r["rule"] == "aix.max_transfer"]
    assert argvs == [
        "lslv -l raid0lv01",
        "lslv -l raid5lv01",
        "lsattr -El fcs0 -a max_xfer_size",
        "lsattr -El fcs0 -a num_cmd_elems",
        "lsattr -El fcs1 -a max_xfer_size",
        "lsattr -El fcs1 -a num_cmd_elems",
    ]
    lslv = next(r for r in aix_recs(result) if r["extra"].get("argv") == "lslv -l raid0lv01")
    assert "0x40000 (256 KB)" in lslv["extra"]["expect"]


@pytest.mark.parametrize("version", ["5.3", "6.1", "7.1", "7.2", "7.3"])
def test_every_aix_recommendation_follows_the_renderer_schema(version: str) -> None:
    for rec in aix_recs(rules.advise(lemans(version))):
        extra = rec["extra"]
        if extra["command"] == "check":
            assert rec["kind"] == "check"
            assert all(TOKENS.match(t) for t in extra["argv"].split())
            assert extra["expect"] and "\n" not in extra["expect"]
        else:
            assert extra["command"] in ("ioo", "vmo")
            assert extra["restricted"] in ("yes", "no")
            assert extra["default"] != ""
            assert rec["value"].isdigit()


@settings(max_examples=60, deadline=None)
@given(
    version=st.sampled_from(["5.2", "5.3", "6.1", "7.1", "7.2", "7.3"]),
    transfer=st.integers(min_value=1, max_value=1048576),
    table_gb=st.floats(min_value=0, max_value=1000),
)
def test_release_invariants_hold_for_any_transfer_and_table(
    version: str, transfer: int, table_gb: float
) -> None:
    doc = lemans(version)
    doc["workload"]["largest_table_gb"] = table_gb
    for entry in doc["storage"]:
        entry["max_transfer_kb"] = transfer
    result = rules.advise(doc)
    text = aix_text(result)
    release = tuple(int(p) for p in version.split("."))
    if release >= (7, 2):
        assert "strict_maxperm" not in text
    if release >= (7, 1):
        assert "lru_file_repage" not in text
    if release >= (6, 1):
        assert all(r["kind"] == "check" for r in aix_recs(result) if r["rule"] == "aix.vmo")
    ioo = by_setting(result, "aix.ioo")
    low = int(ioo["j2_minPageReadAhead"]["value"])
    assert 2 <= low <= 128  # stays within j2_maxPageReadAhead's default
    assert int(ioo["j2_nPagesPerWriteBehindCluster"]["value"]) >= 32
