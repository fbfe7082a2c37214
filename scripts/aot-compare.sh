#!/usr/bin/env bash
# JIT vs NativeAOT on the same whole-engine workload (benchmarks/Exchange.AotRunner, the Nasdaq-shaped generator the
# BenchmarkDotNet benchmarks use). Builds two net10.0 binaries of the same code and runs each in turn:
#   jit    framework-dependent, on the installed runtime (tiered compilation with dynamic PGO, the .NET default)
#   venue  the same binary with tiered compilation off, as the venue runs (DOTNET_TieredCompilation=0: compiled once,
#          fully optimised, no profile)
#   aot    NativeAOT (PublishAot, OptimizationPreference=Speed)
# Usage: scripts/aot-compare.sh [runner options, e.g. --combination all --commands 5000000 --rounds 5]
# NativeAOT links with clang and needs zlib; when they are missing and this runs as root they are installed with apt-get.
set -euo pipefail
cd "$(dirname "$0")/.."
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1

project=benchmarks/Exchange.AotRunner/Exchange.AotRunner.csproj
out=${AOT_COMPARE_OUT:-$(mktemp -d)}

find_clang() {
  if command -v clang >/dev/null 2>&1; then echo clang; return; fi
  compgen -c clang- 2>/dev/null | grep -E '^clang-[0-9]+$' | sort -t- -k2 -n | tail -1
}

cc=$(find_clang || true)
if [ -z "$cc" ] || [ ! -e /usr/include/zlib.h ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq && apt-get install -y -qq clang zlib1g-dev
    cc=$(find_clang)
  else
    echo "NativeAOT needs clang and zlib1g-dev (apt-get install -y clang zlib1g-dev as root)" >&2
    exit 1
  fi
fi

echo "== publishing into $out (C/C++ linker: $cc)"
dotnet publish "$project" -c Release -f net10.0 -o "$out/jit" --nologo -v q
dotnet publish "$project" -c Release -f net10.0 -r linux-x64 -p:AotComparison=true \
  -p:CppCompilerAndLinker="$cc" -o "$out/aot" --nologo -v q

echo "== load before running: $(uptime)"
for variant in jit venue aot; do
  echo "== $variant"
  case "$variant" in
    jit) dotnet "$out/jit/Exchange.AotRunner.dll" "$@" | tee "$out/$variant.txt" ;;
    venue) DOTNET_TieredCompilation=0 dotnet "$out/jit/Exchange.AotRunner.dll" "$@" | tee "$out/$variant.txt" ;;
    aot) "$out/aot/Exchange.AotRunner" "$@" | tee "$out/$variant.txt" ;;
  esac
done

echo "== medians (commands/s)"
for variant in jit venue aot; do
  grep ' median ' "$out/$variant.txt" | sed "s/^/$variant  /"
done
echo "== load after running: $(uptime)"
