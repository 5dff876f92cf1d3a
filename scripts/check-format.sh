#!/usr/bin/env bash
# Fails when a file is not formatted as .clang-format (C++) and
# .prettierrc.json (JavaScript and TypeScript) say; prints what to run.
# usage: scripts/check-format.sh [--fix]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cd "$here"
mapfile -t cpp < <(git ls-files 'src/*.cpp' 'src/*.hpp' 'tests/cpp/*.cpp' 'tests/cpp/*.hpp' \
  'tests/fuzz/*.cpp' 'bench/*.cpp')
mapfile -t js < <(git ls-files '*.js' '*.mjs' '*.cjs' '*.ts' | grep -v '^tests/pkg/apps/' | grep -v '^tests/fixtures/')
if [ "${1:-}" = --fix ]; then
  clang-format -i "${cpp[@]}"
  npx --no-install prettier --log-level warn --write "${js[@]}"
  exit 0
fi
status=0
if ! clang-format --dry-run --Werror "${cpp[@]}" 2>/dev/null; then
  echo "check-format: C++ files are not formatted (clang-format --dry-run --Werror lists them); run scripts/check-format.sh --fix" >&2
  clang-format --dry-run "${cpp[@]}" 2>&1 | grep -o '^[^:]*:' | sort -u | head -20 >&2
  status=1
fi
if ! npx --no-install prettier --log-level warn --check "${js[@]}"; then
  echo "check-format: JavaScript files are not formatted; run scripts/check-format.sh --fix" >&2
  status=1
fi
exit $status
