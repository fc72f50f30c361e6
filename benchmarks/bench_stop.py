"""Stopping the local server as the tests and benchmarks do (`Running.stop`): the wall time of a stop.

    python benchmarks/bench_stop.py [-n 15]

Starts a small app in a thread `-n` times; every other time a request is answered first and its kept-alive
connection left open. Prints the median and the longest stop, and the load average.
"""

from __future__ import annotations

import argparse
import http.client
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from starlette.requests import Request  # noqa: E402
from starlette.responses import JSONResponse  # noqa: E402
from starlette.routing import Route  # noqa: E402

from ttr_maps.web import make_app, run_in_thread  # noqa: E402


async def _hello(request: Request) -> JSONResponse:
    return JSONResponse({"hello": "world"})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=15)
    args = ap.parse_args()
    print(f"load {os.getloadavg()[0]:.1f}")
    took = []
    for i in range(args.n):
        running = run_in_thread(make_app([Route("/hello", _hello)]))
        if i % 2:
            conn = http.client.HTTPConnection("127.0.0.1", running.port, timeout=10)
            conn.request("GET", "/hello")
            conn.getresponse().read()
        start = time.perf_counter()
        running.stop()
        took.append(time.perf_counter() - start)
    print(f"stop: median {statistics.median(took) * 1000:.1f} ms, longest {max(took) * 1000:.1f} ms ({args.n} stops)")
    print(f"load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
