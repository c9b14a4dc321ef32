#!/usr/bin/env python3
"""make test-spark: NDJSON with bad lines scattered in it, extracted by Spark (local[2], >= 8
partitions, one `magma extract` per partition) and by one `magma extract` process; the rows must
be the same (order aside), every bad line reported exactly once, nothing lost or doubled at a
split boundary."""
import glob
import json
import os
import random
import shutil
import subprocess
import sys
import time

magma, python, work = sys.argv[1], sys.argv[2], sys.argv[3]
fields = ["login=user.login", "number:int", "updated=updated_at:date", "title", "labels=labels.0.name"]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)

# The input: 40,000 records (some long, so splits fall inside lines), ~1 % bad lines of several kinds.
rng = random.Random(16)
path = os.path.join(work, "input.ndjson")
bad_lines = set()
with open(path, "w") as f:
    for i in range(40000):
        if rng.random() < 0.01:
            kind = rng.randrange(3)
            line = [f'{{"number": {i}, "title": "bad syntax {i}" oops}}',
                    f'{{"number": "n{i}", "title": "wrong type"}}',
                    f'{{"number": {i}, "updated_at": "not a date {i}"}}'][kind]
            bad_lines.add(line)
        else:
            record = {"number": i, "title": f"issue {i}" + "x" * rng.randrange(0, 800),
                      "user": {"login": f"user{i % 97}", "id": i}, "updated_at": "2024-01-31T12:34:56Z",
                      "labels": [{"name": "bug"}] if i % 3 == 0 else [], "body": "é ü \u2603 \\n"}
            line = json.dumps(record, ensure_ascii=False)
        f.write(line + "\n")
print(f"test-spark: {os.path.getsize(path) / 1e6:.1f} MB, 40000 lines, {len(bad_lines)} bad", file=sys.stderr)

args = []
for field in fields:
    args += ["--field", field]

# One process.
started = time.monotonic()
single = subprocess.run([magma, "extract", "--skip-bad", "--bad-to-stdout", "--quiet", "--no-header", "--format", "ndjson"] + args + [path],
                        check=True, capture_output=True, text=True).stdout.splitlines()
one_process = time.monotonic() - started
single_rows = sorted(l for l in single if not l.startswith("\x01"))
single_bad = [json.loads(l[1:]) for l in single if l.startswith("\x01")]

# Spark.
out = os.path.join(work, "spark-out")
started = time.monotonic()
subprocess.run([python, os.path.join(os.path.dirname(__file__), "spark-extract.py"), "--master", "local[2]", "--partitions", "8",
                "--magma", magma] + args + [path, out], check=True)
spark_wall = time.monotonic() - started
rows = sorted(l for p in glob.glob(os.path.join(out, "rows", "part-*")) for l in open(p).read().splitlines())
bad = [json.loads(l) for p in glob.glob(os.path.join(out, "bad", "part-*")) for l in open(p).read().splitlines()]
partitions = int(open(os.path.join(out, "_partitions")).read())

failures = []
if partitions < 8:
    failures.append(f"{partitions} partitions, expected at least 8")
if len(single_rows) != 40000 - len(bad_lines):
    failures.append(f"one process: {len(single_rows)} rows, expected {40000 - len(bad_lines)}")
if rows != single_rows:
    failures.append(f"Spark gave {len(rows)} rows, one process {len(single_rows)}; "
                    f"{len(set(rows) ^ set(single_rows))} differ")
for name, reports in [("one process", single_bad), ("Spark", bad)]:
    texts = sorted(r.get("text", "?") for r in reports)
    if texts != sorted(bad_lines):
        failures.append(f"{name}: {len(reports)} bad-line reports for {len(bad_lines)} bad lines "
                        f"(missing {len(bad_lines - set(texts))}, doubled {len(texts) - len(set(texts))})")
print(f"test-spark: Spark local[2] {spark_wall:.1f} s wall (with JVM start-up), one process {one_process:.2f} s; "
      f"{partitions} partitions, {len(rows)} rows, {len(bad)} bad lines reported", file=sys.stderr)
# A magma that fails (here: an unknown transformer) fails the job, rather than leaving partitions empty.
broken = subprocess.run([python, os.path.join(os.path.dirname(__file__), "spark-extract.py"), "--magma", magma,
                         "--field", "number:nope", path, os.path.join(work, "broken-out")], capture_output=True)
if broken.returncode == 0:
    failures.append("a failing magma did not fail the Spark job")
if failures:
    print("test-spark FAILED:\n  " + "\n  ".join(failures), file=sys.stderr)
    sys.exit(1)
print("test-spark: ok", file=sys.stderr)
