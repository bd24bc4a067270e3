#!/usr/bin/env python3
"""Heatmaps of a `tcgemm-bench sweep` CSV: one PNG per table, laid out like the Markdown tables (rows = tile,
columns = padding or tile_k), TFLOP/s in each cell, skipped/failed cells grey with their mark, and the
ncu bank-conflict counts under the value when the CSV has them.

    /usr/bin/python3 tools/plot_sweep.py bench/results/table2.csv            # -> table2.png (or table2_<group>.png)
    /usr/bin/python3 tools/plot_sweep.py table3.csv --out-prefix plots/t3 --metric ratio_to_cublas

Needs matplotlib; we use Debian's package (apt-get install python3-matplotlib), which belongs to the
system interpreter /usr/bin/python3 (a pyenv or venv python3 may not see it). The arguments and the CSV
are checked before matplotlib is imported, so --help and input errors work without it.
"""

import argparse
import csv
import math
import os
import re
import statistics
import sys

TIMES = "\u00d7"
METRIC_LABELS = {
    "tflops": "TFLOP/s",
    "ratio_to_cublas": "fraction of cuBLAS DGEMM",
}
# Knobs a family does not have are left out of the titles (as in the Markdown tables).
FAMILY_KNOBS = {
    "shared_a": {"pad_a"},
    "shared_ab": {"pad_a", "pad_b", "stages"},
    "sm90_mma": {"stages"},
}
INT_COLUMNS = ("M", "N", "K", "tile_m", "tile_n", "tile_k", "pad_a", "pad_b", "stages")
# Empty for a point without a timing (skipped, failed, error), else a number.
NUMBER_COLUMNS = ("tflops", "cublas_tflops", "ratio_to_cublas")
NEEDED_COLUMNS = set(INT_COLUMNS) | {"family", "tflops", "status"}


def import_pyplot():
    """matplotlib.pyplot, imported only once the arguments and the CSV have passed their checks."""
    try:
        import matplotlib

        matplotlib.use("Agg")  # files only, no display needed
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit(
            "plot_sweep.py: matplotlib is missing. Install Debian's python3-matplotlib "
            "(apt-get install python3-matplotlib) and run this script with /usr/bin/python3."
        )
    return plt


def number(text):
    try:
        v = float(text)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(v) else v


def bad_cell(path, line, column, problem):
    sys.exit(f"plot_sweep.py: {path}:{line}: column {column}: {problem}")


def check_row(path, line, row):
    """Converts the integer columns in place; exits with file:line: column: problem on a malformed cell."""
    for key in sorted(NEEDED_COLUMNS):
        if row[key] is None:
            bad_cell(path, line, key, "missing (the line has fewer fields than the header)")
    for key in INT_COLUMNS:
        try:
            row[key] = int(row[key])
        except ValueError:
            bad_cell(path, line, key, f"{row[key]!r} is not an integer")
    for key in NUMBER_COLUMNS:
        text = row.get(key)
        if not text:
            continue
        try:
            value = float(text)
        except ValueError:
            bad_cell(path, line, key, f"{text!r} is not a number")
        if not math.isfinite(value):
            bad_cell(path, line, key, f"{text!r} is not a finite number")


def read_rows(path):
    try:
        with open(path, newline="", encoding="utf-8") as f:
            reader = csv.DictReader(f)
            if reader.fieldnames is None:
                sys.exit(f"plot_sweep.py: {path} is empty")
            missing = NEEDED_COLUMNS - set(reader.fieldnames)
            if missing:
                sys.exit(
                    f"plot_sweep.py: {path} is not a sweep CSV (missing columns: {', '.join(sorted(missing))})"
                )
            rows = []
            for row in reader:
                check_row(path, reader.line_num, row)  # line_num: the line the row ends on
                rows.append(row)
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        sys.exit(f"plot_sweep.py: {path}: {e}")
    if not rows:
        sys.exit(f"plot_sweep.py: {path} has no data rows")
    return rows


def column_axis(rows):
    """Same rule as choose_column_axis() in bench/sweep/sweep_format.cpp."""
    distinct = {k: {r[k] for r in rows} for k in ("tile_k", "pad_a", "pad_b", "stages")}
    pads_equal = all(r["pad_a"] == r["pad_b"] for r in rows)
    if len(distinct["tile_k"]) > 1:
        return "tile_k"
    if len(distinct["pad_a"]) > 1 and len(distinct["pad_b"]) > 1 and pads_equal:
        return "pad"
    if len(distinct["pad_a"]) > 1:
        return "pad_a"
    if len(distinct["pad_b"]) > 1:
        return "pad_b"
    if len(distinct["stages"]) > 1:
        return "stages"
    return "pad_a"


def column_value(r, axis):
    return r["pad_a"] if axis == "pad" else r[axis]


def column_label(axis, v):
    return f"pad_a = pad_b = {v}" if axis == "pad" else f"{axis} = {v}"


def row_label(r, axis):
    label = f"{r['tile_m']}{TIMES}{r['tile_n']}"
    return label if axis == "tile_k" else label + f"{TIMES}{r['tile_k']}"


def group_key(r, axis):
    """(title, file suffix) for the axes that are neither rows nor columns."""
    knobs = FAMILY_KNOBS.get(r["family"], {"pad_a", "pad_b", "stages"})
    parts, suffix = [], []
    if axis != "pad":
        show_a = "pad_a" in knobs and axis != "pad_a"
        show_b = "pad_b" in knobs and axis != "pad_b"
        if show_a and show_b and r["pad_a"] == r["pad_b"]:
            parts.append(f"pad_a = pad_b = {r['pad_a']}")
            suffix.append(f"pad{r['pad_a']}")
        else:
            if show_a:
                parts.append(f"pad_a = {r['pad_a']}")
                suffix.append(f"pada{r['pad_a']}")
            if show_b:
                parts.append(f"pad_b = {r['pad_b']}")
                suffix.append(f"padb{r['pad_b']}")
    if "stages" in knobs and axis != "stages":
        parts.append(f"stages = {r['stages']}")
        suffix.append(f"stages{r['stages']}")
    if r["M"] == r["N"] == r["K"]:
        size = f"M = N = K = {r['M']}"
    else:
        size = f"M = {r['M']}, N = {r['N']}, K = {r['K']}"
    title = f"{r['family']}, {size}" + (": " + ", ".join(parts) if parts else "")
    tag = "_".join([r["family"], f"{r['M']}x{r['N']}x{r['K']}"] + suffix)
    return title, tag


def compact(v):
    a = abs(v)
    for limit, scale, unit in ((999.5e6, 1e9, "G"), (999.5e3, 1e6, "M"), (999.5, 1e3, "k")):
        if a >= limit:
            s = v / scale
            return (f"{s:.0f}" if abs(s) >= 99.95 else f"{s:.1f}" if abs(s) >= 9.995 else f"{s:.2f}") + unit
    return f"{v:.0f}"


def cell_mark(status):
    """Text of a cell without a value (the Markdown tables show an en dash with a footnote)."""
    for prefix, mark in (("skipped", "skipped"), ("failed", "FAIL"), ("error", "error")):
        if status.startswith(prefix):
            return mark
    return "\u2013"


def plot_group(plt, title, rows, axis, metric, path):
    from matplotlib.colors import Normalize  # matplotlib is there: import_pyplot() has succeeded

    columns = sorted({column_value(r, axis) for r in rows})
    labels = []
    for r in rows:
        if row_label(r, axis) not in labels:
            labels.append(row_label(r, axis))
    cells = {(row_label(r, axis), column_value(r, axis)): r for r in rows}
    values = [[None] * len(columns) for _ in labels]
    for i, lab in enumerate(labels):
        for j, col in enumerate(columns):
            r = cells.get((lab, col))
            if r is not None and r["status"] == "ok":
                values[i][j] = number(r.get(metric))
    finite = [v for row in values for v in row if v is not None]
    vmin, vmax = (min(finite), max(finite)) if finite else (0.0, 1.0)
    if vmax <= vmin:
        vmax = vmin + 1.0
    norm = Normalize(vmin=vmin, vmax=vmax)
    cmap = plt.get_cmap("viridis").copy()
    cmap.set_bad("#d9d9d9")  # cells without a value: light grey

    grid = [[float("nan") if v is None else v for v in row] for row in values]
    fig_w = max(6.0, 1.6 * len(columns) + 2.8)
    fig_h = max(3.2, 0.85 * len(labels) + 2.0)
    fig, ax = plt.subplots(figsize=(fig_w, fig_h), dpi=150)
    image = ax.imshow(grid, cmap=cmap, norm=norm, aspect="auto")
    ax.set_xticks(range(len(columns)), [column_label(axis, c) for c in columns])
    ax.set_yticks(range(len(labels)), labels)
    ax.set_xlabel("pad_a = pad_b" if axis == "pad" else axis)
    ax.set_ylabel("tile_m\u00d7tile_n" + ("" if axis == "tile_k" else "\u00d7tile_k"))
    ax.tick_params(which="both", length=0)
    ax.set_xticks([x - 0.5 for x in range(1, len(columns))], minor=True)
    ax.set_yticks([y - 0.5 for y in range(1, len(labels))], minor=True)
    ax.grid(which="minor", color="white", linewidth=2)
    for side in ax.spines.values():
        side.set_visible(False)

    for i, lab in enumerate(labels):
        for j, col in enumerate(columns):
            r = cells.get((lab, col))
            v = values[i][j]
            if r is None:
                continue
            if v is None:
                ax.text(j, i, cell_mark(r["status"]), ha="center", va="center", fontsize=10, color="#404040")
                continue
            # Dark text on the bright end of viridis, white on the dark end.
            text_color = "black" if norm(v) > 0.6 else "white"
            text = f"{v:.2f}" if metric == "ratio_to_cublas" else f"{v:.1f}"
            ld, st = number(r.get("bank_conflicts_ld")), number(r.get("bank_conflicts_st"))
            if ld is not None and st is not None:
                ax.text(j, i - 0.12, text, ha="center", va="center", fontsize=12, fontweight="bold", color=text_color)
                ax.text(j, i + 0.22, f"bank conflicts\n{compact(ld)} ld / {compact(st)} st", ha="center",
                        va="center", fontsize=6.5, color=text_color)
            else:
                ax.text(j, i, text, ha="center", va="center", fontsize=12, fontweight="bold", color=text_color)

    colorbar = fig.colorbar(image, ax=ax, fraction=0.05, pad=0.03)
    colorbar.set_label(METRIC_LABELS.get(metric, metric))
    device = rows[0].get("device", "")
    ax.set_title(f"{title}\n{METRIC_LABELS.get(metric, metric)}" + (f" on {device}" if device else ""), fontsize=10)
    cublas = [number(r.get("cublas_tflops")) for r in rows if r["status"] == "ok"]
    cublas = [c for c in cublas if c is not None]
    notes = []
    if cublas:
        notes.append(f"cuBLAS DGEMM on the same data: {statistics.median(cublas):.1f} TFLOP/s")
    if any(values[i][j] is None and cells.get((lab, col)) is not None
           for i, lab in enumerate(labels) for j, col in enumerate(columns)):
        notes.append("skipped / FAIL / error: the reason is in the CSV's status column")
    counter_texts = {r.get("bank_conflicts_ld", "") for r in rows if r["status"] == "ok"}
    if not any(number(t) is not None for t in counter_texts):
        counter_texts -= {"", "not measured"}
        if counter_texts:
            notes.append("bank conflicts: " + "; ".join(sorted(counter_texts)))
    if notes:
        fig.text(0.01, 0.01, "    ".join(notes), fontsize=7, color="#404040", ha="left", va="bottom")
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    fig.savefig(path)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("csv", help="CSV written by tcgemm-bench sweep --csv")
    parser.add_argument("--out-prefix", help="output path without .png (default: the CSV's path without .csv)")
    parser.add_argument("--metric", default="tflops", choices=sorted(METRIC_LABELS), help="value shown in the cells")
    args = parser.parse_args()

    rows = read_rows(args.csv)
    plt = import_pyplot()
    prefix = args.out_prefix or re.sub(r"\.csv$", "", args.csv)
    if args.metric != "tflops":
        prefix += "_" + args.metric
    axis = column_axis(rows)
    groups = {}
    for r in rows:
        title, tag = group_key(r, axis)
        groups.setdefault((title, tag), []).append(r)
    written = []
    for (title, tag), members in groups.items():
        path = f"{prefix}.png" if len(groups) == 1 else f"{prefix}_{tag}.png"
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        plot_group(plt, title, members, axis, args.metric, path)
        written.append(path)
    for path in written:
        print(path)


if __name__ == "__main__":
    main()
