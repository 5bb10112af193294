/**
 * The last release, for the goals table's side-by-side column (issue 40 item 14): its figures are
 * measured in the same run as ours, from its own sources (bench/gitRef.ts), never copied from an old
 * report.
 *
 * Assumed: 0.1.0 was released from the commit that dated its CHANGELOG section ("Release: one VSIX …",
 * 2026-11-27); this repository carries no release tags yet. When the release workflow tags a version,
 * point `commit` at the tag (`v0.1.1`, …) and bump `version`: nothing else changes.
 */
export const LAST_RELEASE = { version: '0.1.0', commit: '8e534bf7b4066f9bfcdb8037668f793e3a4ca0db' } as const;
