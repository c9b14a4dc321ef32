#!/usr/bin/env python3
"""make bench-server: wrk against a loopback Hummingbird endpoint that decodes a GitHub issue and
encodes it back, with JSONDecoder/JSONEncoder and with Magma's adapters (Codable types through
MagmaRequestDecoder/MagmaResponseEncoder, and the same type as a @JSONModel through JSONAdapter).

The three servers run in one process (Benchmarks/Sources/server-bench, a release build with the
Server trait, in Benchmarks/.build-server); wrk hits them in turn, round after round, on the same
request body, so that load that comes and goes falls on all three. Prints requests per second and
latency percentiles side by side, with the load average before each run, and writes
Benchmarks/results/server/server.json. Not run by CI.
"""
import argparse
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "Benchmarks")
# BENCH_SERVER_SCRATCH: an existing release build folder of Benchmarks to reuse (swift-syntax in it).
SCRATCH = os.environ.get("BENCH_SERVER_SCRATCH", os.path.join(BENCH, ".build-server"))
RESULTS = os.path.join(BENCH, "results", "server")
SYSTEMS = ["foundation", "magma-codable", "magma-model"]
LABELS = {"foundation": "JSONDecoder/JSONEncoder", "magma-codable": "MagmaDecoder/MagmaEncoder",
          "magma-model": "Magma @JSONModel (JSONAdapter)"}
LUA = """wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local file = assert(io.open(os.getenv("BENCH_BODY"), "rb"))
wrk.body = file:read("*a")
file:close()
"""


def load():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def ensure_wrk():
    if shutil.which("wrk"):
        return
    print("installing wrk (Debian's package)", flush=True)
    subprocess.run([os.path.join(ROOT, "scripts", "apt-install.sh"), "wrk"], check=True)


def build():
    swift = os.environ.get("SWIFT", "swift")
    args = [swift, "build", "-c", "release", "--package-path", BENCH, "--scratch-path", SCRATCH,
            "--traits", "Server", "--product", "server-bench"]
    print("building:", " ".join(args), flush=True)
    subprocess.run(args, check=True)
    bin_path = subprocess.run(args[:-2] + ["--show-bin-path"], check=True, capture_output=True, text=True).stdout.strip()
    return os.path.join(bin_path, "server-bench")


def wait_for(port, seconds=60):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"server-bench did not listen on {port}")


def seconds(text):
    value, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()
    return float(value) * {"us": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0}[unit]


def run_wrk(url, lua, body, args, duration):
    command = ["wrk", f"-t{args.threads}", f"-c{args.connections}", f"-d{duration}s", "--latency", "-s", lua, url]
    out = subprocess.run(command, check=True, capture_output=True, text=True, env={**os.environ, "BENCH_BODY": body}).stdout
    if "Non-2xx or 3xx responses" in out or "Socket errors" in out:
        raise SystemExit(f"wrk saw errors against {url}:\n{out}")
    result = {"requests_per_second": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))}
    for pct in ("50", "75", "90", "99"):
        result[f"p{pct}_ms"] = seconds(re.search(rf"^\s+{pct}%\s+(\S+)", out, re.M).group(1)) * 1e3
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds over the three servers (default 3)")
    parser.add_argument("--duration", type=int, default=10, help="seconds of load per run (default 10)")
    parser.add_argument("--connections", type=int, default=16, help="wrk connections (default 16)")
    parser.add_argument("--threads", type=int, default=1, help="wrk threads (default 1: the machine has 2 cores)")
    parser.add_argument("--port", type=int, default=18480, help="first of the three ports (default 18480)")
    args = parser.parse_args()

    ensure_wrk()
    binary = build()
    os.makedirs(RESULTS, exist_ok=True)
    body = os.path.join(RESULTS, "issue.json")
    lua = os.path.join(RESULTS, "post.lua")
    with open(lua, "w") as f:
        f.write(LUA)
    subprocess.run([binary, "body", body], check=True)
    server = subprocess.Popen([binary, "serve", body, str(args.port)], env={**os.environ, "LOG_LEVEL": "error"})
    try:
        for offset in range(3):
            wait_for(args.port + offset)
        urls = {system: f"http://127.0.0.1:{args.port + i}/issue" for i, system in enumerate(SYSTEMS)}
        for system in SYSTEMS:  # warm-up: caches, connections, the allocator
            run_wrk(urls[system], lua, body, args, 2)
        runs = {system: [] for system in SYSTEMS}
        for round_ in range(args.rounds):
            for system in SYSTEMS:
                before = load()
                result = run_wrk(urls[system], lua, body, args, args.duration)
                result["load_before"] = before
                runs[system].append(result)
                print(f"round {round_ + 1} {system:14} {result['requests_per_second']:9.0f} req/s  "
                      f"p50 {result['p50_ms']:.3f} ms  p99 {result['p99_ms']:.3f} ms  (load {before})", flush=True)
    finally:
        server.terminate()
        server.wait()

    base = statistics.median(r["requests_per_second"] for r in runs["foundation"])
    print(f"\nPOST /issue ({os.path.getsize(body)} bytes, decoded and encoded back); wrk -t{args.threads} "
          f"-c{args.connections}, {args.rounds} x {args.duration} s each, median of the rounds")
    header = f"{'system':34} {'req/s':>8} {'x JSONDecoder':>13} {'p50 ms':>8} {'p75 ms':>8} {'p90 ms':>8} {'p99 ms':>8}  load before each run"
    print(header)
    print("-" * len(header))
    summary = {}
    for system in SYSTEMS:
        median = {key: statistics.median(r[key] for r in runs[system])
                  for key in ("requests_per_second", "p50_ms", "p75_ms", "p90_ms", "p99_ms")}
        summary[system] = {"median": median, "runs": runs[system]}
        loads = ", ".join(r["load_before"].split()[0] for r in runs[system])
        print(f"{LABELS[system]:34} {median['requests_per_second']:8.0f} {median['requests_per_second'] / base:12.2f}x "
              f"{median['p50_ms']:8.3f} {median['p75_ms']:8.3f} {median['p90_ms']:8.3f} {median['p99_ms']:8.3f}  {loads}")
    with open(os.path.join(RESULTS, "server.json"), "w") as f:
        json.dump({"body_bytes": os.path.getsize(body), "wrk": vars(args), "systems": summary}, f, indent=2)
    print(f"\nresults: {os.path.relpath(os.path.join(RESULTS, 'server.json'), ROOT)}")


if __name__ == "__main__":
    sys.exit(main())
