#!/usr/bin/env bash
# The machine's floor under the end-to-end latency targets: benchmarks/LoopbackFloor/loopback_floor.c (a C request/
# reply over loopback TCP, both ends busy-polling and pinned, no work at either end) in the load client's synchronous
# and 50,000/s fixed-rate modes. Needs a C compiler (cc). Extra arguments go to both runs, e.g. --orders 2000.
#
#   scripts/loopback-floor.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="$(mktemp -d)"
trap 'rm -rf "$bin"' EXIT
cc -O2 -Wall -Wextra -Werror -o "$bin/loopback_floor" "$root/benchmarks/LoopbackFloor/loopback_floor.c"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
"$bin/loopback_floor" sync "$@"
"$bin/loopback_floor" rate "$@"
