#!/usr/bin/env bash
# Installs what scripts/spark-extract.py needs when it is missing: Java 17 (Debian's
# openjdk-17-jre-headless) and pyspark from PyPI, in a virtual environment of its own
# (.build-spark/venv, ignored by git). Prints the environment's python on its last line.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${SPARK_VENV:-.build-spark/venv}"
PYSPARK_VERSION="${PYSPARK_VERSION:-4.0.1}"
if ! java -version 2>&1 | grep -q 'version "\(1[7-9]\|2[0-9]\)'; then
    echo "Installing openjdk-17-jre-headless (Spark runs on the JVM)..." >&2
    scripts/apt-install.sh openjdk-17-jre-headless
fi
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c "import pyspark" 2>/dev/null; then
    echo "Installing pyspark $PYSPARK_VERSION into $VENV..." >&2
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q "pyspark==$PYSPARK_VERSION" >&2
fi
echo "$VENV/bin/python"
