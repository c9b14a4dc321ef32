#!/usr/bin/env python3
"""Run `magma extract` on every partition of NDJSON input inside Apache Spark.

Spark reads the files with Hadoop's TextInputFormat, which splits them by byte range at line
boundaries (a split owns the lines that start in it) and gives each line its byte offset in its
file. Each partition's lines go to one `magma extract` process on standard input; its rows come
back on standard output, with its bad-record reports (lines that start with U+0001,
`--bad-to-stdout`). A report is placed in its file: the file, the byte offset in it (the line's
offset from Hadoop plus the column), and the line and record numbers (the lines and records of
the file's splits before it, which each partition counts, added after the job).

    python scripts/spark-extract.py --master local[2] --partitions 8 \\
        --field login=user.login --field number:int --field updated=updated_at:date \\
        issues.ndjson out/

writes out/rows (part-* text files; a Parquet table with --format parquet), out/bad/part-* (one
JSON report per bad record) and out/_partitions. With --format parquet the columns are typed by
the fields' transformers: int -> long, double and epoch -> double, bool -> boolean, date ->
timestamp (UTC), the others -> string. On a cluster, pass --master spark://host:7077 (or yarn)
and --magma with the path of the magma binary on every worker.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from array import array

TYPES = {"int": "long", "double": "double", "epoch": "double", "bool": "boolean", "date": "timestamp"}


def field_column(field):
    """(name, Spark type) of a --field: [NAME=]KEY.PATH[:TRANSFORMER[:ARGUMENT]]."""
    name, equals, rest = field.partition("=")
    if not equals:
        name, rest = "", field
    path, _, spec = rest.partition(":")
    return (name or path), TYPES.get(spec.partition(":")[0], "string")


def input_files(spark, path):
    """Every file a path names (a file, a folder's files, a glob), with its size, through Hadoop's
    FileSystem (so hdfs:// and s3a:// work as file:// does)."""
    jvm = spark.sparkContext._jvm
    conf = spark.sparkContext._jsc.hadoopConfiguration()
    hpath = jvm.org.apache.hadoop.fs.Path(path)
    fs = hpath.getFileSystem(conf)
    files = []
    for status in fs.globStatus(hpath) or []:
        statuses = fs.listStatus(status.getPath()) if status.isDirectory() else [status]
        for s in statuses:
            name = s.getPath().getName()
            if s.isFile() and not name.startswith(("_", ".")):
                files.append((s.getPath().toString(), s.getLen()))
    return sorted(files)


def extract_partition(command, files):
    """The function each partition runs: feeds its (file, offset, line) records to one magma
    process, yields its rows, its reports placed in the file as far as the partition knows (the
    file, the byte offset), and last a summary (U+0002) of its lines and records."""
    def run(records):
        process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        offsets = array("q")  # each line's offset in its file, by line number in the partition
        where = {}

        def feed():
            batch = []
            try:
                for file_index, offset, line in records:
                    where.setdefault("file", file_index)
                    offsets.append(offset)
                    batch.append(line)
                    if len(batch) == 1000:
                        process.stdin.write(("\n".join(batch) + "\n").encode())
                        batch = []
                if batch:
                    process.stdin.write(("\n".join(batch) + "\n").encode())
                process.stdin.close()
            except BrokenPipeError:
                pass  # magma failed: its status says why

        feeder = threading.Thread(target=feed)
        feeder.start()
        rows = bad = 0
        for raw in process.stdout:
            text = raw.decode("utf-8").rstrip("\n")
            if not text.startswith("\x01"):
                rows += 1
                yield text
                continue
            bad += 1
            report = json.loads(text[1:])
            line = report.pop("line")
            report["file"] = files[where["file"]]
            report["offset"] = offsets[line - 1] + report["column"] - 1
            report["split"] = offsets[0]
            report["splitLine"] = line
            report["splitRecord"] = report.pop("record")
            yield "\x01" + json.dumps(report, ensure_ascii=False)
        feeder.join()
        status = process.wait()
        if status != 0:
            # A magma that fails (a bad option, a read error) fails the task instead of leaving
            # its partition silently short.
            raise RuntimeError(f"{' '.join(command)} exited with status {status}")
        if offsets:
            yield "\x02" + json.dumps({"file": where["file"], "split": offsets[0], "lines": len(offsets), "records": rows + bad})
    return run


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("input", help="NDJSON file(s) or folder, any path Spark reads (file://, hdfs://, s3a://)")
    parser.add_argument("output", help="output folder (must not exist)")
    parser.add_argument("--master", default="local[2]", help="Spark master (default local[2])")
    parser.add_argument("--partitions", type=int, default=8, help="about this many input splits (default 8)")
    parser.add_argument("--magma", default="magma",
                        help="the magma binary at the same path on every worker (a bare name is looked up on the driver's PATH)")
    parser.add_argument("--format", default="ndjson", choices=["ndjson", "csv", "tsv", "parquet"],
                        help="rows as text files (ndjson, csv, tsv) or a Parquet table of typed columns")
    parser.add_argument("--field", action="append", required=True, help="as for magma extract: name=key.path:transformer")
    args = parser.parse_args()

    from pyspark.sql import SparkSession  # imported late: --help works without pyspark

    spark = (SparkSession.builder.master(args.master).appName("magma-extract")
             .config("spark.ui.enabled", "false").config("spark.sql.session.timeZone", "UTC").getOrCreate())
    sc = spark.sparkContext
    sc.setLogLevel("WARN")
    started = time.monotonic()
    files = input_files(spark, args.input)
    if not files:
        sys.exit(f"spark-extract: no file at {args.input}")
    # Splits of about total / partitions bytes (TextInputFormat cuts each file at that size).
    split = max(1, -(-sum(size for _, size in files) // args.partitions))
    hadoop = {"mapreduce.input.fileinputformat.split.maxsize": str(split),
              "mapreduce.input.fileinputformat.split.minsize": "1"}
    lines = sc.union([
        sc.newAPIHadoopFile(path, "org.apache.hadoop.mapreduce.lib.input.TextInputFormat",
                            "org.apache.hadoop.io.LongWritable", "org.apache.hadoop.io.Text", conf=hadoop)
          .map(lambda pair, i=i: (i, pair[0], pair[1]))
        for i, (path, _) in enumerate(files)])
    magma = args.magma if os.path.isabs(args.magma) else (shutil.which(args.magma) or os.path.abspath(args.magma))
    text_format = "ndjson" if args.format == "parquet" else args.format
    command = [magma, "extract", "--skip-bad", "--bad-to-stdout", "--quiet", "--no-header", "--jobs", "1",
               "--layout", "ndjson", "--format", text_format]
    for field in args.field:
        command += ["--field", field]
    command.append("-")
    out = lines.mapPartitions(extract_partition(command, [path for path, _ in files])).cache()

    # The lines and records of its file's splits before each split, by "file index:split offset".
    before, counted = {}, {}
    for summary in sorted((json.loads(s[1:]) for s in out.filter(lambda s: s.startswith("\x02")).collect()),
                          key=lambda s: (s["file"], s["split"])):
        lines_before, records_before = counted.get(summary["file"], (0, 0))
        before[f"{summary['file']}:{summary['split']}"] = (lines_before, records_before)
        counted[summary["file"]] = (lines_before + summary["lines"], records_before + summary["records"])
    placed = sc.broadcast(before)
    file_index = {path: i for i, (path, _) in enumerate(files)}

    def place(text):
        report = json.loads(text[1:])
        lines_before, records_before = placed.value[f"{file_index[report['file']]}:{report.pop('split')}"]
        report["line"] = lines_before + report.pop("splitLine")
        report["record"] = records_before + report.pop("splitRecord")
        return json.dumps(report, ensure_ascii=False)

    out.filter(lambda s: s.startswith("\x01")).map(place).saveAsTextFile(os.path.join(args.output, "bad"))
    rows = out.filter(lambda s: not s.startswith(("\x01", "\x02")))
    if args.format == "parquet":
        from pyspark.sql.types import StructType
        schema = StructType.fromJson({"type": "struct", "fields": [
            {"name": name, "type": kind, "nullable": True, "metadata": {}} for name, kind in map(field_column, args.field)]})
        (spark.read.schema(schema).option("mode", "FAILFAST")
         .option("timestampFormat", "yyyy-MM-dd'T'HH:mm:ss[.SSSSSSSSS]XXX").json(rows)
         .write.parquet(os.path.join(args.output, "rows")))
    else:
        rows.saveAsTextFile(os.path.join(args.output, "rows"))
    partitions = lines.getNumPartitions()
    with open(os.path.join(args.output, "_partitions"), "w") as f:
        f.write(f"{partitions}\n")
    print(f"spark-extract: {len(files)} files, {partitions} partitions, {time.monotonic() - started:.2f} s (job, after start-up)",
          file=sys.stderr)
    spark.stop()


if __name__ == "__main__":
    main()
