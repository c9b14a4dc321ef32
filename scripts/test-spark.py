#!/usr/bin/env python3
"""make test-spark: a folder of two NDJSON files with bad lines scattered in them, extracted by
Spark (local[2], >= 8 partitions, one `magma extract` per partition) and by one `magma extract`
process per file. The rows must be the same (order aside), as a Parquet table of typed columns
and as NDJSON text; every bad line reported exactly once, with the file, byte offset, line, column
and record index one process gives it; nothing lost or doubled at a split boundary."""
import glob
import json
import os
import random
import shutil
import subprocess
import sys
import time

magma, python, work = sys.argv[1], sys.argv[2], sys.argv[3]
fields = ["login=user.login", "number:int", "updated=updated_at:date", "title", "labels=labels.0.name", "score:double", "open:bool"]
here = os.path.dirname(os.path.abspath(__file__))
shutil.rmtree(work, ignore_errors=True)
folder = os.path.join(work, "input")
os.makedirs(folder)

# The input: 25,000 and 15,000 records (some long, so splits fall inside lines), ~1 % bad lines
# of several kinds, blank lines and CRLF.
rng = random.Random(16)
bad_lines = {}
for name, count in [("a.ndjson", 25000), ("b.ndjson", 15000)]:
    bad_lines[name] = set()
    with open(os.path.join(folder, name), "w", newline="") as f:
        for i in range(count):
            if rng.random() < 0.01:
                line = [f'{{"number": {i}, "title": "bad syntax {i}" oops}}',
                        f'{{"number": "n{i}", "title": "wrong type"}}',
                        f'{{"number": {i}, "updated_at": "not a date {i}"}}'][rng.randrange(3)]
                bad_lines[name].add(line)
            else:
                record = {"number": i, "title": f"issue {i}" + "x" * rng.randrange(0, 800),
                          "user": {"login": f"user{i % 97}", "id": i}, "updated_at": "2024-01-31T12:34:56Z",
                          "labels": [{"name": "bug"}] if i % 3 == 0 else [], "body": "é ü \u2603 \\n",
                          "score": i / 8, "open": i % 2 == 0}
                line = json.dumps(record, ensure_ascii=False)
            f.write(line + ("\r\n" if i % 50 == 7 else "\n") + ("\n" if i % 997 == 3 else ""))
size = sum(os.path.getsize(p) for p in glob.glob(os.path.join(folder, "*")))
print(f"test-spark: {size / 1e6:.1f} MB in 2 files, 40000 records, {sum(map(len, bad_lines.values()))} bad", file=sys.stderr)

args = []
for field in fields:
    args += ["--field", field]

# One process per file: the rows, and each bad line's report.
started = time.monotonic()
single_rows, single_bad = [], []
for name in sorted(bad_lines):
    out = subprocess.run([magma, "extract", "--skip-bad", "--bad-to-stdout", "--quiet", "--no-header", "--format", "ndjson"] + args
                         + [os.path.join(folder, name)], check=True, capture_output=True, text=True).stdout.splitlines()
    single_rows += [l for l in out if not l.startswith("\x01")]
    single_bad += [dict(json.loads(l[1:]), file=name) for l in out if l.startswith("\x01")]
one_process = time.monotonic() - started
failures = []
expected_rows = 40000 - sum(map(len, bad_lines.values()))
if len(single_rows) != expected_rows:
    failures.append(f"one process: {len(single_rows)} rows, expected {expected_rows}")


def spark(fmt, out):
    started = time.monotonic()
    subprocess.run([python, os.path.join(here, "spark-extract.py"), "--master", "local[2]", "--partitions", "8",
                    "--magma", magma, "--format", fmt] + args + [folder, out], check=True)
    partitions = int(open(os.path.join(out, "_partitions")).read())
    if partitions < 8:
        failures.append(f"{fmt}: {partitions} partitions, expected at least 8")
    bad = [json.loads(l) for p in glob.glob(os.path.join(out, "bad", "part-*")) for l in open(p).read().splitlines()]
    return time.monotonic() - started, bad


def check_bad(label, reports):
    """Every bad line once, placed as one process places it."""
    def key(r):
        return (os.path.basename(r["file"]), r["offset"], r["line"], r["column"], r["record"], r["code"], r["text"])
    got, want = sorted(map(key, reports)), sorted(map(key, single_bad))
    if got != want:
        missing, extra = set(want) - set(got), set(got) - set(want)
        failures.append(f"{label}: {len(reports)} reports for {len(single_bad)} bad lines; "
                        f"not as one process: {sorted(extra)[:3]}; missing {sorted(missing)[:3]}")
    for name, lines in bad_lines.items():
        texts = sorted(r["text"] for r in reports if os.path.basename(r["file"]) == name)
        if texts != sorted(lines):
            failures.append(f"{label}: {name}: {len(texts)} bad-line reports for {len(lines)} bad lines")


# Parquet: typed columns, read back and compared with one process's rows, value by value.
parquet_wall, parquet_bad = spark("parquet", os.path.join(work, "parquet-out"))
check_bad("parquet", parquet_bad)
dump = os.path.join(work, "parquet-rows.ndjson")
subprocess.run([python, "-c", f"""
import json
from pyspark.sql import SparkSession, functions as F
spark = SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false").config("spark.sql.session.timeZone", "UTC").getOrCreate()
df = spark.read.parquet({os.path.join(work, "parquet-out", "rows")!r})
types = {{f.name: f.dataType.simpleString() for f in df.schema.fields}}
rows = df.withColumn("updated", F.date_format("updated", "yyyy-MM-dd'T'HH:mm:ss'Z'")).collect()
with open({dump!r}, "w") as out:
    out.write(json.dumps(types) + "\\n")
    for row in rows:
        out.write(json.dumps(row.asDict(), ensure_ascii=False) + "\\n")
spark.stop()
"""], check=True)


def canonical(text):
    """A row as sorted JSON, its double a float (one process writes 0.0 as 0)."""
    row = json.loads(text)
    if row.get("score") is not None:
        row["score"] = float(row["score"])
    return json.dumps(row, sort_keys=True, ensure_ascii=False)


with open(dump) as f:
    types = json.loads(f.readline())
    parquet_rows = sorted(map(canonical, f))
want_types = {"login": "string", "number": "bigint", "updated": "timestamp", "title": "string", "labels": "string",
              "score": "double", "open": "boolean"}
if types != want_types:
    failures.append(f"parquet: column types {types}, expected {want_types}")
expected = sorted(map(canonical, single_rows))
if parquet_rows != expected:
    differ = set(parquet_rows) ^ set(expected)
    failures.append(f"parquet: {len(parquet_rows)} rows, one process {len(expected)}; {len(differ)} differ, e.g. {sorted(differ)[:2]}")

# NDJSON text: the rows as one process writes them.
text_wall, text_bad = spark("ndjson", os.path.join(work, "ndjson-out"))
check_bad("ndjson", text_bad)
rows = sorted(l for p in glob.glob(os.path.join(work, "ndjson-out", "rows", "part-*")) for l in open(p).read().splitlines())
if rows != sorted(single_rows):
    failures.append(f"ndjson: Spark gave {len(rows)} rows, one process {len(single_rows)}; {len(set(rows) ^ set(single_rows))} differ")
print(f"test-spark: Spark local[2] {parquet_wall:.1f} s (parquet) and {text_wall:.1f} s (ndjson) wall, with JVM start-up; "
      f"one process per file {one_process:.2f} s; {len(rows)} rows, {len(text_bad)} bad lines reported", file=sys.stderr)

# A magma that fails (here: an unknown transformer) fails the job, rather than leaving partitions empty.
broken = subprocess.run([python, os.path.join(here, "spark-extract.py"), "--magma", magma,
                         "--field", "number:nope", folder, os.path.join(work, "broken-out")], capture_output=True)
if broken.returncode == 0:
    failures.append("a failing magma did not fail the Spark job")
if failures:
    print("test-spark FAILED:\n  " + "\n  ".join(failures), file=sys.stderr)
    sys.exit(1)
print("test-spark: ok", file=sys.stderr)
