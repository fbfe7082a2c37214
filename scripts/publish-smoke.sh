#!/usr/bin/env bash
# Publishes the venue as the README's service install does (self-contained, linux-x64) and starts the published
# binary once: it must load its strategy plugins from plugins/ beside it, listen, and stop cleanly on SIGTERM.
# Also publishes for win-x64 (build only: the Windows service cannot be started here).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
venue=""
cleanup() {
  if [ -n "$venue" ]; then kill -9 "$venue" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

dotnet publish "$root/src/Exchange.Host" -c Release -r linux-x64 --self-contained -o "$work/linux" -v q -nologo
dotnet publish "$root/src/Exchange.Host" -c Release -r win-x64 --self-contained -o "$work/win" -v q -nologo
test -f "$work/win/Exchange.Host.exe" && test -f "$work/win/plugins/Exchange.Strategies.OrderLists.dll"

# Port 0: any free port, so the check never collides with a venue already running.
mkdir "$work/run"
(cd "$work/run" && exec "$work/linux/Exchange.Host" --Venue:Listen:Port=0 > venue.log 2>&1) &
venue=$!
for _ in $(seq 150); do
  grep -q "listening" "$work/run/venue.log" && break
  kill -0 "$venue" 2>/dev/null || break
  sleep 0.2
done
grep "listening" "$work/run/venue.log" || { cat "$work/run/venue.log"; echo "publish smoke: the published venue did not start"; exit 1; }
kill -TERM "$venue"
status=0
wait "$venue" || status=$?
venue=""
grep -q "Exchange venue stopped" "$work/run/venue.log" || { cat "$work/run/venue.log"; echo "publish smoke: no clean stop"; exit 1; }
echo "publish smoke: linux-x64 venue started, listened and stopped (exit $status); win-x64 published"
exit "$status"
