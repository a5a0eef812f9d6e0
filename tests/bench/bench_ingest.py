"""Ingest benchmark (run on demand, never in the suite): ``python -m tests.bench.bench_ingest``.

1. generates a synthetic TMX (tests/bench/gen_tmx.py) of 1,000,000 units and its 200,000-unit prefix
   into tests/bench/_data/ (gitignored; reused when present);
2. on the 200k file, one run each, every run in a fresh subprocess so peak RSS is its own:
   translate-toolkit ``tmxfile`` (parse, then read every unit's source and target), our reader
   ``iter_units`` with 2 worker processes, and our reader sequential (1 process);
3. our full ingest (``ingest_files``, Parquet out) on 200k and on 1M units, to show that peak RSS does
   not grow with the file.
Reports units/s (wall clock), CPU seconds (main process and worker processes), units per CPU-second
and peak RSS (main process; largest worker; main + workers together, sampled from /proc). The machine
is shared: wall-clock figures move with other people's load, so CPU figures and the load average are
printed too (units per CPU-second cannot show the gain from a second core, wall clock can). Options: ``--compare-units N``, ``--ingest-units N``, ``--skip-toolkit``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

DATA = Path(__file__).resolve().parent / "_data"


def _cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def _rss_mb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) // 1024
    except OSError:
        pass
    return 0


def _descendants(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as stat:
                    parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(parent, []).append(int(entry))
    out, stack = [], list(children.get(root, []))
    while stack:
        pid = stack.pop()
        out.append(pid)
        stack.extend(children.get(pid, []))
    return out


class _RssSampler(threading.Thread):
    """Samples /proc every 50 ms: peak of this process + its worker processes together, and the
    largest single worker (ru_maxrss of children is unusable: a fork+exec'd helper inherits the
    parent's RSS at fork time)."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.peak_total = self.peak_worker = 0
        self.stop = threading.Event()

    def run(self) -> None:
        me = os.getpid()
        while not self.stop.is_set():
            workers = [_rss_mb(pid) for pid in _descendants(me)]
            self.peak_total = max(self.peak_total, _rss_mb(me) + sum(workers))
            self.peak_worker = max([self.peak_worker, *workers])
            time.sleep(0.05)


def _child(mode: str, path: Path, workers: int) -> dict[str, object]:
    """Runs inside the measuring subprocess."""
    sampler = _RssSampler()
    sampler.start()
    started = time.perf_counter()
    extra: dict[str, object] = {}
    if mode == "toolkit":
        from translate.storage import tmx

        with open(path, "rb") as handle:
            store = tmx.tmxfile(handle)
        extra["parse_seconds"] = round(time.perf_counter() - started, 2)
        units = 0
        for unit in store.units:
            _text = (unit.source, unit.target)
            units += 1
    elif mode == "reader":
        from pipelines.readers.registry import iter_units

        units = sum(1 for _ in iter_units(path, workers=workers))
    else:
        from pipelines.ingest import ingest_files

        with tempfile.TemporaryDirectory() as out:
            summary = ingest_files([path], client="bench", out_dir=Path(out), workers=workers)
            extra["parquet_mb"] = round((Path(out) / "tm_units.parquet").stat().st_size / 2**20, 1)
        units = summary.units_read
        extra.update(kept=summary.units_kept, rejected=summary.units_rejected, duplicates=summary.duplicates)
    wall = time.perf_counter() - started
    sampler.stop.set()
    sampler.join()
    cpu_main, cpu_workers = _cpu(resource.RUSAGE_SELF), _cpu(resource.RUSAGE_CHILDREN)
    return {
        "mode": mode, "workers": workers, "file": path.name, "units": units, "seconds": round(wall, 2),
        "units_per_s": round(units / wall), "cpu_main_s": round(cpu_main, 2), "cpu_workers_s": round(cpu_workers, 2),
        "units_per_cpu_s": round(units / (cpu_main + cpu_workers)),  # robust to other people's load
        "load_average_1min": round(os.getloadavg()[0], 2),
        "peak_rss_main_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
        "peak_rss_largest_worker_mb": sampler.peak_worker, "peak_rss_main_plus_workers_mb": sampler.peak_total,
        **extra,
    }


def measure(mode: str, path: Path, workers: int = 2) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-m", "tests.bench.bench_ingest", "--child", mode, str(path),
                           str(workers)], check=True, capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[2])
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    print(json.dumps(result), flush=True)
    return result


def ensure_data(units: int) -> Path:
    from tests.bench.gen_tmx import write_synthetic_tmx

    path = DATA / f"synthetic_{units // 1000}k.tmx" if units % 1_000_000 else DATA / f"synthetic_{units // 1_000_000}m.tmx"
    if not path.exists():
        print(f"generating {path} ...", flush=True)
        write_synthetic_tmx(path, units)
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--child", nargs=3, metavar=("MODE", "PATH", "WORKERS"), help=argparse.SUPPRESS)
    parser.add_argument("--compare-units", type=int, default=200_000)
    parser.add_argument("--ingest-units", type=int, default=1_000_000)
    parser.add_argument("--skip-toolkit", action="store_true")
    args = parser.parse_args()
    if args.child:
        mode, path, workers = args.child
        print(json.dumps(_child(mode, Path(path), int(workers))))
        return 0
    small, big = ensure_data(args.compare_units), ensure_data(args.ingest_units)
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()}", flush=True)
    results = []
    if not args.skip_toolkit:
        results.append(measure("toolkit", small, 1))
    results.append(measure("reader", small, 2))
    results.append(measure("reader", small, 1))
    results.append(measure("ingest", small, 2))
    results.append(measure("ingest", big, 2))
    print(f"load average after: {os.getloadavg()}")
    if not args.skip_toolkit:
        toolkit, ours, ours_seq = results[0], results[1], results[2]
        for label, run in (("2 workers", ours), ("1 process", ours_seq)):
            wall = float(run["units_per_s"]) / float(toolkit["units_per_s"])  # type: ignore[arg-type]
            cpu = float(run["units_per_cpu_s"]) / float(toolkit["units_per_cpu_s"])  # type: ignore[arg-type]
            print(f"reader ({label}) vs translate-toolkit on {small.name}: {wall:.2f}x units/s wall clock, "
                  f"{cpu:.2f}x units per CPU-second (one run each); peak RSS "
                  f"{run['peak_rss_main_plus_workers_mb']} MB (main + workers) vs {toolkit['peak_rss_main_mb']} MB")
        cpu_ours = float(ours["cpu_main_s"]) + float(ours["cpu_workers_s"])  # type: ignore[arg-type]
        print(f"CPU seconds for the same units: reader (2 workers) {cpu_ours:.1f} (main {ours['cpu_main_s']}), "
              f"reader (1 process) {ours_seq['cpu_main_s']}, translate-toolkit {toolkit['cpu_main_s']}")
    (DATA / "results.json").write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
