"""Reading hostile text: crafted worst cases beside real inputs, in seconds per MB.

    uv run python benchmarks/parse_hostile.py [--mb 4]

Each reader — the collector-bundle reader and the transcript reader (`rules.parse.draft`,
what the "Start from your server" page, verify and fleet zips call) and the SAS-log reader
(`rules.parse.saslog.read_log`, line by line) — is timed on real inputs scaled up by
repetition (examples/bundle-linux-vm.txt, tests/fixtures/transcripts, the logs in
tests/fixtures/parse/saslog) and on crafted ones of the same size: unterminated terminal
escapes, bare prompts, tiny sections by the thousand, very long lines, release and
platform NOTEs built to make a pattern backtrack. Prints seconds per MB with the target
beside each (crafted ≤ 3× the same reader's real input per MB), the 8 MB bare-prompt
transcript against ≤ 2 s, and a fixed reference loop timed in the same run, so a slow
machine shows as such.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from engine import measure, reference_loop  # noqa: E402

from rules.parse import draft  # noqa: E402
from rules.parse.saslog import read_log  # noqa: E402

MB = 1024 * 1024
TARGET_RATIO = 3.0  # crafted seconds per MB over the same reader's real seconds per MB
TARGET_BARE_PROMPTS_S, BARE_PROMPTS_MB = 2.0, 8
TRANSCRIPTS = ROOT / "tests" / "fixtures" / "transcripts"
LOGS = ROOT / "tests" / "fixtures" / "parse" / "saslog"
BUNDLE_HEAD = "# sas-tuning-advisor bundle 1\n# collector: benchmark\n"


def _fixture(path: Path) -> str:
    lines = path.read_text(encoding="utf-8").splitlines()
    return "\n".join(line for line in lines if not line.startswith("## ")) + "\n"


def _sized(unit: str, megabytes: float, head: str = "") -> str:
    size = int(megabytes * MB) - len(head)
    return head + (unit * (size // len(unit) + 1))[:size]


def _distinct(head: str, row: str, megabytes: float) -> str:
    """`head`, then `row` with {i} counting up until the text is `megabytes` long: every
    row a file system of its own, as a server with that many mounts would print."""
    parts, size, i = [head], len(head), 0
    while size < megabytes * MB:
        line = row.format(i=i)
        parts.append(line)
        size, i = size + len(line), i + 1
    return "".join(parts)


DF_HEAD = "# df -k\nFilesystem 1K-blocks Used Available Use% Mounted on\n"
LSVG_HEAD = "# lsvg -l datavg\ndatavg:\nLV NAME  TYPE  LPs  PPs  PVs  LV STATE  MOUNT POINT\n"
# Thousands of distinct file systems (a df row each was quadratic: 128 KB took 13 s).
MANY_MOUNTS = (
    ("distinct df rows", DF_HEAD, "/dev/sd{i} 1000 1 999 1% /m{i}\n"),
    ("distinct mount rows", "# mount\n", "/dev/mapper/vg-l{i} on /m{i} type xfs (rw)\n"),
    ("distinct lsvg -l rows", LSVG_HEAD, "lv{i} jfs2 1 1 1 open/syncd /m{i}\n"),
    ("distinct zfs list rows", "# zfs list\nNAME USED AVAIL REFER MOUNTPOINT\n",
     "p/d{i} 1G 1G 1G /d{i}\n"),
    ("distinct lsblk rows", "# lsblk\nNAME MAJ:MIN RM SIZE RO TYPE MOUNTPOINT\n",
     "sd{i} 8:0 0 1G 0 disk /m{i}\n"),
)  # fmt: skip


def real_inputs(mb: float) -> dict[str, str]:
    bundle = (ROOT / "examples" / "bundle-linux-vm.txt").read_text(encoding="utf-8")
    transcripts = "".join(_fixture(p) for p in sorted(TRANSCRIPTS.glob("*.txt")))
    logs = "".join(_fixture(p) for p in sorted(LOGS.glob("*.log")))
    return {"bundle": _sized(bundle, mb), "transcript": _sized(transcripts, mb),
            "saslog": _sized(logs, mb)}  # fmt: skip


def crafted_inputs(mb: float) -> dict[str, list[tuple[str, str]]]:
    """Per reader: (what, text) of the given size."""
    sections = "@@@ cmd: lscpu\n@@@ end: rc=0\n"
    release = "NOTE: SAS (r) 9.4 (" + "A" * 4000 + "\n"
    return {
        "bundle": [
            ("unterminated ESC ] (title)", _sized("\x1b]", mb, BUNDLE_HEAD)),
            ("unterminated ESC [ (colour)", _sized("\x1b[1;2;3;4", mb, BUNDLE_HEAD)),
            ("tiny sections", _sized(sections, mb, BUNDLE_HEAD)),
            ("one very long line", BUNDLE_HEAD + "@@@ cmd: lscpu\n" + _sized("a ", mb)),
            ("a section then blank lines", _sized("\n", mb, BUNDLE_HEAD + "@@@ cmd: lscpu\n")),
        ],
        "transcript": [
            ("bare prompts '# '", _sized("# \n", mb)),
            ("bare prompts '$ '", _sized("$ \n", mb)),
            ("bare prompts '[root@h ~]# '", _sized("[root@h ~]# \n", mb)),
            ("a prompt per line '$ lscpu'", _sized("$ lscpu\n", mb)),
            ("a prompt then blank lines", _sized("\n", mb, "$ lscpu\n")),
            ("long lines of signs 'a$ '", _sized("a$ " * 20_000 + "\n", mb)),
            ("unterminated ESC ] (title)", _sized("\x1b]", mb)),
            *((what, _distinct(head, row, mb)) for what, head, row in MANY_MOUNTS),
        ],
        "saslog": [
            ("release NOTEs, unclosed build", _sized(release, mb)),
            ("platform NOTEs, blank runs",
             _sized("NOTE: This session is executing on the x" + " " * 4000 + "y\n", mb)),
            ("source lines, blank runs", _sized("1" + " " * 4000 + "options x\n", mb)),
            ("OPTIONS statements, long names", _sized("1 options " + "a" * 4000 + "\n", mb)),
            ("footers, blank runs", _sized("NOTE: DATA statement used" + " " * 4000 + "x\n", mb)),
            ("very long lines", _sized("NOTE: " + "x" * 100_000 + "\n", mb)),
        ],
    }  # fmt: skip


READERS: dict[str, Callable[[str], object]] = {
    "bundle": draft,
    "transcript": draft,
    "saslog": lambda text: read_log(io.StringIO(text)),
}


def per_mb(reader: Callable[[str], object], text: str, rounds: int) -> float:
    """The best of `rounds` runs, in seconds per MB of text."""
    best = min(measure(lambda: reader(text), rounds, warmup=0))
    return best / (len(text) / MB)


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    options.add_argument("--mb", type=float, default=4.0)
    options.add_argument("--rounds", type=int, default=3)
    args = options.parse_args()
    reference = statistics.median(measure(reference_loop, 300))
    print(f"reference loop: {reference * 1e3:.3f} ms; inputs of {args.mb:g} MB")
    ok = True
    real = real_inputs(args.mb)
    for name, cases in crafted_inputs(args.mb).items():
        reader = READERS[name]
        base = per_mb(reader, real[name], args.rounds)
        print(f"{name}: real input {base:.3f} s/MB")
        for what, text in cases:
            seconds = per_mb(reader, text, args.rounds)
            ratio = seconds / base
            ok &= ratio <= TARGET_RATIO
            print(f"  {what:34} {seconds:7.3f} s/MB  {ratio:5.2f}× real "
                  f"(target: ≤ {TARGET_RATIO:g}×)")  # fmt: skip
    text = _sized("# \n", BARE_PROMPTS_MB)
    start = time.perf_counter()
    draft(text)
    seconds = time.perf_counter() - start
    ok &= seconds <= TARGET_BARE_PROMPTS_S
    print(f"{BARE_PROMPTS_MB} MB of bare prompts '# ': {seconds:.2f} s "
          f"(target: ≤ {TARGET_BARE_PROMPTS_S:g} s)")  # fmt: skip
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
