#!/usr/bin/env bash
# One end-to-end measurement: starts the venue (Release build) in a fresh temporary directory with the given venue
# arguments, runs the load client with the given client arguments, prints the client's report and the load average,
# stops the venue. Build first: dotnet build Exchange.sln -c Release
#
#   scripts/e2e-run.sh "<venue args>" "<load client args>"
#   scripts/e2e-run.sh "--Venue:Pipeline:Mode=Inline --Venue:Pipeline:MatcherWait=BusySpin --Venue:Journal:Fsync=Never" \
#                      "--mode sync --orders 20000 --busy-poll"
#
# Stage timestamps (tags 7001-7004) are always on, so the report breaks the round trip down. CLIENT_PREFIX (e.g.
# "taskset -c 0") is put in front of the client's command line.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venue_args="${1:-}"
client_args="${2:---mode sync --orders 20000}"
work="$(mktemp -d)"
# On exit the venue is stopped gracefully (SIGTERM; SIGKILL if it has not ended within 10 s), and its count of slow
# polling passes (Inline mode, since the venue started) is printed.
venue=""
stop_venue() {
  if [ -n "$venue" ]; then
    kill "$venue" 2>/dev/null || true
    for _ in $(seq 100); do kill -0 "$venue" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$venue" 2>/dev/null || true
    wait "$venue" 2>/dev/null || true
  fi
  grep -ho "Polling thread since start: .*" "$work/venue.log" 2>/dev/null | sed 's/^/venue: /' || true
  rm -rf "$work"
}
trap stop_venue EXIT

# The venue runs in the temporary directory (its journal and session files go there); the client in the caller's, so
# files it writes (--hgrm-out) stay.
# shellcheck disable=SC2086 # the argument strings are word-split on purpose
(cd "$work" && exec dotnet "$root/src/Exchange.Host/bin/Release/net10.0/Exchange.Host.dll" --Venue:Pipeline:StageTimestamps=true $venue_args > venue.log 2>&1) &
venue=$!
for _ in $(seq 100); do
  grep -q "listening" "$work/venue.log" && break
  sleep 0.2
done
grep -q "listening" "$work/venue.log" || { cat "$work/venue.log"; exit 1; }

echo "venue: $venue_args"
echo "client: $client_args"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
# shellcheck disable=SC2086
${CLIENT_PREFIX:-} dotnet "$root/benchmarks/Exchange.LoadClient/bin/Release/net10.0/Exchange.LoadClient.dll" $client_args
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
