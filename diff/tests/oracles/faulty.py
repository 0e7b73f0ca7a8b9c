#!/usr/bin/env python3
"""A faulty adapter, for diff/tests/protocol.rs: it speaks the oracle protocol
(diff/oracles/PROTOCOL.md) by passing every line between the harness and a real adapter,
COMMAND, until the AFTER-th request of its own process, which it answers as MODE says:

  exit     exits (status 3) instead of answering
  kill     is killed (SIGKILL) instead of answering
  garbage  answers a line that is not JSON
  hang     never answers
  short    answers with the key or signature one byte short
  other-id answers with another request's id

usage: faulty.py MODE AFTER -- COMMAND...
"""
import json
import os
import signal
import subprocess
import sys
import time


def main():
    if len(sys.argv) < 5 or sys.argv[3] != "--":
        sys.exit(__doc__)
    mode, after, command = sys.argv[1], int(sys.argv[2]), sys.argv[4:]
    if mode not in ("exit", "kill", "garbage", "hang", "short", "other-id"):
        sys.exit(f"faulty.py: unknown MODE {mode!r}")
    real = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    hello = json.loads(real.stdout.readline())
    hello["name"] = f"faulty ({mode} at request {after}) over {hello['name']}"
    print(json.dumps(hello), flush=True)
    for n, line in enumerate(sys.stdin, start=1):
        real.stdin.write(line)
        real.stdin.flush()
        answer = real.stdout.readline()
        if n == after:
            print(f"faulty.py: {mode} at request {n}", file=sys.stderr, flush=True)
            if mode == "exit":
                sys.exit(3)
            if mode == "kill":
                os.kill(os.getpid(), signal.SIGKILL)
            if mode == "hang":
                time.sleep(3600)
            a = json.loads(answer)
            if mode == "garbage":
                answer = "this is not an answer\n"
            elif mode == "short":
                for field in ("sig", "pk", "sk"):
                    if field in a:
                        a[field] = a[field][:-2]
                answer = json.dumps(a) + "\n"
            else:
                a["id"] += 1000
                answer = json.dumps(a) + "\n"
        sys.stdout.write(answer)
        sys.stdout.flush()


main()
