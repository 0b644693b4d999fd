"""The contract's validation: every problem by JSON path, unknown keys, hostile names."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rules
from rules.inventory import FILESYSTEMS, MEDIA, RAID_LEVELS, ROLES
from rules.validate import parse
from tests.conftest import example


def problems(document: Any) -> dict[str, list[str]]:
    with pytest.raises(rules.InventoryError) as info:
        parse(document)
    return info.value.as_dict()


@pytest.mark.parametrize("name", ["lemans-aix53-etl", "prime-spds-aix"])
def test_examples_are_valid(name: str) -> None:
    inv = parse(example(name))
    assert inv.to_dict()["server"]["hostname"] in ("lemans", "uxsas02p")


def test_defaults_are_filled_in() -> None:
    doc = example("prime-spds-aix")
    del doc["workload"]["growth_gb_per_week"]
    del doc["storage"][0]["stripe_kb"]
    doc["workload"]["mix"] = {"etl": 1}
    out = parse(doc).to_dict()
    assert out["workload"]["growth_gb_per_week"] == 0
    assert out["workload"]["mix"] == {"etl": 1, "summary": 0, "analytics": 0, "spds_query": 0}
    assert out["storage"][0]["stripe_kb"] is None
    assert out["storage"][0]["adapters"] == []


def test_every_problem_is_reported_at_once() -> None:
    doc = example("lemans-aix53-etl")
    doc["server"]["cpus"] = 0
    doc["storage"][1]["mount"] = "raid5"
    doc["storage"][0]["colour"] = "blue"
    doc["workload"]["mix"] = {"etl": 0.5, "summary": 0.2}
    found = problems(doc)
    assert set(found) == {
        "server.cpus",
        "storage[1].mount",
        "storage[0].colour",
        "workload.mix",
    }
    assert found["storage[0].colour"] == ["unknown field"]
    assert "sum to 1" in found["workload.mix"][0]


# docs/contract.md: the mix shares sum to 1 (±0.01). The edges must pass whatever binary
# floats make of them (1.01 − 1 is 0.010000000000000009), and just past them must fail.
@pytest.mark.parametrize(
    "mix",
    [{"etl": 0.99}, {"etl": 0.51, "summary": 0.5},
     {"etl": 0.33, "summary": 0.33, "analytics": 0.34},
     {"etl": 0.5, "summary": 0.51}, {"etl": 0.49, "summary": 0.5},
     {"etl": 0.7, "summary": 0.1, "analytics": 0.1, "spds_query": 0.1},
     {"etl": 0.1 + 0.1 + 0.1 + 0.1 + 0.1 + 0.1, "summary": 0.1 + 0.1 + 0.1 + 0.1}],
)  # fmt: skip
def test_mix_within_the_tolerance_passes_despite_float_error(mix: dict[str, float]) -> None:
    doc = example("lemans-aix53-etl")
    doc["workload"]["mix"] = mix
    assert parse(doc).workload.mix.etl == mix["etl"]


@pytest.mark.parametrize(
    "mix", [{"etl": 0.989}, {"etl": 0.511, "summary": 0.5}, {"etl": 0.5, "summary": 0.52}]
)
def test_mix_past_the_tolerance_fails(mix: dict[str, float]) -> None:
    doc = example("lemans-aix53-etl")
    doc["workload"]["mix"] = mix
    assert "sum to 1 (±0.01)" in problems(doc)["workload.mix"][0]


@pytest.mark.parametrize(
    "hostname",
    ["", "-lead", "trail-", "a" * 64, "semi;colon", "sp ace", "x$(reboot)", "a..b", "é", "a_b",
     ".".join(["a" * 63] * 4) + ".aa", "host\nname", "lemans\n", "lemans\r"],
)  # fmt: skip
def test_hostile_hostnames_are_refused(hostname: str) -> None:
    doc = example("lemans-aix53-etl")
    doc["server"]["hostname"] = hostname
    assert "server.hostname" in problems(doc)


@pytest.mark.parametrize(
    "mount",
    ["relative", "/a b", "/a;rm -rf /", "/$(id)", "/a/../etc", "/a//b", "/a/./b", "/`x`",
     "/a'b", '/a"b', "/a\nb", "/tmp/é", "/" + "a" * 1024, "/raid0\n"],
)  # fmt: skip
def test_hostile_mount_points_are_refused(mount: str) -> None:
    doc = example("lemans-aix53-etl")
    doc["storage"][0]["mount"] = mount
    assert "storage[0].mount" in problems(doc)


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("server", "ram_gb"), 0),
        (("server", "ram_gb"), True),
        (("server", "ram_gb"), float("nan")),
        (("server", "cpus"), 4097),
        (("server", "cpus"), 2.5),
        (("server", "os"), "os2"),
        (("server", "os_version"), "7.2; reboot"),
        (("sas", "version"), "8.2"),
        (("sas", "connect_licensed"), "yes"),
        (("workload", "concurrent_sessions"), 0),
        (("workload", "largest_table_gb"), -1),
        (("schema_version",), 2),
        (("name",), "x" * 201),
        # A 400-digit integer once overflowed converting to a float (a crash, not a problem).
        (("server", "ram_gb"), 10**400),
        (("workload", "largest_table_gb"), -(10**400)),
        (("server", "cpus"), 10**400),
        # A lone surrogate is valid JSON ("\ud800") but no UTF-8 text can store it.
        (("name",), "lemans \ud800"),
    ],
)
def test_out_of_range_values_name_their_field(path: tuple[str, ...], value: Any) -> None:
    doc = example("lemans-aix53-etl")
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    assert ".".join(path) in problems(doc)


def test_storage_entries_name_their_index() -> None:
    doc = example("prime-spds-aix")
    doc["storage"][3]["adapters"] = ["fscsi0", "fc;rm"]
    doc["storage"][5]["raid"] = 5
    doc["storage"][7]["mount"] = doc["storage"][6]["mount"]
    found = problems(doc)
    assert set(found) == {"storage[3].adapters[1]", "storage[5].raid", "storage[7].mount"}


def test_too_many_storage_entries() -> None:
    doc = example("lemans-aix53-etl")
    entry = doc["storage"][0]
    doc["storage"] = [dict(entry, mount=f"/w{i}") for i in range(513)]
    assert "storage" in problems(doc)


def test_a_missing_field_is_reported_beside_optional_ones() -> None:
    doc = example("lemans-aix53-etl")
    entry = doc["storage"][0]
    del entry["disks"], entry["media"]
    entry |= {"stripe_kb": None, "max_transfer_kb": 256, "adapters": []}
    assert problems(doc) == {
        "storage[0].disks": ["is required"],
        "storage[0].media": ["is required"],
    }


def test_not_an_object() -> None:
    assert problems([1, 2]) == {"$": ["must be an object"]}


def test_missing_sections_are_required() -> None:
    found = problems({"schema_version": 1})
    for key in ("name", "server", "sas", "storage", "workload"):
        assert found[key] == ["is required"]


def test_bad_document_generates_nothing() -> None:
    doc = copy.deepcopy(example("lemans-aix53-etl"))
    doc["server"]["hostname"] = "bad host"
    with pytest.raises(rules.InventoryError):
        rules.advise(doc)


STORAGE_VALUES = {
    "name": st.sampled_from(["lv0", "raid0lv01", "", "a" * 65, "bad name", 7, None]),
    "mount": st.sampled_from(["/", "/raid0", "/a/b.c", "/a/../b", "//a", "/a/", "/./a",
                              "/..", "/.x", "/a\n", "rel", 3, None]),
    "role": st.sampled_from([*ROLES, "Work", 1]),
    "raid": st.sampled_from([*RAID_LEVELS, 5, "7"]),
    "disks": st.sampled_from([1, 2, 100000, 0, 100001, True, 2.0, "2"]),
    "size_gb": st.sampled_from([0.5, 1, 1e9, 0, -1, 1e10, float("nan"), float("inf"), True]),
    "media": st.sampled_from([*MEDIA, "tape"]),
    "filesystem": st.sampled_from([*FILESYSTEMS, "btrfs"]),
    "stripe_kb": st.sampled_from([None, 64, 0, 1048577, 64.0, False]),
    "max_transfer_kb": st.sampled_from([None, 256, 0, "256"]),
    "adapters": st.sampled_from([None, [], ["fscsi0"], ["a;b"], "fscsi0", ["x"] * 65, [1]]),
    "colour": st.just("blue"),
}  # fmt: skip


@given(
    st.dictionaries(
        st.sampled_from(sorted(STORAGE_VALUES)), st.none(), max_size=len(STORAGE_VALUES)
    ).flatmap(lambda keys: st.fixed_dictionaries({k: STORAGE_VALUES[k] for k in keys}))
)
def test_any_storage_entry_parses_or_names_its_own_fields(raw: Any) -> None:
    doc = example("lemans-aix53-etl")
    doc["storage"] = [raw]
    try:
        inv = parse(doc)
    except rules.InventoryError as exc:
        assert exc.problems
        assert all(p.path.startswith("storage[0]") for p in exc.problems)
    else:
        (entry,) = inv.storage
        assert entry.path == "storage[0]"
        assert parse(inv.to_dict()) == inv  # the echo parses back to the same inventory


def test_each_storage_entry_knows_its_json_path() -> None:
    inv = parse(example("prime-spds-aix"))
    assert [s.path for s in inv.storage[:3]] == ["storage[0]", "storage[1]", "storage[2]"]


def test_the_type_hints_name_the_same_choices_as_the_contract() -> None:
    from typing import get_args

    from rules import inventory as c

    assert get_args(c.OsName) == c.OS_CHOICE.options
    assert get_args(c.Role) == c.ROLE_CHOICE.options
    assert get_args(c.Raid) == c.RAID_CHOICE.options
    assert get_args(c.Media) == c.MEDIA_CHOICE.options
    assert get_args(c.Filesystem) == c.FS_CHOICE.options


@pytest.mark.parametrize(
    ("path", "value"),
    [(("storage", 0, "name"), "-a"), (("storage", 0, "devices"), ["hdisk4", "--force"]),
     (("storage", 0, "adapters"), ["-fscsi0"])],
)  # fmt: skip
def test_a_device_name_starting_with_a_dash_is_refused(path: tuple[Any, ...], value: Any) -> None:
    """Scripts pass device names to lsattr, chdev and the like, where "-a" is an option."""
    document = example("lemans-aix53-etl")
    target = document
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value

    with pytest.raises(rules.InventoryError) as refused:
        parse(document)

    assert "not starting with '-'" in str(refused.value)
