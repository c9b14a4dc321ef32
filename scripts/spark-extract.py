#!/usr/bin/env python3
"""Run `magma extract` on every partition of NDJSON input inside Apache Spark.

Spark's own text input splits the files by byte range at line boundaries (Hadoop's
TextInputFormat: a split owns the lines that start in it), and RDD.pipe runs one `magma extract`
process per partition, feeding it the partition's lines on standard input. Bad records are
reported by magma on its standard output as lines that start with U+0001 (`--bad-to-stdout`);
they are written apart from the rows.

    python scripts/spark-extract.py --master local[2] --partitions 8 \\
        --field login=user.login --field number:int --field updated=updated_at:date \\
        issues.ndjson out/

writes out/rows/part-* (the rows), out/bad/part-* (one JSON report per bad record) and
out/_partitions. On a cluster, pass --master spark://host:7077 (or yarn) and --magma with the
path of the magma binary on every worker.
"""
import argparse
import os
import shlex
import shutil
import sys
import time


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("input", help="NDJSON file(s) or folder, any path Spark reads (file://, hdfs://, s3a://)")
    parser.add_argument("output", help="output folder (must not exist)")
    parser.add_argument("--master", default="local[2]", help="Spark master (default local[2])")
    parser.add_argument("--partitions", type=int, default=8, help="at least this many input splits (default 8)")
    parser.add_argument("--magma", default="magma",
                        help="the magma binary at the same path on every worker (a bare name is looked up on the driver's PATH)")
    parser.add_argument("--format", default="ndjson", choices=["ndjson", "csv"], help="row format")
    parser.add_argument("--field", action="append", required=True, help="as for magma extract: name=key.path:transformer")
    args = parser.parse_args()

    from pyspark.sql import SparkSession  # imported late: --help works without pyspark

    spark = (SparkSession.builder.master(args.master).appName("magma-extract")
             .config("spark.ui.enabled", "false").getOrCreate())
    spark.sparkContext.setLogLevel("WARN")
    started = time.monotonic()
    lines = spark.sparkContext.textFile(args.input, minPartitions=args.partitions)
    # RDD.pipe starts the command with an empty environment (no PATH): name the binary by its path.
    magma = args.magma if os.path.isabs(args.magma) else (shutil.which(args.magma) or os.path.abspath(args.magma))
    command = [magma, "extract", "--skip-bad", "--bad-to-stdout", "--quiet", "--no-header",
               "--layout", "ndjson", "--format", args.format]
    for field in args.field:
        command += ["--field", field]
    command.append("-")
    # checkCode: a magma that fails (a bad option, a read error) fails the task instead of
    # leaving its partition silently short.
    out = lines.pipe(shlex.join(command), checkCode=True).cache()
    out.filter(lambda line: not line.startswith("\x01")).saveAsTextFile(os.path.join(args.output, "rows"))
    out.filter(lambda line: line.startswith("\x01")).map(lambda line: line[1:]).saveAsTextFile(os.path.join(args.output, "bad"))
    partitions = lines.getNumPartitions()
    with open(os.path.join(args.output, "_partitions"), "w") as f:
        f.write(f"{partitions}\n")
    print(f"spark-extract: {partitions} partitions, {time.monotonic() - started:.2f} s (job, after start-up)", file=sys.stderr)
    spark.stop()


if __name__ == "__main__":
    main()
