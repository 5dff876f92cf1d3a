#!/usr/bin/python3
"""Writes a synthetic scope-profiler run (schema 3, gzip + shuffle, chunked,
as scope-profiler writes runs of 16384 events or more) for the benchmark.

usage: make_run.py OUT.h5 ITERATIONS [RANKS] [--lanes L] [--compression C]

--compression gzip (default: level 4, as scope-profiler's `auto`), lzf,
zstd (level 3, chunks as the HDF5 zstd plugin stores them: see
tests/fixtures/gen/make_compressed.py), each after shuffle, or none; the
event columns keep h5py's automatic chunk length in every case.

Each rank records one `main` call around ITERATIONS `step` calls, each with
`solve` ⊃ `kernel` and an `assemble` after it: 4 * ITERATIONS + 1 calls per
rank, at perf-counter-like absolute nanoseconds.

With --lanes L (L > 1) the run was recorded with track_threads: each rank has
L threads running at the same time, each with its own `main` and
ITERATIONS / L steps (4 * ITERATIONS + L calls per rank), a `thread_ids`
column and a thread table; each region's row holds the calls of all threads,
interleaved in start order, as a threaded run records them."""
import os
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "gen"))
import make_compressed  # noqa: E402

args, lanes, compression = [], 1, "gzip"
argv = sys.argv[1:]
i = 0
while i < len(argv):
    if argv[i] in ("--lanes", "--compression"):
        if argv[i] == "--lanes":
            lanes = int(argv[i + 1])
        else:
            compression = argv[i + 1]
        i += 2
        continue
    if argv[i].startswith("--lanes="):
        lanes = int(argv[i].split("=", 1)[1])
    else:
        args.append(argv[i])
    i += 1
if compression not in ("gzip", "lzf", "zstd", "none"):
    sys.exit(f"make_run.py: --compression {compression}: gzip, lzf, zstd or none")
out, iterations = args[0], int(args[1])
ranks = int(args[2]) if len(args) > 2 else 1
names = ["main", "step", "solve", "kernel", "assemble"]
t0 = 123_456_789_000_000
rng = np.random.default_rng(7)


def lane_calls(rank, lane, count):
    """(starts, ends) per region for one thread's `count` iterations."""
    base = t0 + rank * 1_000 + lane * 137 + np.arange(count, dtype=np.int64) * 1_000
    jitter = rng.integers(0, 50, size=count, dtype=np.int64)
    step = (base + 1, base + 900)
    solve = (base + 10, base + 500 + jitter)
    kernel = (base + 20, base + 300 + jitter)
    assemble = (base + 600, base + 890)
    first = t0 + rank * 1_000 + lane * 137
    main = (np.array([first], dtype=np.int64), np.array([base[-1] + 1_000], dtype=np.int64))
    return [main, step, solve, kernel, assemble]


rows = []  # (rank, region id, starts, ends, thread ids or None)
for rank in range(ranks):
    if lanes <= 1:
        for rid, (s, e) in enumerate(lane_calls(rank, 0, iterations)):
            rows.append((rank, rid, s, e, None))
        continue
    per_lane = [iterations // lanes + (1 if l < iterations % lanes else 0) for l in range(lanes)]
    calls = [lane_calls(rank, l, per_lane[l]) for l in range(lanes)]
    for rid in range(len(names)):
        s = np.concatenate([calls[l][rid][0] for l in range(lanes)])
        e = np.concatenate([calls[l][rid][1] for l in range(lanes)])
        t = np.concatenate([np.full(len(calls[l][rid][0]), l, dtype=np.int64) for l in range(lanes)])
        order = np.argsort(s, kind="stable")
        rows.append((rank, rid, s[order], e[order], t[order]))

starts, durations, threads, offsets, counts, rank_col, region_col = [], [], [], [], [], [], []
offset = 0
for rank, rid, s, e, t in rows:
    deltas = np.diff(s, prepend=np.int64(0))
    starts.append(deltas)
    durations.append(e - s)
    if t is not None:
        threads.append(t)
    offsets.append(offset)
    counts.append(len(s))
    rank_col.append(rank)
    region_col.append(rid)
    offset += len(s)

str_t = h5py.string_dtype("utf-8")


def write_events(group, name, values):
    """An event column, chunked as h5py chooses and compressed as asked."""
    if compression == "gzip":
        group.create_dataset(name, data=values, chunks=True, compression="gzip", compression_opts=4,
                             shuffle=True, maxshape=(None,))
    elif compression == "lzf":
        group.create_dataset(name, data=values, chunks=True, compression="lzf", shuffle=True,
                             maxshape=(None,))
    elif compression == "none":
        group.create_dataset(name, data=values, chunks=True, maxshape=(None,))
    else:
        chunks = h5py._hl.filters.guess_chunk(values.shape, (None,), values.dtype.itemsize)
        make_compressed.write_zstd_dataset(group, name, values, h5py.h5t.py_create(values.dtype),
                                           values.shape, chunks, True, True, 3)


with h5py.File(out, "w") as f:
    f.attrs["scope_profiler_schema"] = np.int64(3)
    f.attrs["storage_layout"] = "columnar"
    f.create_group("metadata").attrs["mpi_size"] = np.int64(ranks)
    f.create_dataset("region_table/names", data=np.array(names, dtype=object), dtype=str_t)
    idx = f.create_group("rank_region_index")
    idx["region_ids"] = np.array(region_col, dtype=np.uint32)
    idx["ranks"] = np.array(rank_col, dtype=np.uint32)
    idx["event_offsets"] = np.array(offsets, dtype=np.uint64)
    idx["event_counts"] = np.array(counts, dtype=np.uint64)
    # Each region's source location, as scope-profiler records a decorated
    # function's (read only with --source-locations: bench/source-cost.mjs).
    idx["source_lines"] = np.array([10 + 7 * r for r in region_col], dtype=np.int64)
    idx.create_dataset("source_files", data=np.array([f"app/{names[r]}.py" for r in region_col],
                                                     dtype=object), dtype=str_t)
    idx.create_dataset("source_texts", data=np.array([f"def {names[r]}(state):" for r in region_col],
                                                     dtype=object), dtype=str_t)
    idx.create_dataset("tags", data=np.array(["[]"] * len(rows), dtype=object), dtype=str_t)
    ev = f.create_group("events")
    for name, col in (("start_deltas", starts), ("durations", durations), ("thread_ids", threads)):
        if col:
            write_events(ev, name, np.concatenate(col))
    if lanes > 1:
        t = f.create_group("thread_table")
        t["ranks"] = np.repeat(np.arange(ranks, dtype=np.uint32), lanes)
        t["index"] = np.tile(np.arange(lanes, dtype=np.int64), ranks)
        thread_names = ["MainThread"] + [f"worker-{l}" for l in range(1, lanes)]
        t.create_dataset("name", data=np.array(thread_names * ranks, dtype=object), dtype=str_t)
print(offset)
