"""Benchmark: N concurrent SSE clients against the real dashboard server (waitress).

A FakeTable in a separate server process (its own GIL, as on the Pi) plays `--steps` moves at
`--rate` moves a second; each move publishes an event, a verdict and a fresh snapshot, each
stamped with its publish time (time.time(): same host, same clock). One asyncio process holds
all clients, parses chunked HTTP + SSE, and records receipt - publish time for every message.

    .venv/bin/python bench/web_sse.py --clients 200 --steps 100 --rate 10

Writes a JSON report (default bench-out/web_sse.json) and prints it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


# ----- server process ----------------------------------------------------------------------

def run_server(clients: int, threads: int | None) -> None:
    """Serve a FakeTable; on stdin 'publish STEPS RATE' play that many moves, then report."""
    sys.path.insert(0, str(ROOT))
    from web import create_app
    from web.fake import FakeTable
    from web.server import serve

    table = FakeTable(seed=11, rounds_to_win=10**9, steps_per_round=10**9)
    app = create_app(table, {"admin_pin": "0000", "max_streams": clients + 8})
    handle = serve(app, "127.0.0.1", 0, threads=threads)
    print(f"port {handle.port}", flush=True)
    for line in sys.stdin:
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "publish":
            steps, rate = int(parts[1]), float(parts[2])
            subs = table.hub.subscriber_count
            cpu0, t0 = time.process_time(), time.monotonic()
            for i in range(steps):
                target = t0 + i / rate
                delay = target - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
                table.simulate_step()
            took = time.monotonic() - t0
            cpu = time.process_time() - cpu0
            dropped = sum(getattr(s, "dropped", 0) for s in list(table.hub._subs))
            print("published " + json.dumps({"subscribers": subs, "seconds": took,
                                             "server_cpu_s": cpu, "queue_dropped": dropped}),
                  flush=True)
        elif parts[0] == "quit":
            break
    handle.stop()


# ----- clients -----------------------------------------------------------------------------

class Client:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.ids: set[int] = set()
        self.first_state = asyncio.Event()
        self.error: str | None = None
        self.keepalives = 0


def publish_time(kind: str, data: dict[str, Any]) -> float | None:
    return data.get("clock") if kind == "state" else data.get("t")


async def run_client(port: int, client: Client, stop: asyncio.Event) -> None:
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        await writer.drain()
        status = await reader.readline()
        if b" 200 " not in status:
            client.error = status.decode(errors="replace").strip()
            return
        chunked = False
        while (line := await reader.readline()) not in (b"\r\n", b""):
            if line.lower().startswith(b"transfer-encoding:") and b"chunked" in line.lower():
                chunked = True
        buf = b""
        event: dict[str, str] = {}
        while not stop.is_set():
            if chunked:
                size_line = await reader.readline()
                if not size_line:
                    break
                size = int(size_line.strip() or b"0", 16)
                if size == 0:
                    break
                payload = await reader.readexactly(size + 2)
                data = payload[:-2]
            else:
                data = await reader.read(65536)
                if not data:
                    break
            now = time.time()
            buf += data
            while b"\n" in buf:
                raw, buf = buf.split(b"\n", 1)
                line_s = raw.decode()
                if line_s == "":
                    if "data" in event:
                        kind = event.get("event", "message")
                        payload_d = json.loads(event["data"])
                        if "id" in event:
                            client.ids.add(int(event["id"]))
                            t = publish_time(kind, payload_d)
                            if t is not None:
                                client.latencies.append(now - t)
                        elif kind == "state":
                            client.first_state.set()
                    event = {}
                elif line_s.startswith(":"):
                    client.keepalives += 1
                else:
                    key, _, value = line_s.partition(":")
                    event[key] = value[1:] if value.startswith(" ") else value
        writer.close()
    except Exception as exc:  # noqa: BLE001 - reported, not raised
        client.error = f"{type(exc).__name__}: {exc}"


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q / 100 * (len(s) - 1))))]


async def bench(args: argparse.Namespace) -> dict[str, Any]:
    cmd = [sys.executable, __file__, "--serve", "--clients", str(args.clients)]
    if args.threads:
        cmd += ["--threads", str(args.threads)]
    proc = await asyncio.create_subprocess_exec(*cmd, stdin=subprocess.PIPE,
                                                stdout=subprocess.PIPE, cwd=str(ROOT))
    assert proc.stdout and proc.stdin
    port = int((await proc.stdout.readline()).split()[1])
    clients = [Client() for _ in range(args.clients)]
    stop = asyncio.Event()
    t0 = time.monotonic()
    tasks = [asyncio.create_task(run_client(port, c, stop)) for c in clients]
    try:
        await asyncio.wait_for(asyncio.gather(*(c.first_state.wait() for c in clients)), 30)
    except TimeoutError:
        pass
    connect_s = time.monotonic() - t0
    connected = sum(c.first_state.is_set() for c in clients)
    proc.stdin.write(f"publish {args.steps} {args.rate}\n".encode())
    await proc.stdin.drain()
    line = (await proc.stdout.readline()).decode()
    server = json.loads(line.split(" ", 1)[1])
    expected = 3 * args.steps
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(
        len(c.ids) < expected for c in clients if c.first_state.is_set() and not c.error
    ):
        await asyncio.sleep(0.05)
    stop.set()
    proc.stdin.write(b"quit\n")
    await proc.stdin.drain()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await proc.wait()
    lat = [x * 1000 for c in clients for x in c.latencies]
    received = sum(len(c.ids) for c in clients)
    return {
        "bench": "web_sse",
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "host": {"python": platform.python_version(), "machine": platform.machine(),
                 "cpus": os.cpu_count()},
        "clients": args.clients,
        "connected": connected,
        "connect_s": round(connect_s, 3),
        "client_errors": sorted({c.error for c in clients if c.error})[:5],
        "steps": args.steps,
        "rate_steps_per_s": args.rate,
        "messages_per_client": expected,
        "messages_expected": expected * connected,
        "messages_received": received,
        "dropped": expected * connected - received,
        "server_queue_dropped": server["queue_dropped"],
        "publish_seconds": round(server["seconds"], 3),
        "server_cpu_s": round(server["server_cpu_s"], 3),
        "latency_ms": {
            "p50": round(pct(lat, 50), 2), "p90": round(pct(lat, 90), 2),
            "p99": round(pct(lat, 99), 2), "max": round(max(lat), 2) if lat else None,
            "mean": round(statistics.fmean(lat), 2) if lat else None, "samples": len(lat),
        },
        "goal": {"p99_ms": 250, "dropped": 0},
        "goal_met": bool(lat) and pct(lat, 99) <= 250 and expected * connected == received
        and connected == args.clients,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=200)
    ap.add_argument("--steps", type=int, default=100, help="moves to play (3 messages each)")
    ap.add_argument("--rate", type=float, default=10.0, help="moves per second")
    ap.add_argument("--threads", type=int, default=None, help="waitress threads (default: auto)")
    ap.add_argument("--out", default=str(ROOT / "bench-out" / "web_sse.json"))
    ap.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve:
        run_server(args.clients, args.threads)
        return
    report = asyncio.run(bench(args))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
