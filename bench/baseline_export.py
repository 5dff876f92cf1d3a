#!/usr/bin/python3
"""The Python baseline of the benchmark: the speedscope export of a schema-3
file written the way a Python tool does it (h5py + numpy, vectorised
reconstruction, one dict per event, json.dump), following
shared/spec/scope-profiler-format.md. Lanes, filters and multi-file naming
are left out: the benchmark files have none.

usage: baseline_export.py IN.h5 OUT.json RANK[,RANK...]"""
import json
import sys

import h5py
import numpy as np


def read(path):
    with h5py.File(path, "r") as f:
        names = [n.decode() if isinstance(n, bytes) else n for n in f["region_table/names"][()]]
        idx = f["rank_region_index"]
        region_ids, ranks = idx["region_ids"][()], idx["ranks"][()]
        offsets, counts = idx["event_offsets"][()], idx["event_counts"][()]
        deltas, durations = f["events/start_deltas"][()], f["events/durations"][()]
        label = Path_stem(path)
    regions = {n: {} for n in names}
    for p in range(len(region_ids)):
        o, c = int(offsets[p]), int(counts[p])
        start = np.cumsum(deltas[o:o + c])
        regions[names[region_ids[p]]][int(ranks[p])] = (start, start + durations[o:o + c])
    return label, regions


def Path_stem(path):
    name = path.rsplit("/", 1)[-1]
    return name.rsplit(".", 1)[0] if "." in name[1:-1] else name


def build(regions, rank):
    order = sorted(regions, key=lambda n: min(float(s.min()) / 1e9 if len(s) else 0.0
                                               for s, _ in regions[n].values()))
    rows, starts, ends = [], [], []
    for row, name in enumerate(n for n in order if rank in regions[n]):
        s, e = regions[name][rank]
        starts.append(s); ends.append(e); rows.append(np.full(len(s), row)); 
    names = [n for n in order if rank in regions[n]]
    start, end, row = np.concatenate(starts), np.concatenate(ends), np.concatenate(rows)
    o = np.lexsort((-end, start))
    start, end, row = start[o], end[o], row[o]
    s2, e2 = 2 * start, 2 * end + (end == start)
    depth = np.arange(len(start)) - np.searchsorted(np.sort(e2), s2, side="right")
    parent = np.full(len(start), -1)
    for d in range(1, int(depth.max()) + 1):
        last = np.where(depth == d - 1, np.arange(len(start)), -1)
        last = np.maximum.accumulate(last)
        parent[depth == d] = last[depth == d]
    return names, start, end, row, parent


def profile(names, start, end, row, parent, frames, frame_of, origin, name):
    start_s, end_s = start / 1e9, end / 1e9
    children = [[] for _ in range(len(start))]
    roots = []
    for i, p in enumerate(parent.tolist()):
        (roots if p < 0 else children[p]).append(i)
    events = []
    stack = [(i, False) for i in reversed(roots)]
    while stack:
        i, closing = stack.pop()
        n = names[row[i]]
        if n not in frame_of:
            frame_of[n] = len(frames); frames.append({"name": n})
        if closing:
            events.append({"type": "C", "frame": frame_of[n], "at": float(end_s[i]) - origin})
            continue
        events.append({"type": "O", "frame": frame_of[n], "at": float(start_s[i]) - origin})
        stack.append((i, True))
        stack.extend((c, False) for c in reversed(children[i]))
    return {"type": "evented", "name": name, "unit": "seconds",
            "startValue": events[0]["at"], "endValue": events[-1]["at"], "events": events}


def main():
    src, out, ranks = sys.argv[1], sys.argv[2], [int(r) for r in sys.argv[3].split(",")]
    label, regions = read(src)
    built = [build(regions, r) for r in ranks]
    origin = min(float(b[1][0]) / 1e9 for b in built)
    frames, frame_of = [], {}
    profiles = [profile(*b, frames, frame_of, origin, f"rank {r}") for r, b in zip(ranks, built)]
    doc = {"$schema": "https://www.speedscope.app/file-format-schema.json",
           "exporter": "scope-speedscope@baseline", "name": label, "activeProfileIndex": 0,
           "shared": {"frames": frames}, "profiles": profiles}
    with open(out, "w") as f:
        json.dump(doc, f)


main()
