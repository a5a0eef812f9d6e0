"""Ingest benchmark (run on demand, never in the suite): ``python -m tests.bench.bench_ingest``.

Whole processes, measured alternately in one sitting: ``housestyle ingest FILE --out DIR`` (Parquet
written) against translate-toolkit's ``tmxfile`` merely parsing the same file and reading every
unit's source and target, on the synthetic TMX of tests/bench/gen_tmx.py (200,000 units, and
1,000,000 units; generated into tests/bench/_data/, gitignored, reused when present). Each run is
wrapped in ``/usr/bin/time -v`` (wall clock, user + system CPU of the process and its waited-for
children, and its largest process's peak RSS) while /proc is sampled every 50 ms for the peak RSS of
the whole process tree (main + workers together). The machine is shared: the load average is
printed before every run, and ``--rounds`` alternating rounds give medians.
Options: ``--sizes 200000,1000000``, ``--rounds 3``, ``--workers 2``, ``--skip-toolkit-above N``,
``--toolkit-mb-per-unit 0.0062`` (translate-toolkit holds ~6 KB a unit: its run is skipped, and said so,
when the machine has less memory available than it would take, since other people share it).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

DATA = Path(__file__).resolve().parent / "_data"
REPO = Path(__file__).resolve().parents[2]


def _rss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _tree(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as stat:
                    parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(parent, []).append(int(entry))
    out, stack = [], [root]
    while stack:
        pid = stack.pop()
        out.append(pid)
        stack.extend(children.get(pid, []))
    return out


class _TreeSampler(threading.Thread):
    """Peak of the summed RSS of a process and all its descendants (the time wrapper excluded)."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid, self.peak_kb = pid, 0
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            pids = [p for p in _tree(self.pid) if p != self.pid]  # the /usr/bin/time process itself is tiny
            self.peak_kb = max(self.peak_kb, sum(_rss_kb(p) for p in pids))
            time.sleep(0.05)


def _time_v(text: str) -> dict[str, float]:
    fields = {"Elapsed (wall clock) time (h:mm:ss or m:ss)": "wall", "User time (seconds)": "user",
              "System time (seconds)": "sys", "Maximum resident set size (kbytes)": "maxrss_kb"}
    out: dict[str, float] = {}
    for line in text.splitlines():
        key, _, value = line.strip().rpartition(": ")
        if key in fields:
            if fields[key] == "wall":
                parts = [float(p) for p in value.split(":")]
                out["wall"] = sum(p * 60 ** i for i, p in enumerate(reversed(parts)))
            else:
                out[fields[key]] = float(value)
    return out


def run_process(label: str, command: list[str]) -> dict[str, object]:
    load = os.getloadavg()
    process = subprocess.Popen(["/usr/bin/time", "-v", *command], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True, cwd=REPO)
    sampler = _TreeSampler(process.pid)
    sampler.start()
    _out, err = process.communicate()
    sampler.stop.set()
    sampler.join()
    if process.returncode != 0:
        raise RuntimeError(f"{label} failed: {err[-2000:]}")
    measured = _time_v(err)
    result: dict[str, object] = {
        "run": label, "load_1min_before": round(load[0], 2), "wall_s": measured["wall"],
        "cpu_s": round(measured["user"] + measured["sys"], 2), "maxrss_mb_time_v": round(measured["maxrss_kb"] / 1024),
        "peak_rss_mb_tree": round(sampler.peak_kb / 1024),
    }
    print(json.dumps(result), flush=True)
    return result


def available_mb() -> float:
    with open("/proc/meminfo", encoding="ascii") as meminfo:
        for line in meminfo:
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) / 1024
    return float("inf")


def toolkit_child(path: Path) -> int:
    """Runs inside the measured process: parse with translate-toolkit, read every source and target."""
    from translate.storage import tmx

    with open(path, "rb") as handle:
        store = tmx.tmxfile(handle)
    units = 0
    for unit in store.units:
        _text = (unit.source, unit.target)
        units += 1
    print(units)
    return 0


def ensure_data(units: int) -> Path:
    from tests.bench.gen_tmx import write_synthetic_tmx

    name = f"synthetic_{units // 1_000_000}m.tmx" if units % 1_000_000 == 0 else f"synthetic_{units // 1000}k.tmx"
    path = DATA / name
    if not path.exists():
        print(f"generating {path} ...", flush=True)
        write_synthetic_tmx(path, units)
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--toolkit-child", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--sizes", default="200000,1000000")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--skip-toolkit-above", type=int, default=10**9)
    parser.add_argument("--toolkit-mb-per-unit", type=float, default=0.0062)
    args = parser.parse_args()
    if args.toolkit_child:
        return toolkit_child(args.toolkit_child)
    housestyle = shutil.which("housestyle") or str(Path(sys.executable).with_name("housestyle"))
    print(f"machine: {os.cpu_count()} cores; load average {os.getloadavg()}", flush=True)
    results: list[dict[str, object]] = []
    for size in (int(s) for s in args.sizes.split(",")):
        path = ensure_data(size)
        for round_ in range(args.rounds):
            with tempfile.TemporaryDirectory(dir=DATA) as out:
                run = run_process(f"ours {size}", [housestyle, "ingest", str(path), "--out", out,
                                                  "--workers", str(args.workers)])
            results.append({**run, "size": size, "round": round_})
            needed = size * args.toolkit_mb_per_unit * 1.3
            if size <= args.skip_toolkit_above and available_mb() < needed:
                print(f"toolkit {size}: skipped, {available_mb():.0f} MB available < {needed:.0f} MB needed", flush=True)
            elif size <= args.skip_toolkit_above:
                run = run_process(f"toolkit {size}", [sys.executable, "-m", "tests.bench.bench_ingest",
                                                      "--toolkit-child", str(path)])
                results.append({**run, "size": size, "round": round_})
    print(f"load average after: {os.getloadavg()}")
    for size in sorted({int(r["size"]) for r in results}):  # type: ignore[call-overload]
        def median(who: str, key: str) -> float:
            values = [float(r[key]) for r in results if r["size"] == size and str(r["run"]).startswith(who)]  # type: ignore[arg-type]
            return statistics.median(values) if values else float("nan")
        ours, toolkit = median("ours", "wall_s"), median("toolkit", "wall_s")
        print(f"{size:,} units, medians of {args.rounds}: ours {ours:.2f} s wall, {median('ours', 'cpu_s'):.2f} s CPU, "
              f"{median('ours', 'peak_rss_mb_tree'):.0f} MB peak (tree), {median('ours', 'maxrss_mb_time_v'):.0f} MB "
              f"(time -v); toolkit {toolkit:.2f} s wall, {median('toolkit', 'cpu_s'):.2f} s CPU, "
              f"{median('toolkit', 'maxrss_mb_time_v'):.0f} MB; ratio by wall {toolkit / ours:.2f}x, "
              f"by CPU {median('toolkit', 'cpu_s') / median('ours', 'cpu_s'):.2f}x")
    (DATA / "results.json").write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
