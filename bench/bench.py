#!/usr/bin/python3
"""Benchmark: throughput and peak memory of the native CLI, the Node CLI
(WebAssembly) and a Python h5py + numpy baseline, measured in the same run on
the same inputs, with ratios. Run through `npm run bench` (which builds first).

usage: bench.py [--calls N] [--lanes L] [--repeat R] [--skip-python] [--skip-wasm]
                [--compressed-calls N] [--skip-compressed]
       bench.py --browser [bench/browser.mjs options]   (the page in headless Chromium)

Inputs: tests/fixtures/h5/large_s3.h5 (212,030 calls, ranks 0 and 1) and a
generated schema-3 run of N calls (default 1,000,001; gzip + shuffle, chunked,
as scope-profiler writes large runs; with --lanes L, recorded on L threads
at once, which the Python baseline leaves out). Each tool is run R times (default 3);
the best wall time and the largest peak RSS are reported. Outputs of all tools
must be identical (the "exporter" value aside), or the benchmark fails.

Then the compressions: one run of --compressed-calls calls (default
4,000,001) written four times, uncompressed, gzip, LZF and Zstandard (each
after shuffle, h5py's chunk length), converted by the native CLI and the Node
CLI; the table gives each file's size (bytes per call) and each conversion's
time against the uncompressed file's. All eight outputs must be identical.

Then a whole MPI job (--job-ranks R x --job-calls N calls a rank, default
64 x 1,500,000 = 96 M calls, written by tests/fixtures/gen/make_ranks.py):
the native timeline over every rank (timeline-bench: open, memory held and
peak a call, imbalance and alignedCalls over the whole run and over 1/1000
windows), the same in the wasm module in Node on a job of half the calls a
rank (bench/ranks_wasm.mjs; the whole job does not fit its 4 GB yet), and
`scope-speedscope imbalance` natively."""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NATIVE = os.path.join(ROOT, "build", "native", "scope-speedscope")
NODE_CLI = os.path.join(ROOT, "dist", "cli.js")
WASM_IN_PROCESS = os.path.join(ROOT, "bench", "wasm_convert.mjs")
BASELINE = os.path.join(ROOT, "bench", "baseline_export.py")
MAKE_RUN = os.path.join(ROOT, "bench", "make_run.py")
EXPORTER = re.compile(rb'"exporter": "[^"]*"')


def measure(cmd):
    """Wall seconds and peak RSS (MiB) of one command. GNU time reports the
    peak: a child of this (large) Python process would inherit its RSS."""
    with tempfile.NamedTemporaryFile("r") as report:
        start = time.perf_counter()
        proc = subprocess.run(["/usr/bin/time", "-o", report.name, "-f", "%M"] + cmd,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        wall = time.perf_counter() - start
        if proc.returncode != 0:
            sys.exit(f"bench: {' '.join(cmd)} failed: {proc.stderr.decode()}")
        return wall, int(report.read().strip().splitlines()[-1]) / 1024.0


def in_process(path, out, ranks):
    """Seconds of the wasm conversion alone (after Node start-up and init)."""
    proc = subprocess.run(["node", WASM_IN_PROCESS, path, out, ranks], check=True,
                          capture_output=True, text=True)
    return json.loads(proc.stdout)["convert_s"]


def normalised(path):
    with open(path, "rb") as f:
        return EXPORTER.sub(b'"exporter": ""', f.read(), count=1)


def main():
    if "--browser" in sys.argv[1:]:
        rest = [a for a in sys.argv[1:] if a != "--browser"]
        sys.exit(subprocess.run(["node", os.path.join(ROOT, "bench", "browser.mjs")] + rest).returncode)
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=1_000_001)
    ap.add_argument("--lanes", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--skip-python", action="store_true")
    ap.add_argument("--skip-wasm", action="store_true")
    ap.add_argument("--compressed-calls", type=int, default=4_000_001)
    ap.add_argument("--skip-compressed", action="store_true")
    ap.add_argument("--job-ranks", type=int, default=64)
    ap.add_argument("--job-calls", type=int, default=1_500_000)
    ap.add_argument("--skip-job", action="store_true")
    ap.add_argument("--compare-calls", type=int, default=20_000_001)
    ap.add_argument("--skip-compare", action="store_true")
    args = ap.parse_args()
    if not os.path.exists(NATIVE):
        sys.exit("bench: build/native/scope-speedscope is missing: run npm run build first")
    work = tempfile.mkdtemp(prefix="scope-speedscope-bench-")
    generated = os.path.join(work, "generated.h5")
    iterations = max(1, (args.calls - 1) // 4)
    subprocess.run(["/usr/bin/python3", MAKE_RUN, generated, str(iterations), "--lanes", str(args.lanes)],
                   check=True, stdout=subprocess.DEVNULL)
    calls = 4 * iterations + max(1, args.lanes)
    lanes_text = f", {args.lanes} threads" if args.lanes > 1 else ""
    inputs = [
        ("large_s3.h5", os.path.join(ROOT, "tests", "fixtures", "h5", "large_s3.h5"), "0,1", 212_030),
        (f"generated ({calls:,} calls{lanes_text})", generated, "0", calls),
    ]
    rows = []
    for label, path, ranks, calls in inputs:
        tools = [("native", [NATIVE, path, "--ranks", ranks, "--quiet", "--filepath"])]
        if not args.skip_wasm:
            tools.append(("wasm (node)", ["node", NODE_CLI, path, "--ranks", ranks, "--quiet", "--filepath"]))
        if not args.skip_python and not (path == generated and args.lanes > 1):
            tools.append(("python baseline", ["/usr/bin/python3", BASELINE, path]))
        outputs = {}
        results = {}
        for name, cmd in tools:
            out = os.path.join(work, f"{name.split()[0]}.json")
            full = cmd + ([out, ranks] if name == "python baseline" else [out])
            best, peak = float("inf"), 0.0
            for _ in range(args.repeat if name != "python baseline" else 1):
                wall, rss = measure(full)
                best, peak = min(best, wall), max(peak, rss)
            results[name] = (best, peak)
            outputs[name] = normalised(out)
            os.remove(out)
        if not args.skip_wasm:
            out = os.path.join(work, "in-process.json")
            best = min(in_process(path, out, ranks) for _ in range(args.repeat))
            outputs["wasm (in-process)"] = normalised(out)
            os.remove(out)
            results["wasm in-process"] = (best, float("nan"))
        reference = outputs["native"]
        for name, data in outputs.items():
            if data != reference:
                sys.exit(f"bench: {name} output differs from native on {label}")
        # The input's event columns as they are decoded: start and end, int64
        # each, and the lane of each call when the run recorded threads.
        per_call = 24 if path == generated and args.lanes > 1 else 16
        columns_mib = calls * per_call / 2**20
        for name, (wall, rss) in results.items():
            rows.append((label, name, calls, wall, calls / wall, rss, columns_mib, len(reference)))
        native_wall = results["native"][0]
        if "python baseline" in results:
            rows.append((label, "=> native speed-up over python", results["python baseline"][0] / native_wall))
        if "wasm (node)" in results:
            rows.append((label, "=> wasm CLI time / native CLI time", results["wasm (node)"][0] / native_wall))
            rows.append((label, "=> wasm conversion in Node / native CLI time",
                         results["wasm in-process"][0] / native_wall))
    print(f"{'input':28} {'tool':18} {'calls':>10} {'wall s':>8} {'calls/s':>12} {'peak MiB':>9} "
          f"{'columns MiB':>11} {'JSON MiB':>9}")
    for row in rows:
        if len(row) == 3:
            print(f"{row[0]:28} {row[1]}: {row[2]:.1f}x")
        else:
            label, name, calls, wall, rate, rss, cols, size = row
            rss_text = "-" if rss != rss else f"{rss:.1f}"
            print(f"{label:28} {name:18} {calls:>10,} {wall:>8.3f} {rate:>12,.0f} {rss_text:>9} "
                  f"{cols:>11.1f} {size / 2**20:>9.1f}")
    print("outputs identical across tools: yes")
    if not args.skip_compressed:
        compressions(args, work)
    if not args.skip_job:
        whole_job(args, work)
    if not args.skip_compare:
        compare(args, work)


MAKE_RANKS = os.path.join(ROOT, "tests", "fixtures", "gen", "make_ranks.py")
TIMELINE_BENCH = os.path.join(ROOT, "build", "native", "timeline-bench")
RANKS_WASM = os.path.join(ROOT, "bench", "ranks_wasm.mjs")


def whole_job(args, work):
    """Every rank of a job: the timeline natively and in wasm, and the CLI's imbalance."""
    job = os.path.join(work, "job.h5")
    half = os.path.join(work, "job-half.h5")
    subprocess.run(["/usr/bin/python3", MAKE_RANKS, "bench", job, str(args.job_ranks),
                    str(args.job_calls)], check=True)
    native = json.loads(subprocess.run([TIMELINE_BENCH, job, "all"], check=True,
                                       capture_output=True, text=True).stdout)
    wall, rss = measure([NATIVE, "imbalance", job])
    print(f"\nwhole job: {args.job_ranks} ranks, {native['calls']:,} calls")
    print(f"native timeline: open {native['open_s']:.1f} s (read {native['open_read_s']:.1f} s), "
          f"held {native['held_bytes_per_call']:.1f} B/call, peak {native['peak_bytes_per_call']:.1f} B/call")
    for key in ("imbalance_whole_ms", "imbalance_window_ms", "aligned_whole_ms", "aligned_first_ms",
                "aligned_window_ms"):
        print(f"  {key}: {native[key]:.2f}")
    print(f"native `imbalance` CLI: {wall:.1f} s, peak {rss:.0f} MiB")
    if args.skip_wasm:
        return
    subprocess.run(["/usr/bin/python3", MAKE_RANKS, "bench", half, str(args.job_ranks),
                    str(args.job_calls // 2)], check=True)
    for path in (half, job):
        out = subprocess.run(["node", RANKS_WASM, path], capture_output=True, text=True)
        print(f"wasm (node) on {os.path.basename(path)}: {out.stdout.strip() or out.stderr.strip()}")


COMPARE_WASM = os.path.join(ROOT, "bench", "compare_wasm.mjs")


def compare(args, work):
    """Two runs compared: the native `diff`, and compareRuns in wasm against opening one run."""
    iterations = max(1, (args.compare_calls - 1) // 4)
    # B is A written again: the work does not depend on what differs.
    runs = []
    for name in ("a", "b"):
        path = os.path.join(work, f"compare-{name}.h5")
        subprocess.run(["/usr/bin/python3", MAKE_RUN, path, str(iterations)], check=True,
                       stdout=subprocess.DEVNULL)
        runs.append(path)
    calls = 4 * iterations + 1
    best, peak = float("inf"), 0.0
    for _ in range(args.repeat):
        wall, rss = measure([NATIVE, "diff", runs[0], runs[1]])
        best, peak = min(best, wall), max(peak, rss)
    print(f"\ncompare: two runs of {calls:,} calls")
    print(f"native `diff`: {best:.2f} s, peak {peak:.0f} MiB (bound: 5 s)")
    if args.skip_wasm:
        return
    one = json.loads(subprocess.run(["node", COMPARE_WASM, "one", runs[0], runs[1]], check=True,
                                    capture_output=True, text=True).stdout)
    both = json.loads(subprocess.run(["node", COMPARE_WASM, "both", runs[0], runs[1]], check=True,
                                     capture_output=True, text=True).stdout)
    print(f"wasm: open one {one['open_s']:.1f} s ({one['grew_MB']:.0f} MB), compare both "
          f"{both['open_s']:.1f} s ({both['grew_MB']:.0f} MB): {both['open_s'] / one['open_s']:.2f}x "
          f"the time (bound 2.5x), {both['grew_MB'] / one['grew_MB']:.2f}x the memory (bound 2x)")
    print(f"  aligned, whole run: {both['aligned_whole_ms']:.2f} ms; 1/1000 windows: "
          f"{both['aligned_window_ms']:.2f} ms")


COMPRESSIONS = ["none", "gzip", "lzf", "zstd"]


def compressions(args, work):
    """The same run in each compression, through the native and the Node CLI."""
    iterations = max(1, (args.compressed_calls - 1) // 4)
    calls = 4 * iterations + 1
    tools = [("native", [NATIVE])] + ([] if args.skip_wasm else [("wasm (node)", ["node", NODE_CLI])])
    reference = None
    times = {}
    print(f"\n{'compression':12} {'file MiB':>9} {'B/call':>7} {'tool':12} {'wall s':>8} {'calls/s':>12} "
          f"{'peak MiB':>9} {'vs none':>8}")
    for compression in COMPRESSIONS:
        folder = os.path.join(work, compression)
        os.makedirs(folder)
        path = os.path.join(folder, "run.h5")  # one name: one label, the same bytes
        subprocess.run(["/usr/bin/python3", MAKE_RUN, path, str(iterations), "--compression", compression],
                       check=True, stdout=subprocess.DEVNULL)
        size = os.path.getsize(path)
        for name, cmd in tools:
            out = os.path.join(folder, "out.json")
            best, peak = float("inf"), 0.0
            for _ in range(args.repeat):
                wall, rss = measure(cmd + [path, "--quiet", "--filepath", out])
                best, peak = min(best, wall), max(peak, rss)
            data = normalised(out)
            reference = reference or data
            if data != reference:
                sys.exit(f"bench: {name} output of the {compression} run differs")
            os.remove(out)
            times[(compression, name)] = best
            ratio = best / times[("none", name)]
            print(f"{compression:12} {size / 2**20:>9.1f} {size / calls:>7.2f} {name:12} {best:>8.3f} "
                  f"{calls / best:>12,.0f} {peak:>9.1f} {ratio:>7.2f}x")
        os.remove(path)
    print(f"outputs identical across compressions and tools ({calls:,} calls): yes")


main()
