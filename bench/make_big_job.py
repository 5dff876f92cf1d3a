#!/usr/bin/python3
"""Writes the native engine's benchmark job (issue 34): RANKS ranks of
CALLS_PER_RANK calls each, the calls of make_ranks.py's `bench` job (step ⊃
solve ⊃ 32 kernels, then exchange; solve times drawn from a seeded
generator, rank 12 8 % slower), schema 3, gzip + shuffle, chunked, written
rank by rank so that its memory is one rank's calls, not the job's.

usage: make_big_job.py OUT.h5 RANKS CALLS_PER_RANK [SEED [CHUNK]]
       (512 ranks x 1 M calls: the 512 M-call job of docs/benchmarks.md;
       6 ranks x 4,000 calls, seed 1, chunks of 1,000 values: the test
       fixture h5/chunked/job_6x4000_gzip_s3.h5, every rank's rows over
       several chunks)
"""
import os
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "gen"))
from make_ranks import NAMES, VLEN, Rows, calls_of_rank, write_index  # noqa: E402

KERNELS = 32
CHUNK = 1 << 20


def main(argv):
    if len(argv) not in (3, 4, 5):
        sys.exit(__doc__)
    chunk = int(argv[4]) if len(argv) > 4 else CHUNK
    path, ranks, per_rank = argv[0], int(argv[1]), int(argv[2])
    rng = np.random.default_rng(int(argv[3]) if len(argv) > 3 else 1)
    steps = max(1, per_rank // (KERNELS + 3))
    solve = rng.integers(18_000, 22_000, size=(ranks, steps), dtype=np.int64)
    if ranks > 12:
        solve[12] = solve[12] * 108 // 100
    solve -= solve % KERNELS
    step_len = solve.max(axis=0) + 2_000
    starts = 1_700_000_000_000_000_000 + np.concatenate(([0], np.cumsum(step_len)[:-1]))
    rows = Rows()  # the index grows; each rank's columns are written and dropped
    with h5py.File(path, "w") as f:
        f.attrs.create("scope_profiler_schema", 3, dtype=np.int64)
        f.attrs["storage_layout"] = "columnar"
        f.create_group("metadata").attrs.create("mpi_size", ranks, dtype=np.int64)
        f.create_dataset("region_table/names", data=NAMES, dtype=VLEN)
        columns = {
            name: f.create_dataset("events/" + name, shape=(0,), maxshape=(None,), dtype=np.int64,
                                   chunks=(chunk,), compression="gzip", shuffle=True)
            for name in ("start_deltas", "durations")
        }
        for rank in range(ranks):
            regions = calls_of_rank(starts, step_len, solve[rank], KERNELS)
            for rid, name in enumerate(NAMES):
                rows.add(rid, rank, *regions[name])
            at = rows.at
            for name, parts in (("start_deltas", rows.deltas), ("durations", rows.durations)):
                data = np.concatenate(parts)
                ds = columns[name]
                ds.resize((at,))
                ds[at - len(data):at] = data
            rows.deltas, rows.durations = [], []
            print(f"rank {rank + 1}/{ranks}: {at:,} calls", file=sys.stderr, flush=True)
        write_index(f, rows.region_ids, rows.ranks, rows.offsets, rows.counts)


if __name__ == "__main__":
    main(sys.argv[1:])
