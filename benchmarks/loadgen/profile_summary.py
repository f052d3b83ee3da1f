"""The functions a py-spy profile (``--format raw``: collapsed stacks) spends most in.

python -m benchmarks.loadgen.profile_summary FILE [--top 30]
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path


def summarise(path: Path, top: int) -> None:
    own: Counter[str] = Counter()
    total_in: Counter[str] = Counter()
    samples = 0
    for line in path.read_text("utf-8").splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack:
            continue
        count = int(count_text)
        samples += count
        frames = stack.split(";")
        own[frames[-1]] += count
        for frame in set(frames):
            total_in[frame] += count
    print(f"{samples} samples")
    print("self time:")
    for frame, count in own.most_common(top):
        print(f"  {100 * count / samples:5.1f}%  {frame}")
    print("total time (in the function or below):")
    for frame, count in total_in.most_common(top):
        print(f"  {100 * count / samples:5.1f}%  {frame}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args()
    summarise(args.file, args.top)


if __name__ == "__main__":
    main()
