#!/usr/bin/env bash
# Regenerates the derived seeds (corpus/<target>/) and dictionaries
# (fuzz/catalog.dict, fuzz/yaml.dict) from the cases and catalogs.
# Usage: fuzz/update_seeds.sh [--check] SEED_TOOL
#   --check: fail, naming them, if a derived seed is missing from corpus/ or
#   a dictionary differs from fuzz/ (nothing under corpus/ is written).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
check=0
[ "${1:-}" = --check ] && { check=1; shift; }
tool="${1:?usage: update_seeds.sh [--check] path/to/ssec_fuzz_seeds}"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
"$tool" dicts "$root" "$scratch/dicts" >/dev/null
if ((check)); then
  # Hand-picked seeds may sit beside the derived ones: only missing derived files count.
  status=0
  missing="$("$tool" check-corpus "$root")" || { status=1; grep '^stale:' <<< "$missing"; }
  for d in catalog.dict yaml.dict; do
    cmp -s "$scratch/dicts/$d" "$root/fuzz/$d" || { echo "stale: fuzz/$d"; status=1; }
  done
  ((status == 0)) && echo "seeds and dictionaries are up to date" || echo "run: fuzz/update_seeds.sh $tool"
  exit $status
fi
"$tool" corpus "$root" "$scratch/corpus" >/dev/null
derived_targets=$(ls "$scratch/corpus")
for t in $derived_targets; do
  mkdir -p "$root/corpus/$t"
  cp "$scratch/corpus/$t"/* "$root/corpus/$t/"
done
cp "$scratch/dicts/"*.dict "$root/fuzz/"
echo "updated corpus/ and fuzz/*.dict"
