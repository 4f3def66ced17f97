#!/bin/sh
# Builds the site at two commits and reports what the second did to it, for a pull request:
#   Examples/ci/site-diff.sh BASE HEAD OUT
# writes OUT/base-site, OUT/head-site and OUT/site-diff.md (Markdown for a comment), and exits
# 0 whether or not the sites differ (2 and above on trouble). Run it in the repository.
#
#   SITE_BUILD  the command that builds the site of the current folder into the folder given
#               last (default: the FlowSite package plugin,
#               swift package --allow-writing-to-directory DIR generate-site --output DIR)
#   SITE_DIFF   the command that diffs two sites (default: swift package diff-site); it takes
#               OLD NEW --format markdown --output FILE, like a site executable's `diff`
#   OLD_URL, NEW_URL  where the two sites are published, for before/after links
set -eu
[ $# -eq 3 ] || { echo "usage: $0 BASE HEAD OUT" >&2; exit 2; }
base=$1 head=$2
mkdir -p "$3"
out=$(cd "$3" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/site-diff.XXXXXX")
cleanup() {
  git worktree remove --force "$work/base" 2>/dev/null || true
  git worktree remove --force "$work/head" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
git worktree add --quiet --detach "$work/base" "$base"
git worktree add --quiet --detach "$work/head" "$head"
build() {
  rm -rf "$2"
  if [ -n "${SITE_BUILD:-}" ]; then
    (cd "$1" && $SITE_BUILD "$2")
  else
    (cd "$1" && swift package --allow-writing-to-directory "$2" generate-site --output "$2")
  fi
}
build "$work/base" "$out/base-site"
build "$work/head" "$out/head-site"
set -- "$out/base-site" "$out/head-site" --format markdown --output "$out/site-diff.md"
[ -n "${OLD_URL:-}" ] && set -- "$@" --old-url "$OLD_URL"
[ -n "${NEW_URL:-}" ] && set -- "$@" --new-url "$NEW_URL"
status=0
if [ -n "${SITE_DIFF:-}" ]; then $SITE_DIFF "$@" || status=$?; else swift package --allow-writing-to-directory "$out" diff-site "$@" || status=$?; fi
# A site executable's diff exits 1 for "different", which is what a pull request is for; 2 and
# above are failures. (The diff-site plugin exits 0 for a difference and 1 for a failure; the
# report file tells them apart.)
[ "$status" -le 1 ] && [ -f "$out/site-diff.md" ] || exit "$((status > 1 ? status : 2))"
echo "Wrote $out/site-diff.md"
