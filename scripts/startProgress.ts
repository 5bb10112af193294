/**
 * What `npm start` (scripts/start.ts) says while it provisions the editor: the notice that a download is
 * coming is printed only when provisioning does something (its log's first line), not on every run where
 * Node 24 and code-server are already in .cache/editor (test/unit/startProgress.test.ts).
 */
export const PREPARING_EDITOR = 'Preparing the editor in .cache/editor (the first run downloads Node 24 and code-server, about 2 minutes)…';

/**
 * Runs `provision` with a log that prints PREPARING_EDITOR (through `say`) before the first line
 * provisioning writes, and each line after it (through `detail`); silent when nothing is to be done.
 */
export function provisionAnnounced<T>(provision: (log: (line: string) => void) => T, say: (line: string) => void, detail: (line: string) => void): T {
  let announced = false;
  return provision((line) => {
    if (!announced) {
      announced = true;
      say(PREPARING_EDITOR);
    }
    detail(line);
  });
}
