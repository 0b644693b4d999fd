"""Reading a large AIX server: parse and combine a bundle of 200 LUNs.

    uv run python benchmarks/parse.py [--iterations 200]

The bundle is built from real captured AIX output (tests/fixtures/parse/aix: lsattr -El
hdisk4 of an SVC LUN under AIXPCM, lspath, lslv, lsvg -l, lparstat -i, smtctl, prtconf,
ioo -a) repeated for 200 hdisks behind 50 striped logical volumes of 4 LUNs each, in the
collector's bundle format. Prints the median and p99 of `rules.parse.draft` (split,
parse every section, combine into a draft inventory) beside the target, and a fixed
reference loop timed in the same run, so a slow machine shows as such.

Also a 5 MB pasted transcript, the real whole-server transcripts of
tests/fixtures/transcripts repeated: its median against ≤ 1 s.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from engine import measure, p99, reference_loop  # noqa: E402

from rules.parse import draft  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures" / "parse" / "aix"
TARGET_MS = 50.0
TRANSCRIPTS = ROOT / "tests" / "fixtures" / "transcripts"
TRANSCRIPT_MB, TARGET_TRANSCRIPT_S = 5, 1.0
LUNS, LUNS_PER_LV = 200, 4


def output(name: str) -> str:
    lines = (FIXTURES / name).read_text(encoding="utf-8").splitlines()
    return "\n".join(line for line in lines if not line.startswith("## "))


def section(command: str, text: str) -> str:
    return f"@@@ cmd: {command}\n{text}\n@@@ end: rc=0\n"


def lv_sections(n: int, lslv: str) -> str:
    name, mount = f"saslv{n:02d}", f"/sas/fs{n:02d}"
    disks = [f"hdisk{n * LUNS_PER_LV + k + 2}" for k in range(LUNS_PER_LV)]
    striped = lslv.replace("testlv", name).replace("testvg", "sasvg")
    striped = striped.replace("N/A          ", f"{mount:<13}")
    pvs = "\n".join(f"{d:<18}003:000:000   100%          000:003:000:000:000" for d in disks)
    listing = f"{name}:{mount}\nPV                COPIES        IN BAND       DISTRIBUTION\n{pvs}"
    return section(f"lslv {name}", striped) + section(f"lslv -l {name}", listing)


def bundle() -> str:
    head = "# sas-tuning-advisor bundle 1\n# collector: benchmark\n"
    parts = [head, section("uname -a", "AIX sasaix 2 7 00F84C0A4C00")]
    parts.append(section("lparstat -i", output("lparstat_dedicated_smt4_younsl.txt")))
    parts.append(section("smtctl", output("smtctl_power8_smt4_younsl.txt")))
    parts.append(section("ioo -a", output("ioo_a_aix61_ahix.txt")))
    lvs = LUNS // LUNS_PER_LV
    rows = "\n".join(
        f"saslv{n:02d}           jfs2       512     512     4    open/syncd    /sas/fs{n:02d}"
        for n in range(lvs)
    )
    header = "sasvg:\nLV NAME             TYPE       LPs     PPs     PVs  LV STATE      MOUNT POINT"
    parts.append(section("lsvg -l sasvg", f"{header}\n{rows}"))
    mounts = "\n".join(
        f"         /dev/saslv{n:02d}     /sas/fs{n:02d}       jfs2   Jul 17 13:22 rw,log=INLINE"
        for n in range(lvs)
    )
    parts.append(section("mount", "  node       mounted        mounted over    vfs       date"
                         f"        options\n{mounts}"))  # fmt: skip
    lslv = output("lslv_testlv_not_striped_ansible.txt")
    parts.extend(lv_sections(n, lslv) for n in range(lvs))
    lsattr, lspath = (
        output("lsattr_hdisk4_aixpcm_bondhuang.txt"),
        output("lspath_l_hdisk3_bondhuang.txt"),
    )
    for d in range(2, LUNS + 2):
        parts.append(section(f"lsattr -El hdisk{d}", lsattr))
        parts.append(section(f"lspath -l hdisk{d}", re.sub(r"hdisk3\b", f"hdisk{d}", lspath)))
    return "".join(parts)


def transcripts(megabytes: float) -> str:
    """The real transcripts (header lines left out) repeated to `megabytes`."""
    texts = []
    for path in sorted(TRANSCRIPTS.glob("*.txt")):
        lines = path.read_text(encoding="utf-8").splitlines()
        texts.append("\n".join(line for line in lines if not line.startswith("## ")))
    one = "\n".join(texts) + "\n"
    return one * int(megabytes * 1024 * 1024 // len(one) + 1)


def transcript_case() -> bool:
    text = transcripts(TRANSCRIPT_MB)
    times = measure(lambda: draft(text), 5, warmup=1)
    median = statistics.median(times)
    print(f"transcript: {len(text) / 2**20:.1f} MiB, draft() median {median:.2f} s "
          f"(target: ≤ {TARGET_TRANSCRIPT_S:g} s)")  # fmt: skip
    return median <= TARGET_TRANSCRIPT_S


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    options.add_argument("--iterations", type=int, default=200)
    args = options.parse_args()
    text = bundle()
    found = draft(text)
    storage = found.document["storage"]
    assert len(storage) == LUNS // LUNS_PER_LV and found.problems == [], found.problems
    assert sum(len(s.get("devices", [])) for s in storage) == LUNS
    times = measure(lambda: draft(text), args.iterations, warmup=3)
    reference = statistics.median(measure(reference_loop, 300))
    median, worst = statistics.median(times) * 1e3, p99(times) * 1e3
    print(f"bundle: {len(text) / 1024:.0f} KiB, {text.count(chr(10))} lines, {LUNS} LUNs, "
          f"{len(storage)} file systems")  # fmt: skip
    print(f"reference loop: {reference * 1e3:.3f} ms")
    print(f"draft(): median {median:.1f} ms, p99 {worst:.1f} ms (target: ≤ {TARGET_MS:.0f} ms)")
    ok = worst <= TARGET_MS
    ok &= transcript_case()
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
