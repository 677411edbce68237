"""Runs the libFuzzer targets of fuzz/ (built by fuzz/build.sh) as a campaign and reports it.

    python fuzz/campaign.py --seconds 10                  the CI smoke run (tox -e fuzz-smoke)
    python fuzz/campaign.py --seconds 600 --coverage      a longer campaign (tox -e fuzz)
    python fuzz/campaign.py --build-dir build/fuzz-tsan   the TSan build (fuzz/build.sh thread)

Every configuration fuzzes for --seconds, starting from its committed seed corpus
(fuzz/corpus/<name>/) plus the working corpus of earlier runs (build/fuzz/campaign/<name>/).
A crash, sanitizer report, hang (-timeout per input), out-of-memory, accounting mismatch or
contract violation ends that configuration as FAILED: its reproducer is copied to
fuzz/crashes/<name>/ with the log, and the command that replays it is printed.

Figures reported per configuration: executions, exec/s, libFuzzer coverage (edges "cov" and
features "ft"), corpus size, peak RSS, and the target's own FUZZ-STATS line (inputs, msPTI calls,
records produced/accounted/delivered/dropped, bytes injected into channels, reports sent). With
--coverage the final corpus is replayed with -print_coverage=1 and the edges of msPTI's own
sources (csrc/mspti) that it reached are summed. A JSON summary goes to --summary.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FUZZ = REPO / "fuzz"
SUPPRESSIONS = FUZZ / "known_issues.supp"
LSAN_SUPPRESSIONS = FUZZ / "lsan.supp"
TSAN_SUPPRESSIONS = FUZZ / "tsan.supp"


@dataclass(frozen=True)
class Config:
    name: str
    binary: str
    env: dict[str, str] = field(default_factory=dict)
    max_len: int = 4096


CONFIGS = (
    Config("get_next_record", "fuzz_get_next_record"),
    Config("api_calls", "fuzz_api_calls"),
    Config("channel_bytes", "fuzz_channel_bytes", {"NPU_SIM_SOC": "Ascend910B3"}),
    Config("channel_bytes_v6", "fuzz_channel_bytes", {"NPU_SIM_SOC": "Ascend950PR_950z"}),
    Config("profapi_reports", "fuzz_profapi_reports"),
)


@dataclass
class Result:
    name: str
    status: str = "not run"  # passed | FAILED
    seconds: float = 0.0
    executions: int = 0
    exec_per_second: int = 0
    coverage_edges: int = 0
    features: int = 0
    corpus_units: int = 0
    new_units: int = 0
    peak_rss_mb: int = 0
    target_stats: dict[str, str] = field(default_factory=dict)
    mspti_edges: str = ""
    failure: str = ""
    reproducers: list[str] = field(default_factory=list)
    replay: str = ""


def symbolizer() -> str | None:
    for name in ("llvm-symbolizer-14", "llvm-symbolizer"):
        path = shutil.which(name)
        if path:
            return path
    return None


def build_sanitizer(build_dir: Path) -> str:
    """The sanitizer a fuzz build was configured with (FUZZ_SANITIZE in its CMake cache)."""
    cache = build_dir / "CMakeCache.txt"
    if cache.exists():
        for line in cache.read_text().splitlines():
            if line.startswith("FUZZ_SANITIZE:"):
                return line.split("=", 1)[1].strip()
    return "address"


def environment(config: Config, strict: bool, sanitizer: str = "address") -> dict[str, str]:
    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)
    env.setdefault("NPU_SIM_LOG_LEVEL", "off")
    ubsan = ["halt_on_error=1", "print_stacktrace=1"]
    if not strict and SUPPRESSIONS.exists():
        ubsan.append(f"suppressions={SUPPRESSIONS}")
    env["UBSAN_OPTIONS"] = ":".join(ubsan)
    env["ASAN_OPTIONS"] = "abort_on_error=1:detect_stack_use_after_return=1:strict_string_checks=1"
    env["LSAN_OPTIONS"] = f"suppressions={LSAN_SUPPRESSIONS}:print_suppressions=0"
    if sanitizer == "thread":
        # Tool noise only (libFuzzer's coverage counters), so also with --strict. libFuzzer writes the
        # failing unit from its SIGABRT handler (fopen, malloc): TSan's report of those calls would
        # stop the handler before the unit is written, and the process then hangs.
        env["TSAN_OPTIONS"] = (
            f"halt_on_error=1:second_deadlock_stack=1:report_signal_unsafe=0:suppressions={TSAN_SUPPRESSIONS}"
        )
    if sym := symbolizer():
        env["ASAN_SYMBOLIZER_PATH"] = sym
    env.update(config.env)
    return env


def replay_command(binary: Path, config: Config, env: dict[str, str], reproducer: Path) -> str:
    keys = ["UBSAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS", *config.env]
    settings = " ".join(f"{k}={env[k]}" for k in keys if k in env)
    return f"{settings} {binary} {reproducer}"


STAT = re.compile(r"^stat::(\w+):\s*(\d+)", re.MULTILINE)
PROGRESS = re.compile(r"^#(\d+)\s+\w+\s+cov: (\d+) ft: (\d+) corp: (\d+)/", re.MULTILINE)
TARGET_STATS = re.compile(r"^FUZZ-STATS (.*)$", re.MULTILINE)
ERROR_LINE = re.compile(
    r"(FUZZ-FAILURE|ERROR: (AddressSanitizer|LeakSanitizer|ThreadSanitizer|libFuzzer)|runtime error|"
    r"SUMMARY: |deadly signal|Timeout|out-of-memory)"
)


def parse_log(log: str, result: Result) -> None:
    stats = {m.group(1): int(m.group(2)) for m in STAT.finditer(log)}
    result.executions = stats.get("number_of_executed_units", 0)
    result.new_units = stats.get("new_units_added", 0)
    result.peak_rss_mb = stats.get("peak_rss_mb", 0)
    progress = PROGRESS.findall(log)
    if progress:
        last = progress[-1]
        result.executions = max(result.executions, int(last[0]))
        result.coverage_edges, result.features, result.corpus_units = int(last[1]), int(last[2]), int(last[3])
    found = TARGET_STATS.findall(log)
    if found:
        result.target_stats = dict(item.split("=", 1) for item in found[-1].split() if "=" in item)


def failure_excerpt(log: str) -> str:
    lines = log.splitlines()
    hits = [i for i, line in enumerate(lines) if ERROR_LINE.search(line)]
    if not hits:
        return "\n".join(lines[-30:])
    start = max(0, hits[0] - 2)
    return "\n".join(lines[start : start + 45])


# Per msPTI function (name and source line): the most edges any configuration's corpus covered, and
# its edge count; their sums give a lower bound of what all targets together cover.
UNION: dict[str, tuple[int, int]] = {}


def mspti_coverage(binary: Path, corpus: Path, env: dict[str, str]) -> str:
    """Edges of csrc/mspti reached by the corpus (libFuzzer -print_coverage=1)."""
    proc = subprocess.run(
        [str(binary), "-runs=0", "-print_coverage=1", str(corpus)],
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    covered = total = functions = reached = 0
    pattern = re.compile(r"^(UN)?COVERED_FUNC: hits: \d+ edges: (\d+)/(\d+) (.*) (\S+:\d+)$")
    for line in proc.stderr.splitlines():
        m = pattern.match(line)
        if not m or "/csrc/mspti/" not in m.group(5):
            continue
        key = f"{m.group(4)} {m.group(5)}"
        best = UNION.get(key, (0, int(m.group(3))))
        UNION[key] = (max(best[0], int(m.group(2))), best[1])
        covered += int(m.group(2))
        total += int(m.group(3))
        functions += 1
        reached += m.group(1) is None
    if total == 0:
        return "n/a"
    return f"{covered}/{total} edges ({100.0 * covered / total:.1f}%), {reached}/{functions} functions"


def coverage_only(config: Config, args: argparse.Namespace) -> Result:
    """The msPTI coverage of a configuration's existing working corpus, without fuzzing."""
    result = Result(config.name, status="passed")
    binary = args.build_dir / "bin" / config.binary
    corpus = args.build_dir / args.work_name / config.name / "corpus"
    if not corpus.is_dir():
        result.status = "FAILED"
        result.failure = f"no working corpus at {corpus}"
        return result
    result.corpus_units = sum(1 for _ in corpus.iterdir())
    result.mspti_edges = mspti_coverage(binary, corpus, environment(config, args.strict, args.sanitizer))
    return result


def run_config(config: Config, args: argparse.Namespace) -> Result:
    result = Result(config.name)
    binary = args.build_dir / "bin" / config.binary
    if not binary.exists():
        result.status = "FAILED"
        result.failure = f"{binary} is missing: run fuzz/build.sh"
        return result
    work = args.build_dir / args.work_name / config.name
    corpus = work / "corpus"
    artifacts = work / "artifacts"
    if args.fresh and work.exists():
        shutil.rmtree(work)
    corpus.mkdir(parents=True, exist_ok=True)
    if artifacts.exists():
        shutil.rmtree(artifacts)
    artifacts.mkdir(parents=True)
    seeds = FUZZ / "corpus" / config.name
    env = environment(config, args.strict, args.sanitizer)
    cmd = [
        str(binary),
        str(corpus),
        *([str(seeds)] if seeds.is_dir() else []),
        f"-max_total_time={args.seconds}",
        f"-timeout={args.timeout}",
        f"-rss_limit_mb={args.rss_limit_mb}",
        f"-max_len={config.max_len}",
        f"-artifact_prefix={artifacts}/",
        "-print_final_stats=1",
        "-reload=0",
    ]
    started = time.monotonic()
    try:
        proc = subprocess.run(
            cmd, env=env, capture_output=True, text=True, timeout=args.seconds + args.timeout + 180
        )
        log, code = proc.stdout + proc.stderr, proc.returncode
    except subprocess.TimeoutExpired as expired:
        out = expired.stdout or b""
        err = expired.stderr or b""
        log = (out.decode() if isinstance(out, bytes) else out) + (
            err.decode() if isinstance(err, bytes) else err
        )
        code = -1
        log += "\nTimeout: the whole campaign process hung and was killed"
    result.seconds = round(time.monotonic() - started, 1)
    parse_log(log, result)
    if result.seconds > 0:
        result.exec_per_second = int(result.executions / result.seconds)
    (work / "last.log").write_text(log)

    found = sorted(p for p in artifacts.iterdir() if p.is_file())
    if code != 0 or found or "FUZZ-FAILURE" in log:
        result.status = "FAILED"
        result.failure = failure_excerpt(log)
        dest = FUZZ / "crashes" / config.name
        dest.mkdir(parents=True, exist_ok=True)
        if not found:
            # Failed outside an input (start-up, exit): keep the log as the report.
            found_log = dest / f"run-{int(time.time())}.log"
            found_log.write_text(log)
            result.reproducers.append(str(found_log.relative_to(REPO)))
        for artifact in found:
            target = dest / artifact.name
            shutil.copy2(artifact, target)
            (dest / f"{artifact.name}.log").write_text(log)
            result.reproducers.append(str(target.relative_to(REPO)))
            result.replay = replay_command(binary, config, env, target)
    else:
        result.status = "passed"
    if args.coverage and result.status == "passed":
        result.mspti_edges = mspti_coverage(binary, corpus, env)
    if args.update_corpus and result.status == "passed":
        seeds.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [str(binary), "-merge=1", str(seeds), str(corpus)], env=env, capture_output=True, timeout=1800
        )
    return result


def entries(suppressions: Path) -> list[str]:
    return [line for line in suppressions.read_text().splitlines() if line and not line.startswith("#")]


def describe(result: Result) -> str:
    s = result.target_stats
    lines = [
        f"== {result.name}: {result.status} ({result.seconds} s)",
        f"   executions {result.executions} ({result.exec_per_second}/s), "
        f"coverage cov={result.coverage_edges} ft={result.features}, "
        f"corpus {result.corpus_units} units (+{result.new_units}), peak RSS {result.peak_rss_mb} MB",
    ]
    if s:
        lines.append(
            "   target: "
            + ", ".join(
                f"{k}={s[k]}"
                for k in (
                    "inputs",
                    "threaded_inputs",
                    "api_calls",
                    "reports_sent",
                    "bytes_injected",
                    "records_expected",
                    "records_accounted",
                    "records_delivered",
                    "records_dropped",
                    "buffers_requested",
                    "buffers_completed",
                    "callbacks_paired",
                    "exits_withheld",
                    "late_flushes",
                    "dropped_by_kind",
                )
                if k in s and s[k] not in ("0", "-")
            )
        )
    if result.mspti_edges:
        lines.append(f"   msPTI source coverage by the corpus: {result.mspti_edges}")
    if result.status == "FAILED":
        lines.append("   failure:")
        lines.extend("     " + line for line in result.failure.splitlines())
        for path in result.reproducers:
            lines.append(f"   reproducer: {path}")
            artifact = REPO / path
            if artifact.exists() and not path.endswith(".log"):
                data = artifact.read_bytes()
                lines.append(
                    f"     {len(data)} bytes, sha1 {hashlib.sha1(data).hexdigest()}: {data[:64].hex()}"
                )
        if result.replay:
            lines.append(f"   replay: {result.replay}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=int, default=int(os.environ.get("FUZZ_SECONDS", "10")))
    parser.add_argument("--timeout", type=int, default=20, help="seconds one input may take (a hang)")
    parser.add_argument("--rss-limit-mb", type=int, default=3072)
    default_build = os.environ.get("FUZZ_BUILD_DIR") or str(REPO / "build" / "fuzz")
    parser.add_argument(
        "--build-dir",
        type=Path,
        default=Path(default_build),
        help="the fuzz build (default: FUZZ_BUILD_DIR, as fuzz/build.sh uses it, else build/fuzz)",
    )
    parser.add_argument("--targets", default="", help="comma-separated configuration names (default: all)")
    parser.add_argument("--coverage", action="store_true", help="report msPTI source coverage of the corpus")
    parser.add_argument(
        "--coverage-only", action="store_true", help="only report the coverage of the working corpora"
    )
    parser.add_argument("--update-corpus", action="store_true", help="merge new units into fuzz/corpus")
    parser.add_argument("--fresh", action="store_true", help="start from the seed corpus only")
    parser.add_argument(
        "--work-name",
        default="campaign",
        help="folder under the build directory for working corpora, logs and the summary",
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        default=os.environ.get("FUZZ_STRICT") == "1",
        help="no suppressions (fuzz/known_issues.supp) either",
    )
    parser.add_argument("--summary", type=Path, default=None, help="write the results as JSON")
    args = parser.parse_args(argv)
    args.build_dir = args.build_dir.resolve()
    args.sanitizer = build_sanitizer(args.build_dir)
    print(f"campaign: {args.build_dir} is a FUZZ_SANITIZE={args.sanitizer} build", flush=True)

    wanted = {t for t in args.targets.split(",") if t}
    unknown = wanted - {c.name for c in CONFIGS}
    if unknown:
        parser.error(f"unknown targets {sorted(unknown)}; known: {[c.name for c in CONFIGS]}")
    configs = [c for c in CONFIGS if not wanted or c.name in wanted]
    if args.sanitizer == "thread":
        used = [TSAN_SUPPRESSIONS]  # tool noise only, so also with --strict
    else:
        used = [] if args.strict or not SUPPRESSIONS.exists() else [SUPPRESSIONS]
    for path in used:
        print(f"campaign: suppressed ({path.relative_to(REPO)}): {entries(path)}", flush=True)

    results = []
    for config in configs:
        if args.coverage_only:
            result = coverage_only(config, args)
        else:
            print(f"campaign: fuzzing {config.name} for {args.seconds} s", flush=True)
            result = run_config(config, args)
        results.append(result)
        print(describe(result), flush=True)

    if UNION:
        covered = sum(c for c, _ in UNION.values())
        total = sum(t for _, t in UNION.values())
        reached = sum(1 for c, _ in UNION.values() if c > 0)
        print(
            f"campaign: msPTI source coverage of all corpora together (per-function maximum, a lower bound): "
            f"{covered}/{total} edges ({100.0 * covered / total:.1f}%), {reached}/{len(UNION)} functions"
        )
    failed = [r.name for r in results if r.status != "passed"]
    total_exec = sum(r.executions for r in results)
    print(
        f"campaign: {len(results)} configurations, {total_exec} executions, "
        f"{'FAILED: ' + ', '.join(failed) if failed else 'all passed'}"
    )
    default_name = "coverage.json" if args.coverage_only else "summary.json"
    summary = args.summary or args.build_dir / args.work_name / default_name
    summary.parent.mkdir(parents=True, exist_ok=True)
    summary.write_text(json.dumps([asdict(r) for r in results], indent=2))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
