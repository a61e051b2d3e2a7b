#!/usr/bin/env python3
"""Sweeps each strategy's main setting over the dev questions with `pagetree bench` and
prints one Markdown table per strategy; the defaults in src/search/strategy.rs cite it.

usage: scripts/bench_sweep.py PAGETREE_BINARY LIBRARY QUESTIONS [--per-document] [-- extra bench flags]
"""
import json
import subprocess
import sys

GRID = {
    "flat": [("--k", v) for v in (1, 2, 3, 5, 8, 10, 15)],
    "branch": [("--roots", v) for v in (1, 2, 3, 5, 8)],
    "beam": [("--width", v) for v in (1, 2, 3, 5, 8)],
    "knee": [("--max-roots", v) for v in (5, 10, 20, 40, 80)],
    "sensitive-knee": [("--sensitivity", v) for v in (0.0, 0.5, 0.7, 0.85, 0.95, 1.0)],
}


def bench(binary, library, questions, strategy, flag, value, extra):
    command = [binary, "--library", library, "bench", "--questions", questions,
               "--strategies", strategy, flag, str(value), "--json", *extra]
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return json.loads(out)["strategies"][0]


def main():
    args = sys.argv[1:]
    extra = []
    if "--" in args:
        cut = args.index("--")
        args, extra = args[:cut], args[cut + 1:]
    per_document = "--per-document" in args
    args = [a for a in args if a != "--per-document"]
    binary, library, questions = args
    if per_document:
        extra.append("--per-document")
    print(f"bench: {'per document' if per_document else 'whole library'} {' '.join(extra)}")
    for strategy, points in GRID.items():
        print(f"\n| {strategy} | hit rate | recall | pages | tokens | hits/1k tok | p50 ms |")
        print("|---|---|---|---|---|---|---|")
        for flag, value in points:
            r = bench(binary, library, questions, strategy, flag, value, extra)
            print(f"| {flag} {value} | {r['hit_rate']:.3f} | {r['page_recall']:.3f} | "
                  f"{r['mean_pages']:.1f} | {r['mean_tokens']:.0f} | "
                  f"{r['hits_per_1k_tokens']:.4f} | {r['median_latency_ms']:.1f} |", flush=True)


if __name__ == "__main__":
    main()
