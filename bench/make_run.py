#!/usr/bin/python3
"""Writes a synthetic scope-profiler run (schema 3, gzip + shuffle, chunked,
as scope-profiler writes runs of 16384 events or more) for the benchmark.

usage: make_run.py OUT.h5 ITERATIONS [RANKS]

Each rank records one `main` call around ITERATIONS `step` calls, each with
`solve` ⊃ `kernel` and an `assemble` after it: 4 * ITERATIONS + 1 calls per
rank, at perf-counter-like absolute nanoseconds."""
import sys

import h5py
import numpy as np

out, iterations = sys.argv[1], int(sys.argv[2])
ranks = int(sys.argv[3]) if len(sys.argv) > 3 else 1
names = ["main", "step", "solve", "kernel", "assemble"]
t0 = 123_456_789_000_000
rng = np.random.default_rng(7)

rows = []  # (rank, region id, starts, ends)
for rank in range(ranks):
    base = t0 + rank * 1_000 + np.arange(iterations, dtype=np.int64) * 1_000
    jitter = rng.integers(0, 50, size=iterations, dtype=np.int64)
    step = (base + 1, base + 900)
    solve = (base + 10, base + 500 + jitter)
    kernel = (base + 20, base + 300 + jitter)
    assemble = (base + 600, base + 890)
    main = (np.array([t0 + rank * 1_000], dtype=np.int64), np.array([base[-1] + 1_000], dtype=np.int64))
    for rid, (s, e) in enumerate([main, step, solve, kernel, assemble]):
        rows.append((rank, rid, s, e))

starts, durations, offsets, counts, rank_col, region_col = [], [], [], [], [], []
offset = 0
for rank, rid, s, e in rows:
    deltas = np.diff(s, prepend=np.int64(0))
    starts.append(deltas)
    durations.append(e - s)
    offsets.append(offset)
    counts.append(len(s))
    rank_col.append(rank)
    region_col.append(rid)
    offset += len(s)

str_t = h5py.string_dtype("utf-8")
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
    idx["source_lines"] = np.full(len(rows), -1, dtype=np.int64)
    for col in ("source_files", "source_texts"):
        idx.create_dataset(col, data=np.array([""] * len(rows), dtype=object), dtype=str_t)
    idx.create_dataset("tags", data=np.array(["[]"] * len(rows), dtype=object), dtype=str_t)
    ev = f.create_group("events")
    for name, col in (("start_deltas", starts), ("durations", durations)):
        ev.create_dataset(name, data=np.concatenate(col), chunks=True, compression="gzip",
                          compression_opts=4, shuffle=True, maxshape=(None,))
print(offset)
